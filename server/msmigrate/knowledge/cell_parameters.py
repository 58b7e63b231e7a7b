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
