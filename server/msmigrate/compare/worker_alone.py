"""Which layer diverges by its own error (MindSpore side of ``msmigrate compare``, PyNative, worker side).

In the whole-model run a layer's output carries the error of its input: float32 rounding that grows with
the magnitude of the values (a large convolution output feeding a sigmoid) can put a layer past the
tolerance although the layer itself computes what torch's does. So each layer whose output differs in
the whole run is run again alone, in execution order, on the inputs torch's layer received
(:mod:`msmigrate.compare.worker_layer_inputs`), with the same weights in eval mode, and its output is
compared with torch's output of that call at the same tolerance:

- ``accumulated``: alone it matches, so the difference comes from its input;
- ``diverge``: alone it differs too: the first divergence, and the last layer run alone;
- ``unchecked``: it cannot be run alone (an input that is not a tensor, ``None`` or a scalar; the call
  fails); the position and type of the input, or the error, is in ``alone``;
- ``downstream``: it differs and comes after the first divergence (not run again).

Layers whose output matches (``match``) or that have no MindSpore cell (``missing``) keep their status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msmigrate.compare.worker_common import flatten
from msmigrate.compare.worker_numbers import compare_all
from msmigrate.weights.worker import exc_text
from msmigrate.weights.worker_write import ms_dtype

VERDICT = {"match": "accumulated", "diverge": "diverge"}


def load_saved(np: Any, saved: list[dict[str, Any]]) -> list[tuple[Any, str] | None]:
    """The saved leaves of a torch output, ``None`` where torch returned ``None``."""
    return [None if item["file"] is None else (np.load(item["file"], allow_pickle=False), item["dtype"])
            for item in saved]


def _tensor(ms: Any, np: Any, saved: dict[str, Any], model_inputs: list[Any]) -> Any:
    if "input" in saved:  # the model's input, as the MindSpore side built it
        return model_inputs[saved["input"]]
    array = np.load(saved["file"], allow_pickle=False)
    if saved["dtype"] == "bfloat16":
        return ms.Tensor(array).astype(ms.bfloat16)
    return ms.Tensor(array, ms_dtype(ms, saved["dtype"]))


def _value(ms: Any, np: Any, node: dict[str, Any], model_inputs: list[Any]) -> Any:
    if "tensor" in node:
        return _tensor(ms, np, node["tensor"], model_inputs)
    return None if "none" in node else node["value"]


def _alone(
    ms: Any, np: Any, sub: Any, layer: dict[str, Any], model_inputs: list[Any], to_numpy: Callable,
    tolerance: tuple[float, float],
) -> dict[str, Any]:
    inputs = layer.get("inputs") or {"unchecked": {"position": "?", "type": "?"}}
    if "unchecked" in inputs:
        return {"status": "unchecked", "why": "input", **inputs["unchecked"]}
    try:
        args = [_value(ms, np, node, model_inputs) for node in inputs["args"]]
        kwargs = {key: _value(ms, np, node, model_inputs) for key, node in inputs["kwargs"].items()}
        output = sub(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the migrated layer, run by the user's request
        return {"status": "unchecked", "why": "run", "detail": exc_text(exc, 400)}
    leaves = flatten(output, lambda v: isinstance(v, ms.Tensor), to_numpy)
    found = compare_all(load_saved(np, layer["leaves"]), leaves, *tolerance)
    return {key: found[key] for key in ("status", "reason", "max_abs", "max_rel", "detail")}


def judge_alone(
    ms: Any,
    np: Any,
    cell: Any,
    rows: list[dict[str, Any]],
    torch_layers: list[dict[str, Any]],
    model_inputs: list[Any],
    to_numpy: Callable,
    tolerance: tuple[float, float],
) -> None:
    """Each row whose whole-run output differs gets its verdict (the module's docstring) and, when run
    alone or not runnable, ``alone``: that run's comparison, or why it was not run."""
    cells = dict(cell.cells_and_names())
    found_first = False
    for row, layer in zip(rows, torch_layers, strict=True):
        if row["status"] != "diverge":
            continue
        if found_first:
            row["status"] = "downstream"
            continue
        alone = _alone(ms, np, cells[row["mindspore_name"]], layer, model_inputs, to_numpy, tolerance)
        row["alone"] = alone
        row["status"] = VERDICT.get(alone["status"], "unchecked")
        found_first = row["status"] == "diverge"
