"""Text side of incremental analysis: where two versions differ, and parsing chunks of a file on
their own with their real line numbers (a region that does not parse becomes one *broken* chunk holding
what the analyzer's recovery keeps of it).

A run of complete top-level statements parses on its own exactly as it does inside the file, so a
region re-parsed alone can be spliced between the unchanged chunks.
"""

from __future__ import annotations

import ast
import warnings

from msmigrate.analysis.analyzer import syntax_error_parts
from msmigrate.analysis.chunks import Chunk, chunk_at, chunks_of, describe, first_line
from msmigrate.analysis.parse import SourceError, parse_text


def common_lines(old_text: str, new_text: str, old: list[str], new: list[str]) -> tuple[int, int]:
    """How many lines two versions share at the start and (not overlapping those) at the end. May
    count fewer than there are (never more): the region analysed again is then a little larger."""
    if "\r" in old_text or "\r" in new_text:
        return _common_line_ends(old, new)
    # the longest common prefix and suffix of the texts, by bisection with C-speed comparisons
    low, high = 0, min(len(old_text), len(new_text))
    while low < high:
        middle = (low + high + 1) // 2
        if old_text[:middle] == new_text[:middle]:
            low = middle
        else:
            high = middle - 1
    prefix_chars = low
    low, high = 0, min(len(old_text), len(new_text)) - prefix_chars
    while low < high:
        middle = (low + high + 1) // 2
        if old_text[len(old_text) - middle :] == new_text[len(new_text) - middle :]:
            low = middle
        else:
            high = middle - 1
    # lines entirely inside the common prefix end with a line break in it; likewise for the suffix
    prefix = old_text.count("\n", 0, prefix_chars)
    suffix = old_text.count("\n", len(old_text) - low) if low else 0
    return prefix, min(suffix, len(old) - prefix, len(new) - prefix)


def _common_line_ends(old: list[str], new: list[str]) -> tuple[int, int]:
    """Lengths of the common prefix and (not overlapping it) common suffix of two line lists."""
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    limit -= prefix
    while suffix < limit and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    return prefix, suffix


def parse_region(lines: list[str], start: int, end: int, path: str) -> list[Chunk] | None:
    """Chunks of the new text's lines ``start..end`` (1-based, inclusive) parsed on their own, with
    their real line numbers. Lines that do not parse become one *broken* chunk holding what the
    analyzer's recovery keeps of them; ``None`` when even that fails."""
    text = "\n" * (start - 1) + "\n".join(lines[start - 1 : end]) if end >= start else ""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=path)
    except SyntaxError:
        return _recover_region(lines, start, end, path)
    except (ValueError, MemoryError, RecursionError):
        return None
    chunks = chunks_of(tree.body)
    for chunk in chunks:
        chunk.nodes = []
    return chunks


def _recover_region(lines: list[str], start: int, end: int, path: str) -> list[Chunk] | None:
    if end < start:
        return None
    padded = [""] * (start - 1) + lines[start - 1 : end]
    try:
        parsed = parse_text("\n".join(padded), padded, path)
    except (SourceError, RecursionError, MemoryError):
        return None
    chunk = Chunk(start, end, list(parsed.tree.body))
    describe(chunk)
    chunk.broken = syntax_error_parts(parsed.syntax_error or "line None: invalid syntax")
    chunk.parsed_start = start
    return [chunk]


def parse_together(
    before: list[Chunk], after: list[Chunk], region: tuple[int, int], delta: int, lines: list[str], path: str
) -> bool:
    """Whether the edited region (``region``: new lines, not parsing) and the other broken chunks
    (``before`` and ``after`` it, in old lines) parse together, from the first to the last of them."""
    spans = [(c.start, c.end) for c in before if c.broken]
    spans += [(c.start + delta, c.end + delta) for c in after if c.broken]
    if not spans:
        return False
    spans.append(region)
    return _own_error(lines, min(s for s, _ in spans), max(e for _, e in spans), path) is None


def mark_broken(chunks: list[Chunk], lines: list[str], path: str) -> list[Chunk]:
    """After a recovered full parse: chunks whose lines do not parse on their own keep their recovered
    nodes and are marked broken; code lines recovery dropped entirely (outside every chunk) become
    broken chunks without nodes."""
    out: list[Chunk] = []
    previous_end = 0
    for chunk in [*chunks, None]:
        gap_end = chunk.start - 1 if chunk is not None else len(lines)
        code = [n for n in range(previous_end + 1, gap_end + 1) if _is_code(lines[n - 1])]
        if code:
            gap = Chunk(code[0], code[-1], [])
            gap.broken = _own_error(lines, gap.start, gap.end, path) or (gap.start, "invalid syntax")
            gap.parsed_start = gap.start
            out.append(gap)
        if chunk is None:
            break
        error = _own_error(lines, chunk.start, chunk.end, path)
        if error is not None:
            chunk.broken, chunk.parsed_start = error, chunk.start
        out.append(chunk)
        previous_end = chunk.end
    return out


def starts_indented(lines: list[str], start: int, end: int) -> bool:
    """Whether the first code line of ``lines[start..end]`` (1-based) is indented."""
    for line in lines[start - 1 : end]:
        if _is_code(line):
            return line[0] in " \t\f"
    return False


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _own_error(lines: list[str], start: int, end: int, path: str) -> tuple[int | None, str | None] | None:
    """(line, message) of the syntax error of lines ``start..end`` parsed alone; ``None`` if they parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse("\n".join(lines[start - 1 : end]), filename=path)
    except SyntaxError as exc:
        return (exc.lineno + start - 1 if exc.lineno else start), exc.msg
    except (ValueError, MemoryError, RecursionError):
        return start, "invalid syntax"
    return None


def parse_chunks(lines: list[str], chunks: list[Chunk], path: str) -> ast.Module | None:
    """A module of just these chunks (in order), parsed from their lines with blank lines in between,
    so every node has its real line number; ``None`` if it does not parse as the chunks did."""
    pieces: list[str] = []
    recovered: list[ast.stmt] = []
    line = 1
    for chunk in chunks:
        if chunk.broken is not None:  # what recovery made of it, moved to where it is now
            if chunk.start != chunk.parsed_start:
                for node in chunk.nodes:
                    ast.increment_lineno(node, chunk.start - chunk.parsed_start)
                chunk.parsed_start = chunk.start
            recovered.extend(chunk.nodes)
            continue
        pieces.append("\n" * (chunk.start - line))
        pieces.append("\n".join(lines[chunk.start - 1 : chunk.end]))
        line = chunk.end
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = ast.parse("".join(pieces), filename=path)
    except (SyntaxError, ValueError, MemoryError):
        return None
    if recovered:
        module.body = sorted([*module.body, *recovered], key=first_line)
    return module


def chunk_of_node(module: ast.Module, chunks: list[Chunk]) -> dict[int, Chunk] | None:
    """Top-level node id → its chunk; ``None`` if a node lies outside every chunk."""
    starts = [chunk.start for chunk in chunks]
    found: dict[int, Chunk] = {}
    for node in module.body:
        chunk = chunk_at(chunks, starts, node.lineno)
        if chunk is None:
            return None
        found[id(node)] = chunk
    return found
