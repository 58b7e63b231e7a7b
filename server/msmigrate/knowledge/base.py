"""Read-only access to the knowledge base: rows by torch name, inventories, aliases, near names."""

from __future__ import annotations

import json
from functools import cache, cached_property
from importlib import metadata
from pathlib import Path
from typing import Any

from msmigrate.knowledge.model import MappingRow, MappingTable
from msmigrate.paths import data_dir

VERSIONS: tuple[str, ...] = ("1.10", "2.3", "2.4", "2.6")
DEFAULT_VERSION = "2.6"

# Common import aliases a user types (``nn.Linear``, ``F.relu``) → canonical prefix.
ALIAS_PREFIXES: dict[str, str] = {
    "nn.functional.": "torch.nn.functional.",
    "nn.init.": "torch.nn.init.",
    "nn.": "torch.nn.",
    "F.": "torch.nn.functional.",
    "Tensor.": "torch.Tensor.",
    "optim.lr_scheduler.": "torch.optim.lr_scheduler.",
    "lr_scheduler.": "torch.optim.lr_scheduler.",
    "optim.": "torch.optim.",
    "dist.": "torch.distributed.",
    "linalg.": "torch.linalg.",
    "fft.": "torch.fft.",
    "special.": "torch.special.",
    "init.": "torch.nn.init.",
    "data.": "torch.utils.data.",
}

# Namespaces the seeds treat as data processing (outside the network-API analysis).
DATA_PROCESSING_PREFIXES: tuple[str, ...] = (
    "torch.utils.data.",
    "torchvision.transforms.",
    "torchvision.datasets.",
    "torchvision.io.",
    "torchaudio.datasets.",
    "torchaudio.transforms.",
    "torchaudio.io.",
    "torchtext.data.",
    "torchtext.datasets.",
    "torchtext.transforms.",
    "torchtext.vocab.",
)


def resolve_version(version: str | None) -> str:
    """Turn ``None``/``auto``/``2.4.10``/``r2.4`` into a bundled table version. ``auto`` takes the table
    closest to the installed MindSpore; an explicit version must name a table (``ValueError`` otherwise)."""
    if not version or version == "auto":
        installed = _installed_mindspore()
        return closest_version(installed) if installed else DEFAULT_VERSION
    v = version.lstrip("rv")
    if v in VERSIONS:
        return v
    release = ".".join(v.split(".")[:2])  # a release of a table's version: 2.4.10 → 2.4
    if release in VERSIONS:
        return release
    choices = ", ".join(VERSIONS)
    raise ValueError(f"unknown MindSpore version {version!r}; choose one of {choices} or auto")


def closest_version(version: str) -> str | None:
    """The bundled table whose version is closest to ``version`` (``2.10.0`` → ``2.6``)."""
    try:
        parts = [int(p) for p in version.split(".")[:2]]
    except ValueError:
        return None
    if len(parts) == 1:
        parts.append(0)
    key = tuple(parts)
    candidates = [(tuple(int(p) for p in v.split(".")), v) for v in VERSIONS]
    exact = [v for k, v in candidates if k == key]
    if exact:
        return exact[0]
    older = [(k, v) for k, v in candidates if k <= key]
    return max(older)[1] if older else min(candidates)[1]


@cache
def _installed_mindspore() -> str | None:
    try:
        return metadata.version("mindspore")
    except metadata.PackageNotFoundError:
        return None


def _load_json(path: Path) -> Any:
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


def table_path(version: str) -> Path:
    return data_dir() / f"mapping-{version}.json"


