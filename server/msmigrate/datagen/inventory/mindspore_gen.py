"""Build the MindSpore inventory from the installed package: every public module walked, signatures from
``inspect`` (docstrings for C methods)."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import warnings
from pathlib import Path
from typing import Any

from msmigrate.datagen.inventory.discover import discover
from msmigrate.datagen.inventory.introspect import Inventory, ModuleWalker
from msmigrate.datagen.inventory.table_names import table_mindspore_names
from msmigrate.datagen.inventory.walk import WalkHooks, WalkResult, walk_package

# modules not imported by the walk: build-time code generators and tools, not user APIs
SIDE_EFFECTS: frozenset[str] = frozenset({
    "mindspore.ops_generate",  # generates operator sources when the package is built
    "mindspore.run_check",  # runs a device check
})


# public APIs that the module's ``__all__`` omits and that are defined in another public module
EXTRA_NAMES: dict[str, tuple[str, ...]] = {
    "mindspore.mint": ("addcmul", "clip", "fix", "ge", "item"),
}


def _import_quietly() -> Any:
    """Import MindSpore with its warnings and log lines kept off the console."""
    os.environ.setdefault("GLOG_v", "3")
    logging.getLogger("mindspore").setLevel(logging.ERROR)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        import mindspore

    return mindspore


def mindspore_version() -> str:
    return str(_import_quietly().__version__)


def build(data: Path | None = None, sources: Path | None = None) -> WalkResult:
    """The MindSpore inventory: every public module walked, names tied to canonical spellings."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        mindspore = _import_quietly()
        found = discover("mindspore", SIDE_EFFECTS)
        result = walk_package("mindspore", found.modules, WalkHooks(extra_names=EXTRA_NAMES))
        walker = ModuleWalker(Inventory(result.apis))

        def tensor_like(_parent: str, owner: type) -> bool:
            return issubclass(owner, mindspore.Tensor)

        for name in table_mindspore_names(data, sources):
            if name not in result.aliases:
                walker.add_cited(mindspore, name, tensor_like)
    result.skipped = {name: why for name, why in found.skipped.items() if why != "private"}
    return result
