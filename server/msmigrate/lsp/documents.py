"""Open documents under LSP's line model.

LSP counts lines at ``\\r\\n``, ``\\r`` and ``\\n`` only; pygls's :class:`TextDocument` splits with
``str.splitlines``, which also breaks at form feeds, ``\\x1c``–``\\x1e``, ``\\x85``, ``\\u2028`` and
``\\u2029``, so every position after such a character landed on the wrong line. :class:`LspTextDocument`
keeps pygls's interface with LSP lines, and applies an incremental change by offsets: a position past the
end of its line is the end of that line, a line past the end of the document is the end of the document.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace import PositionCodec, TextDocument, Workspace

from msmigrate.lsp.protocol import sync_kind

_LINES_WITH_ENDS = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_LINE_END = re.compile(r"\r\n|\r|\n")


def lsp_lines(text: str) -> list[str]:
    """The lines of ``text`` with their line breaks, split as LSP splits them."""
    return _LINES_WITH_ENDS.findall(text)


def units_to_index(line: str, character: int, codec: PositionCodec) -> int:
    """Index in ``line`` (no line break) of a column in client units; past the end → the end; inside a
    character that takes two units → after it."""
    if character <= 0:
        return 0
    if line.isascii():
        return min(character, len(line))
    units = 0
    for index, char in enumerate(line):
        if units >= character:
            return index
        units += codec.impl.code_units_for_char(char)
    return len(line)


def offset_at(text: str, starts: Sequence[int], position: types.Position, codec: PositionCodec) -> int:
    """Offset in ``text`` of an LSP position (``starts``: offset of each line's first character)."""
    if position.line >= len(starts):
        return len(text)
    start = starts[position.line]
    end = starts[position.line + 1] if position.line + 1 < len(starts) else len(text)
    content = text[start:end]
    match = _LINE_END.search(content)
    if match is not None:
        content = content[: match.start()]
    return start + units_to_index(content, position.character, codec)


def line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _LINE_END.finditer(text)]


class LspTextDocument(TextDocument):
    """A pygls text document whose lines and edits follow LSP's line model."""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(lsp_lines(self.source))

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        text = self.source
        starts = line_starts(text)
        start = offset_at(text, starts, change.range.start, self.position_codec)
        end = offset_at(text, starts, change.range.end, self.position_codec)
        if end < start:  # a reversed range: LSP ranges are ordered, take it as the span between
            start, end = end, start
        self._source = text[:start] + change.text + text[end:]


class LspWorkspace(Workspace):
    """pygls's workspace, holding :class:`LspTextDocument` documents."""

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> TextDocument:
        return LspTextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self.position_codec,
        )

    @classmethod
    def like(cls, workspace: Workspace) -> LspWorkspace:
        """A workspace with the same root, folders, sync kind and position encoding."""
        return cls(
            workspace.root_uri,
            sync_kind(workspace),
            list(workspace.folders.values()),
            workspace.position_encoding,
        )
