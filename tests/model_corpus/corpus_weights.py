"""TEMPORARY: the corpus harness's torch → MindSpore weight step, until ``msmigrate convert-weights IN -o OUT
--model FILE:EXPR`` (issue 25, branch h/weights) lands; then :func:`convert_weights` runs that command and
this module's mapping goes. Same inputs as the command: the torch state dict file, the migrated model
(file + constructor expression), the output checkpoint.

Until then it reads the NumPy twin the torch run writes beside the state dict (``state.npz`` beside
``state.pt``: no unpickling here) and maps names by the usual MindSpore spellings only (BatchNorm
``gamma/beta/moving_mean/moving_variance``, Embedding ``embedding_table``); ``num_batches_tracked`` is
dropped. Runs inside the MindSpore process of ``corpus_runner.py`` (torch blocked).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

_SPELLINGS = {
    "gamma": "weight",
    "beta": "bias",
    "moving_mean": "running_mean",
    "moving_variance": "running_var",
    "embedding_table": "weight",
}


def _torch_name(ms_name: str, torch_names: set[str]) -> str | None:
    if ms_name in torch_names:
        return ms_name
    head, _, last = ms_name.rpartition(".")
    other = _SPELLINGS.get(last)
    if other is not None and f"{head}.{other}" in torch_names:
        return f"{head}.{other}"
    return None


def _model(model_file: Path, expr: str):  # noqa: ANN202
    """The migrated model built from ``model_file:expr`` (the module already imported under its package
    name when the runner imported it, else loaded from the file alone)."""
    target = model_file.resolve()
    for module in list(sys.modules.values()):
        if getattr(module, "__file__", None) and Path(module.__file__).resolve() == target:
            return eval(expr, vars(module))  # noqa: S307 - the harness's own expression
    spec = importlib.util.spec_from_file_location(target.stem, target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return eval(expr, vars(module))  # noqa: S307


def convert_weights(state_dict: Path, model_file: Path, expr: str, out: Path) -> dict:
    """Write ``out`` (a MindSpore checkpoint) from the torch state dict ``state_dict`` for the migrated model
    ``model_file:expr``. Returns ``{"mapped": {ms name: torch name}, "unmatched": [ms names without a torch
    weight], "unused": [torch names no parameter takes], "failures": [what makes the load wrong]}``."""
    import mindspore

    arrays = np.load(state_dict.with_suffix(".npz"))
    torch_names = {k for k in arrays.files if not k.endswith("num_batches_tracked")}
    model = _model(model_file, expr)
    mapped: dict[str, str] = {}
    unmatched: list[str] = []
    failures: list[str] = []
    params = []
    for name, param in model.parameters_and_names():
        source = _torch_name(name, torch_names)
        if source is None:
            unmatched.append(name)
            continue
        value = arrays[source]
        if tuple(value.shape) != tuple(param.shape):
            failures.append(
                f"{source}: torch shape {tuple(value.shape)}, MindSpore {name} {tuple(param.shape)}"
            )
            continue
        mapped[param.name] = source
        params.append({"name": param.name, "data": mindspore.Tensor(value.astype(_dtype(param)))})
    unused = sorted(torch_names - set(mapped.values()))
    if unused:
        failures.append(
            f"torch weights no MindSpore parameter takes: {', '.join(unused[:5])}"
            + (f" (+{len(unused) - 5})" if len(unused) > 5 else "")
        )
    mindspore.save_checkpoint(params, str(out))
    return {"mapped": mapped, "unmatched": unmatched, "unused": unused, "failures": failures}


def _dtype(param) -> np.dtype:  # noqa: ANN001
    return np.dtype(str(param.asnumpy().dtype))
