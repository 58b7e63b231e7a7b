"""Source text helpers shared by the fixers: line splitting, offsets, applying edits.

Lines are split the way both Python's tokenizer and LSP count them: at ``\\r\\n``, ``\\r`` and ``\\n``
only (not at form feeds or Unicode line separators, which ``str.splitlines`` would split at).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from msmigrate.fixes.model import TextEdit

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(source: str) -> list[str]:
    """The lines of ``source`` without their line breaks (a final break gives a final empty line)."""
    return _LINE_BREAK.split(source)


def line_starts(source: str) -> list[int]:
    """Offset in ``source`` of the first character of each line."""
    return [0] + [m.end() for m in _LINE_BREAK.finditer(source)]


def newline_of(source: str) -> str:
    """The first line break used in ``source`` (``\\n`` when there is none)."""
    match = _LINE_BREAK.search(source)
    return match.group(0) if match else "\n"


def offset(starts: Sequence[int], source: str, line: int, column: int) -> int:
    """Offset of a 1-based (line, code-point column), clamped to the source."""
    if line < 1:
        return 0
    if line > len(starts):
        return len(source)
    base = starts[line - 1]
    limit = starts[line] if line < len(starts) else len(source)
    return min(base + max(column - 1, 0), limit)


def sorted_edits(edits: Iterable[TextEdit]) -> list[TextEdit]:
    """Unique edits in document order (identical edits, e.g. one import added by two fixes, kept once)."""
    return sorted(set(edits), key=lambda e: (e.line, e.column, e.end_line, e.end_column, e.new_text))


def overlaps(a: TextEdit, b: TextEdit) -> bool:
    """Whether two edits touch the same text (two insertions at one point count as overlapping)."""
    a_start, a_end = (a.line, a.column), (a.end_line, a.end_column)
    b_start, b_end = (b.line, b.column), (b.end_line, b.end_column)
    if a == b:
        return False
    if a_start == a_end and b_start == b_end:
        return a_start == b_start
    return a_start < b_end and b_start < a_end


def apply_edits(source: str, edits: Iterable[TextEdit]) -> str:
    """Apply non-overlapping edits (raises ``ValueError`` on overlap)."""
    ordered = sorted_edits(edits)
    for first, second in zip(ordered, ordered[1:], strict=False):
        if overlaps(first, second):
            raise ValueError(f"overlapping edits: {first} and {second}")
    starts = line_starts(source)
    pieces: list[str] = []
    cursor = 0
    for edit in ordered:
        start = offset(starts, source, edit.line, edit.column)
        end = offset(starts, source, edit.end_line, edit.end_column)
        pieces.append(source[cursor:start])
        pieces.append(edit.new_text)
        cursor = max(cursor, end)
    pieces.append(source[cursor:])
    return "".join(pieces)


def unified_diff(old: str, new: str, rel: str) -> str:
    """``old`` → ``new`` as a unified diff of ``a/<rel>`` and ``b/<rel>``, every line ending in a break."""
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 fromfile=f"a/{rel}", tofile=f"b/{rel}")
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
