"""Counts over the bundled knowledge (``msmigrate data stats``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from msmigrate.knowledge.base import VERSIONS
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


def knowledge_stats(folder: Path | None = None) -> dict[str, Any]:
    """``{"versions": {"2.4": {...}}, "torch_inventory": N, "mindspore_inventory": N}``."""
    folder = folder or data_dir()
    versions: dict[str, dict[str, int]] = {}
    for version in VERSIONS:
        path = folder / f"mapping-{version}.json"
        if path.is_file():
            versions[version] = table_stats(json.loads(path.read_text(encoding="utf-8")))
    return {
        "versions": versions,
        "torch_inventory": _inventory_size(folder / "torch_inventory.json"),
        "mindspore_inventory": _inventory_size(folder / "mindspore_inventory.json"),
    }
