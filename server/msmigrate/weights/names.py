"""Which MindSpore parameter each tensor of a torch state dict becomes (no framework imported).

With the migrated model's parameters (:func:`plan_for_model`), every parameter's torch name is derived
from the class of the cell holding it (``knowledge/cell_parameters.py``: a ``mindspore.nn.BatchNorm2d``
``gamma`` is torch's ``weight``), the two name lists are aligned on a prefix torch added or dropped
(``module.`` of ``DataParallel``), and every shape is checked. Without a model (:func:`plan_from_names`)
only what the state dict itself shows is renamed: a module with running statistics is a BatchNorm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from msmigrate.knowledge.cell_parameters import (
    KEEP_INITIAL,
    TORCH_ONLY,
    layout,
    parameter_name,
    torch_parameter_name,
)

Shape = tuple[int, ...]
# the MindSpore class whose names a state dict's BatchNorm gets when there is no model to ask
DEFAULT_BATCH_NORM = "mindspore.nn.BatchNorm2d"


@dataclass(frozen=True, slots=True)
class TorchTensor:
    name: str
    shape: Shape
    dtype: str
    tied_to: str | None = None  # the first entry sharing its storage (tied weights)


@dataclass(frozen=True, slots=True)
class MindSporeParameter:
    path: str  # name path in the model (``parameters_and_names``)
    name: str  # the parameter's own name: the checkpoint key
    shape: Shape
    dtype: str
    cell: str  # name path of the cell holding it
    cell_class: str  # public MindSpore class of that cell (nearest in its bases), else its own


@dataclass(frozen=True, slots=True)
class Assignment:
    torch: str
    mindspore: str  # checkpoint key
    torch_shape: Shape
    shape: Shape
    layout: str  # same | insert_axis:<n> | reshape
    dtype: str  # of the MindSpore parameter (the torch dtype without a model)
    cell_class: str | None = None  # the class that renamed it, when renamed

    def to_json(self) -> dict[str, Any]:
        return {
            "torch": self.torch,
            "mindspore": self.mindspore,
            "torch_shape": list(self.torch_shape),
            "shape": list(self.shape),
            "layout": self.layout,
            "dtype": self.dtype,
            "renamed_by": self.cell_class,
        }


@dataclass(frozen=True, slots=True)
class Mismatch:
    torch: str
    mindspore: str
    torch_shape: Shape
    shape: Shape
    transposed: bool  # the shapes are each other's reverse: a layout no fact explains

    def to_json(self) -> dict[str, Any]:
        return {
            "torch": self.torch,
            "mindspore": self.mindspore,
            "torch_shape": list(self.torch_shape),
            "shape": list(self.shape),
            "transposed": self.transposed,
        }


@dataclass(slots=True)
class Plan:
    assignments: list[Assignment] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (torch name, reason key)
    unused: list[TorchTensor] = field(default_factory=list)
    missing: list[MindSporeParameter] = field(default_factory=list)
    kept_initial: list[MindSporeParameter] = field(default_factory=list)
    mismatched: list[Mismatch] = field(default_factory=list)
    torch_prefix: str = ""  # removed from every torch name before matching
    mindspore_prefix: str = ""  # added to every torch name before matching
    with_model: bool = False

    @property
    def complete(self) -> bool:
        """Every model parameter gets a value of its shape and every torch tensor is used."""
        return not (self.missing or self.mismatched or self.unused)

    @property
    def loadable(self) -> bool:
        """Every model parameter gets a value of its shape (torch tensors may be left over)."""
        return not (self.missing or self.mismatched)

    def to_json(self) -> dict[str, Any]:
        return {
            "with_model": self.with_model,
            "torch_prefix": self.torch_prefix,
            "mindspore_prefix": self.mindspore_prefix,
            "parameters": [a.to_json() for a in self.assignments],
            "dropped": [{"torch": name, "reason": reason} for name, reason in self.dropped],
            "unused": [
                {"torch": t.name, "shape": list(t.shape), "dtype": t.dtype, "tied_to": t.tied_to}
                for t in self.unused
            ],
            "missing": [
                {"mindspore": p.name, "shape": list(p.shape), "cell_class": p.cell_class}
                for p in self.missing
            ],
            "kept_initial": [
                {"mindspore": p.name, "shape": list(p.shape), "cell_class": p.cell_class}
                for p in self.kept_initial
            ],
            "mismatched": [m.to_json() for m in self.mismatched],
        }


def fit_layout(torch_shape: Shape, shape: Shape, fact: tuple[str, int] | None) -> str | None:
    """How a torch value of ``torch_shape`` becomes a parameter of ``shape``: ``same``, ``insert_axis:n``
    (a layout fact), ``reshape`` (only axes of size 1 differ, so no value moves); ``None`` when it cannot."""
    if torch_shape == shape:
        return "same"
    if fact is not None and fact[0] == "insert_axis":
        axis = fact[1]
        if (*torch_shape[:axis], 1, *torch_shape[axis:]) == shape:
            return f"insert_axis:{axis}"
    if math.prod(torch_shape) == math.prod(shape) and [d for d in torch_shape if d != 1] == [
        d for d in shape if d != 1
    ]:
        return "reshape"
    return None


def _leading_prefixes(names: list[str], depth: int = 2) -> list[str]:
    """Dotted prefixes (``module.``, ``module.model.``) that every name starts with."""
    found: list[str] = []
    if not names:
        return found
    parts = [name.split(".") for name in names]
    for level in range(1, depth + 1):
        if any(len(p) <= level for p in parts):
            break
        head = parts[0][:level]
        if all(p[:level] == head for p in parts):
            found.append(".".join(head) + ".")
    return found


def _expected_torch_name(param: MindSporeParameter) -> str:
    short = param.path.rpartition(".")[2]
    torch_short = torch_parameter_name(param.cell_class, short)
    return f"{param.cell}.{torch_short}" if param.cell else torch_short


def _align(tensors: list[TorchTensor], expected: set[str]) -> tuple[str, str]:
    """The (torch prefix to remove, prefix to add) under which most torch names are expected names."""
    names = [t.name for t in tensors]
    expected_list = sorted(expected)
    best = ("", "")
    best_hits = sum(name in expected for name in names)
    for strip in ["", *_leading_prefixes(names)]:
        for add in ["", *_leading_prefixes(expected_list)]:
            hits = sum(add + name[len(strip) :] in expected for name in names)
            if hits > best_hits:
                best, best_hits = (strip, add), hits
    return best


def plan_for_model(tensors: list[TorchTensor], params: list[MindSporeParameter]) -> Plan:
    """Match a torch state dict with the parameters of the migrated model; check every shape."""
    by_torch: dict[str, MindSporeParameter] = {}
    for param in params:
        by_torch.setdefault(_expected_torch_name(param), param)
    strip, add = _align(tensors, set(by_torch))
    plan = Plan(torch_prefix=strip, mindspore_prefix=add, with_model=True)
    used: set[str] = set()
    for tensor in tensors:
        key = add + tensor.name[len(strip) :] if tensor.name.startswith(strip) else tensor.name
        param = by_torch.get(key)
        if param is None or param.name in used:
            _leftover(plan, tensor, key, params)
            continue
        used.add(param.name)
        fitted = fit_layout(
            tensor.shape, param.shape, layout(param.cell_class, param.path.rpartition(".")[2])
        )
        if fitted is None:
            transposed = len(tensor.shape) > 1 and tensor.shape[::-1] == param.shape
            plan.mismatched.append(Mismatch(tensor.name, param.name, tensor.shape, param.shape, transposed))
            continue
        short = key.rpartition(".")[2]
        renamed = param.path.rpartition(".")[2] != short
        plan.assignments.append(
            Assignment(
                tensor.name,
                param.name,
                tensor.shape,
                param.shape,
                fitted,
                param.dtype,
                param.cell_class if renamed else None,
            )
        )
    _tied_to_used(plan, tensors)
    for param in params:
        if param.name in used:
            continue
        short = param.path.rpartition(".")[2]
        if short in KEEP_INITIAL.get(param.cell_class, ()):
            plan.kept_initial.append(param)
        else:
            plan.missing.append(param)
    return plan


def _leftover(plan: Plan, tensor: TorchTensor, key: str, params: list[MindSporeParameter]) -> None:
    """A torch tensor no parameter takes: dropped when its cell's class keeps no such value, else unused."""
    cell, _, short = key.rpartition(".")
    classes = {p.cell_class for p in params if p.cell == cell}
    if any(short in TORCH_ONLY.get(c, ()) for c in classes):
        plan.dropped.append((tensor.name, "weights.dropped.step_counter"))
    elif short == "num_batches_tracked" and not classes:
        plan.dropped.append((tensor.name, "weights.dropped.step_counter"))
    else:
        plan.unused.append(tensor)


