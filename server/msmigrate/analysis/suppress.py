"""``# msmigrate: ignore`` and ``# msmigrate: ignore[MSM301, MSM200]`` line comments."""

from __future__ import annotations

import io
import re
import tokenize

from msmigrate.analysis.parse import split_lines

_IGNORE = re.compile(r"#\s*msmigrate:\s*ignore(?:\[([A-Za-z0-9_,\s]*)\])?", re.IGNORECASE)
ALL_RULES = "*"


def suppressions(source: str) -> dict[int, frozenset[str]]:
    """Line → rule ids ignored on it (``{"*"}`` for a bare ignore). Only real comments count."""
    if "msmigrate" not in source:
        return {}
    found: dict[int, frozenset[str]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and "msmigrate" in token.string:
                _add(found, token.start[0], token.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # broken code: fall back to a line scan that skips lines where the marker sits inside quotes
        for number, line in enumerate(split_lines(source), start=1):  # LSP's and the tokenizer's lines
            index = line.find("#")
            if index >= 0 and "msmigrate" in line[index:] and line[:index].count('"') % 2 == 0 \
                    and line[:index].count("'") % 2 == 0:
                _add(found, number, line[index:])
    return found


def _add(found: dict[int, frozenset[str]], line: int, comment: str) -> None:
    match = _IGNORE.search(comment)
    if not match:
        return
    ids = match.group(1)
    rules = frozenset({ALL_RULES}) if ids is None else frozenset(
        part.strip().upper() for part in ids.split(",") if part.strip())
    found[line] = found.get(line, frozenset()) | rules


def is_suppressed(rule: str, line: int, table: dict[int, frozenset[str]]) -> bool:
    rules = table.get(line)
    return bool(rules) and (ALL_RULES in rules or rule.upper() in rules)
