"""Finding coordinates (1-based lines, 1-based code-point columns) ↔ LSP positions.

LSP counts columns in the negotiated encoding (UTF-16 code units unless the client offers another);
pygls's :class:`~pygls.workspace.PositionCodec` knows the encoding and counts the units. Lines are
split at ``\\r\\n``, ``\\r`` and ``\\n`` only, as both LSP and Python do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace import PositionCodec

from msmigrate.fixes.model import TextEdit
from msmigrate.fixes.text import split_lines

__all__ = ["LineIndex", "line_edits", "split_lines"]

_ENCODINGS = {"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32"}
_LINES_WITH_ENDS = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class LineIndex:
    """The lines of one document version, converting positions both ways."""

    def __init__(self, source: str, codec: PositionCodec | None = None) -> None:
        self.lines: Sequence[str] = split_lines(source)
        self.ascii = source.isascii()  # columns are code units in every encoding
        self.codec = codec or PositionCodec()
        encoding = getattr(self.codec.encoding, "value", self.codec.encoding)
        self._encoding = _ENCODINGS.get(str(encoding), "utf-16-le")

    def _line(self, index: int) -> str:
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def units(self, text: str) -> int:
        """Length of ``text`` in the client's position units (UTF-16 code units by default)."""
        if text.isascii() or self._encoding == "utf-32":
            return len(text)
        width = 2 if self._encoding == "utf-16-le" else 1
        return len(text.encode(self._encoding, "surrogatepass")) // width

    def to_lsp(self, line: int, column: int) -> types.Position:
        """1-based (line, code-point column) → LSP position (clamped to the document)."""
        return types.Position(*self.character(line, column))

    def range_to_lsp(self, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        return types.Range(self.to_lsp(line, column), self.to_lsp(end_line, end_column))

    def character(self, line: int, column: int) -> tuple[int, int]:
        """1-based (line, code-point column) → 0-based (line, character in client units), clamped."""
        if line > len(self.lines):
            last = len(self.lines) - 1
            return last, self.units(self._line(last))
        index = max(line - 1, 0)
        text = self._line(index)
        if text.isascii():
            return index, min(max(column - 1, 0), len(text))
        return index, self.units(text[: max(column - 1, 0)])

    def range_dict(self, line: int, column: int, end_line: int, end_column: int) -> dict[str, dict[str, int]]:
        """The same range as :meth:`range_to_lsp`, as the JSON object LSP sends."""
        start_line, start_char = self.character(line, column)
        stop_line, stop_char = self.character(end_line, end_column)
        return {
            "start": {"line": start_line, "character": start_char},
            "end": {"line": stop_line, "character": stop_char},
        }

    def from_lsp(self, position: types.Position) -> tuple[int, int]:
        """LSP position → 1-based (line, code-point column); a column past the end clamps to the end."""
        if position.line >= len(self.lines):
            last = len(self.lines)
            return last, len(self._line(last - 1)) + 1
        text = self._line(position.line)
        if text.isascii() or self._encoding == "utf-32":
            return position.line + 1, min(max(position.character, 0), len(text)) + 1
        units = 0
        for index, char in enumerate(text):
            if units >= position.character:
                return position.line + 1, index + 1
            units += self.units(char)
        return position.line + 1, len(text) + 1

    def edit_to_lsp(self, edit: TextEdit) -> types.TextEdit:
        return types.TextEdit(
            range=self.range_to_lsp(edit.line, edit.column, edit.end_line, edit.end_column),
            new_text=edit.new_text,
        )

    def end(self) -> types.Position:
        last = len(self.lines) - 1
        return types.Position(last, self.units(self._line(last)))


def line_edits(old: str, new: str) -> list[TextEdit]:
    """Whole-line edits turning ``old`` into ``new`` (one per changed hunk, via difflib)."""
    import difflib

    old_lines = _LINES_WITH_ENDS.findall(old)
    new_lines = _LINES_WITH_ENDS.findall(new)
    edits: list[TextEdit] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start = _line_col_of_line_index(old_lines, i1)
        end = _line_col_of_line_index(old_lines, i2)
        edits.append(TextEdit(start[0], start[1], end[0], end[1], "".join(new_lines[j1:j2])))
    return edits


def _line_col_of_line_index(lines: list[str], index: int) -> tuple[int, int]:
    """Finding coordinates of the start of ``lines[index]`` (or of the end of the text)."""
    if index < len(lines):
        return index + 1, 1
    if not lines:
        return 1, 1
    last = lines[-1]
    if last.endswith(("\n", "\r")):
        return len(lines) + 1, 1
    return len(lines), len(last) + 1
