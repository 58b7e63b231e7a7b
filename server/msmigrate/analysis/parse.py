"""Turn file bytes into text and text into an ``ast.Module``, recovering from syntax errors.

Decoding follows Python's own rules (UTF-8 by default, a BOM, or a PEP 263 coding cookie). When
``ast.parse`` fails (a file being typed), parso's error-tolerant parser locates the broken statements;
they are replaced by ``pass`` / blank lines so the rest of the file keeps its line and column numbers
and still parses. If that is not enough, the intact top-level statements are parsed one by one.
"""

from __future__ import annotations

import ast
import codecs
import io
import re
import tokenize
import warnings
from dataclasses import dataclass

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_BLANKING_ROUNDS = 8
# work per document is bounded: a top-level statement with a line longer than this is not analysed (a 1 MB
# generated line cost parso 10-20 s), nor one nested deeper than MAX_NESTING when Python's own parser
# gives up on the file ("too deeply nested"); the rest of the file keeps its findings
MAX_LINE_CHARS = 20_000
MAX_NESTING = 400


class SourceError(Exception):
    """Input that cannot be analysed at all; ``key``/``args`` name a message in messages/analysis.py."""

    def __init__(self, key: str, **args: object) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args


@dataclass(slots=True)
class ParsedSource:
    text: str
    lines: list[str]  # split exactly like the tokenizer counts lines (\r\n, \r, \n)
    tree: ast.Module
    syntax_error: str | None = None  # first syntax error message, "line N: msg"
    skipped: tuple[int, ...] = ()  # first lines of the top-level statements left out (too long, too deep)

    @property
    def recovered(self) -> bool:
        """True when the file had syntax errors and only intact parts were parsed."""
        return self.syntax_error is not None


