"""Generate derived mappings (``msmigrate data derive`` → ``mapping_data/derived-<v>.json``).

For every torch API of the torch inventory that table ``<v>`` does not map (no row, or a row whose
MindSpore target the MindSpore inventory no longer has), the candidates are, in this order:

1. rows of the other official tables whose MindSpore target still exists (newest table first);
2. MindSpore APIs of the same name in the counterpart namespaces (``derive_candidates.NAMESPACES``) with a
   compatible kind, their parameters compared with the torch signature
   (``derive_signature.compare_signatures``).

The same target found both ways is one candidate with both pieces of evidence. ``cpu_alternatives``
(``datagen/derive_device.py``) holds the same kind of candidates for table rows whose target has no CPU
kernel, as recorded by ``verified-<v>-CPU.json`` (which the output therefore also depends on). Pairs listed in
``derive_exceptions.EXCEPTIONS`` (reviewed, with a reason each) are left out and recorded as excluded.
The numeric check (``msmigrate check --derived --all``) is applied when the file is read, not here, so
the output depends on the tables, the inventories, the exceptions (and the table checks) only, and is
byte-reproducible.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from msmigrate.datagen.derive_candidates import candidates_for
from msmigrate.datagen.derive_device import device_alternatives
from msmigrate.datagen.derive_exceptions import EXCEPTIONS
from msmigrate.datagen.derive_signature import NO_PARAMETERS, SAME
from msmigrate.knowledge.base import VERSIONS, KnowledgeBase, get_knowledge_base
from msmigrate.knowledge.derived import SCHEMA_VERSION, derived_path
from msmigrate.knowledge.model import MappingCategory


def _wanted(torch_api: str, kb: KnowledgeBase) -> bool:
    kind = kb.torch_kind(torch_api)
    return (
        kind is not None
        and kind != "module"
        and not any(part.startswith("_") for part in torch_api.split("."))
        and not kb.is_data_processing(torch_api)
    )


def derive_table(kb: KnowledgeBase, others: Iterable[KnowledgeBase]) -> dict[str, Any]:
    """The derived document of ``kb``'s table (``others``: the other tables, any order)."""
    newest_first = sorted(others, key=lambda o: tuple(int(p) for p in o.version.split(".")), reverse=True)
    newest_first = [o for o in newest_first if o.version != kb.version]
    mappings: dict[str, Any] = {}
    excluded: dict[str, list[dict[str, str]]] = {}
    for torch_api in sorted(kb.torch_inventory):
        if not _wanted(torch_api, kb):
            continue
        row = kb.row(torch_api)
        replaces = None
        if row is not None:
            if not row.mindspore_api or kb.mindspore_has(row.mindspore_api):
                continue  # mapped by the table under any spelling (or stated unsupported by it)
            replaces = row.mindspore_api
        kept = []
        for candidate in candidates_for(torch_api, kb, newest_first):
            target = candidate.row.mindspore_api or ""
            reason = EXCEPTIONS.get((torch_api, target)) or EXCEPTIONS.get((torch_api, "*"))
            if reason:
                excluded.setdefault(torch_api, []).append({"mindspore_api": target, "reason": reason})
            else:
                kept.append(candidate.to_json())
        if kept or replaces:
            mappings[torch_api] = {"replaces": replaces, "candidates": kept}
    return {
        "schema_version": SCHEMA_VERSION,
        "mapping_table": kb.version,
        "cpu_alternatives": device_alternatives(kb, newest_first, mappings),
        "torch_version": _inventory_version("torch"),
        "mindspore_version": _inventory_version("mindspore"),
        "counts": _counts(mappings, excluded),
        "mappings": mappings,
        "excluded": excluded,
    }


def _counts(mappings: dict[str, Any], excluded: dict[str, list[dict[str, str]]]) -> dict[str, int]:
    candidates = [c for item in mappings.values() for c in item["candidates"]]
    return {
        "torch_apis": sum(1 for item in mappings.values() if item["candidates"]),
        "candidates": len(candidates),
        "from_other_tables": sum(1 for c in candidates if c["tables"]),
        "by_name": sum(1 for c in candidates if c["by_name"]),
        "same_signature": sum(1 for c in candidates if c["signature"] in (SAME, NO_PARAMETERS)),
        "consistent": sum(1 for c in candidates if c["row"]["category"] == MappingCategory.CONSISTENT.value),
        "gone_targets": sum(1 for item in mappings.values() if item["replaces"]),
        "gone_targets_replaced": sum(
            1 for item in mappings.values() if item["replaces"] and item["candidates"]
        ),
        "excluded": sum(len(v) for v in excluded.values()),
    }


def _inventory_version(package: str) -> str | None:
    from msmigrate.knowledge.inventory_index import read_header
    from msmigrate.paths import data_dir

    return read_header(data_dir() / f"{package}_inventory.json").get("version")


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def derive_all(out: Path, versions: Iterable[str] = VERSIONS) -> list[Path]:
    """Write ``derived-<v>.json`` for ``versions`` into ``out``; return the files written."""
    tables = [get_knowledge_base(v) for v in VERSIONS]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for version in versions:
        kb = get_knowledge_base(version)
        path = derived_path(kb.version, out)
        path.write_text(dumps(derive_table(kb, tables)), encoding="utf-8")
        written.append(path)
    return written
