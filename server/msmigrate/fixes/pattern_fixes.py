"""Quick-fixes of the missing-API (MSM201) and framework-pattern (MSM501–MSM508) rules.

MSM201 fixes rewrite an unmapped call into mapped PyTorch calls with the same result
(``fixes/rewrites.py``); the pattern fixes rename ``forward`` → ``construct``, turn ``nn.Sequential(a, b)``
into ``SequentialCell([a, b])``, remove device moves, use ``set_train`` and rename ``lr`` → ``learning_rate``.
"""

from __future__ import annotations

import ast
import re

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.rewrites import rewrite, title_args
from msmigrate.knowledge.missing_advice import CATALOGUE, advice_for
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.rules.missing_api import NAME_FIX, reference_rename
from msmigrate.rules.patterns import (
    device_move_fixable,
    learning_rate_fixable,
    optimizer_target,
    train_mode_flag,
)


def _edits(raw: list[tuple[int, int, int, int, str]]) -> list[TextEdit]:
    return [TextEdit(*edit) for edit in raw]


def missing_api(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM201: the exact rewrite of the advice, when it applies to the call as written."""
    if not finding.torch_api:
        return None
    advice = advice_for(finding.torch_api, ctx.kb)
    if advice is None:
        return None
    renamed = reference_rename(finding, advice, ctx.kb)
    if renamed is not None:
        return _mindspore_name(ctx, finding, renamed)
    if advice.fix is None:
        return None
    if advice.fix == NAME_FIX:
        return _mindspore_name(ctx, finding, advice.replacements[0])
    call = ctx.call_of(finding)
    if call is None:
        return None
    raw = rewrite(advice.fix, ctx, call, advice.torch_api)
    if not raw:
        return None
    return Fix(
        "MSM201",
        f"fix.pattern.{advice.fix}",
        _edits(raw),
        title_args(advice.fix, call, advice.torch_api, ctx),
    )


def derived_rewrite(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM100/MSM101 of a derived mapping to a member of another shape (``x.size(1)`` →
    ``mindspore.Tensor.shape``): the catalogue's exact rewrite (``x.shape[1]``), when the catalogue names
    the same MindSpore target."""
    target = finding.mindspore_api
    if not finding.torch_api or not target or not finding.message_key.startswith("analysis.api.derived_"):
        return None
    entry = CATALOGUE.get(finding.torch_api)
    if entry is None or entry.fix in (None, NAME_FIX) or target not in entry.replacements:
        return None
    if target.rpartition(".")[2] == finding.torch_api.rpartition(".")[2]:
        return None  # the same member name: the mapping's own fix (if any) applies
    call = ctx.call_of(finding)
    raw = rewrite(entry.fix, ctx, call, finding.torch_api)
    if not raw or call is None:
        return None
    return Fix(finding.rule, f"fix.pattern.{entry.fix}", _edits(raw),
               title_args(entry.fix, call, finding.torch_api, ctx))


def _mindspore_name(ctx: FixContext, finding: Finding, mindspore_api: str) -> Fix | None:
    """A dtype such as ``torch.float32`` → ``mindspore.float32`` (plain references only, not imports)."""
    reference = ctx.reference_of(finding)
    if finding.usage not in (UsageKind.ATTRIBUTE, UsageKind.REFERENCE) or reference is None:
        return None
    name, import_edits = ctx.mindspore_reference(mindspore_api, finding.line)
    edit = TextEdit(*ctx.node_range(reference), name)
    return Fix("MSM201", "fix.pattern.mindspore_name", [edit, *import_edits], {"name": mindspore_api})


def construct(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM501: rename ``def forward`` to ``construct`` and the class's own ``self.forward(`` calls."""
    for cls in ast.walk(ctx.tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for stmt in cls.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "forward":
                line = ctx.lines[stmt.lineno - 1]
                column = _name_column(line, "forward")
                if stmt.lineno != finding.line or column != finding.column:
                    continue
                if any(
                    isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "construct"
                    for s in cls.body
                ):
                    return None
                edits = [TextEdit(stmt.lineno, column, stmt.lineno, column + len("forward"), "construct")]
                for node in ast.walk(cls):
                    if (
                        isinstance(node, ast.Attribute)
                        and node.attr == "forward"
                        and isinstance(node.value, ast.Name)
                        and node.value.id == "self"
                    ):
                        _, _, end_line, end_column = ctx.node_range(node)
                        edits.append(
                            TextEdit(end_line, end_column - len("forward"), end_line, end_column, "construct")
                        )
                return Fix("MSM501", "fix.pattern.construct", edits)
    return None


def _name_column(line: str, name: str) -> int:
    match = re.search(r"\bdef\s+(" + name + r")\b", line)
    return match.start(1) + 1 if match else -1


def sequential(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM502: ``nn.Sequential(a, b)`` → ``nn.SequentialCell([a, b])`` (an OrderedDict argument is kept)."""
    call = ctx.call_of(finding)
    if call is None or call.keywords:
        return None
    # the full MindSpore name: ``nn`` still means torch.nn in a file being migrated
    name, import_edits = ctx.mindspore_reference("mindspore.nn.SequentialCell", finding.line)
    items = [ctx.text(a) for a in call.args]
    single_dict = (
        len(call.args) == 1
        and isinstance(call.args[0], ast.Call)
        and (ctx.text(call.args[0].func).endswith("OrderedDict"))
    )
    argument = items[0] if single_dict else ("[" + ", ".join(items) + "]" if items else "")
    edit = TextEdit(*ctx.node_range(call), f"{name}({argument})")
    return Fix("MSM502", "fix.pattern.sequential", [edit, *import_edits])


def device(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM504: drop ``.cuda()`` / ``.cpu()`` / ``.to(device)``; a statement of its own is removed whole,
    and so is ``x = x.to(device)`` (it would become ``x = x``)."""
    call = ctx.call_of(finding)
    if call is None or not device_move_fixable(_Names(ctx), call):
        return None
    statement = _statement_of(ctx.tree, call)
    if statement is not None and (isinstance(statement, ast.Expr) or _self_assignment(ctx, statement, call)):
        line, column, end_line, end_column = ctx.node_range(statement)
        siblings = _siblings(ctx.tree, statement)
        if siblings is None or len(siblings) > 1:
            if (
                ctx.lines[line - 1][: column - 1].strip() == ""
                and ctx.lines[end_line - 1][end_column - 1 :].strip() == ""
            ):
                return Fix("MSM504", "fix.pattern.device", [TextEdit(line, 1, end_line + 1, 1, "")])
        return Fix("MSM504", "fix.pattern.device", [TextEdit(line, column, end_line, end_column, "pass")])
    raw = _drop_member_call(ctx, call)
    return Fix("MSM504", "fix.pattern.device", _edits(raw)) if raw else None


def _self_assignment(ctx: FixContext, statement: ast.stmt, call: ast.Call) -> bool:
    """``x = x.cuda()`` / ``self.x = self.x.to(device)``: the move is the whole value, assigned back."""
    return (
        isinstance(statement, ast.Assign)
        and statement.value is call
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name | ast.Attribute)
        and isinstance(call.func, ast.Attribute)
        and ctx.text(statement.targets[0]) == ctx.text(call.func.value)
    )


def _drop_member_call(ctx: FixContext, call: ast.Call):
    from msmigrate.fixes.rewrites import drop_call

    stripped = ast.Call(func=call.func, args=[], keywords=[])
    ast.copy_location(stripped, call)
    stripped.end_lineno, stripped.end_col_offset = call.end_lineno, call.end_col_offset
    return drop_call(ctx, stripped, "")


class _Names:
    """Adapter giving the fix context the ``qualified_name`` the pattern predicates ask for."""

    def __init__(self, ctx: FixContext) -> None:
        self.ctx = ctx

    def qualified_name(self, node: ast.expr) -> str | None:
        return "torch.device" if self.ctx.text(node) in {"torch.device", "device"} else None


def _statement_of(tree: ast.Module, target: ast.AST) -> ast.stmt | None:
    """The expression statement or assignment whose whole value is ``target``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr | ast.Assign) and node.value is target:
            return node
    return None


def _siblings(tree: ast.Module, statement: ast.stmt) -> list[ast.stmt] | None:
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and statement in block:
                return block
    return None


def set_train(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM505: ``model.train()`` → ``model.set_train(True)``; ``model.eval()`` → ``set_train(False)``."""
    call = ctx.call_of(finding)
    if call is None or not isinstance(call.func, ast.Attribute):
        return None
    flag = train_mode_flag(call)
    if flag is None:
        return None
    _, _, end_line, end_column = ctx.node_range(call.func)
    start_column = end_column - len(call.func.attr)
    call_end = ctx.node_range(call)
    edit = TextEdit(end_line, start_column, call_end[2], call_end[3], f"set_train({flag})")
    return Fix("MSM505", "fix.pattern.set_train", [edit], {"flag": flag})


def learning_rate(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM508: ``torch.optim.SGD(p, lr=0.1)`` → ``mindspore.nn.SGD(p, learning_rate=0.1)``.

    The optimizer is replaced in the same fix: ``learning_rate=`` alone would break the torch call. The
    replacement edit is the one the mapping fix makes, so fix-all merges the two.
    """
    if finding.message_key != "finding.MSM508" or not finding.torch_api:
        return None
    target = optimizer_target(ctx.kb, finding.torch_api)
    if target is None or not learning_rate_fixable(ctx.kb, finding.torch_api):
        return None
    for call in ast.walk(ctx.tree):
        if not isinstance(call, ast.Call):
            continue
        for keyword in call.keywords:
            if keyword.arg != "lr":
                continue
            line, column, _, _ = ctx.node_range(keyword)
            if (line, column) != (finding.line, finding.column):
                continue
            edits = [TextEdit(line, column, line, column + 2, "learning_rate")]
            text, import_edits = ctx.mindspore_reference(target, call.func.lineno)
            if ctx.text(call.func) != text:
                edits += [TextEdit(*ctx.node_range(call.func), text), *import_edits]
            return Fix("MSM508", "fix.pattern.learning_rate", edits, {"optimizer": target})
    return None


FIXERS = {
    "MSM100": derived_rewrite,
    "MSM101": derived_rewrite,
    "MSM201": missing_api,
    "MSM501": construct,
    "MSM502": sequential,
    "MSM504": device,
    "MSM505": set_train,
    "MSM508": learning_rate,
}
