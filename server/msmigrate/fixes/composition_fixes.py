"""MSM202 fixes of compositions: a call of a torch API MindSpore lacks becomes a call of the verified helper
of the project's helper module (``knowledge/compositions``; ``fixes/compositions.py`` says where it is).

The helpers take torch's parameters, so the call keeps its arguments (comments and layout in the call stay):
``F.scaled_dot_product_attention(q, k, v, is_causal=True)`` → ``ms_compat.scaled_dot_product_attention(q, k,
v, is_causal=True)``; a Tensor method becomes a function of the tensor: ``x.unfold(1, 3, 2)`` →
``ms_compat.unfold(x, 1, 3, 2)``, and a module's a function of the cell: ``self.modules()`` →
``ms_compat.modules(self)``. A call passing a parameter the helper does not take (``out=``), more positional
arguments than it takes, or an unknown keyword is left alone, as is a file that uses the module's name for
something else. The import goes at the end of the file's leading imports (a position the
``import mindspore`` of other fixes never takes, so both land in the same pass). The rules that offer
:func:`compose` register it (``rules/missing/msm202_composition.py``, ``msm205_device_composition.py``).
"""

from __future__ import annotations

import ast
from functools import cache

from msmigrate.fixes.compositions import CompatModule, binds_otherwise, has_import
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.imports import _insert_edit
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.compositions.catalogue import (
    METHOD,
    Composition,
    composition_of_member,
    helpers_with_needs,
)
from msmigrate.knowledge.compositions.helper_module import template
from msmigrate.knowledge.compositions.verified import offered_composition
from msmigrate.model.finding import Finding, UsageKind

RULE = "MSM202"
_CALL_USAGES = (UsageKind.CALL, UsageKind.ATTRIBUTE)
# a method composition: a Tensor's (``x.unfold(…)``) or a module's (``self.modules()``)
_METHOD_USAGES = (UsageKind.TENSOR_METHOD, UsageKind.MODULE_METHOD)
# a mapped API's composition (``Composition.replaces``) also takes the name where it is a base class or a
# type named (``rules/missing/msm205_device_composition.py`` decides which uses)
_NAMED_USAGES = (UsageKind.BASE_CLASS, UsageKind.REFERENCE)


