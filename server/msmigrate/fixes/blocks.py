"""Statement-level edits: a compound statement replaced by one of its blocks (dedented), a statement, a
decorator or a ``with`` item removed, comments and blank lines kept.

Used by the fixes that take a construct away without changing what the code inside it does: a
``with torch.no_grad():`` block, an ``if`` whose test is known once torch is gone. The kept block is
re-indented line by line (an edit of each line's indentation only), so fixes of the code inside the block
apply in the same pass. Lines inside a multi-line string are never re-indented (that would change the
string): a block holding a string whose continuation lines are indented like the block is not unwrapped.
"""

from __future__ import annotations

import ast
import io
import tokenize

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import TextEdit


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _string_lines(statement: ast.stmt) -> set[int]:
    """Lines (1-based) that continue a multi-line string literal inside ``statement``."""
    found: set[int] = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Constant | ast.JoinedStr) and (node.end_lineno or 0) > node.lineno:
            found.update(range(node.lineno + 1, (node.end_lineno or 0) + 1))
    return found


def _column(ctx: FixContext, node: ast.AST) -> int:
    """0-based code-point column of ``node``'s start."""
    return ctx.node_range(node)[1] - 1


def _colon(ctx: FixContext, from_line: int, first_body: ast.stmt) -> tuple[int, int] | None:
    """(line, 0-based index) of the last ``:`` token between ``from_line`` and the start of
    ``first_body``: the end of the header that opens the block."""
    text = "\n".join(ctx.lines[from_line - 1 : first_body.lineno])
    stop = (first_body.lineno, _column(ctx, first_body))
    last: tuple[int, int] | None = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text + "\n").readline):
            line = token.start[0] + from_line - 1
            if (line, token.start[1]) >= stop:
                break
            if token.type == tokenize.OP and token.string == ":":
                last = (line, token.start[1])
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return last


def _starts_line(ctx: FixContext, statement: ast.stmt) -> bool:
    return not ctx.lines[statement.lineno - 1][: _column(ctx, statement)].strip()


def _line_end(ctx: FixContext, line: int) -> tuple[int, int]:
    """The position just after ``line``'s line break (its end when it is the last line)."""
    if line < len(ctx.lines):
        return (line + 1, 1)
    return (line, len(ctx.lines[line - 1]) + 1)


def remove_lines(ctx: FixContext, statement: ast.stmt, siblings: list[ast.stmt] | None) -> TextEdit | None:
    """Remove the whole lines of ``statement`` (its decorators too); ``pass`` instead when it is the
    only statement of its block; None when it shares its lines with other code."""
    first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
    end = statement.end_lineno or statement.lineno
    if first == statement.lineno and not _starts_line(ctx, statement):
        return None
    after = ctx.lines[end - 1][ctx.node_range(statement)[3] - 1 :].strip()
    if after and not after.startswith("#"):
        return None
    if siblings is not None and (len(siblings) == 1 or _may_empty(siblings, statement)):
        indent = _indent(ctx.lines[first - 1])
        return TextEdit(first, 1, end, len(ctx.lines[end - 1]) + 1, indent + "pass")
    return TextEdit(first, 1, *_line_end(ctx, end), "")


def _may_empty(siblings: list[ast.stmt], statement: ast.stmt) -> bool:
    """Whether removing the last statement of a block might leave it empty: the other statements are of
    the kinds other fixes may remove in the same pass (a block left empty would not parse)."""
    return siblings[-1] is statement and all(isinstance(s, _REMOVABLE) for s in siblings)


_REMOVABLE = (ast.Expr, ast.Assign, ast.With, ast.If, ast.Pass)


def remove_statement(ctx: FixContext, statement: ast.stmt,
                     siblings: list[ast.stmt] | None) -> TextEdit | None:
    """Remove ``statement`` (its text becomes ``pass`` when it shares its line with other code)."""
    edit = remove_lines(ctx, statement, siblings)
    if edit is not None:
        return edit
    return TextEdit(*ctx.node_range(statement), "pass")


def _only_pass(body: list[ast.stmt]) -> bool:
    return all(isinstance(s, ast.Pass) for s in body)


