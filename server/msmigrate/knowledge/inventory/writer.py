"""Serialise an inventory deterministically: sorted keys, one API per line, final newline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1


def document(package: str, version: str, apis: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"schema_version": SCHEMA_VERSION, "package": package, "version": version, "apis": apis}


def dumps(doc: dict[str, Any]) -> str:
    """JSON text equal to ``json.dumps(doc, sort_keys=True)`` in content, with one API per line."""

    def compact(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    head = [f"{compact(key)}:{compact(doc[key])}" for key in sorted(doc) if key != "apis"]
    apis = doc["apis"]
    api_lines = ",\n".join(f"{compact(name)}:{compact(apis[name])}" for name in sorted(apis))
    return '{"apis":{\n' + api_lines + "\n},\n" + ",\n".join(head) + "\n}\n"


def write(doc: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(doc), encoding="utf-8")
    return path


def read_header(path: Path) -> dict[str, Any]:
    """``schema_version``, ``package`` and ``version`` of an inventory file; empty if it is missing."""
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as fh:
        doc = json.load(fh)
    return {key: doc.get(key) for key in ("schema_version", "package", "version")}
