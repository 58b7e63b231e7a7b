"""Assemble ``mapping-<v>.json`` from the English and Chinese tables and difference pages."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from msmigrate.datagen.importer.align import params_from_inventory
from msmigrate.datagen.importer.classify import Classification, classify
from msmigrate.datagen.importer.diff_page import DiffPage, FactTable, parse_diff_file
from msmigrate.datagen.importer.facts import (
    RowFacts,
    apply_classification,
    facts_from_signatures,
    facts_from_table,
    known_rename_pairs,
    page_signatures,
)
from msmigrate.datagen.importer.mapping_table import MappingDocument, TableRow, parse_mapping_file
from msmigrate.datagen.importer.names import names_by_lower, torch_spelling_for
from msmigrate.datagen.importer.signatures import SigParam
from msmigrate.datagen.importer.urls import diff_page_name, zh_url_from_en
from msmigrate.knowledge.inventory_index import InventoryIndex
from msmigrate.knowledge.model import MappingCategory

SCHEMA_VERSION = 1
RELEASES: dict[str, str] = {"r1.10": "1.10", "r2.3.1": "2.3", "r2.4.10": "2.4", "r2.6.0": "2.6"}
MAPPING_FILE = "pytorch_api_mapping.md"
DIFF_DIR = "pytorch_diff"


class SourceError(Exception):
    """The sources folder lacks what the importer needs."""


@dataclass(slots=True)
class Inventories:
    """Signatures from ``torch_inventory.json`` / ``mindspore_inventory.json`` (empty when missing); any
    spelling of an API finds its canonical entry."""

    torch: InventoryIndex = field(default_factory=InventoryIndex.empty)
    mindspore: InventoryIndex = field(default_factory=InventoryIndex.empty)

    @classmethod
    def load(cls, folder: Path | None) -> Inventories:
        def read(name: str) -> InventoryIndex:
            path = folder / f"{name}_inventory.json" if folder else None
            return InventoryIndex.load(path) if path is not None else InventoryIndex.empty()

        return cls(read("torch"), read("mindspore"))

    def overloads(self, package: str, api: str) -> list[list[SigParam]]:
        index = self.torch if package == "torch" else self.mindspore
        canonical = index.resolve(api)
        entry = index[canonical] if canonical is not None else {}
        return [params_from_inventory(sig) for sig in entry.get("signatures", [])]


class ReleaseSources:
    """The files of one release folder (``<sources>/r2.4.10``), parsed on demand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._pages: dict[tuple[str, str], DiffPage | None] = {}

    @cached_property
    def en(self) -> MappingDocument:
        return parse_mapping_file(self.folder / "en" / MAPPING_FILE)

    @cached_property
    def zh(self) -> MappingDocument | None:
        path = self.folder / "zh_cn" / MAPPING_FILE
        return parse_mapping_file(path) if path.is_file() else None

    def page(self, lang: str, name: str | None) -> DiffPage | None:
        if not name:
            return None
        key = (lang, name)
        if key not in self._pages:
            path = self.folder / lang / DIFF_DIR / f"{name}.md"
            self._pages[key] = parse_diff_file(path) if path.is_file() else None
        return self._pages[key]

    def all_tables(self) -> list[FactTable]:
        tables: list[FactTable] = []
        for lang in ("en", "zh_cn"):
            folder = self.folder / lang / DIFF_DIR
            for path in sorted(folder.glob("*.md")) if folder.is_dir() else ():
                page = self.page(lang, path.stem)
                if page:
                    tables.extend(page.tables)
        return tables


def _zh_index(doc: MappingDocument | None) -> dict[tuple[str, str | None], TableRow]:
    index: dict[tuple[str, str | None], TableRow] = {}
    for row in doc.rows if doc else ():
        index.setdefault((row.torch_api, row.mindspore_api), row)
    return index


def _urls(en: TableRow, zh: TableRow | None) -> dict[str, str]:
    urls: dict[str, str] = {}
    if en.torch_url:
        urls["torch"] = en.torch_url
    if en.mindspore_url:
        urls["mindspore_en"] = en.mindspore_url
        # the Chinese table normally has the same row; otherwise use the site's /docs/zh-CN/ twin
        urls["mindspore_zh"] = (
            zh.mindspore_url if zh and zh.mindspore_url else zh_url_from_en(en.mindspore_url)
        )
    elif zh and zh.mindspore_url:
        urls["mindspore_zh"] = zh.mindspore_url
    if en.diff_url:
        urls["diff_en"] = en.diff_url
    if zh and zh.diff_url:
        urls["diff_zh"] = zh.diff_url
    elif en.diff_url:
        urls["diff_zh"] = zh_url_from_en(en.diff_url)
    return urls


