"""MSM507 quick-fix: torch's gradient-mode switches taken away.

In PyNative mode MindSpore records nothing for differentiation outside ``value_and_grad``/``grad``, so
``with torch.no_grad():`` becomes its block, ``@torch.no_grad()`` goes, ``torch.set_grad_enabled(False)``
as a statement goes, and a switch used as a value (``ctx = torch.no_grad if frozen else nullcontext``)
becomes ``contextlib.nullcontext``. MindSpore 2.10 has no public no-grad context.

That is exact where no gradient is taken through the code. Where one may be (a method of a
``nn.Module`` subclass, or a function that calls ``backward()``: the finding's ``scope`` is ``"grad"``),
a switch that stops gradients keeps its meaning by wrapping the values its block computes (the value of
each assignment and ``return`` of the block) in ``mindspore.ops.stop_gradient``; a block with other
statements (a loop, a call for its effect) is unwrapped with a title asking to check it, applied by
``msmigrate fix`` only with ``--unsafe-fixes``.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.blocks import block_of, remove_decorator, remove_statement, remove_with_item, unwrap
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding

STOPS = frozenset({"torch.no_grad", "torch.inference_mode"})  # (with no argument) gradients off
ENABLES = frozenset({"torch.enable_grad"})
SETS = frozenset({"torch.set_grad_enabled"})
GRAD_MODE_APIS = STOPS | ENABLES | SETS
STOP_GRADIENT = "mindspore.ops.stop_gradient"
_SIMPLE = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Pass)


def effect(api: str, call: ast.Call | None) -> str:
    """``"stop"`` (gradients off), ``"keep"`` (gradients on: nothing to do) or ``"unknown"``."""
    argument = None
    if call is not None:
        values = [*call.args, *(k.value for k in call.keywords)]
        argument = values[0] if values else None
    if api in ENABLES:
        return "keep"
    if api in STOPS and argument is None:
        return "stop"
    if isinstance(argument, ast.Constant) and isinstance(argument.value, bool):
        on = argument.value if api in SETS else not argument.value  # inference_mode(mode=False): no-op
        return "keep" if on else "stop"
    return "unknown"


def site(reference: ast.expr, parents: dict[int, ast.AST]) -> tuple[str, ast.AST | None, ast.Call | None]:
    """Where a switch is used: ``("with", With, call)``, ``("decorator", function, call|None)``,
    ``("statement", Expr, call)`` or ``("value", None, call|None)``."""
    up = parents.get(id(reference))
    call = up if isinstance(up, ast.Call) and up.func is reference else None
    node: ast.AST = call if call is not None else reference
    up = parents.get(id(node))
    if isinstance(up, ast.withitem) and up.context_expr is node and up.optional_vars is None and call:
        holder = parents.get(id(up))
        if isinstance(holder, ast.With):
            return "with", holder, call
    if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef) and any(d is node for d in up.decorator_list):
        return "decorator", up, call
    if isinstance(up, ast.Expr) and call is not None:
        return "statement", up, call
    return "value", None, call


def grad_mode_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    reference = ctx.reference_of(finding)
    api = finding.torch_api or ""
    if reference is None or api not in GRAD_MODE_APIS:
        return None
    kind, holder, call = site(reference, ctx.parents)
    stops = effect(api, call) != "keep"
    under_grad = finding.message_args.get("scope") == "grad" and stops
    args = {"api": api}
    if kind == "with" and isinstance(holder, ast.With):
        return _with(ctx, holder, call, under_grad, args)
    if kind == "decorator" and isinstance(holder, ast.FunctionDef | ast.AsyncFunctionDef):
        decorator = call if call is not None else reference
        edit = remove_decorator(ctx, decorator)
        if edit is None:
            return None
        if not under_grad:
            return Fix("MSM507", "fix.grad_mode.decorator", [edit], args)
        wraps, pure = _return_wraps(ctx, holder)
        if wraps is None:
            return None
        key = "fix.grad_mode.decorator.stop" if pure else "fix.grad_mode.decorator.review"
        return Fix("MSM507", key, [edit, *wraps], args, by_hand=not pure)
    if kind == "statement" and isinstance(holder, ast.Expr):
        edit = remove_statement(ctx, holder, block_of(ctx.tree, holder))
        if edit is None:
            return None
        key = "fix.grad_mode.statement.review" if under_grad else "fix.grad_mode.statement"
        return Fix("MSM507", key, [edit], args, by_hand=under_grad)
    reference_text = ctx.module_reference("contextlib", "nullcontext", reference.lineno)
    if reference_text is None:
        return None
    name, imports = reference_text
    key = "fix.grad_mode.value.review" if under_grad else "fix.grad_mode.value"
    edit = TextEdit(*ctx.node_range(reference), name)
    return Fix("MSM507", key, [edit, *imports], args, by_hand=under_grad)


def _with(ctx: FixContext, statement: ast.With, call: ast.Call | None, under_grad: bool,
          args: dict[str, str]) -> Fix | None:
    index = next(i for i, item in enumerate(statement.items) if item.context_expr is call)
    if len(statement.items) > 1:
        edit = remove_with_item(ctx, statement, index)
        if edit is None:
            return None
        key = "fix.grad_mode.item.review" if under_grad else "fix.grad_mode.item"
        return Fix("MSM507", key, [edit], args, by_hand=under_grad)
    siblings = block_of(ctx.tree, statement)
    edits = unwrap(ctx, statement, statement.body, siblings)
    if edits is None:
        return None
    if not under_grad:
        return Fix("MSM507", "fix.grad_mode.with", edits, args)
    pure = all(isinstance(s, _SIMPLE) or _docstring(s) for s in statement.body)
    if pure:
        name, imports = ctx.mindspore_reference(STOP_GRADIENT, statement.lineno)
        wraps = [w for s in statement.body for w in _wrap(ctx, _value_of(s), name)]
        edits += [*wraps, *(imports if wraps else [])]
    key = "fix.grad_mode.with.stop" if pure else "fix.grad_mode.with.review"
    return Fix("MSM507", key, edits, args, by_hand=not pure)


def _docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def _value_of(statement: ast.stmt) -> ast.expr | None:
    if isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.Return):
        return statement.value
    return None


def _wrap(ctx: FixContext, value: ast.expr | None, name: str) -> list[TextEdit]:
    """Edits writing ``value`` as ``name(value)``."""
    if value is None:
        return []
    line, column, end_line, end_column = ctx.node_range(value)
    return [TextEdit(line, column, line, column, f"{name}("), TextEdit(end_line, end_column, end_line,
                                                                     end_column, ")")]


def _return_wraps(ctx: FixContext, function: ast.FunctionDef | ast.AsyncFunctionDef
                  ) -> tuple[list[TextEdit] | None, bool]:
    """The edits wrapping every returned value of ``function`` in ``stop_gradient`` (not those of nested
    functions), and whether that is all the function computes (its statements: assignments to names,
    returns, a docstring)."""
    name, imports = ctx.mindspore_reference(STOP_GRADIENT, function.lineno)
    edits: list[TextEdit] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if isinstance(node, ast.Return):
            edits += _wrap(ctx, node.value, name)
        stack.extend(ast.iter_child_nodes(node))
    pure = all(
        _docstring(s) or isinstance(s, ast.Return | ast.Pass)
        or (isinstance(s, ast.Assign) and all(isinstance(t, ast.Name) for t in s.targets))
        for s in function.body
    )
    return [*edits, *(imports if edits else [])], pure