def _tied_to_used(plan: Plan, tensors: list[TorchTensor]) -> None:
    """Unused tensors sharing their storage with an assigned one (tied weights) are dropped: the model
    holds that parameter once."""
    root = {t.name: t.tied_to or t.name for t in tensors}
    assigned_roots = {root[a.torch] for a in plan.assignments}
    kept = []
    for tensor in plan.unused:
        if root[tensor.name] in assigned_roots:
            plan.dropped.append((tensor.name, "weights.dropped.tied"))
        else:
            kept.append(tensor)
    plan.unused = kept


def plan_from_names(tensors: list[TorchTensor]) -> Plan:
    """Without a model: a module with ``running_mean`` and ``running_var`` is a BatchNorm and gets
    ``mindspore.nn``'s names; its ``num_batches_tracked`` is dropped; every other name is kept."""
    strip = "module." if tensors and all(t.name.startswith("module.") for t in tensors) else ""
    plan = Plan(torch_prefix=strip)
    by_cell: dict[str, set[str]] = {}
    for tensor in tensors:
        cell, _, short = tensor.name[len(strip) :].rpartition(".")
        by_cell.setdefault(cell, set()).add(short)
    for tensor in tensors:
        key = tensor.name[len(strip) :]
        cell, _, short = key.rpartition(".")
        is_norm = {"running_mean", "running_var"} <= by_cell[cell]
        if is_norm and short == "num_batches_tracked":
            plan.dropped.append((tensor.name, "weights.dropped.step_counter"))
            continue
        cls = DEFAULT_BATCH_NORM if is_norm else None
        name = parameter_name(cls, short) if cls else short
        target = f"{cell}.{name}" if cell else name
        plan.assignments.append(
            Assignment(
                tensor.name,
                target,
                tensor.shape,
                tensor.shape,
                "same",
                tensor.dtype,
                cls if name != short else None,
            )
        )
    return plan