def decode(source: str | bytes) -> str:
    """Decode file content; raises :class:`SourceError` for binary or undecodable input."""
    if isinstance(source, str):
        text = source[1:] if source.startswith("\ufeff") else source
        if "\x00" in text:
            raise SourceError("analysis.binary_file")
        return without_surrogates(text)
    if b"\x00" in source:
        raise SourceError("analysis.binary_file")
    encoding = source_encoding(source)
    try:
        return source.decode(encoding)
    except UnicodeDecodeError as exc:
        line = source.count(b"\n", 0, exc.start) + 1
        raise SourceError("analysis.decode_error", encoding=encoding, line=line) from None
    except LookupError:
        raise SourceError("analysis.unknown_encoding", detail=encoding) from None


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate (an editor's text can hold them; UTF-8 cannot) replaced by
    U+FFFD: one code point and one UTF-16 unit as well, so every line and column stays where it was."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub("\ufffd", text)


def source_encoding(data: bytes) -> str:
    """The encoding Python reads ``data`` with (``utf-8-sig`` when it starts with a BOM); raises
    :class:`SourceError` for an unknown codec in the cookie or a cookie that contradicts a BOM."""
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceError("analysis.unknown_encoding", detail=str(exc)) from None
    return encoding


def split_lines(text: str) -> list[str]:
    """Lines as the tokenizer counts them (not ``str.splitlines``, which also breaks at form feeds)."""
    if "\r" not in text:
        return text.split("\n")
    return _LINE_BREAK.split(text)


def parse_source(source: str | bytes, path: str = "<unknown>") -> ParsedSource:
    """Decode and parse; never raises :class:`SyntaxError` (raises :class:`SourceError` for bad bytes)."""
    text = decode(source)
    return parse_text(text, split_lines(text), path)


def parse_text(
    text: str, lines: list[str], path: str = "<unknown>", by_statement: bool = False
) -> ParsedSource:
    """Parse decoded text (``lines`` from :func:`split_lines`), recovering from syntax errors; top-level
    statements over the bounds (:data:`MAX_LINE_CHARS`, :data:`MAX_NESTING`) are left out.
    ``by_statement``: statement by statement at once (the walk of the whole tree ran out of room)."""
    source, patched, skipped = text, lines, []
    if has_long_line(lines):
        patched, skipped = _without_long_statements(lines)
        source = "\n".join(patched)
    tree: ast.Module | None = None
    if not by_statement:
        try:
            tree = _ast_parse(source, path)
        except SyntaxError as exc:
            message = f"line {exc.lineno}: {exc.msg}"
            tree = recover(source, patched, path, exc.lineno)
            return ParsedSource(text, lines, tree, syntax_error=message, skipped=tuple(skipped))
        except (RecursionError, MemoryError):  # nesting deeper than the parser accepts
            tree = None
    if tree is None:
        tree, deep = parse_statements(patched, path)
        skipped = sorted({*skipped, *deep})
        if not tree.body and not skipped:
            raise SourceError("analysis.too_complex") from None
    return ParsedSource(text, lines, tree, skipped_note(skipped, lines), tuple(skipped))


def has_long_line(lines: list[str]) -> bool:
    return bool(lines) and max(map(len, lines)) > MAX_LINE_CHARS


def skipped_note(skipped: list[int] | tuple[int, ...], lines: list[str]) -> str | None:
    """The note (as a syntax error message, "line N: msg") for statements left out, or ``None``."""
    if not skipped:
        return None
    first = skipped[0]
    longest = max(len(line) for line in lines[first - 1 : _top_level_block(lines, first)[1]])
    if longest > MAX_LINE_CHARS:
        return f"line {first}: statement not analysed: a line of {longest} characters (over {MAX_LINE_CHARS})"
    return f"line {first}: statement not analysed: nested more than {MAX_NESTING} levels deep"


def _without_long_statements(lines: list[str]) -> tuple[list[str], list[int]]:
    """``lines`` with each top-level statement holding a line over :data:`MAX_LINE_CHARS` blanked (line
    numbers kept), and the first lines of those statements."""
    patched = list(lines)
    skipped: list[int] = []
    number = 0
    for index, line in enumerate(lines):
        if len(line) <= MAX_LINE_CHARS or index < number:
            continue
        start, end = _top_level_block(lines, index + 1)
        skipped.append(start)
        patched[start - 1 : end] = ["pass"] + [""] * (end - start)
        number = end
    return patched, skipped


def parse_statements(lines: list[str], path: str) -> tuple[ast.Module, list[int]]:
    """The top-level statements (by indentation) parsed one by one, at their lines; those nested too
    deeply for the parser (or deeper than :data:`MAX_NESTING`) are left out: (module, their first lines)."""
    body: list[ast.stmt] = []
    skipped: list[int] = []
    start = 1
    while start <= len(lines):
        end = _top_level_block(lines, start)[1]
        try:
            piece = _ast_parse("\n" * (start - 1) + "\n".join(lines[start - 1 : end]), path)
        except (SyntaxError, ValueError):
            piece = None
        except (RecursionError, MemoryError):
            piece, deep = None, True
        else:
            deep = any(_deeper_than(node, MAX_NESTING) for node in piece.body)
        if deep:
            skipped.append(start)
        elif piece is not None:
            body.extend(piece.body)
        start = end + 1
    return ast.Module(body=body, type_ignores=[]), skipped


def _deeper_than(node: ast.AST, limit: int) -> bool:
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(current))
    return False


