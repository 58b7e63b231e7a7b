"""The per-API input-spec table; ``msmigrate check --write-specs`` turns it into input_specs.json.

Keys are full torch names. Notes are ids of ``check.note.<id>`` messages (bilingual).
"""

from __future__ import annotations

from pathlib import Path

from msmigrate.check.spec import ApiSpec, T, render_specs_json, specs_path

SPECS: dict[str, ApiSpec] = {}


def build_table() -> dict[str, ApiSpec]:
    return dict(SPECS)


def write_specs_file(path: Path | None = None) -> Path:
    """Write ``input_specs.json`` (byte-identical for the same table)."""
    from msmigrate.check.spec import load_specs

    path = path or specs_path()
    path.write_text(render_specs_json(build_table()), encoding="utf-8")
    load_specs.cache_clear()
    return path


_ = T
