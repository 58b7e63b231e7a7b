"""Small facts about literal expressions the rule checkers share."""

from __future__ import annotations

import ast


def before(a: ast.AST, b: ast.AST) -> bool:
    return (a.lineno, a.col_offset) < (b.lineno, b.col_offset)  # type: ignore[attr-defined]


def is_number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, bool)


def constant_int(node: ast.expr | None) -> int | None:
    """A constant integer (``2``, ``-1``), else ``None``."""
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    if negative:
        node = node.operand  # type: ignore[union-attr]
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return -node.value if negative else node.value
    return None
