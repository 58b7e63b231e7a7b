"""Cross-check the mapping tables against the API inventories (``msmigrate data validate``).

A row is reported when its MindSpore target is not in the MindSpore inventory (the installed MindSpore
has no such name), or when its torch API is not in the torch inventory (no such name in the torch wheel).
torchvision / torchaudio / torchtext names cannot be verified (those packages are not installed beside
torch) and are listed apart. A parameter rename whose new name the installed MindSpore signature does not
take is listed with what the analysis does instead (:func:`rename_facts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msmigrate.i18n import t
from msmigrate.knowledge.base import VERSIONS, KnowledgeBase, get_knowledge_base
from msmigrate.knowledge.model import MappingRow
from msmigrate.knowledge.param_facts import accepts, keyword_target

UNVERIFIED_SOURCE = "mapping_table"


@dataclass(frozen=True)
class TableConsistency:
    """Result of checking one version's table."""

    version: str
    rows: int
    missing_mindspore: tuple[tuple[str, str], ...]  # (torch API, MindSpore API) pairs
    missing_torch: tuple[str, ...]
    unverified_torch: tuple[str, ...]
    replacements: dict[str, str] = field(default_factory=dict)  # torch API → derived replacement
    # (torch API, MindSpore API, torch parameter, table's name, resolution): the table renames a parameter
    # to a name the installed MindSpore signature rejects; resolution "keep" (it takes the torch name),
    # "use:<name>" (the parameter found by name similarity or position), "drop" (no such parameter)
    rejected_renames: tuple[tuple[str, str, str, str, str], ...] = ()
    # (the table's spelling, the torch API): a letter-case typo the importer read as the API torch has
    corrected_torch: tuple[tuple[str, str], ...] = ()

    def counts(self) -> dict[str, int]:
        return {
            "rows": self.rows,
            "missing_mindspore": len(self.missing_mindspore),
            "missing_torch": len(self.missing_torch),
            "unverified_torch": len(self.unverified_torch),
        }

    def _gone(self, torch_api: str, target: str) -> dict[str, str | None]:
        replacement = self.replacements.get(torch_api)
        return {"torch_api": torch_api, "mindspore_api": target, "derived_replacement": replacement}

    def to_json(self) -> dict[str, Any]:
        return {
            **self.counts(),
            "missing_mindspore_apis": [self._gone(name, target) for name, target in self.missing_mindspore],
            "missing_torch_apis": list(self.missing_torch),
            "unverified_torch_apis": list(self.unverified_torch),
            "corrected_torch_apis": [{"written": w, "torch_api": a} for w, a in self.corrected_torch],
            "rejected_renames": len(self.rejected_renames),
            "rejected_rename_facts": [
                {"torch_api": a, "mindspore_api": b, "param": p, "table": n, "resolution": r}
                for a, b, p, n, r in self.rejected_renames
            ],
        }


@dataclass
class ConsistencyReport:
    torch_version: str | None
    mindspore_version: str | None
    tables: dict[str, TableConsistency] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "torch_inventory_version": self.torch_version,
            "mindspore_inventory_version": self.mindspore_version,
            "versions": {v: check.to_json() for v, check in self.tables.items()},
        }

    def render_text(self, lang: str = "en") -> str:
        lines = [t("inventory.check.header", lang, torch=self.torch_version or "-",
                   mindspore=self.mindspore_version or "-")]
        for version, check in self.tables.items():
            lines.append("")
            lines.append(t("inventory.check.version", lang, version=version, **check.counts()))
            if check.missing_mindspore:
                lines.append(t("inventory.check.missing_mindspore", lang, count=len(check.missing_mindspore)))
                for torch_api, ms_api in check.missing_mindspore:
                    replacement = check.replacements.get(torch_api)
                    extra = ""
                    if replacement:
                        extra = f" ({t('derived.check.replacement', lang, api=replacement)})"
                    lines.append(f"  {torch_api} -> {ms_api}{extra}")
            if check.missing_torch:
                lines.append(t("inventory.check.missing_torch", lang, count=len(check.missing_torch)))
                lines.extend(f"  {name}" for name in check.missing_torch)
            if check.corrected_torch:
                lines.append(t("inventory.check.corrected_torch", lang, count=len(check.corrected_torch)))
                lines.extend(f"  {written} -> {api}" for written, api in check.corrected_torch)
            if check.unverified_torch:
                lines.append(t("inventory.check.unverified_torch", lang, count=len(check.unverified_torch)))
                lines.extend(f"  {name}" for name in check.unverified_torch)
            if check.rejected_renames:
                lines.append(t("inventory.check.rejected_renames", lang, count=len(check.rejected_renames)))
                for a, b, p, n, r in check.rejected_renames:
                    kind, _, name = r.partition(":")
                    note = t("inventory.check.resolution." + kind, lang, name=name)
                    lines.append(f"  {a} -> {b}: {p} -> {n} ({note})")
        return "\n".join(lines) + "\n"


