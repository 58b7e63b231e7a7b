"""Reading a checkpoint's tensors without running pickled code (worker side).

A torch file (``torch.save``: zip or legacy pickle) is loaded with ``torch.load(weights_only=True)``:
torch's restricted unpickler, which builds tensors and plain containers only and refuses any other
global (a class, ``os.system``) before calling it. A ``.safetensors`` file is parsed here (an 8-byte
length, a JSON header, raw data) with NumPy, without torch. Each tensor is saved as ``<n>.npy`` in the
folder the request names, for the writer to read back.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from msmigrate.weights.sniff import is_safetensors
from msmigrate.weights.worker import WorkerError, exc_text, framework

# keys under which training scripts keep the state dict, most usual first
STATE_KEYS = (
    "state_dict",
    "model_state_dict",
    "model",
    "module",
    "net",
    "network",
    "params",
    "weights",
    "model_ema",
    "ema",
    "state_dict_ema",
)
MAX_HEADER = 100 * 1024 * 1024
_SAFETENSORS_DTYPES = {
    "F64": "float64",
    "F32": "float32",
    "F16": "float16",
    "BF16": "bfloat16",
    "I64": "int64",
    "I32": "int32",
    "I16": "int16",
    "I8": "int8",
    "U8": "uint8",
    "BOOL": "bool",
}
_GLOBAL = re.compile(r"(?:Unsupported global: GLOBAL|unsupported GLOBAL) ([\w.]+)", re.IGNORECASE)


def read(request: dict[str, Any]) -> dict[str, Any]:
    path, out = Path(request["path"]), Path(request["out_dir"])
    if is_safetensors(path):
        tensors = _read_safetensors(path)
        return {"format": "safetensors", "source_key": "", "ignored": [], "tensors": save(tensors, out)}
    return _read_torch(path, out, request.get("key"))


# --- safetensors ----------------------------------------------------------------------------------


def _read_safetensors(path: Path) -> list[tuple[str, Any, str, str | None]]:
    import numpy as np

    size = path.stat().st_size
    with path.open("rb") as f:
        length = int.from_bytes(f.read(8), "little")
        if length > min(MAX_HEADER, size - 8):
            raise WorkerError("weights.error.bad_safetensors", path=str(path), detail="header length")
        try:
            header = json.loads(f.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WorkerError("weights.error.bad_safetensors", path=str(path), detail=exc_text(exc)) from None
    if type(header) is not dict:
        raise WorkerError("weights.error.bad_safetensors", path=str(path), detail="header is not an object")
    header.pop("__metadata__", None)
    start = 8 + length
    found = []
    for name, info in header.items():
        try:
            kind = _SAFETENSORS_DTYPES[info["dtype"]]
            shape = tuple(int(d) for d in info["shape"])
            begin, end = (int(x) for x in info["data_offsets"])
        except (KeyError, TypeError, ValueError):
            raise WorkerError(
                "weights.error.bad_safetensors", path=str(path), detail=f"entry {name!r}: {str(info)[:120]}"
            ) from None
        stored = "uint16" if kind == "bfloat16" else kind
        count = int(np.prod(shape)) if shape else 1
        if end - begin != count * np.dtype(stored).itemsize or start + end > size or begin < 0:
            raise WorkerError("weights.error.bad_safetensors", path=str(path), detail=f"entry {name!r}: size")
        array = (
            np.memmap(path, dtype=stored, mode="r", offset=start + begin, shape=shape)
            if count
            else np.zeros(shape, stored)
        )
        if kind == "bfloat16":  # the upper half of a float32
            array = (np.asarray(array).astype(np.uint32) << 16).view(np.float32)
        found.append((name, array, kind, None))
    return found


# --- torch ----------------------------------------------------------------------------------------


def load_torch(path: Path) -> Any:
    torch = framework("torch")
    try:
        try:
            return torch.load(path, map_location="cpu", weights_only=True, mmap=True)
        except RuntimeError as exc:
            if "mmap" not in str(exc):
                raise
            return torch.load(path, map_location="cpu", weights_only=True)  # legacy (not zip) format
    except Exception as exc:  # noqa: BLE001 - every failure of the restricted load is reported
        text = str(exc)
        if "Weights only load failed" in text or "UnpicklingError" in type(exc).__name__:
            found = _GLOBAL.search(text)
            if found:
                raise WorkerError(
                    "weights.error.pickled_object", path=str(path), name=found.group(1)
                ) from None
            raise WorkerError("weights.error.pickled_code", path=str(path)) from None
        raise WorkerError("weights.error.unreadable", path=str(path), detail=exc_text(exc, 400)) from None


def _is_tensor_dict(value: Any, torch: Any) -> bool:
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in value.items())
    )


def state_dict_of(obj: Any, key: str | None, torch: Any) -> tuple[dict[str, Any], str, list[str]]:
    """(state dict, the key path it was found under, entries left out because they are not tensors)."""
    if key:
        value = obj
        for part in key.split("/"):
            if not isinstance(value, dict) or part not in value:
                raise WorkerError(
                    "weights.error.no_key",
                    key=key,
                    keys=", ".join(map(str, value)) if isinstance(value, dict) else "-",
                )
            value = value[part]
        obj, path = value, key
    else:
        path = ""
        for _ in range(2):  # {"model": {"state_dict": …}}
            if not isinstance(obj, dict) or _is_tensor_dict(obj, torch):
                break
            inner = next((k for k in STATE_KEYS if isinstance(obj.get(k), dict) and obj[k]), None)
            if inner is None:
                break
            obj, path = obj[inner], f"{path}/{inner}" if path else inner
    if not isinstance(obj, dict):
        raise WorkerError("weights.error.not_state_dict", kind=type(obj).__name__)
    tensors = {k: v for k, v in obj.items() if isinstance(k, str) and isinstance(v, torch.Tensor)}
    if not tensors:
        raise WorkerError("weights.error.not_state_dict", kind="dict: " + ", ".join(map(str, list(obj)[:12])))
    return tensors, path, sorted(str(k) for k in obj if k not in tensors)


def entries(tensors: dict[str, Any]) -> list[tuple[str, Any, str, str | None]]:
    """``(name, array, dtype, first name sharing its storage)`` of torch tensors (bfloat16 as float32)."""
    first_of: dict[tuple[Any, ...], str] = {}
    found = []
    for name, tensor in tensors.items():
        value = tensor.detach().cpu()
        if value.is_sparse:
            value = value.to_dense()
        if value.is_quantized:
            raise WorkerError("weights.error.quantized", name=name)
        tied = None
        if value.numel():
            storage = (value.untyped_storage().data_ptr(), value.storage_offset(), tuple(value.shape),
                       value.stride(), value.dtype)
            tied = first_of.setdefault(storage, name)
            tied = None if tied == name else tied
        dtype = str(value.dtype).removeprefix("torch.")
        array = value.float().numpy() if dtype == "bfloat16" else value.contiguous().numpy()
        found.append((name, array, dtype, tied))
    return found


def _read_torch(path: Path, out: Path, key: str | None) -> dict[str, Any]:
    torch = framework("torch")
    tensors, found_under, ignored = state_dict_of(load_torch(path), key, torch)
    return {"format": "torch", "source_key": found_under, "ignored": ignored,
            "tensors": save(entries(tensors), out)}


def save(tensors: list[tuple[str, Any, str, str | None]], out: Path) -> list[dict[str, Any]]:
    import numpy as np

    out.mkdir(parents=True, exist_ok=True)
    listed = []
    for index, (name, array, dtype, tied) in enumerate(tensors):
        file = f"{index}.npy"
        np.save(out / file, np.ascontiguousarray(array), allow_pickle=False)
        listed.append(
            {"name": name, "file": file, "shape": list(array.shape), "dtype": dtype, "tied_to": tied}
        )
    return listed
