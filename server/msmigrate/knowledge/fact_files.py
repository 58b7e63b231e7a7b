"""Curated facts as data: the TOML files of ``knowledge/facts/``, read and validated entry by entry.

A fact file holds one kind of fact as an array of tables (``[[advice]]``, ``[[spec]]``); each entry is
checked against a schema (:class:`Field` per key: its kind, whether it is required, the values it may
take). A bad entry raises :class:`FactFileError` naming the file and the line of the entry's header (or of
the key at fault), since ``tomllib`` keeps no positions: ``…/missing_advice.toml:12: [[advice]] 3: key
'polcy' is not known``. These are the project's own files, shipped in the package; a loader error is a
defect of the data that the tests catch, never a user's input.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

FACTS_DIR = Path(__file__).resolve().with_name("facts")

_KINDS: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "bool": (bool,),
    "int": (int,),
    "number": (int, float),
    "list": (list,),
    "table": (dict,),
    "strings": (list,),  # a list of strings
    "string_lists": (dict,),  # a table whose values are lists of strings
}
_TOML_ERROR_LINE = re.compile(r"\(at line (\d+), column \d+\)")


class FactFileError(ValueError):
    """A fact file that cannot be read or holds an entry its schema rejects (``path:line: problem``)."""


@dataclass(frozen=True, slots=True)
class Field:
    """One key of an entry: its kind (a key of ``_KINDS``), whether it is required, its allowed values."""

    kind: str
    required: bool = False
    choices: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """One validated entry of a fact file, with where it is written."""

    data: dict[str, Any]
    path: Path
    array: str
    index: int  # 1-based, among the file's entries of ``array``

    @property
    def line(self) -> int:
        """The line of the entry's ``[[array]]`` header (found only when asked: an error is rare)."""
        return _headers(_text(self.path), self.array)[self.index - 1]

    def error(self, problem: str, key: str | None = None) -> FactFileError:
        """A :class:`FactFileError` at this entry (at the line of ``key`` inside it, when found)."""
        line = _key_line(_text(self.path), self.array, self.index, key) if key else self.line
        return FactFileError(f"{self.path}:{line}: [[{self.array}]] {self.index}: {problem}")


@cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _headers(text: str, array: str) -> list[int]:
    """The 1-based line numbers of the ``[[array]]`` headers, in order."""
    header = re.compile(rf"^\s*\[\[\s*{re.escape(array)}\s*\]\]\s*(#.*)?$")
    return [number for number, line in enumerate(text.splitlines(), 1) if header.match(line)]


def _key_line(text: str, array: str, index: int, key: str) -> int:
    """The line of ``key`` (bare or quoted, as a key or a sub-table) inside entry ``index``, else of the
    entry's header."""
    headers = _headers(text, array)
    start = headers[index - 1]
    end = headers[index] if index < len(headers) else len(text.splitlines()) + 1
    written = re.compile(rf'^\s*(\[{re.escape(array)}\.)?("{re.escape(key)}"|{re.escape(key)})\s*[=\]]')
    lines = text.splitlines()
    for number in range(start + 1, end):
        if written.match(lines[number - 1]):
            return number
    return start


def _problem(value: Any, field: Field) -> str | None:
    if not isinstance(value, _KINDS[field.kind]) or (field.kind in ("int", "number")
                                                      and isinstance(value, bool)):
        return f"must be {field.kind}, not {type(value).__name__}"
    if field.kind == "strings" and not all(isinstance(item, str) for item in value):
        return "must be a list of strings"
    if field.kind == "string_lists":
        for name, items in value.items():
            if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
                return f"{name!r} must be a list of strings"
    if field.choices is not None and value not in field.choices:
        return f"is {value!r}, not one of {', '.join(sorted(field.choices))}"
    return None


def read_entries(path: Path, array: str, schema: Mapping[str, Field]) -> list[Entry]:
    """The entries of ``[[array]]`` in ``path``, each checked against ``schema`` (unknown keys, missing
    required keys and values of the wrong kind are errors)."""
    try:
        document = tomllib.loads(_text(path))
    except tomllib.TOMLDecodeError as error:
        found = _TOML_ERROR_LINE.search(str(error))
        raise FactFileError(f"{path}:{found.group(1) if found else 1}: not valid TOML: {error}") from None
    unknown = sorted(set(document) - {array})
    if unknown:
        raise FactFileError(f"{path}:1: only [[{array}]] entries belong here, not {', '.join(unknown)}")
    entries = []
    for index, data in enumerate(document.get(array, []), 1):
        entry = Entry(data, path, array, index)
        for key in data:
            if key not in schema:
                raise entry.error(f"key {key!r} is not known (known: {', '.join(schema)})", key)
        for key, field in schema.items():
            if key not in data:
                if field.required:
                    raise entry.error(f"key {key!r} is required")
                continue
            problem = _problem(data[key], field)
            if problem:
                raise entry.error(f"{key!r} {problem}", key)
        entries.append(entry)
    return entries


def fact_file(name: str) -> Path:
    """The path of the shipped fact file ``name`` (``missing_advice.toml``)."""
    return FACTS_DIR / name
