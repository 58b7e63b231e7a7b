"""Writing a MindSpore checkpoint from the tensors a read left in a folder (worker side).

Each assignment names a tensor (``<n>.npy``), its checkpoint key, the layout change (``same``,
``insert_axis:<n>``, ``reshape``) and the dtype. The file is written where the request says (a temporary
name the caller renames into place), read back and compared with what was meant; with a model built
in this worker, loaded into it with ``strict_load`` and every parameter checked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msmigrate.weights.worker import WorkerError, exc_text, framework


def _value(np: Any, folder: Path, file: str, how: str, shape: list[int]) -> Any:
    array = np.load(folder / file, mmap_mode="r", allow_pickle=False)
    if how.startswith("insert_axis:"):
        array = np.expand_dims(array, int(how.partition(":")[2]))
    elif how == "reshape":
        array = array.reshape(shape)
    if list(array.shape) != list(shape):
        raise WorkerError("weights.error.internal", detail=f"{file}: {list(array.shape)} is not {shape}")
    return np.ascontiguousarray(array)


def ms_dtype(ms: Any, name: str) -> Any:
    return ms.bool_ if name == "bool" else getattr(ms, name)


def tensors(request: dict[str, Any]) -> list[tuple[str, Any]]:
    """``(checkpoint key, mindspore.Tensor)`` of every assignment of the request."""
    np, ms = framework("numpy"), framework("mindspore")
    folder = Path(request["source_dir"])
    made = []
    for item in request["assignments"]:
        array = _value(np, folder, item["file"], item["layout"], item["shape"])
        dtype = ms_dtype(ms, item["dtype"])
        made.append(
            (
                item["mindspore"],
                ms.Tensor(array).astype(dtype) if item["dtype"] == "bfloat16" else ms.Tensor(array, dtype),
            )
        )
    return made


def write(request: dict[str, Any]) -> dict[str, Any]:
    ms = framework("mindspore")
    np = framework("numpy")
    target, fmt = Path(request["path"]), request.get("format", "ckpt")
    made = tensors(request)
    try:
        ms.save_checkpoint([{"name": name, "data": value} for name, value in made], str(target), format=fmt)
        loaded = ms.load_checkpoint(str(target), format=fmt)
    except Exception as exc:  # noqa: BLE001 - a failed write is reported, the caller removes the file
        raise WorkerError("weights.error.write", path=str(target), detail=exc_text(exc, 600)) from None
    meant = dict(made)
    if set(loaded) != set(meant):
        raise WorkerError(
            "weights.error.verify", detail=f"keys differ: {sorted(set(loaded) ^ set(meant))[:5]}"
        )
    for name, value in meant.items():
        back = loaded[name]
        if tuple(back.shape) != tuple(value.shape) or not np.array_equal(  # a NaN (torch.empty) is itself
            back.astype(ms.float32).asnumpy(), value.astype(ms.float32).asnumpy(), equal_nan=True
        ):
            raise WorkerError("weights.error.verify", detail=f"{name} reads back otherwise")
    result: dict[str, Any] = {"written": len(meant)}
    if request.get("model"):
        from msmigrate.weights.worker_model import build_cell

        cell = build_cell(request["model"])
        try:
            not_loaded, _unused = ms.load_param_into_net(cell, loaded, strict_load=True)
        except Exception as exc:  # noqa: BLE001
            raise WorkerError(
                "weights.error.verify", detail="load_param_into_net: " + exc_text(exc, 600)
            ) from None
        allowed = set(request.get("kept_initial", ()))
        result["not_loaded"] = sorted(set(not_loaded) - allowed)
        if result["not_loaded"]:
            raise WorkerError(
                "weights.error.verify",
                detail="not loaded into the model: " + ", ".join(result["not_loaded"][:8]),
            )
    return result
