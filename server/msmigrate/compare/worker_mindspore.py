"""The MindSpore side of ``msmigrate compare`` (worker side, ``import torch`` fails here).

In one execution mode (PyNative, or GRAPH_MODE in a fresh worker) the migrated model is built, loaded with
the converted checkpoint (``strict_load``), run in eval mode on the torch side's inputs and compared with
torch's outputs; in PyNative a forward hook on every cell records each one's output per call, compared with
the torch submodule of the same name path, and each layer that differs is run alone on torch's inputs of
that call until one differs by its own error (:mod:`msmigrate.compare.worker_alone`). With a loss, one
training step (``value_and_grad`` + SGD) is compared parameter by parameter. A graph-mode failure comes
back as its message for the caller to place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msmigrate.compare.worker_alone import judge_alone, load_saved
from msmigrate.compare.worker_common import arrange, build_loss, flatten, hook_every
from msmigrate.compare.worker_numbers import compare_all, compare_pair
from msmigrate.weights.worker import WorkerError, exc_text, framework
from msmigrate.weights.worker_model import build_cell, user_frame
from msmigrate.weights.worker_write import ms_dtype

MAX_ERROR_TEXT = 12000


def _to_numpy(value: Any) -> tuple[Any, str]:
    dtype = str(value.dtype).lower()
    if dtype == "bfloat16":
        import mindspore as ms

        return value.astype(ms.float32).asnumpy(), dtype
    return value.asnumpy(), dtype


def _ms_name(name: str, prefixes: dict[str, str]) -> str:
    strip, add = prefixes.get("torch", ""), prefixes.get("mindspore", "")
    if name and strip and name.startswith(strip):
        name = name[len(strip) :]
    elif name and strip and name + "." == strip:
        name = ""
    return (add + name if name else add.rstrip(".")) if add else name


def _record_cells(cell: Any, is_tensor: Any) -> tuple[dict[tuple[str, int], tuple[str, list]], list]:
    records: dict[tuple[str, int], tuple[str, list]] = {}

    def record(name: str, call: int, sub: Any, output: Any) -> None:
        records[(name, call)] = (type(sub).__name__, flatten(output, is_tensor, _to_numpy))

    return records, hook_every(cell.cells_and_names(), record)


def _layers(
    np: Any,
    torch_layers: list[dict[str, Any]],
    records: dict,
    prefixes: dict[str, str],
    rtol: float,
    atol: float,
) -> list[dict[str, Any]]:
    rows = []
    for layer in torch_layers:
        ms_name = _ms_name(layer["name"], prefixes)
        row = {
            "name": layer["name"],
            "mindspore_name": ms_name,
            "call": layer["call"],
            "torch_class": layer["class"],
            "shapes": [leaf["shape"] for leaf in layer["leaves"]],
        }
        found = records.get((ms_name, layer["call"]))
        if found is None:
            rows.append({**row, "status": "missing", "mindspore_class": None})
            continue
        cls, leaves = found
        found_cmp = compare_all(load_saved(np, layer["leaves"]), leaves, rtol, atol)
        rows.append({**row, **found_cmp, "mindspore_class": cls})
    return rows


def _to_layout(np: Any, array: Any, layout: str, shape: list[int]) -> Any:
    if layout.startswith("insert_axis:"):
        return np.expand_dims(array, int(layout.partition(":")[2]))
    return array.reshape(shape) if layout == "reshape" else array


def _train_step(
    ms: Any, np: Any, cell: Any, call: tuple[list[Any], dict[str, Any]], request: dict[str, Any]
) -> dict[str, Any]:
    torch_side, loss = request["torch"]["training"], request["loss"]
    loss_fn = build_loss(loss["mindspore"], {"mindspore": ms, "nn": ms.nn, "ops": ms.ops, "mint": ms.mint})
    target_spec = loss["target"]
    target_array = np.load(torch_side["target"], allow_pickle=False)
    target = ms.Tensor(target_array, ms_dtype(ms, target_spec.get("mindspore_dtype") or target_spec["dtype"]))
    params = cell.trainable_params()

    def forward(*args: Any) -> Any:
        return loss_fn(cell(*args[:-1], **call[1]), args[-1])

    grad_fn = ms.value_and_grad(forward, None, params)
    if request["mode"] == "graph":
        grad_fn = ms.jit(grad_fn)
    value, grads = grad_fn(*call[0], target)
    by_ms = {a["mindspore"]: a for a in request["assignments"]}
    rtol, atol = request["rtol"], request["atol"]
    rows = []
    for param, grad in zip(params, grads, strict=True):
        item = by_ms.get(param.name)
        torch_file = torch_side["grads"].get(item["torch"]) if item else None
        if torch_file is None:
            rows.append(
                {"mindspore": param.name, "torch": item["torch"] if item else None, "status": "missing"}
            )
            continue
        expected = _to_layout(np, np.load(torch_file), item["layout"], item["shape"])
        rows.append(
            {
                "mindspore": param.name,
                "torch": item["torch"],
                **compare_pair(expected, _to_numpy(grad)[0], rtol, atol),
            }
        )
    ms.nn.SGD(params, learning_rate=loss["lr"])(grads)
    updated = []
    for param in params:
        item = by_ms.get(param.name)
        torch_file = torch_side["updated"].get(item["torch"]) if item else None
        if torch_file is None:
            continue
        expected = _to_layout(np, np.load(torch_file), item["layout"], item["shape"])
        updated.append(
            {
                "mindspore": param.name,
                "torch": item["torch"],
                **compare_pair(expected, _to_numpy(param.value())[0], rtol, atol),
            }
        )
    loss_value = float(_to_numpy(value)[0])
    loss_cmp = compare_pair(np.array(torch_side["loss"]), np.array(loss_value), rtol, atol)
    return {
        "loss": {"torch": torch_side["loss"], "mindspore": loss_value, **loss_cmp},
        "gradients": rows,
        "updated": updated,
    }


def run(request: dict[str, Any]) -> dict[str, Any]:
    ms, np = framework("mindspore"), framework("numpy")
    graph = request["mode"] == "graph"
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    cell = build_cell(request["model"])
    try:
        not_loaded, _ = ms.load_param_into_net(
            cell, ms.load_checkpoint(request["checkpoint"]), strict_load=True
        )
    except Exception as exc:  # noqa: BLE001
        raise WorkerError(
            "weights.error.verify", detail="load_param_into_net: " + exc_text(exc, 600)
        ) from None
    cell.set_train(False)
    torch_side = request["torch"]
    inputs = [
        ms.Tensor(np.load(item["file"]), ms_dtype(ms, spec.get("mindspore_dtype") or spec["dtype"]))
        for item, spec in zip(torch_side["inputs"], request["inputs"], strict=True)
    ]
    args, kwargs = arrange(request.get("arguments"), inputs, request.get("kwargs", {}))
    layers = request.get("layers", True) and not graph
    records, handles = _record_cells(cell, lambda v: isinstance(v, ms.Tensor)) if layers else ({}, [])
    try:
        output = cell(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the migrated model, run by the user's request
        if graph:
            return {
                "graph_error": {"type": type(exc).__name__, "message": str(exc)[:MAX_ERROR_TEXT]},
                "not_loaded": not_loaded,
            }
        root = Path(request["model"]["file"]).parent
        raise WorkerError(
            "compare.error.mindspore_run", where=user_frame(exc, root), detail=exc_text(exc)
        ) from None
    finally:
        for handle in handles:
            handle.remove()
    rtol, atol = request["rtol"], request["atol"]
    leaves = flatten(output, lambda v: isinstance(v, ms.Tensor), _to_numpy)
    outputs = compare_all(load_saved(np, torch_side["outputs"]), leaves, rtol, atol)
    outputs["shapes"] = [None if leaf is None else list(leaf[0].shape) for leaf in leaves]
    result: dict[str, Any] = {"outputs": outputs, "mindspore_version": ms.__version__}
    if layers:
        rows = _layers(np, torch_side["layers"], records, request["prefixes"], rtol, atol)
        judge_alone(ms, np, cell, rows, torch_side["layers"], inputs, _to_numpy, (rtol, atol))
        result["layers"] = rows
    if request.get("loss") and torch_side.get("training"):
        try:
            result["training"] = _train_step(ms, np, cell, (args, kwargs), request)
        except WorkerError:
            raise
        except Exception as exc:  # noqa: BLE001
            if graph:
                return {
                    **result,
                    "graph_error": {
                        "type": type(exc).__name__,
                        "message": str(exc)[:MAX_ERROR_TEXT],
                        "during": "training",
                    },
                }
            root = Path(request["model"]["file"]).parent
            raise WorkerError(
                "compare.error.mindspore_train", where=user_frame(exc, root), detail=exc_text(exc)
            ) from None
    return result
