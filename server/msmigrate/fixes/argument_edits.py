"""Edits that remove or add a call's arguments and keep its comments and layout (issue 24, item 7).

An argument dropped from ``nn.LeakyReLU(0.2,  # slope`` / ``True)`` takes its comma with it, not the comment
of the argument before it; one alone on its line takes its line (with the comment on it, which speaks of
it). Keywords added to a call whose closing parenthesis has a line of its own get a line each, indented as
the last argument (``bias=False,`` / ``pad_mode='pad',`` / ``)``)."""

from __future__ import annotations

import ast

from msmigrate.fixes.call_tokens import comments, separators
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import TextEdit

Point = tuple[int, int]


def drop_edits(ctx: FixContext, call: ast.Call, dropped: set[int]) -> list[TextEdit] | None:
    """Edits removing the arguments at ``dropped`` (ids of argument and keyword nodes) with their commas;
    None when the call's text cannot be read."""
    args: list[ast.AST] = sorted([*call.args, *call.keywords], key=lambda n: (n.lineno, n.col_offset))
    found = separators(ctx, call)
    if found is None:
        return None
    commas, close = found
    if len(commas) < len(args) - 1:
        return None
    notes = comments(ctx, call) or []
    edits: list[TextEdit] = []
    i = 0
    while i < len(args):
        if id(args[i]) not in dropped:
            i += 1
            continue
        j = i
        while j + 1 < len(args) and id(args[j + 1]) in dropped:
            j += 1
        whole = _whole_lines(ctx, args[i], commas[j] if j < len(commas) else None, close)
        if whole is not None:
            edits.append(whole)
            i = j + 1
            continue
        if i > 0:
            start, end = commas[i - 1], commas[j] if j < len(commas) else close
        elif j + 1 < len(args):
            start, end = ctx.node_range(args[0])[:2], ctx.node_range(args[j + 1])[:2]
        else:
            start, end = ctx.node_range(args[0])[:2], close
        if any(start <= note < end for note in notes):  # a comment there: each argument on its own
            edits += _one_by_one(ctx, args[i:j + 1], i, commas, close)
        else:
            edits.append(TextEdit(*start, *end, ""))
        i = j + 1
    return edits


def _one_by_one(ctx: FixContext, group: list[ast.AST], first: int, commas: list[Point],
                close: Point) -> list[TextEdit]:
    """Edits removing each argument of ``group`` (from index ``first``) with the comma after it, the comments
    between them kept; the last argument of the call without a comma after it takes the comma before the
    group."""
    edits: list[TextEdit] = []
    for k, node in enumerate(group, first):
        line, column, end_line, end_column = ctx.node_range(node)
        end = (commas[k][0], commas[k][1] + 1) if k < len(commas) else (end_line, end_column)
        rest = ctx.lines[end[0] - 1][end[1] - 1:]
        alone = not ctx.lines[line - 1][:column - 1].strip() and (not rest.strip() or rest.lstrip()[0] == "#")
        if alone and end[0] < close[0]:  # the argument's lines, with the comment that ends them
            edits.append(TextEdit(line, 1, end[0] + 1, 1, ""))
            continue
        if k < len(commas) and rest.strip() and not rest.lstrip().startswith("#"):
            end = (end[0], end[1] + len(rest) - len(rest.lstrip()))  # the spaces before the next argument
        edits.append(TextEdit(line, column, *end, ""))
    if first + len(group) - 1 >= len(commas) and first > 0:
        line, column = commas[first - 1]
        edits.append(TextEdit(line, column, line, column + 1, ""))
    return edits


def _whole_lines(ctx: FixContext, first: ast.AST, comma: Point | None, close: Point) -> TextEdit | None:
    """Delete whole lines when the arguments sit on lines of their own (``    device=d,  # note``)."""
    if comma is None:
        return None
    line, column = ctx.node_range(first)[:2]
    if ctx.lines[line - 1][: column - 1].strip():
        return None
    comma_line, comma_column = comma
    rest = ctx.lines[comma_line - 1][comma_column:]
    if rest.strip() and not rest.lstrip().startswith("#"):
        return None
    if comma_line >= close[0]:
        return None
    return TextEdit(line, 1, comma_line + 1, 1, "")


def append_keywords(ctx: FixContext, call: ast.Call, keywords: list[str]) -> list[TextEdit] | None:
    """Edits adding ``keywords`` after the call's last argument: on lines of their own where the closing
    parenthesis has its own line, else after the last argument."""
    found = separators(ctx, call)
    if found is None:
        return None
    commas, (line, column) = found
    args = [*call.args, *call.keywords]
    if not args:
        return [TextEdit(line, column, line, column, ", ".join(keywords))]
    trailing = len(commas) >= len(args)
    last = ctx.node_range(max(args, key=lambda n: (n.end_lineno or 0, n.end_col_offset or 0)))
    before_close = ctx.lines[line - 1][:column - 1]
    if before_close.strip() or last[2] >= line:
        return [TextEdit(line, column, line, column, (" " if trailing else ", ") + ", ".join(keywords))]
    text = ctx.lines[last[0] - 1]
    indent = text[:len(text) - len(text.lstrip())]
    added = "".join(f"{indent}{keyword},{ctx.newline}" for keyword in keywords)
    edits = [TextEdit(line, 1, line, 1, added)]
    if not trailing:
        edits.append(TextEdit(last[2], last[3], last[2], last[3], ","))
    return edits
