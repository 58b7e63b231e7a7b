"""Torch-family names the official mapping tables reference (read without importing anything)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from msmigrate.paths import data_dir

_NAME = re.compile(r"\[?\s*`?((?:torch|torchvision|torchaudio|torchtext|mindspore)\.[\w.]+)")


def table_pairs(data: Path | None = None, sources: Path | None = None) -> list[tuple[str, str | None]]:
    """(torch API, MindSpore API) of every row of every bundled ``mapping-<v>.json``.

    Falls back to the first two cells of the markdown tables under ``sources`` when no JSON exists yet.
    """
    folder = data or data_dir()
    pairs: set[tuple[str, str | None]] = set()
    for path in sorted(folder.glob("mapping-*.json")):
        with path.open(encoding="utf-8") as fh:
            rows = json.load(fh).get("rows", ())
        pairs.update((row["torch_api"], row.get("mindspore_api")) for row in rows if row.get("torch_api"))
    if not pairs and sources is not None:
        for path in sorted(sources.glob("*/en/pytorch_api_mapping.md")):
            pairs.update(_markdown_pairs(path.read_text(encoding="utf-8")))
    return sorted(pairs, key=lambda p: (p[0], p[1] or ""))


def table_torch_names(data: Path | None = None, sources: Path | None = None) -> list[str]:
    return sorted({t for t, _ in table_pairs(data, sources)})


def table_mindspore_names(data: Path | None = None, sources: Path | None = None) -> list[str]:
    return sorted({m for _, m in table_pairs(data, sources) if m})


def _markdown_pairs(text: str) -> set[tuple[str, str | None]]:
    pairs: set[tuple[str, str | None]] = set()
    for line in text.splitlines():
        cells = line.split("|")
        if len(cells) < 4:
            continue
        torch_match = _NAME.match(cells[1].strip())
        if not torch_match or torch_match.group(1).startswith("mindspore"):
            continue
        ms_match = _NAME.match(cells[2].strip())
        ms_name = None
        if ms_match and ms_match.group(1).startswith("mindspore"):
            ms_name = ms_match.group(1).rstrip(".")
        pairs.add((torch_match.group(1).rstrip("."), ms_name))
    return pairs


def guessed_kind(name: str) -> str:
    """``class`` for CamelCase last components, else ``function`` (no import possible)."""
    last = name.rsplit(".", 1)[-1]
    return "class" if last[:1].isupper() else "function"
