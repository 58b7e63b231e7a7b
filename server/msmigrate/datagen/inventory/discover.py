"""Find and import the public modules of an installed package, recursively and within bounds.

Skipped, and recorded with the reason: private modules (a part starting with ``_``), tests, command-line
entry points, modules known to have side effects on import, modules past the depth or count bound, and
modules that fail to import (a missing optional dependency, a platform-specific extension).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil
import warnings
from dataclasses import dataclass, field
from types import ModuleType

MAX_DEPTH = 7  # parts of a module name (``torch.distributed.elastic.multiprocessing.errors`` has 5)
MAX_MODULES = 3000

# module name parts that are never user APIs
SKIPPED_PARTS = frozenset({"test", "tests", "testing_utils", "benchmarks", "examples", "__main__"})


@dataclass
class Discovery:
    """The imported public modules, by name (sorted), and what was skipped with its reason."""

    modules: dict[str, ModuleType] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)


def discover(root: str, side_effects: frozenset[str] = frozenset(), max_depth: int = MAX_DEPTH,
             max_modules: int = MAX_MODULES) -> Discovery:
    """Import ``root`` and its public submodules breadth first, in sorted order (deterministic).

    ``side_effects``: module names (and their submodules) not to import at all.
    """
    found = Discovery()
    queue = [root]
    while queue:
        name = queue.pop(0)
        reason = _skip_reason(name, side_effects, max_depth)
        if reason is None and len(found.modules) >= max_modules:
            reason = "bound"
        if reason is not None:
            found.skipped[name] = reason
            continue
        module = _import(name)
        if module is None:
            found.skipped[name] = "import failed"
            continue
        found.modules[name] = module
        queue.extend(f"{name}.{child}" for child in _children(module))
    found.modules = dict(sorted(found.modules.items()))
    found.skipped = dict(sorted(found.skipped.items()))
    return found


def _skip_reason(name: str, side_effects: frozenset[str], max_depth: int) -> str | None:
    parts = name.split(".")
    if any(part.startswith("_") for part in parts):
        return "private"
    if SKIPPED_PARTS.intersection(parts):
        return "tests or entry point"
    if any(name == s or name.startswith(s + ".") for s in side_effects):
        return "side effects"
    if len(parts) > max_depth:
        return "bound"
    return None


def _children(module: ModuleType) -> list[str]:
    """Names of the submodules found on a package's path (none for a plain module)."""
    path = getattr(module, "__path__", None)
    if path is None:
        return []
    try:
        names = {info.name for info in pkgutil.iter_modules(list(path))}
    except Exception:  # an odd namespace path
        return []
    return sorted(names)


def _import(name: str) -> ModuleType | None:
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            return importlib.import_module(name)
        except (Exception, SystemExit):  # missing optional dependency, platform-only extension, exit()
            return None
