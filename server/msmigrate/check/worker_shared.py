"""What the worker's modules share (``worker.py``, ``worker_training.py``, ``worker_composition.py``): the
failure a check ends with and its one-line text, MindSpore's "no kernel on this device" errors, the import
of a requested ``torch.*``/``mindspore.*`` name and the decoding of a request's values. Imports neither
torch nor MindSpore itself."""

from __future__ import annotations

import importlib
from typing import Any


class CheckFailure(Exception):
    """A check ended early with a reason (error or skip)."""

    def __init__(self, status: str, reason: str, detail: str = "") -> None:
        super().__init__(detail)
        self.status, self.reason, self.detail = status, reason, detail


def exc_text(exc: BaseException, limit: int = 1200) -> str:
    """``Type: message`` on one line, without MindSpore's C++ call-stack section and separators."""
    kept: list[str] = []
    for line in str(exc).strip().splitlines():
        stripped = line.strip()
        if stripped.startswith("- C++ Call Stack"):
            break
        if stripped and set(stripped) != {"-"}:
            kept.append(stripped)
    return f"{type(exc).__name__}: {' '.join(kept)}"[:limit]


def resolve(name: str, root: str) -> Any:
    """Import the object a dotted ``torch.*``/``mindspore.*`` name refers to."""
    if not name or not (name == root or name.startswith(root + ".")):
        raise CheckFailure("error", "bad_request", f"{name!r} is not a {root} API")
    parts = name.split(".")
    module = None
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
            break
        except ImportError:
            continue
    if module is None:
        raise CheckFailure("error", "api_not_found", name)
    obj: Any = module
    for part in parts[cut:]:
        try:
            obj = getattr(obj, part)
        except AttributeError as exc:
            raise CheckFailure("error", "api_not_found", name) from exc
    return obj


def decode(value: Any, tensors: dict[str, Any], dtype_of: Any) -> Any:
    if isinstance(value, dict):
        if "ref" in value:
            return tensors[value["ref"]]
        if "tuple" in value:
            return tuple(decode(v, tensors, dtype_of) for v in value["tuple"])
        if "dtype" in value:
            return dtype_of(value["dtype"])
        if "mapping" in value:
            return {k: decode(v, tensors, dtype_of) for k, v in value["mapping"].items()}
        raise CheckFailure("error", "bad_request", f"unknown value encoding {sorted(value)}")
    if isinstance(value, list):
        return [decode(v, tensors, dtype_of) for v in value]
    return value


UNSUPPORTED_MARKERS = (
    "unregistered",
    "unsupported op",
    "only supports ascend",
    "support ascend only",  # Tensor.new_full: "new_full method support Ascend only"
    "not found op",
    "create kernelmod for op",
    "not implement exception",  # an operator without an implementation for the device (mint's dropout2d)
)


def classify_ms_error(exc: BaseException) -> str:
    """``unsupported_on_device`` when MindSpore has no kernel for the op on this device."""
    text = str(exc).lower()
    if any(marker in text for marker in UNSUPPORTED_MARKERS):
        return "unsupported_on_device"
    if "not support" in text and ("cpu" in text or "device" in text):
        return "unsupported_on_device"
    return "mindspore_error"
