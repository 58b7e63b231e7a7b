"""The inputs of every submodule call, saved by the torch side of ``msmigrate compare`` (worker side), so
that the MindSpore side can run one layer alone on exactly what torch's layer received
(:mod:`msmigrate.compare.worker_alone`).

A forward pre-hook (with keyword arguments) saves each call's arguments before the layer runs (an in-place
layer changes them afterwards). A tensor is saved once: one that is still the same object, unchanged since
(torch's version counter), reuses the file of its first save, so a layer whose input is its parent's input
or the previous layer's output costs no file. An argument of the model's call is named by its position, so
that MindSpore gets the model's input as its worker built it (its own dtype). An argument may be a tensor,
``None`` or a number, bool or string; any other one (a tuple, a list, an object) makes the call "not
checked alone", with the position and type of the first such argument.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from msmigrate.compare.worker_common import hook_every

SCALARS = (bool, int, float, str)


class TensorFiles:
    """Tensors saved as ``.npy`` in ``folder``, each once while it is alive and unchanged."""

    def __init__(self, np: Any, folder: Path, to_numpy: Callable[[Any], tuple[Any, str]]) -> None:
        self.np, self.folder, self.to_numpy = np, folder, to_numpy
        self.count = 0
        self.known: dict[int, tuple[Any, int, dict[str, Any]]] = {}  # id → (weakref, version, saved)

    def remember(self, tensor: Any, saved: dict[str, Any]) -> None:
        """``tensor`` is held by ``saved`` (a file, or the model's input ``{"input": i}``)."""
        try:
            ref = weakref.ref(tensor)
        except TypeError:  # a tensor subclass without weak references: saved again when met again
            return
        self.known[id(tensor)] = (ref, tensor._version, saved)

    def save(self, tensor: Any) -> dict[str, Any]:
        found = self.known.get(id(tensor))
        if found is not None and found[0]() is tensor and found[1] == tensor._version:
            return found[2]
        array, dtype = self.to_numpy(tensor)
        self.folder.mkdir(parents=True, exist_ok=True)
        file = self.folder / f"{self.count}.npy"
        self.count += 1
        self.np.save(file, self.np.ascontiguousarray(array), allow_pickle=False)
        saved = {"file": str(file), "shape": list(array.shape), "dtype": dtype}
        self.remember(tensor, saved)
        return saved


def _node(value: Any, is_tensor: Callable[[Any], bool], files: TensorFiles) -> dict[str, Any] | None:
    """An argument as the MindSpore side rebuilds it, or ``None`` when it cannot be."""
    if is_tensor(value):
        return {"tensor": files.save(value)}
    if value is None:
        return {"none": True}
    if isinstance(value, SCALARS):
        return {"value": value}
    return None


def describe(
    args: tuple[Any, ...], kwargs: dict[str, Any], is_tensor: Callable[[Any], bool], files: TensorFiles
) -> dict[str, Any]:
    """``{"args": [...], "kwargs": {...}}`` of one call, or ``{"unchecked": {"position", "type"}}``."""
    found: dict[str, Any] = {"args": [], "kwargs": {}}
    named = [(str(i + 1), None, v) for i, v in enumerate(args)] + [(k, k, v) for k, v in kwargs.items()]
    for position, key, value in named:
        node = _node(value, is_tensor, files)
        if node is None:
            return {"unchecked": {"position": position, "type": type(value).__name__}}
        if key is None:
            found["args"].append(node)
        else:
            found["kwargs"][key] = node
    return found


def hook_inputs(
    named: Iterable[tuple[str, Any]], is_tensor: Callable[[Any], bool], files: TensorFiles
) -> tuple[dict[tuple[str, int], dict[str, Any]], list[Any]]:
    """A forward pre-hook on every submodule recording its call's inputs by ``(name path, call number)``;
    returns the records and the handles."""
    records: dict[tuple[str, int], dict[str, Any]] = {}

    def record(name: str, call: int, _module: Any, given: tuple[Any, Any]) -> None:
        records[(name, call)] = describe(tuple(given[0]), dict(given[1] or {}), is_tensor, files)

    return records, hook_every(named, record, before=True)
