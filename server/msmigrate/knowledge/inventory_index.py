"""An inventory file read for the language server: names at once, entries parsed on first use.

``mapping_data/<package>_inventory.json`` holds one API (and one alias) per line
(``datagen/inventory/writer.py``), so loading keeps each entry's JSON text and parses it only when asked:
tens of thousands of names cost a few MB and a few tens of milliseconds. :meth:`InventoryIndex.resolve`
turns any spelling into the canonical name: aliases (``torch.functional.split`` → ``torch.split``), names
under an aliased prefix (``torch.nn.modules.module.Module.to`` → ``torch.nn.Module.to``) and members
inherited from a public base (``torch.nn.Linear.to`` → ``torch.nn.Module.to``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

_MAX_DEPTH = 8


def read_header(path: Path) -> dict[str, Any]:
    """``schema_version``, ``package`` and ``version`` of an inventory file; empty if it is missing."""
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as fh:
        doc = json.load(fh)
    return {key: doc.get(key) for key in ("schema_version", "package", "version")}


class InventoryIndex(Mapping[str, dict[str, Any]]):
    """``apis`` as a read-only mapping (canonical name → entry), plus ``aliases`` and :meth:`resolve`."""

    def __init__(self, raw: dict[str, str], aliases: dict[str, str], header: dict[str, Any]) -> None:
        self._raw = raw  # canonical name → the entry's JSON text
        self._parsed: dict[str, dict[str, Any]] = {}
        self.aliases = aliases
        self.header = header
        self._resolved: dict[str, str | None] = {}

    @classmethod
    def empty(cls) -> InventoryIndex:
        return cls({}, {}, {})

    @classmethod
    def from_apis(cls, apis: dict[str, dict[str, Any]],
                  aliases: dict[str, str] | None = None) -> InventoryIndex:
        """An index of entries held in memory (tests, tools)."""
        return cls._from_document({"apis": apis, "aliases": aliases or {}})

    @classmethod
    def load(cls, path: Path) -> InventoryIndex:
        if not path.is_file():
            return cls.empty()
        return cls.parse(path.read_text(encoding="utf-8"))

    @classmethod
    def parse(cls, text: str) -> InventoryIndex:
        """Read the writer's layout; any other valid JSON is read whole."""
        sections: dict[str, dict[str, str]] = {"apis": {}, "aliases": {}}
        header: dict[str, Any] = {}
        current: dict[str, str] | None = None
        lines = text.split("\n")
        if not lines or lines[0] != "{":
            return cls._from_document(json.loads(text))
        if text.rstrip("\n")[-2:] != "\n}":  # cut short: a damaged file
            raise ValueError("the inventory ends before its last line")
        for line in lines[1:]:
            if current is not None:
                if line.startswith("}"):
                    current = None
                    continue
                cut = line.index('":')
                value = line[cut + 2:]
                current[line[1:cut]] = value[:-1] if value.endswith(",") else value
            elif line.endswith(":{"):
                current = sections.setdefault(json.loads(line[:-2]), {})
            elif line.startswith('"'):
                item = json.loads("{" + line.rstrip(",") + "}")
                header.update(item)
        if current is not None:
            raise ValueError("the inventory ends before its last line")
        aliases = {name: json.loads(value) for name, value in sections["aliases"].items()}
        return cls(sections["apis"], aliases, header)

    @classmethod
    def _from_document(cls, doc: dict[str, Any]) -> InventoryIndex:
        raw = {name: json.dumps(entry) for name, entry in doc.get("apis", {}).items()}
        header = {k: v for k, v in doc.items() if k not in ("apis", "aliases")}
        return cls(raw, dict(doc.get("aliases", {})), header)

    # --- Mapping ---------------------------------------------------------------------------------
    def __getitem__(self, name: str) -> dict[str, Any]:
        entry = self._parsed.get(name)
        if entry is None:
            entry = self._parsed[name] = json.loads(self._raw[name])
        return entry

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    # --- spellings -------------------------------------------------------------------------------
    def resolve(self, name: str) -> str | None:
        """The canonical name ``name`` spells, or ``None`` when the package has no such name."""
        found = self._resolved.get(name, "")
        if found == "":
            found = self._resolved[name] = self._resolve(name, 0)
        return found

    def _resolve(self, name: str, depth: int) -> str | None:
        if name in self._raw:
            return name
        target = self.aliases.get(name)
        if target is not None:
            return target if target in self._raw or depth >= _MAX_DEPTH else self._resolve(target, depth + 1)
        owner, _, last = name.rpartition(".")
        if not owner or depth >= _MAX_DEPTH:
            return None
        base = self._resolve(owner, depth + 1)
        if base is None:
            return None
        if base != owner:
            moved = self._resolve(f"{base}.{last}", depth + 1)
            if moved is not None:
                return moved
        for parent in self[base].get("bases", ()):
            inherited = f"{parent}.{last}"
            if inherited in self._raw:
                return inherited
        return None

    def members(self, owner: str) -> frozenset[str]:
        """Short names listed directly under ``owner`` (its own members, not inherited ones)."""
        prefix = owner + "."
        size = len(prefix)
        return frozenset(n[size:] for n in self._raw if n.startswith(prefix) and "." not in n[size:])

    def all_members(self, owner: str) -> frozenset[str]:
        """Short names of a class's members, its public bases' included (``torch.nn.Module``'s for
        ``torch.nn.Linear``)."""
        names = set(self.members(owner))
        entry = self.get(owner)
        for base in entry.get("bases", ()) if entry else ():
            names.update(self.members(base))
        return frozenset(names)
