"""Tokens of a call's text: where its arguments' top-level commas and its parentheses are (Finding
coordinates), for fixes that insert or remove arguments."""

from __future__ import annotations

import ast
import io
import tokenize

from msmigrate.fixes.context import FixContext


def separators(ctx: FixContext, call: ast.Call) -> tuple[list[tuple[int, int]], tuple[int, int]] | None:
    """Positions of the call's top-level commas and of its closing parenthesis (Finding coords)."""
    segment = ctx.text(call)
    line0, col0, end_line, end_col = ctx.node_range(call)
    func_end = ctx.node_range(call.func)[2:]
    commas: list[tuple[int, int]] = []
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(segment).readline):
            row, col = tok.start
            pos = (line0 + row - 1, col0 + col if row == 1 else col + 1)
            if pos < func_end or tok.type != tokenize.OP:
                continue
            if tok.string in "([{":
                depth += 1
            elif tok.string in ")]}":
                depth -= 1
            elif tok.string == "," and depth == 1:
                commas.append(pos)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return commas, (end_line, end_col - 1)


def open_paren(ctx: FixContext, call: ast.Call) -> tuple[int, int] | None:
    """The position of the call's opening parenthesis (Finding coordinates)."""
    line0, col0 = ctx.node_range(call)[:2]
    func_end = ctx.node_range(call.func)[2:]
    try:
        for tok in tokenize.generate_tokens(io.StringIO(ctx.text(call)).readline):
            row, col = tok.start
            pos = (line0 + row - 1, col0 + col if row == 1 else col + 1)
            if pos >= func_end and tok.type == tokenize.OP and tok.string == "(":
                return pos
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return None


def comments(ctx: FixContext, call: ast.Call) -> list[tuple[int, int]] | None:
    """The positions of the comments inside the call's text (Finding coordinates)."""
    line0, col0 = ctx.node_range(call)[:2]
    found: list[tuple[int, int]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(ctx.text(call)).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start
                found.append((line0 + row - 1, col0 + col if row == 1 else col + 1))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return found
