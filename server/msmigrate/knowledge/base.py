"""Read-only access to the knowledge base: rows by torch name, inventories, aliases, near names."""

from __future__ import annotations

from functools import cache, cached_property
from importlib import metadata
from pathlib import Path
from typing import Any

from msmigrate.data_files import KnowledgeBaseError, damaged, read_json, require_files, required_files
from msmigrate.knowledge.derived import DerivedMapping, DerivedTable, derived_path, load_derived
from msmigrate.knowledge.inventory_index import InventoryIndex
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


def table_path(version: str) -> Path:
    return data_dir() / f"mapping-{version}.json"


class KnowledgeBase:
    """Everything the analyzer, rules, fixes, hover and reports ask about torch and MindSpore APIs."""

    def __init__(self, version: str | None = None, *, derived: bool = True) -> None:
        self.version = resolve_version(version)
        self.use_derived = derived  # False: the official table only (no derived mappings)
        self._required = False

    def require(self, load: bool = True) -> KnowledgeBase:
        """Load what every analysis reads: the mapping table, the inventories and the derived mappings.
        Raises :class:`~msmigrate.data_files.KnowledgeBaseError` when a file of the knowledge base is
        missing or damaged, so callers stop with one clear error before analysing anything.
        ``load=False`` (one lookup): only check that every file is there; a damaged one raises
        ``KnowledgeBaseError`` when it is first read."""
        if not self._required:
            require_files(data_dir(), required_files(VERSIONS))
            if not load:
                return self
            self.table  # noqa: B018 - loaded for the check
            self.torch_inventory  # noqa: B018
            self.mindspore_inventory  # noqa: B018
            self.derived_table  # noqa: B018
            self._required = True
        return self

    # --- mapping table -------------------------------------------------------------------------
    @cached_property
    def table(self) -> MappingTable:
        path = table_path(self.version)
        data = read_json(path)
        try:
            return MappingTable.from_json(data)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise damaged(path, exc) from None

    @cached_property
    def _rows(self) -> dict[str, MappingRow]:
        rows: dict[str, MappingRow] = {}
        for row in self.table.rows:
            rows.setdefault(row.torch_api, row)  # first row wins when a table lists an API twice
        return rows

    @cached_property
    def _rows_by_canonical(self) -> dict[str, MappingRow]:
        """Rows under the canonical spelling of their torch name (a table may cite ``torch.amp.GradScaler``
        for the class whose canonical name is ``torch.GradScaler``)."""
        rows: dict[str, MappingRow] = {}
        for name, row in self._rows.items():
            rows.setdefault(self.torch_inventory.resolve(name) or name, row)
        return rows

    def row(self, torch_api: str) -> MappingRow | None:
        """The mapping row of a torch name: the row of this very spelling, else of its canonical name."""
        found = self._rows.get(torch_api)
        if found is None:
            canonical = self.torch_inventory.resolve(torch_api)
            found = self._rows_by_canonical.get(canonical) if canonical is not None else None
        return found

    def rows(self) -> tuple[MappingRow, ...]:
        return self.table.rows

    # --- derived mappings (knowledge/derived.py) --------------------------------------------------
    @cached_property
    def derived_table(self) -> DerivedTable:
        """The derived mappings (:class:`KnowledgeBaseError` when their file is missing or damaged)."""
        if not self.use_derived:
            return DerivedTable.empty()
        table = load_derived(self.version, data_dir())
        if not table.header:  # the file did not load
            path = derived_path(self.version, data_dir())
            read_json(path)  # says why: missing, not JSON
            raise damaged(path, "no derived mappings")
        return table

    def derived(self, torch_api: str) -> DerivedMapping | None:
        """The derived mapping offered for a torch API the table does not map, or maps to a MindSpore API
        the installed MindSpore no longer has (never a candidate that failed its numeric check)."""
        return self.derived_table.offered(torch_api)

    def gone_target(self, torch_api: str) -> str | None:
        """The table row's MindSpore target when the MindSpore inventory no longer has it."""
        return self.derived_table.gone_target(torch_api)

    def mapping(self, torch_api: str) -> MappingRow | None:
        """The row to apply: the table's, unless its target is gone and a derived replacement exists;
        else the derived one."""
        derived = self.derived(torch_api)
        return derived.row if derived is not None else self.row(torch_api)

    @property
    def general_difference_params(self) -> tuple[str, ...]:
        return self.table.general_difference_params

    # --- inventories ---------------------------------------------------------------------------
    @cached_property
    def torch_inventory(self) -> InventoryIndex:
        """Canonical torch name → entry (kind, signatures, bases); ``.aliases``, ``.resolve(spelling)``."""
        return _inventory("torch")

    @cached_property
    def mindspore_inventory(self) -> InventoryIndex:
        return _inventory("mindspore")

    def resolve_torch(self, name: str) -> str | None:
        """The canonical torch 2.13 name any spelling refers to, ``None`` when torch has no such name."""
        return self.torch_inventory.resolve(name)

    def is_torch_api(self, name: str) -> bool:
        return self.torch_inventory.resolve(name) is not None or name in self._rows

    def torch_entry(self, name: str) -> dict[str, Any] | None:
        canonical = self.torch_inventory.resolve(name)
        return self.torch_inventory[canonical] if canonical is not None else None

    def torch_kind(self, name: str) -> str | None:
        entry = self.torch_entry(name)
        return entry["kind"] if entry else None

    def torch_signatures(self, name: str) -> list[list[dict[str, Any]]]:
        entry = self.torch_entry(name)
        return entry.get("signatures", []) if entry else []

    # MindSpore names: any spelling (``mindspore.dtype.float32``, ``mindspore.nn.Dense.construct``)
    def mindspore_canonical(self, name: str) -> str | None:
        """The canonical MindSpore 2.10 name ``name`` spells, ``None`` when MindSpore has no such name."""
        return self.mindspore_inventory.resolve(name)

    def mindspore_has(self, name: str) -> bool:
        return self.mindspore_inventory.resolve(name) is not None

    def mindspore_entry(self, name: str) -> dict[str, Any] | None:
        canonical = self.mindspore_inventory.resolve(name)
        return self.mindspore_inventory[canonical] if canonical is not None else None

    def mindspore_kind(self, name: str) -> str | None:
        entry = self.mindspore_entry(name)
        return entry["kind"] if entry else None

    def mindspore_signatures(self, name: str) -> list[list[dict[str, Any]]]:
        entry = self.mindspore_entry(name)
        return entry.get("signatures", []) if entry else []

    @cached_property
    def tensor_members(self) -> frozenset[str]:
        """Short names of ``torch.Tensor`` methods and attributes."""
        return self.torch_inventory.all_members("torch.Tensor")

    @cached_property
    def module_members(self) -> frozenset[str]:
        return self.torch_inventory.all_members("torch.nn.Module")

    @cached_property
    def optimizer_members(self) -> frozenset[str]:
        return self.torch_inventory.all_members("torch.optim.Optimizer")

    def children(self, module: str) -> frozenset[str]:
        """Short names directly inside a torch module or class (``torch.nn`` → ``Linear``, …)."""
        return self.torch_inventory.all_members(self.torch_inventory.resolve(module) or module)

    # --- names ---------------------------------------------------------------------------------
    def expand(self, name: str) -> str:
        """Expand common aliases (``nn.Linear``, ``F.relu``, ``Tensor.view``) to full torch names."""
        name = name.strip()
        if name.startswith(("torch.", "torchvision.", "torchaudio.", "torchtext.")) or name == "torch":
            return name
        for prefix, full in ALIAS_PREFIXES.items():
            if name.startswith(prefix):
                return full + name[len(prefix) :]
        candidate = "torch." + name
        return candidate if self.is_torch_api(candidate) else name

    def canonical(self, name: str) -> str:
        """The canonical torch name of any spelling: import aliases (``F.relu``), re-exports
        (``torch.functional.split`` → ``torch.split``), internal modules (``torch.nn.modules.loss.L1Loss`` →
        ``torch.nn.L1Loss``), inherited members (``torch.nn.Linear.to`` → ``torch.nn.Module.to``). A name
        torch does not have is returned expanded but otherwise as written."""
        expanded = self.expand(name)
        return self.torch_inventory.resolve(expanded) or expanded

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
def _inventory(package: str) -> InventoryIndex:
    """The inventory of ``package`` (:class:`KnowledgeBaseError` when it is missing or damaged)."""
    path = data_dir() / f"{package}_inventory.json"
    try:
        index = InventoryIndex.parse(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KnowledgeBaseError("kb.error.missing", str(path)) from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise damaged(path, exc) from None
    if not index:
        raise damaged(path, "no API")
    return index


def get_knowledge_base(version: str | None = None, *, derived: bool = True) -> KnowledgeBase:
    """Shared instance per resolved version: ``auto`` and the version it resolves to share one instance,
    so a table is loaded once. ``derived=False``: the official table alone, without derived mappings."""
    return _knowledge_base(resolve_version(version), derived)


@cache
def _knowledge_base(version: str, derived: bool = True) -> KnowledgeBase:
    return KnowledgeBase(version, derived=derived)
