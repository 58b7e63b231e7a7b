"""The edits writing a call's separate arguments as one tuple (``ArgPlan.packed``,
``analysis/packed_args.py``): ``torch.zeros(n, 51)`` → ``mindspore.mint.zeros((n, 51))``,
``torch.zeros(*shape)`` → ``mindspore.mint.zeros((*shape,))``. Insertions only, so the text between the
arguments (comments, line breaks) and the fixes inside them stay as they are."""

from __future__ import annotations

import ast

from msmigrate.analysis.packed_args import packed_text
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import TextEdit


def packed_edits(ctx: FixContext, call: ast.Call, index: int,
                 edits: list[TextEdit]) -> tuple[list[TextEdit], str] | None:
    """``edits`` (the call's other argument edits) with the two insertions around the call's arguments from
    positional ``index`` on, and the change as the fix's title shows it; an insertion where another edit
    starts (the keywords dropped after the sizes: ``torch.zeros(2, 3, device=d)``) is made part of that
    edit, so that no two edits start at one place. None when the call has no argument there."""
    values = call.args[index:]
    if not values:
        return None
    opening = ctx.node_range(values[0])[:2]
    closing = ctx.node_range(values[-1])[2:]
    found = list(edits)
    for point, text in ((opening, "("), (closing, ",)" if len(values) == 1 else ")")):
        at = next((i for i, e in enumerate(found) if (e.line, e.column) == point), None)
        if at is None:
            found.append(TextEdit(*point, *point, text))
        else:
            e = found[at]
            found[at] = TextEdit(e.line, e.column, e.end_line, e.end_column, text + e.new_text)
    return found, packed_text(call, index)
