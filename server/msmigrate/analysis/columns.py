"""Convert ``ast`` positions (1-based lines, UTF-8 byte columns) to Finding positions (code points)."""

from __future__ import annotations

import ast


class ColumnMap:
    """Per-file converter; ASCII lines (nearly all) need no work."""

    __slots__ = ("lines", "_ascii", "_encoded")

    def __init__(self, lines: list[str], all_ascii: bool) -> None:
        self.lines = lines
        self._ascii = all_ascii
        self._encoded: dict[int, bytes] = {}

    def column(self, line: int, byte_offset: int) -> int:
        """1-based code-point column of a 0-based UTF-8 byte offset on a 1-based line."""
        if self._ascii:
            return byte_offset + 1
        index = line - 1
        if index >= len(self.lines):
            return byte_offset + 1
        text = self.lines[index]
        if text.isascii():
            return byte_offset + 1
        encoded = self._encoded.get(index)
        if encoded is None:
            encoded = self._encoded[index] = text.encode("utf-8", "surrogatepass")
        return len(encoded[:byte_offset].decode("utf-8", "replace")) + 1

    def node_range(self, node: ast.AST) -> tuple[int, int, int, int]:
        """``(line, column, end_line, end_column)`` of a node in Finding coordinates."""
        line = node.lineno
        end_line = node.end_lineno or line
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return line, self.column(line, node.col_offset), end_line, self.column(end_line, end_col)

    def attribute_name_range(self, node: ast.Attribute) -> tuple[int, int, int, int]:
        """The range of the attribute name of ``obj.name`` (its last ``len(name)`` bytes)."""
        end_line = node.end_lineno or node.lineno
        end = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        start = end - len(node.attr.encode("utf-8"))
        return end_line, self.column(end_line, start), end_line, self.column(end_line, end)
