"""Rows of an official ``pytorch_api_mapping.md`` table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from msmigrate.datagen.importer import markdown, names
from msmigrate.datagen.importer.urls import clean_url, is_diff_url

_API_HEADER_RE = re.compile(r"\bAPIs?\b|接口", re.IGNORECASE)
_TORCH_VERSION_RE = re.compile(r"PyTorch\s+([\d.]+)", re.IGNORECASE)
_PARAM_HEADER_RE = re.compile(r"^(parameter names?|参数名)$", re.IGNORECASE)
_IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")


@dataclass(frozen=True, slots=True)
class TableRow:
    """One torch API of one table row, as written (the description is kept only to classify it)."""

    section: str
    torch_api: str
    torch_url: str | None
    mindspore_api: str | None
    mindspore_url: str | None
    description: str
    diff_url: str | None
    line: int  # 1-based line in the source file


@dataclass(frozen=True, slots=True)
class MappingDocument:
    rows: tuple[TableRow, ...]
    general_difference_params: tuple[str, ...]
    pytorch_doc_version: str


def parse_mapping_file(path: Path) -> MappingDocument:
    return parse_mapping_text(path.read_text(encoding="utf-8"))


def parse_mapping_text(text: str) -> MappingDocument:
    lines = text.splitlines()
    heads = markdown.headings(lines)
    rows: list[TableRow] = []
    general: list[str] = []
    torch_version = ""
    for table in markdown.iter_tables(lines):
        first = table.header[0] if table.header else ""
        if _PARAM_HEADER_RE.match(first.strip()):
            general.extend(_general_params(table))
            continue
        if len(table.header) < 2 or not _API_HEADER_RE.search(first):
            continue
        if not torch_version and (m := _TORCH_VERSION_RE.search(first)):
            torch_version = m.group(1)
        section = _section_of(heads, table.line)
        for cells, index in zip(table.rows, table.row_lines, strict=True):
            rows.extend(_rows_of(cells, section, index + 1))
    return MappingDocument(tuple(rows), tuple(dict.fromkeys(general)), torch_version)


def _general_params(table: markdown.PipeTable) -> list[str]:
    found = []
    for cells in table.rows:
        name = markdown.plain_text(cells[0]) if cells else ""
        if _IDENT_RE.match(name):
            found.append(name)
    return found


def _section_of(heads: list[tuple[int, int, str]], line: int) -> str:
    section = ""
    for index, level, text in heads:
        if index > line:
            break
        if level <= 3:
            section = text
    return section


def _rows_of(cells: list[str], section: str, line: int) -> list[TableRow]:
    torch_cell = cells[0]
    ms_cell = cells[1] if len(cells) > 1 else ""
    desc_cell = cells[2] if len(cells) > 2 else ""
    torch_apis = _torch_apis(torch_cell)
    if not torch_apis:
        return []
    ms_api, ms_url = _mindspore_api(ms_cell)
    diff_url = next(
        (clean_url(link.url) for link in markdown.links(desc_cell) if is_diff_url(link.url)), None
    )
    if diff_url is None:  # a few rows put the difference link in the MindSpore cell
        diff_url = next(
            (clean_url(link.url) for link in markdown.links(ms_cell) if is_diff_url(link.url)), None
        )
    description = markdown.plain_text(desc_cell)
    return [
        TableRow(section, api, url, ms_api, ms_url, description, diff_url, line) for api, url in torch_apis
    ]


def _torch_apis(cell: str) -> list[tuple[str, str | None]]:
    """Torch APIs named by a cell: every link, or a plain dotted name (several are split on ``/ , 、``)."""
    found: list[tuple[str, str | None]] = []
    for link in markdown.links(cell):
        name = names.canonical_torch_name(link.text, link.url)
        if name:
            found.append((name, clean_url(link.url)))
    if not found:
        for part in re.split(r"[/,、，]|\bor\b|<br>", markdown.plain_text(cell)):
            name = names.clean_name(part)
            if names.is_torch_name(name):
                found.append((name, None))
    return list(dict.fromkeys(found))


def _mindspore_api(cell: str) -> tuple[str | None, str | None]:
    if names.means_unsupported(markdown.plain_text(cell)):
        return None, None
    for link in markdown.links(cell):
        if is_diff_url(link.url):
            continue
        name = names.canonical_mindspore_name(link.text, link.url)
        if name:
            return name, clean_url(link.url)
    for part in re.split(r"[/,、，]|<br>", markdown.plain_text(cell)):
        name = names.clean_name(part)
        if names.is_mindspore_name(name):
            return name, None
    return None, None
