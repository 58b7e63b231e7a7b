"""An expression whose value is known once torch is gone (``torch.jit.is_scripting()`` is ``False``,
``hasattr(F, "scaled_dot_product_attention")`` is whether MindSpore has it) written as that constant, and
the code around it simplified as far as that is exact:

* ``not <known>`` is known too; in ``a or <known>`` / ``a and <known>`` a neutral operand goes
  (``x or False`` → ``x``) and a deciding one decides (``False and x`` → ``False``): when it is the
  first operand always, else only where the result is used as a truth value and the operands before it
  have no effect (no call);
* ``if <known>:`` keeps only the branch taken (an ``elif`` becomes the ``if``), ``a if <known> else b``
  becomes ``a`` or ``b``, ``assert <true>`` goes.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.blocks import block_of, elif_to_if, remove_lines, unwrap
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import TextEdit

_TRUTH_CONSUMERS = (ast.If, ast.While, ast.IfExp, ast.Assert)


def fold(ctx: FixContext, node: ast.expr, value: bool) -> list[TextEdit] | None:
    """Edits writing ``node`` as the constant ``value`` and simplifying what it decides."""
    up = ctx.parents
    current: ast.AST = node
    while True:
        parent = up.get(id(current))
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
            current, value = parent, not value
            continue
        if isinstance(parent, ast.BoolOp):
            index = next(i for i, v in enumerate(parent.values) if v is current)
            deciding = value == isinstance(parent.op, ast.Or)
            # a deciding operand drops the evaluation of those before it: they must have no effect
            before = parent.values[:index] if deciding else []
            exact = index == 0 or (_truth_value(parent, up) and all(_no_effect(v) for v in before))
            if not exact:
                break
            if deciding:
                current = parent
                continue
            return [_drop_operand(ctx, parent, index)]
        if isinstance(parent, ast.If) and parent.test is current:
            return _branch(ctx, parent, value)
        if isinstance(parent, ast.IfExp) and parent.test is current:
            kept = parent.body if value else parent.orelse
            return [TextEdit(*ctx.node_range(parent), _grouped(ctx, kept))]
        if isinstance(parent, ast.Assert) and parent.test is current and value:
            edit = remove_lines(ctx, parent, block_of(ctx.tree, parent))
            return [edit] if edit is not None else None
        break
    return [TextEdit(*ctx.node_range(current), repr(value))]


def _truth_value(node: ast.AST, up: dict[int, ast.AST]) -> bool:
    """Whether the value of ``node`` is only used as a truth value."""
    while True:
        parent = up.get(id(node))
        negation = isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
        if isinstance(parent, ast.BoolOp) or negation:
            node = parent
            continue
        if isinstance(parent, ast.comprehension):
            return any(test is node for test in parent.ifs)
        return isinstance(parent, _TRUTH_CONSUMERS) and getattr(parent, "test", None) is node


def _no_effect(node: ast.expr) -> bool:
    return not any(isinstance(n, ast.Call | ast.Await | ast.Yield | ast.YieldFrom | ast.NamedExpr)
                   for n in ast.walk(node))


def _drop_operand(ctx: FixContext, operation: ast.BoolOp, index: int) -> TextEdit:
    """Remove operand ``index`` of ``a or b or …`` with its operator."""
    values = operation.values
    start = ctx.node_range(values[index])
    if index + 1 < len(values):
        following = ctx.node_range(values[index + 1])
        return TextEdit(start[0], start[1], following[0], following[1], "")
    previous = ctx.node_range(values[index - 1])
    return TextEdit(previous[2], previous[3], start[2], start[3], "")


def _grouped(ctx: FixContext, node: ast.expr) -> str:
    """A branch of ``a if c else b`` written where the whole expression was: every expression binds at
    least as tightly as the conditional but a lambda or ``:=``."""
    text = ctx.text(node)
    return f"({text})" if isinstance(node, ast.Lambda | ast.NamedExpr) else text


def _branch(ctx: FixContext, statement: ast.If, value: bool) -> list[TextEdit] | None:
    """``if <value>:`` replaced by the branch it takes."""
    siblings = block_of(ctx.tree, statement)
    if value:
        return unwrap(ctx, statement, statement.body, siblings)
    edit = elif_to_if(ctx, statement)
    if edit is not None:
        return [edit]
    return unwrap(ctx, statement, statement.orelse, siblings)
