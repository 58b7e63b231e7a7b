"""Rewriting a call while keeping its layout: the comments, line breaks and spacing between its
arguments stay as written (``nn.Sequential(a,  # stem`` ↵ ``b)`` → ``SequentialCell([a,  # stem`` ↵
``b])``): edits touch the function name and the points just inside the parentheses only, so fixes of
the arguments themselves apply in the same pass."""

from __future__ import annotations

import ast
import io
import tokenize

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import TextEdit


def parentheses(ctx: FixContext, call: ast.Call) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Finding positions (line, column) of the call's ``(`` and ``)``."""
    _, _, func_line, func_column = ctx.node_range(call.func)
    _, _, end_line, end_column = ctx.node_range(call)
    lines = ctx.lines[func_line - 1 : end_line]
    text = "\n".join([lines[0][func_column - 1 :], *lines[1:]])
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.NEWLINE, tokenize.INDENT):
                continue
            if token.type != tokenize.OP or token.string != "(":
                return None
            row, column = token.start
            opening = (func_line + row - 1, column + (func_column if row == 1 else 1))
            break
        else:
            return None
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    if ctx.lines[end_line - 1][end_column - 2 : end_column - 1] != ")":
        return None
    return opening, (end_line, end_column - 1)


def wrap_arguments(ctx: FixContext, call: ast.Call, opening: str, closing: str) -> list[TextEdit] | None:
    """Edits putting ``opening`` just after the call's ``(`` and ``closing`` just before its ``)``."""
    found = parentheses(ctx, call)
    if found is None:
        return None
    (line, column), (end_line, end_column) = found
    return [TextEdit(line, column + 1, line, column + 1, opening),
            TextEdit(end_line, end_column, end_line, end_column, closing)]
