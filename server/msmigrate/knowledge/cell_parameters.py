"""The names MindSpore cells give the parameters torch modules call otherwise (checked under MindSpore 2.10).

A MindSpore class not listed names its parameters as torch does (``nn.Conv2d`` and ``nn.Dense``:
``weight``/``bias``; every ``mindspore.mint.nn`` class). Used by the fixes that rewrite an access to a
parameter (``m.weight`` of a BatchNorm is ``m.gamma``) and to line up checkpoints.
"""

from __future__ import annotations

_NORM = {"weight": "gamma", "bias": "beta"}
_RUNNING = {"running_mean": "moving_mean", "running_var": "moving_variance"}

PARAMETER_NAMES: dict[str, dict[str, str]] = {
    **{f"mindspore.nn.{name}": {**_NORM, **_RUNNING}
       for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "InstanceNorm1d",
                    "InstanceNorm2d", "InstanceNorm3d")},
    "mindspore.nn.GroupNorm": _NORM,
    "mindspore.nn.LayerNorm": _NORM,
    "mindspore.nn.Embedding": {"weight": "embedding_table"},
    "mindspore.nn.PReLU": {"weight": "w"},
}


def parameter_name(mindspore_class: str, torch_name: str) -> str:
    """The name ``mindspore_class`` gives the parameter torch calls ``torch_name``."""
    return PARAMETER_NAMES.get(mindspore_class, {}).get(torch_name, torch_name)


def renamed_parameters() -> frozenset[str]:
    """Every torch parameter name some MindSpore class names otherwise."""
    return frozenset(name for names in PARAMETER_NAMES.values() for name in names)


def torch_parameter_name(mindspore_class: str, mindspore_name: str) -> str:
    """The torch name of the parameter ``mindspore_class`` calls ``mindspore_name`` (the reverse of
    :func:`parameter_name`)."""
    for torch_name, name in PARAMETER_NAMES.get(mindspore_class, {}).items():
        if name == mindspore_name:
            return torch_name
    return mindspore_name


_BATCH_NORMS = tuple(f"mindspore.nn.{name}" for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
                                                          "SyncBatchNorm"))
_INSTANCE_NORMS = tuple(f"mindspore.nn.InstanceNorm{d}d" for d in (1, 2, 3))

# torch state-dict entries a MindSpore class has no parameter for (a step counter MindSpore does not keep)
TORCH_ONLY: dict[str, frozenset[str]] = {
    name: frozenset({"num_batches_tracked"}) for name in (*_BATCH_NORMS, *_INSTANCE_NORMS)
}

# MindSpore parameters that keep their initial value when the torch module has no such entry (torch's
# InstanceNorm keeps no running statistics unless track_running_stats=True)
KEEP_INITIAL: dict[str, frozenset[str]] = {
    name: frozenset({"moving_mean", "moving_variance"}) for name in _INSTANCE_NORMS
}

# MindSpore parameters stored in another layout than torch's: ``("insert_axis", n)`` adds an axis of
# size 1 at position n (``mindspore.nn.Conv1d`` keeps its kernel as (out, in, 1, k), torch as (out, in, k))
LAYOUTS: dict[str, dict[str, tuple[str, int]]] = {
    "mindspore.nn.Conv1d": {"weight": ("insert_axis", 2)},
    "mindspore.nn.Conv1dTranspose": {"weight": ("insert_axis", 2)},
}


def layout(mindspore_class: str, mindspore_name: str) -> tuple[str, int] | None:
    """How ``mindspore_class`` lays out its parameter ``mindspore_name`` compared with torch, if otherwise."""
    return LAYOUTS.get(mindspore_class, {}).get(mindspore_name)
