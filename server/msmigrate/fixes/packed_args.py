"""The edits writing a call's separate arguments as one tuple (``ArgPlan.packed``,
``analysis/packed_args.py``): ``torch.zeros(n, 51)`` → ``mindspore.mint.zeros((n, 51))``,
``torch.zeros(*shape)`` → ``mindspore.mint.zeros((*shape,))``. Insertions only, so the text between the
arguments (comments, line breaks) and the fixes inside them stay as they are."""

from __future__ import annotations

import ast

from msmigrate.analysis.packed_args import packed_text
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import TextEdit


def packed_edits(ctx: FixContext, call: ast.Call, index: int) -> tuple[list[TextEdit], str] | None:
    """The two insertions around the call's arguments from positional ``index`` on, and the change as the
    fix's title shows it; None when the call has no argument there."""
    values = call.args[index:]
    if not values:
        return None
    line, column = ctx.node_range(values[0])[:2]
    end_line, end_column = ctx.node_range(values[-1])[2:]
    closing = ",)" if len(values) == 1 else ")"
    edits = [TextEdit(line, column, line, column, "("), TextEdit(end_line, end_column, end_line, end_column,
                                                                  closing)]
    return edits, packed_text(call, index)