@cache
def helper_parameters(helper: str) -> tuple[tuple[str, ...], tuple[str, ...], bool, bool]:
    """(positional parameter names, keyword-only names, takes ``**kwargs``, takes ``*args``) of a helper (a
    class: of its ``__init__`` without ``self``)."""
    node = ast.parse(template(helper)).body[0]
    if isinstance(node, ast.ClassDef):
        node = next(n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        positional = [a.arg for a in node.args.args[1:]]
    else:
        assert isinstance(node, ast.FunctionDef)
        positional = [a.arg for a in node.args.args]
    return (tuple(positional), tuple(a.arg for a in node.args.kwonlyargs), node.args.kwarg is not None,
            node.args.vararg is not None)


def call_fits(composition: Composition, call: ast.Call) -> bool:
    """Whether the helper takes the call's arguments (the tensor of a method aside)."""
    positional, keyword_only, any_keyword, any_positional = helper_parameters(composition.helper)
    if composition.form == METHOD:
        positional = positional[1:]
    starred = any(isinstance(a, ast.Starred) for a in call.args)
    if not starred and not any_positional and len(call.args) > len(positional):
        return False
    for item in call.keywords:
        if item.arg is None:  # **kwargs: any of torch's parameters, unless the helper refuses some
            if composition.refused:
                return False
            continue
        if item.arg in composition.refused:
            return False
        if item.arg not in (*positional, *keyword_only) and not any_keyword:
            return False
    return True


def applies(composition: Composition, finding: Finding, call: ast.Call | None) -> bool:
    """Whether the fix can rewrite this use of the API (a call it fits; a function named, not called)."""
    if composition.form == METHOD:
        return (finding.usage in _METHOD_USAGES and call is not None
                and isinstance(call.func, ast.Attribute) and call_fits(composition, call))
    if finding.usage not in _CALL_USAGES:
        return bool(composition.replaces) and finding.usage in _NAMED_USAGES
    return call is None or call_fits(composition, call)


def refine(ctx, finding: Finding) -> bool:  # noqa: ANN001 - the analysis context
    """Make an unmapped API's finding (MSM200) a composition's (MSM202) when a verified one exists; True
    when it did."""
    composition = offered_composition(finding.torch_api)
    owner = composition_of_member(finding.torch_api) if composition is None else None
    if owner is not None and offered_composition(owner.torch_api) is not None:  # torch.finfo(...).min
        finding.rule, finding.message_key, finding.fixable = RULE, "finding.MSM202.member", False
        finding.message_args = {"torch_api": finding.torch_api, "helper": owner.helper,
                                "owner": owner.torch_api}
        return True
    if composition is None:
        return False
    finding.rule = RULE
    finding.message_key = "finding.MSM202.composition"
    finding.message_args = {"torch_api": finding.torch_api, "helper": composition.helper}
    finding.fixable = applies(composition, finding, ctx.call_of(finding))
    return True


def built_from(torch_api: str, mindspore_apis: tuple[str, ...]) -> str | None:
    """The first of ``mindspore_apis`` the composition of ``torch_api`` calls (``mindspore.ops.pad`` for
    pad_sequence); None when it calls none (``Tensor.unfold``'s same-name method computes otherwise)."""
    composition = offered_composition(torch_api)
    if composition is None:
        return None
    text = "".join(template(name) for name in helpers_with_needs([composition.helper]))
    for api in mindspore_apis:
        owner, _, name = api.rpartition(".")
        called = {"mindspore.ops": f"ops.{name}(", "mindspore.Tensor": f".{name}("}.get(owner)
        if called is not None and called in text and f"def {name}(" not in text:
            return api
    return None


def import_edit(ctx: FixContext, statement: str) -> list[TextEdit]:
    """The edit adding ``statement`` at the end of the leading imports (none when the file has it)."""
    if has_import(ctx.tree, statement):
        return []
    edit, block_end = _insert_edit(ctx.tree, ctx.lines, ctx.newline, imports=True)
    if block_end == 0 or edit.line != block_end + 1:
        return [TextEdit(edit.line, edit.column, edit.end_line, edit.end_column, statement + ctx.newline)]
    end = len(ctx.lines[block_end - 1]) + 1
    return [TextEdit(block_end, end, block_end, end, ctx.newline + statement)]


def compose(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM202: call the verified composition of the finding's API from the project's helper module."""
    composition = offered_composition(finding.torch_api)
    if composition is None:
        return None
    reference = ctx.reference_of(finding)
    call = ctx.call_of(finding)
    if reference is None or not applies(composition, finding, call):
        return None
    compat = ctx.compat or CompatModule.beside(ctx.path)
    statement = compat.import_statement(ctx.path)
    if statement is None or binds_otherwise(ctx.tree, compat.local, statement):
        return None
    name = f"{compat.local}.{composition.helper}"
    if composition.form == METHOD:
        assert call is not None and isinstance(call.func, ast.Attribute)
        start = ctx.node_range(call)[:2]  # a parenthesized tensor, ``(a + b).unfold(…)``, keeps its brackets
        dot = _dot_of(ctx, call.func)
        if dot is None:
            return None
        separator = ", " if call.args or call.keywords else ""
        edits = [TextEdit(*start, *start, f"{name}("),
                 TextEdit(*dot, *_after_open_paren(ctx, call), separator)]
    else:
        edits = [TextEdit(*ctx.node_range(call.func if call is not None else reference), name)]
    return Fix(finding.rule, "fix.composition", [*edits, *import_edit(ctx, statement)],
               {"helper": composition.helper, "module": compat.name}, helpers=(composition.helper,))


def _dot_of(ctx: FixContext, member: ast.Attribute) -> tuple[int, int] | None:
    """The position of the ``.`` before a member's name (blanks and line continuations may lie between)."""
    line, end = ctx.node_range(member)[2:]
    row, col = line - 1, end - len(member.attr) - 1
    while True:
        col -= 1
        while col < 0:
            row -= 1
            if row < 0:
                return None
            col = len(ctx.lines[row]) - 1
        if ctx.lines[row][col] not in " \t\\":
            break
    return (row + 1, col + 1) if ctx.lines[row][col] == "." else None


def _after_open_paren(ctx: FixContext, call: ast.Call) -> tuple[int, int]:
    """The position just after the ``(`` that opens the call's arguments."""
    line, column = ctx.node_range(call.func)[2:]
    while True:
        text = ctx.lines[line - 1]
        found = text.find("(", column - 1)
        if found >= 0:
            return line, found + 2
        line, column = line + 1, 1

