"""Counts over the bundled knowledge (``msmigrate data stats``)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from msmigrate.knowledge.base import VERSIONS
from msmigrate.knowledge.derived import (
    NO_KERNEL,
    NO_PARAMETERS,
    SAME,
    derived_check_path,
    derived_path,
    load_derived,
    read_json,
)
from msmigrate.paths import data_dir


def table_stats(table: dict[str, Any]) -> dict[str, int]:
    rows = table["rows"]
    return {
        "rows": len(rows),
        "diff_pages": len({r["diff_page"] for r in rows if r.get("diff_page")}),
        "param_renames": sum(len(r.get("param_renames", {})) for r in rows),
        "unsupported_params": sum(len(r.get("torch_only_params", ())) for r in rows),
    }


def _inventory_size(path: Path) -> int:
    if not path.is_file():
        return 0
    return len(json.loads(path.read_text(encoding="utf-8")).get("apis", {}))


def derived_stats(version: str, folder: Path) -> dict[str, Any]:
    """Derived mappings of one table: those offered, by evidence, and the checks of every candidate."""
    table = load_derived(version, folder)
    offered = [m for m in (table.offered(api) for api in table.entries) if m is not None]
    candidates = [c for entry in table.entries.values() for c in entry.candidates]
    checks = Counter(
        "no_kernel" if c.check == "error" and c.check_reason == NO_KERNEL else (c.check or "unchecked")
        for c in candidates
    )
    gone = [entry for entry in table.entries.values() if entry.replaces]
    return {
        "mappings": len(offered),
        "from_other_tables": sum(1 for m in offered if m.tables),
        "by_name": sum(1 for m in offered if m.by_name),
        "by_name_same_signature": sum(
            1 for m in offered if m.by_name and m.signature in (SAME, NO_PARAMETERS)
        ),
        "verified_cpu": sum(1 for m in offered if m.verified),
        "consistent": sum(1 for m in offered if m.row.category.is_consistent),
        "candidates": len(candidates),
        "candidate_checks": {k: checks.get(k, 0) for k in (*CHECK_KEYS, "unchecked")},
        "not_offered_failed_check": sum(
            1 for entry in table.entries.values() if entry.candidates and entry.offered is None
        ),
        "gone_targets": len(gone),
        "gone_targets_replaced": sum(1 for entry in gone if entry.offered is not None),
        # table rows without a CPU kernel with other MindSpore APIs to try there, and with one verified
        "cpu_alternatives": len(table.alternatives),
        "cpu_alternatives_verified": sum(
            1 for found in table.alternatives.values() if any(c.verified for c in found)
        ),
    }


CHECK_KEYS = ("pass", "fail", "error", "no_kernel", "skipped")


def knowledge_stats(folder: Path | None = None) -> dict[str, Any]:
    """``{"versions": {"2.4": {...}}, "derived": {"2.4": {...}}, "derived_checks": {...},
    "torch_inventory": N, "mindspore_inventory": N}``."""
    folder = folder or data_dir()
    versions: dict[str, dict[str, int]] = {}
    for version in VERSIONS:
        path = folder / f"mapping-{version}.json"
        if path.is_file():
            versions[version] = table_stats(json.loads(path.read_text(encoding="utf-8")))
    checks = (read_json(derived_check_path(folder)) or {}).get("counts") or {}
    return {
        "versions": versions,
        "derived": {v: derived_stats(v, folder) for v in VERSIONS if derived_path(v, folder).is_file()},
        "derived_checks": dict(checks),
        "torch_inventory": _inventory_size(folder / "torch_inventory.json"),
        "mindspore_inventory": _inventory_size(folder / "mindspore_inventory.json"),
    }
