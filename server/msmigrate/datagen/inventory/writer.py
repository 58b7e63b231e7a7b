"""Serialise an inventory deterministically: sorted keys, one API (or alias) per line, final newline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 2


def document(package: str, version: str, apis: dict[str, dict[str, Any]],
             aliases: dict[str, str] | None = None, skipped: dict[str, str] | None = None) -> dict[str, Any]:
    """``apis``: canonical name → entry; ``aliases``: other spelling → canonical name; ``skipped``: modules
    the walk did not import → why."""
    return {"schema_version": SCHEMA_VERSION, "package": package, "version": version, "apis": apis,
            "aliases": aliases or {}, "skipped": skipped or {}}


_PER_LINE = ("aliases", "apis")


def dumps(doc: dict[str, Any]) -> str:
    """JSON text equal to ``json.dumps(doc, sort_keys=True)`` in content, with one API or alias per line."""

    def compact(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    parts = []
    for key in sorted(doc):
        value = doc[key]
        if key in _PER_LINE and isinstance(value, dict):
            lines = ",\n".join(f"{compact(name)}:{compact(value[name])}" for name in sorted(value))
            parts.append(f"{compact(key)}:{{\n{lines}\n}}" if lines else f"{compact(key)}:{{}}")
        else:
            parts.append(f"{compact(key)}:{compact(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def write(doc: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(doc), encoding="utf-8")
    return path