def build_rows(
    release: ReleaseSources,
    inventories: Inventories,
    known_pairs: dict[str, list[str]],
) -> list[dict[str, Any]]:
    general = release.en.general_difference_params
    zh_rows = _zh_index(release.zh)
    torch_by_lower = names_by_lower(inventories.torch)
    rows: list[dict[str, Any]] = []
    for en in release.en.rows:
        zh = zh_rows.get((en.torch_api, en.mindspore_api))
        written = en.torch_api
        real = torch_spelling_for(written, inventories.torch, torch_by_lower)
        if real is not None:  # a letter-case typo of the table: the row is the real API's
            en = replace(en, torch_api=real)
        diff_url = en.diff_url or (zh.diff_url if zh else None)
        description = en.description or (zh.description if zh else "")
        classification = classify(description, diff_url is not None, en.mindspore_api is not None)
        page_name = diff_page_name(diff_url) if diff_url else None
        facts = _page_facts(release, page_name, en, known_pairs, general)
        facts = _add_signature_facts(facts, classification, en, inventories, known_pairs, general)
        row: dict[str, Any] = {
            "torch_api": en.torch_api,
            "mindspore_api": en.mindspore_api,
            "category": classification.category.value,
            "section": en.section,
            "urls": _urls(en, zh),
            "diff_page": page_name,
        }
        if real is not None:
            row["torch_api_written"] = written
        row.update(facts.to_json())
        rows.append(row)
    rows.sort(key=lambda r: (r["torch_api"], r["mindspore_api"] or "", r["section"]))
    return rows


def _add_signature_facts(
    facts: RowFacts,
    classification: Classification,
    row: TableRow,
    inventories: Inventories,
    known_pairs: dict[str, list[str]],
    general: Iterable[str],
) -> RowFacts:
    """Complete a row's facts from the inventories' signatures where the table only hints at them."""
    torch_overloads = inventories.overloads("torch", row.torch_api)
    ms_overloads = inventories.overloads("mindspore", row.mindspore_api) if row.mindspore_api else []

    def compare(trusted: bool) -> RowFacts:
        return facts_from_signatures(
            torch_overloads,
            ms_overloads,
            known_pairs,
            general,
            row.torch_api,
            only_general_torch_only=trusted,
            mindspore_api=row.mindspore_api,
        )

    # "parameter names differ" without a page that names them: align the two signatures
    if (
        classification.category is MappingCategory.PARAM_NAMES
        and not facts.param_renames
        and not classification.renames
    ):
        derived = compare(trusted=True)
        derived.add_torch_only(facts.torch_only)
        facts = derived
    # "PyTorch has some optimization parameters": the signatures tell which
    if classification.unnamed_torch_only and not facts.torch_only:
        facts.add_torch_only(compare(trusted=False).torch_only)
    torch_params = sorted({p.name for overload in torch_overloads for p in overload})
    apply_classification(facts, classification, torch_params)
    return facts


def _page_facts(
    release: ReleaseSources,
    page_name: str | None,
    row: TableRow,
    known_pairs: dict[str, list[str]],
    general: Iterable[str],
) -> RowFacts:
    pages = [p for p in (release.page("en", page_name), release.page("zh_cn", page_name)) if p is not None]
    for page in pages:
        table = page.table_for(row.torch_api, row.mindspore_api)
        if table is not None and table.facts:
            torch_sig, ms_sig = page_signatures(page, row.torch_api, row.mindspore_api)
            return facts_from_table(table, row.torch_api, torch_sig, ms_sig, page.signature(row.torch_api))
    for page in pages:  # no comparison table: compare the signatures the page shows
        torch_sig, ms_sig = page_signatures(page, row.torch_api, row.mindspore_api)
        if torch_sig and ms_sig:
            return facts_from_signatures(
                [torch_sig],
                [ms_sig],
                known_pairs,
                general,
                row.torch_api,
                only_general_torch_only=False,
                mindspore_api=row.mindspore_api,
            )
    return RowFacts()


def build_release(
    folder: Path, inventories: Inventories, known_pairs: dict[str, list[str]]
) -> dict[str, Any]:
    release = ReleaseSources(folder)
    return {
        "schema_version": SCHEMA_VERSION,
        "mindspore_version": RELEASES[folder.name],
        "release": folder.name,
        "pytorch_doc_version": release.en.pytorch_doc_version,
        "general_difference_params": list(release.en.general_difference_params),
        "rows": build_rows(release, inventories, known_pairs),
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def build_all(sources: Path, out: Path, inventory_dir: Path | None = None) -> list[Path]:
    """Write ``mapping-<v>.json`` for every release folder found in ``sources``; return the files."""
    folders = [sources / name for name in RELEASES if (sources / name / "en" / MAPPING_FILE).is_file()]
    if not folders:
        raise SourceError(str(sources))
    inventories = Inventories.load(inventory_dir)
    # renames seen on every release's comparison tables guide the signature alignment of the others
    releases = [ReleaseSources(sources / name) for name in RELEASES if (sources / name).is_dir()]
    known_pairs = known_rename_pairs(t for release in releases for t in release.all_tables())
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for folder in folders:
        path = out / f"mapping-{RELEASES[folder.name]}.json"
        path.write_text(dumps(build_release(folder, inventories, known_pairs)), encoding="utf-8")
        written.append(path)
    return written
