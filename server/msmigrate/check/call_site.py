"""Argument texts of the call at a source position (for literal call-site values; nothing is run)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field


@dataclass(slots=True)
class CallArgs:
    """Source texts of a call's positional and keyword arguments (``*a``/``**k`` left out)."""

    args: list[str] = field(default_factory=list)
    kwargs: dict[str, str] = field(default_factory=dict)


def _column(line_text: str, byte_offset: int) -> int:
    """1-based code-point column of an ast byte offset."""
    return len(line_text.encode("utf-8")[:byte_offset].decode("utf-8", "replace")) + 1


def call_args_at(source: str, line: int, column: int) -> CallArgs | None:
    """The innermost call whose callee covers ``(line, column)`` (1-based, code points), if any."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = source.splitlines()
    best: ast.Call | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.func.end_lineno is None or node.func.end_col_offset is None:
            continue
        func = node.func
        if not (func.lineno <= line <= func.end_lineno) or func.lineno > len(lines):
            continue
        start = (func.lineno, _column(lines[func.lineno - 1], func.col_offset))
        end = (func.end_lineno, _column(lines[func.end_lineno - 1], func.end_col_offset))
        if start <= (line, column) <= end and (
            best is None or (func.lineno, func.col_offset) >= (best.func.lineno, best.func.col_offset)
        ):
            best = node
    if best is None:
        return None
    found = CallArgs()
    for arg in best.args:
        if isinstance(arg, ast.Starred):
            break  # later positions are unknown
        text = ast.get_source_segment(source, arg)
        found.args.append(text if text is not None else "")
    for keyword in best.keywords:
        if keyword.arg is None:
            continue
        text = ast.get_source_segment(source, keyword.value)
        if text is not None:
            found.kwargs[keyword.arg] = text
    return found
