"""What the knowledge base covers, read from its files' first or last bytes without loading them: the torch
and MindSpore versions of the API inventories, each mapping table's MindSpore release
(``msmigrate --version``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from msmigrate.knowledge.base import VERSIONS
from msmigrate.paths import data_dir

_HEAD_BYTES = 16_384  # a mapping table's header keys sort before its rows
_TAIL_BYTES = 1_024  # an inventory's "version" is its last key
_RELEASE = re.compile(r'"release":\s*"([^"]*)"')
_INVENTORY_VERSION = re.compile(r'"version":\s*"([^"]*)"\s*}\s*$')


@dataclass(frozen=True, slots=True)
class Coverage:
    folder: Path
    torch: str | None  # version of the torch API inventory
    mindspore: str | None  # version of the MindSpore API inventory
    tables: tuple[tuple[str, str | None], ...]  # (table version, MindSpore release it was read from)


def coverage(folder: Path | None = None) -> Coverage:
    folder = folder or data_dir()
    return Coverage(
        folder,
        _inventory_version(folder / "torch_inventory.json"),
        _inventory_version(folder / "mindspore_inventory.json"),
        tuple((version, _table_release(folder / f"mapping-{version}.json")) for version in VERSIONS),
    )


def _inventory_version(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            fh.seek(max(0, path.stat().st_size - _TAIL_BYTES))
            tail = fh.read().decode("utf-8", "replace")
    except OSError:
        return None
    found = _INVENTORY_VERSION.search(tail)
    return found.group(1) if found else None


def _table_release(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    head = head.split('"rows"', 1)[0]
    found = _RELEASE.search(head)
    return found.group(1) if found else None