class KnowledgeBase:
    """Everything the analyzer, rules, fixes, hover and reports ask about torch and MindSpore APIs."""

    def __init__(self, version: str | None = None) -> None:
        self.version = resolve_version(version)

    # --- mapping table -------------------------------------------------------------------------
    @cached_property
    def table(self) -> MappingTable:
        return MappingTable.from_json(_load_json(table_path(self.version)))

    @cached_property
    def _rows(self) -> dict[str, MappingRow]:
        rows: dict[str, MappingRow] = {}
        for row in self.table.rows:
            rows.setdefault(row.torch_api, row)  # first row wins when a table lists an API twice
        return rows

    def row(self, torch_api: str) -> MappingRow | None:
        """The mapping row of a canonical torch name, if the table has one."""
        return self._rows.get(torch_api)

    def rows(self) -> tuple[MappingRow, ...]:
        return self.table.rows

    @property
    def general_difference_params(self) -> tuple[str, ...]:
        return self.table.general_difference_params

    # --- inventories ---------------------------------------------------------------------------
    @cached_property
    def torch_inventory(self) -> dict[str, dict[str, Any]]:
        return _inventory("torch")

    @cached_property
    def mindspore_inventory(self) -> dict[str, dict[str, Any]]:
        return _inventory("mindspore")

    def is_torch_api(self, name: str) -> bool:
        return name in self.torch_inventory or name in self._rows

    def torch_kind(self, name: str) -> str | None:
        entry = self.torch_inventory.get(name)
        return entry["kind"] if entry else None

    def torch_signatures(self, name: str) -> list[list[dict[str, Any]]]:
        entry = self.torch_inventory.get(name)
        return entry.get("signatures", []) if entry else []

    def mindspore_signatures(self, name: str) -> list[list[dict[str, Any]]]:
        entry = self.mindspore_inventory.get(name)
        return entry.get("signatures", []) if entry else []

    @cached_property
    def tensor_members(self) -> frozenset[str]:
        """Short names of ``torch.Tensor`` methods and attributes."""
        return _members(self.torch_inventory, "torch.Tensor.")

    @cached_property
    def module_members(self) -> frozenset[str]:
        return _members(self.torch_inventory, "torch.nn.Module.")

    @cached_property
    def optimizer_members(self) -> frozenset[str]:
        return _members(self.torch_inventory, "torch.optim.Optimizer.")

    def children(self, module: str) -> frozenset[str]:
        """Short names directly inside a torch module or class (``torch.nn`` → ``Linear``, …)."""
        return _members(self.torch_inventory, module + ".")

    # --- names ---------------------------------------------------------------------------------
    def canonical(self, name: str) -> str:
        """Expand common aliases (``nn.Linear``, ``F.relu``, ``Tensor.view``) to full torch names."""
        name = name.strip()
        if name.startswith(("torch.", "torchvision.", "torchaudio.", "torchtext.")) or name == "torch":
            return name
        for prefix, full in ALIAS_PREFIXES.items():
            if name.startswith(prefix):
                return full + name[len(prefix) :]
        candidate = "torch." + name
        return candidate if self.is_torch_api(candidate) else name

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        """Near names for a probable typo, best first."""
        from rapidfuzz import fuzz, process

        choices = sorted(set(self.torch_inventory) | set(self._rows))
        found = process.extract(
            self.canonical(name), choices, scorer=fuzz.ratio, limit=limit, score_cutoff=75
        )
        return [match for match, _score, _idx in found]

    @staticmethod
    def is_data_processing(torch_api: str) -> bool:
        return torch_api.startswith(DATA_PROCESSING_PREFIXES)


@cache
def _inventory(package: str) -> dict[str, dict[str, Any]]:
    path = data_dir() / f"{package}_inventory.json"
    if not path.is_file():
        return {}
    return _load_json(path)["apis"]


def _members(inventory: dict[str, dict[str, Any]], prefix: str) -> frozenset[str]:
    size = len(prefix)
    return frozenset(n[size:] for n in inventory if n.startswith(prefix) and "." not in n[size:])


def get_knowledge_base(version: str | None = None) -> KnowledgeBase:
    """Shared instance per resolved version: ``auto`` and the version it resolves to share one instance,
    so a table is loaded once."""
    return _knowledge_base(resolve_version(version))


@cache
def _knowledge_base(version: str) -> KnowledgeBase:
    return KnowledgeBase(version)
