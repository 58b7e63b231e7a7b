"""A Tensor method MindSpore has as a function of the tensor only: ``x.detach()`` →
``mindspore.ops.stop_gradient(x)``.

MindSpore 2.10's ``Tensor`` has no ``detach``; ``ops.stop_gradient(x)`` is the same value with no gradient
flowing back through it, as torch's ``detach``. The advice of such a method (``knowledge/missing_advice.py``,
fix kind :data:`RECEIVER_FUNCTION`) names the function; the fix writes the call around the receiver with two
edits (the function's name and ``(`` before it, ``)`` over ``.detach()``), so the fixes inside the receiver
still apply. Only a call without arguments is rewritten.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.missing_advice import RECEIVER_FUNCTION
from msmigrate.model.finding import Finding

__all__ = ["RECEIVER_FUNCTION", "receiver_call", "receiver_function"]


def receiver_call(call: ast.Call | None) -> ast.expr | None:
    """The receiver of ``receiver.method()`` (no arguments), else None."""
    if call is None or call.args or call.keywords or not isinstance(call.func, ast.Attribute):
        return None
    return call.func.value


def receiver_function(ctx: FixContext, finding: Finding, mindspore_api: str) -> Fix | None:
    """``x.detach()`` → ``mindspore.ops.stop_gradient(x)`` (``mindspore_api`` spelled as the file imports)."""
    call = ctx.call_of(finding)
    receiver = receiver_call(call)
    if call is None or receiver is None or isinstance(receiver, ast.Starred):
        return None
    name, imports = ctx.mindspore_reference(mindspore_api, finding.line)
    line, column, end_line, end_column = ctx.node_range(receiver)
    call_end = ctx.node_range(call)[2:]
    edits = [TextEdit(line, column, line, column, f"{name}("), TextEdit(end_line, end_column, *call_end, ")")]
    method = call.func.attr  # type: ignore[union-attr]
    return Fix("MSM201", "fix.pattern.receiver_function", [*edits, *imports],
               {"method": method, "name": mindspore_api})