def table_consistency(kb: KnowledgeBase) -> TableConsistency:
    """Rows of ``kb``'s table naming APIs that the inventories do not know."""
    missing_ms: set[tuple[str, str]] = set()
    missing_torch: set[str] = set()
    unverified: set[str] = set()
    rows = kb.rows()
    for row in rows:
        entry = kb.torch_entry(row.torch_api)  # any spelling of a real torch API counts
        if entry is None:
            missing_torch.add(row.torch_api)
        elif entry.get("source") == UNVERIFIED_SOURCE:
            unverified.add(row.torch_api)
        if row.mindspore_api and not kb.mindspore_has(row.mindspore_api):
            missing_ms.add((row.torch_api, row.mindspore_api))
    replacements = {}
    for torch_api, _target in missing_ms:
        derived = kb.derived(torch_api)
        if derived is not None:
            replacements[torch_api] = derived.mindspore_api
    return TableConsistency(
        replacements=replacements,
        version=kb.version,
        rows=len(rows),
        missing_mindspore=tuple(sorted(missing_ms)),
        missing_torch=tuple(sorted(missing_torch)),
        unverified_torch=tuple(sorted(unverified)),
        rejected_renames=rename_facts(kb),
        corrected_torch=tuple(sorted({(r.torch_api_written, r.torch_api) for r in rows
                                      if r.torch_api_written})),
    )


def rename_facts(kb: KnowledgeBase) -> tuple[tuple[str, str, str, str, str], ...]:
    """The table's parameter renames that the installed MindSpore signature rejects, with what the
    analysis and the quick-fix do instead (see :class:`TableConsistency`)."""
    found: set[tuple[str, str, str, str, str]] = set()
    for row in kb.rows():
        for old, new in row.param_renames.items():
            resolution = rename_resolution(kb, row, old)
            if resolution is not None:
                found.add((row.torch_api, row.mindspore_api or "", old, new, resolution))
    return tuple(sorted(found))


def rename_resolution(kb: KnowledgeBase, row: MappingRow, old: str) -> str | None:
    """``None`` when the installed MindSpore signature takes the row's new name for ``old`` (or cannot
    reject it: unknown, or ``**kwargs``); else ``keep`` (it takes the torch name), ``use:<name>`` (the
    parameter found by name similarity or position) or ``drop`` (no such parameter)."""
    new = row.param_renames.get(old)
    if not row.mindspore_api or new is None:
        return None
    signatures = kb.mindspore_signatures(row.mindspore_api)
    if not signatures or any(p.get("kind") == "var_keyword" for s in signatures for p in s):
        return None
    if accepts(signatures, new):
        return None
    if accepts(signatures, old):
        return "keep"
    torch_names = [p["name"] for s in kb.torch_signatures(row.torch_api)[:1] for p in s]
    others = {k: v for k, v in row.param_renames.items() if k != old}
    targets = (keyword_target(old, s, others, torch_names) for s in signatures)
    target = next((x for x in targets if x), None)
    return f"use:{target}" if target else "drop"


def consistency_of(versions: tuple[str, ...] | list[str] | None = None) -> ConsistencyReport:
    """Check the bundled tables of ``versions`` (all four by default) against the committed inventories."""
    from msmigrate.knowledge.inventory_index import read_header
    from msmigrate.paths import data_dir

    report = ConsistencyReport(
        torch_version=read_header(data_dir() / "torch_inventory.json").get("version"),
        mindspore_version=read_header(data_dir() / "mindspore_inventory.json").get("version"),
    )
    for version in versions or VERSIONS:
        kb = get_knowledge_base(version)
        report.tables[kb.version] = table_consistency(kb)
    return report
