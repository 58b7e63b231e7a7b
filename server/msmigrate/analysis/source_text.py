"""Source text by ``ast`` positions: the lines of a source split as ``ast`` counts them, and the exact
text of a node (``ast.get_source_segment`` without re-splitting the source on every call)."""

from __future__ import annotations

import ast
import re
from functools import lru_cache

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@lru_cache(maxsize=8)
def source_lines(source: str) -> list[str]:
    """The lines of ``source`` with their line breaks, split the way ``ast`` counts lines."""
    if not any(char in source for char in _OTHER_BREAKS):  # str.splitlines would also break at these
        return source.splitlines(keepends=True)
    return _LINE.findall(source)


def _cut(line: str, byte_offset: int) -> int:
    """The code-point index of a UTF-8 byte offset in ``line``."""
    if line.isascii():
        return byte_offset
    return len(line.encode("utf-8", "surrogatepass")[:byte_offset].decode("utf-8", "surrogatepass"))


def segment(source: str, node: ast.AST) -> str:
    """``ast.get_source_segment`` without re-splitting the whole source on every call."""
    try:
        first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
        start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
    except AttributeError:
        return ""
    if end is None or last is None:
        return ""
    lines = source_lines(source)
    if last >= len(lines):
        return ""
    if first == last:
        line = lines[first]
        return line[_cut(line, start) : _cut(line, end)]
    head = lines[first][_cut(lines[first], start) :]
    tail = lines[last][: _cut(lines[last], end)]
    return "".join([head, *lines[first + 1 : last], tail])


def dotted_name(node: ast.AST) -> str | None:
    """``a.b.c`` for a name or a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])