def unwrap(ctx: FixContext, statement: ast.stmt, body: list[ast.stmt],
           siblings: list[ast.stmt] | None) -> list[TextEdit] | None:
    """Edits replacing ``statement`` by one of its blocks, ``body`` (its ``body``, or the ``orelse`` of an
    ``if``, an ``else:`` block; empty: nothing), at the statement's own indentation."""
    if not _starts_line(ctx, statement):
        return None
    if not body or (_only_pass(body) and siblings is not None and len(siblings) > 1):
        edit = remove_lines(ctx, statement, siblings)
        return [edit] if edit is not None else None
    indent = _indent(ctx.lines[statement.lineno - 1])
    own = body is getattr(statement, "body", None)
    from_line = statement.lineno if own else (statement.body[-1].end_lineno or statement.body[-1].lineno) + 1
    first, last = body[0], body[-1]
    colon = _colon(ctx, from_line, first)
    if colon is None:
        return None
    edits: list[TextEdit] = []
    last_line = last.end_lineno or last.lineno
    if colon[0] == first.lineno:  # ``with x: y = f(x)``: the block on the header's line
        edits.append(TextEdit(statement.lineno, 1, first.lineno, _column(ctx, first) + 1, indent))
    else:
        comment = ctx.lines[colon[0] - 1][colon[1] + 1 :].strip()
        kept = indent + comment + ctx.newline if comment.startswith("#") else ""
        edits.append(TextEdit(statement.lineno, 1, *_line_end(ctx, colon[0]), kept))
        dedent = _dedent(ctx, colon[0] + 1, last_line, _indent(ctx.lines[first.lineno - 1]), indent,
                         _string_lines(statement))
        if dedent is None:
            return None
        edits += dedent
    end = statement.end_lineno or statement.lineno
    if end > last_line:  # an else block after the kept body
        edits.append(TextEdit(last_line, len(ctx.lines[last_line - 1]) + 1, end,
                              len(ctx.lines[end - 1]) + 1, ""))
    return edits


def _dedent(ctx: FixContext, start: int, stop: int, inner: str, indent: str,
            strings: set[int]) -> list[TextEdit] | None:
    """Edits re-indenting lines ``start..stop`` from ``inner`` to ``indent``."""
    if len(inner) <= len(indent) or not inner.startswith(indent):
        return None
    edits: list[TextEdit] = []
    for number in range(start, stop + 1):
        line = ctx.lines[number - 1]
        if number in strings:
            if line.startswith(inner):
                return None  # an indented string continuation: re-indenting would change the string
            continue
        if line.strip() and line.startswith(inner):
            edits.append(TextEdit(number, 1, number, len(inner) + 1, indent))
    return edits


def elif_to_if(ctx: FixContext, statement: ast.If) -> TextEdit | None:
    """``if c: … elif d: …`` → ``if d: …`` (the first test is false): the edit taking away the first
    branch; None when the ``else`` part is no ``elif``."""
    following = statement.orelse[0] if len(statement.orelse) == 1 else None
    if not isinstance(following, ast.If) or not _starts_line(ctx, statement):
        return None
    line = ctx.lines[following.lineno - 1]
    column = _column(ctx, following)
    if not line[column:].startswith("elif"):
        return None
    return TextEdit(statement.lineno, 1, following.lineno, column + len("elif") + 1,
                    _indent(ctx.lines[statement.lineno - 1]) + "if")


def remove_decorator(ctx: FixContext, decorator: ast.expr) -> TextEdit | None:
    """Remove the line(s) of ``@decorator`` (None when another decorator or code shares them)."""
    line, column, end_line, end_column = ctx.node_range(decorator)
    before = ctx.lines[line - 1][: column - 1].strip()
    after = ctx.lines[end_line - 1][end_column - 1 :].strip()
    if before != "@" or (after and not after.startswith("#")):
        return None
    return TextEdit(line, 1, *_line_end(ctx, end_line), "")


def remove_with_item(ctx: FixContext, statement: ast.With | ast.AsyncWith, index: int) -> TextEdit | None:
    """Remove item ``index`` of a ``with`` that has others, with its comma."""
    items = statement.items
    if len(items) < 2:
        return None
    item = _item_range(ctx, items[index])
    if index + 1 < len(items):
        following = _item_range(ctx, items[index + 1])
        return TextEdit(item[0], item[1], following[0], following[1], "")
    previous = _item_range(ctx, items[index - 1])
    return TextEdit(previous[2], previous[3], item[2], item[3], "")


def _item_range(ctx: FixContext, item: ast.withitem) -> tuple[int, int, int, int]:
    start = ctx.node_range(item.context_expr)
    end = ctx.node_range(item.optional_vars) if item.optional_vars is not None else start
    return (start[0], start[1], end[2], end[3])


def block_of(tree: ast.AST, statement: ast.stmt) -> list[ast.stmt] | None:
    """The list of statements (a block) that holds ``statement``."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(s is statement for s in block):
                return block
        for inner in [*(getattr(node, "handlers", None) or ()), *(getattr(node, "cases", None) or ())]:
            if any(s is statement for s in inner.body):
                return inner.body
    return None
