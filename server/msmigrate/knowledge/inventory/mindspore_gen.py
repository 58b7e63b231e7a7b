"""Build the MindSpore inventory from the installed package with ``inspect`` (docstrings for C methods)."""

from __future__ import annotations

import contextlib
import importlib
import io
import logging
import os
import warnings
from pathlib import Path
from typing import Any

from msmigrate.knowledge.inventory.introspect import Inventory, ModuleWalker, public_names, resolve
from msmigrate.knowledge.inventory.table_names import table_mindspore_names

# module → owner prefixes that count as "defined there" when the module has no ``__all__``
MODULES: dict[str, tuple[str, ...]] = {
    "mindspore": ("mindspore",),
    "mindspore.ops": ("mindspore.ops",),
    "mindspore.mint": ("mindspore",),
    "mindspore.mint.nn": ("mindspore",),
    "mindspore.mint.nn.functional": ("mindspore",),
    "mindspore.mint.optim": ("mindspore",),
    "mindspore.mint.linalg": ("mindspore",),
    "mindspore.mint.special": ("mindspore",),
    "mindspore.mint.distributed": ("mindspore",),
    "mindspore.nn": ("mindspore.nn",),
    "mindspore.experimental.optim": ("mindspore.experimental.optim",),
    "mindspore.experimental.optim.lr_scheduler": ("mindspore.experimental.optim",),
    "mindspore.dataset": ("mindspore.dataset",),
    "mindspore.dataset.vision": ("mindspore.dataset.vision",),
    "mindspore.dataset.transforms": ("mindspore.dataset.transforms",),
    "mindspore.dataset.text": ("mindspore.dataset.text",),
    "mindspore.dataset.audio": ("mindspore.dataset.audio",),
    "mindspore.communication": ("mindspore.communication",),
    "mindspore.amp": ("mindspore.amp",),
    "mindspore.numpy": ("mindspore.numpy",),
    "mindspore.common.initializer": ("mindspore.common.initializer",),
}

# public APIs that the module's ``__all__`` omits
EXTRA_NAMES: dict[str, tuple[str, ...]] = {
    "mindspore": (
        "FileReader", "FileWriter", "MindPage", "from_dlpack", "get_grad", "grad", "jacfwd", "jacrev", "jvp",
        "to_dlpack", "value_and_grad", "vjp", "vmap",
    ),
    "mindspore.mint": ("addcmul", "clip", "fix", "ge", "item"),
}

# classes whose members are listed under ``<class>.<member>``: (method kind, attribute kind, own members only)
CLASS_MEMBERS: dict[str, tuple[str, str, bool]] = {
    "mindspore.Tensor": ("tensor_method", "tensor_attribute", False),
    "mindspore.Parameter": ("method", "attribute", True),
    "mindspore.nn.Cell": ("method", "attribute", False),
    "mindspore.nn.Optimizer": ("method", "attribute", True),
    "mindspore.experimental.optim.Optimizer": ("method", "attribute", False),
    "mindspore.experimental.optim.lr_scheduler.LRScheduler": ("method", "attribute", False),
    "mindspore.dataset.Dataset": ("method", "attribute", False),
    "mindspore.amp.DynamicLossScaler": ("method", "attribute", False),
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


def build(data: Path | None = None, sources: Path | None = None) -> dict[str, dict[str, Any]]:
    """The ``apis`` mapping of the MindSpore inventory."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        mindspore = _import_quietly()
        inventory = Inventory()
        walker = ModuleWalker(inventory)
        for module_name, owners in MODULES.items():
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                continue
            names = sorted({*public_names(module, owners), *(n for n in EXTRA_NAMES.get(module_name, ())
                                                               if hasattr(module, n))})
            walker.walk(module_name, module, names)
        for class_name, (method_kind, attribute_kind, own_only) in CLASS_MEMBERS.items():
            cls = resolve(mindspore, class_name)
            if isinstance(cls, type):
                walker.walk_members(class_name, cls, method_kind=method_kind, attribute_kind=attribute_kind,
                                    own_only=own_only)

        def tensor_like(_parent: str, owner: type) -> bool:
            return issubclass(owner, mindspore.Tensor)

        for name in table_mindspore_names(data, sources):
            walker.add_cited(mindspore, name, tensor_like)
    return inventory.apis