def _ast_parse(text: str, path: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences and the like are not our business
        return ast.parse(text, filename=path)


def recover(text: str, lines: list[str], path: str, error_line: int | None = None) -> ast.Module:
    """Parse the intact statements of a file that does not parse as a whole.

    Each round takes the top-level block around the reported error line (so parso's pure-Python
    parser only reads that block, not the whole file), blanks the statements parso finds broken there,
    and parses the whole file again. After a few rounds the intact top-level statements are parsed
    one by one instead.
    """
    import parso

    patched = list(lines)
    blanked: set[int] = set()
    for _ in range(_MAX_BLANKING_ROUNDS):
        if not error_line or error_line > len(lines) or error_line in blanked:
            break
        start, end = _top_level_block(patched, error_line)
        window = parso.parse("\n".join(patched[start - 1 : end]), error_recovery=True)
        bad: set[int] = set()
        for node in _error_nodes(window):
            if node.type == "error_leaf" and node.start_pos == node.end_pos and not blanked:
                continue  # the INDENT of a body under a broken header: the body itself is intact
            _mark(node, bad, start - 1)
        for number in sorted(bad or {error_line}):
            _blank(patched, number, lines, blanked)
        try:
            return _ast_parse("\n".join(patched), path)
        except SyntaxError as exc:
            error_line = exc.lineno
        except (ValueError, RecursionError, MemoryError):
            break
    return _parse_pieces(parso.parse(text, error_recovery=True), lines, path)


_BLOCK_CONTINUATIONS = ("else", "elif", "except", "finally")


def _top_level_block(lines: list[str], line: int) -> tuple[int, int]:
    """1-based first and last line of the top-level statement around ``line`` (by indentation)."""

    def starts_statement(text: str) -> bool:
        return bool(text) and text[0] not in " \t\f#)]}" and not text.startswith(_BLOCK_CONTINUATIONS)

    start = line
    while start > 1 and not starts_statement(lines[start - 1]):
        start -= 1
    end = line
    while end < len(lines) and not starts_statement(lines[end]):
        end += 1
    return start, end


def _error_nodes(node):  # parso tree → error nodes and leaves (not descending into them)
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind == "error_node" or kind == "error_leaf":
            yield current
            continue
        children = getattr(current, "children", None)
        if children:
            stack.extend(children)


def _mark(node, bad: set[int], offset: int = 0) -> None:
    start_line = node.start_pos[0]
    end_line, end_col = node.end_pos
    if end_col == 0 and end_line > start_line:
        end_line -= 1
    bad.update(range(start_line + offset, end_line + offset + 1))


def _blank(patched: list[str], number: int, original: list[str], blanked: set[int]) -> None:
    """Replace line ``number`` (1-based) by ``pass`` at its indentation, keeping blocks non-empty.

    A line that continues a run of replaced lines becomes empty instead, so the continuation of a
    broken multi-line statement does not turn into a statement of its own.
    """
    index = number - 1
    if index >= len(patched) or number in blanked:
        return
    blanked.add(number)
    line = original[index]
    stripped = line.lstrip(" \t\f")
    if not stripped or stripped.startswith("#") or (number - 1 in blanked and original[index - 1].strip()):
        patched[index] = ""
        return
    indent = line[: len(line) - len(stripped)]
    patched[index] = indent + (_header_stub(stripped, indent, original[index + 1 :]) or "pass")


_HEADER = re.compile(r"(?:async\s+)?(def|class|for|while|if|with)\b\s*(\w*)")


def _header_stub(stripped: str, indent: str, following: list[str]) -> str | None:
    """For a broken block header (``for x in y`` without its colon, ``def f(:``) whose body follows,
    a header that parses, so the body is still analysed: the line with its colon, else a stand-in."""
    match = _HEADER.match(stripped)
    if match is None:
        return None
    body = next((text for text in following if text.strip() and not text.lstrip().startswith("#")), "")
    if len(body) - len(body.lstrip(" \t\f")) <= len(indent):
        return None
    text = stripped.split("#", 1)[0].rstrip()
    keyword, name = match.groups()
    candidates = [] if text.endswith(":") else [text + ":"]
    if keyword == "def" and name:
        candidates.append(f"def {name}(*args, **kwargs):")
    elif keyword == "class" and name:
        candidates.append(f"class {name}:")
    candidates.append("if True:")
    for candidate in candidates:
        try:
            _ast_parse(candidate + "\n    pass\n", "<header>")
        except (SyntaxError, ValueError):
            continue
        return candidate
    return None


def _parse_pieces(module, lines: list[str], path: str) -> ast.Module:
    """Last resort: parse each intact top-level statement alone, at its original line."""
    body: list[ast.stmt] = []
    for child in module.children:
        if child.type in ("endmarker", "error_node", "error_leaf", "newline"):
            continue
        (start_line, start_col), (end_line, end_col) = child.start_pos, child.end_pos
        if start_col != 0 or any(True for _ in _error_nodes(child)):
            continue
        if end_col == 0:
            end_line -= 1
        piece = "\n".join(lines[start_line - 1 : end_line])
        try:
            tree = _ast_parse(piece, path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        ast.increment_lineno(tree, start_line - 1)
        body.extend(tree.body)
    return ast.Module(body=body, type_ignores=[])
