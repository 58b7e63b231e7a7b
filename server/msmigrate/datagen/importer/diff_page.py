"""Facts of one difference page (``pytorch_diff/<name>.md``): its comparison tables and signatures.

Only names are read from the pages: which parameter a row talks about on each side, whether the row
is about parameters, inputs or outputs, and whether it states a default-value difference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from msmigrate.datagen.importer import markdown, names
from msmigrate.datagen.importer.signatures import SigParam, parse_signatures

_PARAM_RE = re.compile(r"^(param(eter)?s?|参数)", re.IGNORECASE)
_INPUT_RE = re.compile(r"^(single\s+)?(inputs?|单输入|输入)", re.IGNORECASE)
_OUTPUT_RE = re.compile(r"^(single\s+)?(outputs?|returns?|return values?|单?返回值?|输出)", re.IGNORECASE)
_DEFAULT_RE = re.compile(r"default|默认", re.IGNORECASE)
_ABSENT = {"", "-", "--", "—", "/", "none", "无", "n/a"}
_IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")
_TITLE_API_RE = re.compile(r"((?:torch|torchvision|torchaudio|torchtext)(?:\.\w+)+)")


@dataclass(frozen=True, slots=True)
class Fact:
    """One row of a comparison table, reduced to names."""

    kind: str  # "param" | "input" | "output" | "other"
    torch: str | None  # parameter name on the PyTorch side, None when absent or unreadable
    mindspore: str | None
    torch_absent: bool  # the PyTorch cell is "-" or empty
    mindspore_absent: bool
    states_default: bool  # the difference text is about default values


@dataclass(slots=True)
class FactTable:
    context: str  # the text between the previous table and this one (used to tell tables apart)
    facts: list[Fact] = field(default_factory=list)
    malformed_cells: int = 0


@dataclass(slots=True)
class DiffPage:
    name: str
    title_api: str | None = None
    mappings: list[tuple[str, str]] = field(
        default_factory=list
    )  # the "following mapping relationships" table
    signatures: dict[str, list[list[SigParam]]] = field(default_factory=dict)
    tables: list[FactTable] = field(default_factory=list)

    def table_for(self, torch_api: str, mindspore_api: str | None) -> FactTable | None:
        """The comparison table about this pair (pages comparing one API with two show two tables)."""
        if not self.tables:
            return None
        if len(self.tables) == 1:
            return self.tables[0]

        def score(item: tuple[int, FactTable]) -> tuple[int, int]:
            index, table = item
            value = 0
            if mindspore_api and _mentions(table.context, mindspore_api):
                value += 2
            if _mentions(table.context, torch_api):
                value += 1
            return value, -index

        return max(enumerate(self.tables), key=score)[1]

    def signature(self, api: str) -> list[SigParam] | None:
        """The first signature the page shows for ``api`` (a Tensor method also matches its function)."""
        overloads = self.signatures.get(api)
        if overloads:
            return overloads[0]
        return None


def _mentions(text: str, api: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(api)}(?![\w])", text) is not None


def parse_diff_file(path: Path) -> DiffPage:
    return parse_diff_text(path.read_text(encoding="utf-8", errors="replace"), path.stem)


def parse_diff_text(text: str, name: str = "") -> DiffPage:
    lines = text.splitlines()
    page = DiffPage(name=name)
    for _index, level, heading in markdown.headings(lines):
        if level == 1:
            m = _TITLE_API_RE.search(heading)
            page.title_api = m.group(1) if m else None
            break
    for block in markdown.code_blocks(lines):
        for api, overloads in parse_signatures(block.text).items():
            page.signatures.setdefault(api, []).extend(overloads)
    heading_lines = [index for index, _level, _text in markdown.headings(lines)]
    previous_end = 0
    for table in markdown.iter_tables(lines):
        end = (table.row_lines[-1] + 1) if table.row_lines else table.line + 1
        # the prose right before the table: since the previous table or the last heading
        start = max([previous_end, *(h for h in heading_lines if h < table.line)])
        context = "\n".join(lines[start : table.line])
        previous_end = end
        columns = _columns(table.header)
        if columns is None and _mapping_header(table.header):
            page.mappings.extend(_mapping_rows(table))
            continue
        rows = table.rows
        if columns is None:
            # a table without a header row: its first line is already a comparison row
            if _kind(table.header, (0, 1)) is None:
                continue
            columns = (0, 1, 2, 3, 4)
            rows = [table.header, *rows]
        page.tables.append(_fact_table(rows, columns, context))
    return page


def _mapping_header(header: list[str]) -> bool:
    joined = " ".join(header).lower()
    return len(header) <= 3 and "pytorch" in joined and "mindspore" in joined


def _mapping_rows(table: markdown.PipeTable) -> list[tuple[str, str]]:
    pairs = []
    for cells in table.rows:
        if len(cells) < 2:
            continue
        torch_api = names.clean_name(markdown.plain_text(cells[0]))
        ms_api = names.clean_name(markdown.plain_text(cells[1]))
        if names.is_torch_name(torch_api):
            pairs.append((torch_api, ms_api))
    return pairs


def _columns(header: list[str]) -> tuple[int, int, int, int, int] | None:
    """Indexes of (category, subcategory, PyTorch, MindSpore, difference) from a header row."""
    lowered = [markdown.plain_text(h).lower() for h in header]
    try:
        torch_col = next(i for i, h in enumerate(lowered) if h.startswith("pytorch"))
        ms_col = next(i for i, h in enumerate(lowered) if h.startswith("mindspore"))
    except StopIteration:
        return None
    if torch_col < 2 or ms_col != torch_col + 1:
        return None
    diff_col = ms_col + 1 if ms_col + 1 < len(header) else ms_col
    return torch_col - 2, torch_col - 1, torch_col, ms_col, diff_col


def _kind(cells: list[str], columns: tuple[int, int]) -> str | None:
    for col in columns:
        if col >= len(cells):
            continue
        text = markdown.plain_text(cells[col])
        if not text:
            continue
        if _PARAM_RE.match(text):
            return "param"
        if _INPUT_RE.match(text):
            return "input"
        if _OUTPUT_RE.match(text):
            return "output"
    return None


def _fact_table(rows: list[list[str]], columns: tuple[int, int, int, int, int], context: str) -> FactTable:
    cat_col, sub_col, torch_col, ms_col, diff_col = columns
    table = FactTable(context=context)
    current_category: str | None = None
    for cells in rows:
        if len(cells) <= ms_col:
            table.malformed_cells += 1
            continue
        category_text = markdown.plain_text(cells[cat_col])
        if category_text:
            current_category = _kind(cells, (cat_col, sub_col)) or "other"
        kind = current_category or _kind(cells, (sub_col,)) or "other"
        if kind != "other" and current_category is None:
            current_category = kind
        torch_name, torch_absent, torch_bad = _param_cell(cells[torch_col])
        ms_name, ms_absent, ms_bad = _param_cell(cells[ms_col])
        table.malformed_cells += torch_bad + ms_bad
        difference = cells[diff_col] if diff_col < len(cells) and diff_col != ms_col else ""
        table.facts.append(
            Fact(kind, torch_name, ms_name, torch_absent, ms_absent, bool(_DEFAULT_RE.search(difference)))
        )
    return table


def _param_cell(cell: str) -> tuple[str | None, bool, bool]:
    """``(name, absent, malformed)`` of a PyTorch/MindSpore cell of a comparison table."""
    text = markdown.plain_text(cell).strip().strip("`'\"").strip()
    if text.lower() in _ABSENT:
        return None, True, False
    text = text.lstrip("*").strip()
    text = re.sub(r"\s*\(.*\)$", "", text)  # "dim (int)" → "dim"
    if _IDENT_RE.match(text):
        return text, False, False
    return None, False, True
