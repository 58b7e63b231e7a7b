"""Small Markdown helpers: pipe tables, links, fenced code blocks, headings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

LINK_RE = re.compile(r"\[([^\]]*)\]\(\s*([^)\s]*)\s*\)")
_SEPARATOR_CELL_RE = re.compile(r"^:?-{2,}:?$")
_FENCE_RE = re.compile(r"^\s*```")


@dataclass(frozen=True, slots=True)
class Link:
    text: str
    url: str


@dataclass(slots=True)
class PipeTable:
    """A pipe table: its header cells, body rows and the 0-based line index of its header."""

    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    line: int = 0
    row_lines: list[int] = field(default_factory=list)


def split_row(line: str) -> list[str]:
    """Cells of one ``| a | b |`` line, stripped (a pipe inside a link or code span is not a separator)."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|"):
        text = text[:-1]
    cells: list[str] = []
    current: list[str] = []
    in_url = False  # inside the (...) of a ``[text](url)`` link
    in_code = False
    prev = ""
    for ch in text:
        if ch == "`" and not in_url:
            in_code = not in_code
        elif ch == "(" and prev == "]" and not in_code:
            in_url = True
        elif ch == ")" and in_url:
            in_url = False
        prev = ch
        if ch == "|" and not in_code and not in_url:
            cells.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    cells.append("".join(current).strip())
    if in_code or in_url:  # unbalanced markup: fall back to a plain split
        return [cell.strip() for cell in text.split("|")]
    return cells


def is_separator(cells: list[str]) -> bool:
    """True for a header/body separator row such as ``| --- | :-: |``."""
    filled = [c for c in cells if c]
    return bool(filled) and all(_SEPARATOR_CELL_RE.match(c.replace(" ", "")) for c in filled)


def _is_table_line(line: str) -> bool:
    return line.lstrip().startswith("|")


def iter_tables(lines: list[str]) -> list[PipeTable]:
    """Every pipe table of a document (code blocks skipped).

    Tolerates a header glued to its separator on one line (``| A | B || --- | --- |``) and tables
    without a separator row (their first line is then taken as the header).
    """
    tables: list[PipeTable] = []
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE_RE.match(line):
            in_fence = not in_fence
            i += 1
            continue
        if in_fence or not _is_table_line(line):
            i += 1
            continue
        start = i
        block: list[tuple[int, str]] = []
        while i < len(lines) and _is_table_line(lines[i]):
            block.append((i, lines[i]))
            i += 1
        header = split_row(block[0][1])
        body = block[1:]
        glued = block[0][1].find("||")
        if glued > 0 and is_separator(split_row(block[0][1][glued + 1 :])):
            header = split_row(block[0][1][: glued + 1])
        elif body and is_separator(split_row(body[0][1])):
            body = body[1:]
        table = PipeTable(header=header, line=start)
        for index, row_line in body:
            cells = split_row(row_line)
            if is_separator(cells):
                continue
            table.rows.append(cells)
            table.row_lines.append(index)
        tables.append(table)
    return tables


def links(cell: str) -> list[Link]:
    return [Link(m.group(1).strip(), m.group(2).strip()) for m in LINK_RE.finditer(cell)]


def plain_text(cell: str) -> str:
    """Cell text with links replaced by their text, markup and extra spaces removed."""
    text = LINK_RE.sub(lambda m: m.group(1), cell)
    # a link whose opening bracket was lost: ``Consistent](https://...)``
    text = re.sub(r"\]\([^)]*\)", "", text)
    text = text.replace("`", "").replace("**", "").replace("<br>", " ")
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True, slots=True)
class CodeBlock:
    lang: str
    text: str
    line: int


def code_blocks(lines: list[str]) -> list[CodeBlock]:
    """Fenced code blocks with their language tag and 0-based starting line."""
    blocks: list[CodeBlock] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```\s*(\w*)", lines[i])
        if not m:
            i += 1
            continue
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not _FENCE_RE.match(lines[i]):
            body.append(lines[i])
            i += 1
        blocks.append(CodeBlock(m.group(1).lower(), "\n".join(body), start))
        i += 1
    return blocks


def headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """``(line, level, text)`` of each ATX heading outside code blocks."""
    found: list[tuple[int, int, str]] = []
    in_fence = False
    for index, line in enumerate(lines):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m and not in_fence:
            found.append((index, len(m.group(1)), m.group(2)))
    return found
