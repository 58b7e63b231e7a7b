"""How ``msmigrate compare`` judges two results (worker side: NumPy only).

An element differs when ``|m - t| > atol + rtol · max|t|``: the tolerance scales with the magnitude of the
torch tensor as a whole, not with each element, because float32 rounding in a layer grows with the values
it sums (a convolution output near zero carries the rounding of its large terms). ``max_rel`` is
``max|m - t| / max|t|``. NaN and infinity must sit at the same places; tensors must agree in number and
shape (a different dtype is reported, and the values still compared); a ``None`` torch returns where
MindSpore returns a tensor is a note (``extra``), not a divergence.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _as_float(value: Any) -> np.ndarray:
    array = np.asarray(value)
    if array.dtype == np.bool_ or np.issubdtype(array.dtype, np.integer):
        return array.astype(np.float64)
    return array.astype(np.complex128 if np.iscomplexobj(array) else np.float64)


def compare_pair(torch_value: Any, ms_value: Any, rtol: float, atol: float) -> dict[str, Any]:
    t, m = _as_float(torch_value), _as_float(ms_value)
    if t.shape != m.shape:
        return {
            "status": "diverge",
            "reason": "shape",
            "max_abs": None,
            "max_rel": None,
            "detail": f"shape {list(t.shape)} vs {list(m.shape)}",
        }
    if t.size == 0:
        return {"status": "match", "reason": None, "max_abs": 0.0, "max_rel": 0.0, "detail": None}
    t_bad, m_bad = ~np.isfinite(t), ~np.isfinite(m)
    if (t_bad != m_bad).any() or (t_bad.any() and not np.array_equal(t[t_bad], m[m_bad], equal_nan=True)):
        return {
            "status": "diverge",
            "reason": "nan_inf",
            "max_abs": None,
            "max_rel": None,
            "detail": "NaN or infinity at other places",
        }
    finite = ~t_bad
    diff = np.abs(t[finite] - m[finite])
    scale = float(np.abs(t[finite]).max()) if diff.size else 0.0
    max_abs = float(diff.max()) if diff.size else 0.0
    result = {
        "status": "match",
        "reason": None,
        "max_abs": max_abs,
        "max_rel": max_abs / scale if scale else (0.0 if max_abs == 0 else float("inf")),
        "detail": None,
    }
    if max_abs > atol + rtol * scale:
        result.update(status="diverge", reason="values")
    return result


def _structure(detail: str) -> dict[str, Any]:
    return {"status": "diverge", "reason": "structure", "max_abs": None, "max_rel": None, "detail": detail}


def compare_all(
    torch_values: list[tuple[Any, str] | None], ms_values: list[tuple[Any, str] | None], rtol: float,
    atol: float,
) -> dict[str, Any]:
    """Every tensor of an output against the one at the same position (the worst one decides); a ``None``
    leaf (``worker_common.flatten``) is a position too. Where torch has ``None`` and MindSpore a tensor (an
    optional result the migrated code computes, whisper's attention weights) nothing is compared and the
    position is listed in ``extra`` (1-based, with the tensor's shape): a note, not a divergence. A tensor
    torch has and MindSpore has not, or another number of positions, diverges (``structure``)."""
    if len(torch_values) != len(ms_values):
        count = [sum(leaf is not None for leaf in side) for side in (torch_values, ms_values)]
        return _structure(f"{count[0]} torch tensors, {count[1]} MindSpore tensors")
    total: dict[str, Any] = {
        "status": "match",
        "reason": None,
        "max_abs": 0.0,
        "max_rel": 0.0,
        "detail": None,
    }
    dtypes, extra = [], []
    for index, (t, m) in enumerate(zip(torch_values, ms_values, strict=True)):
        if t is None:
            if m is not None:
                extra.append({"index": index + 1, "shape": list(m[0].shape)})
            continue
        if m is None:
            return _structure(f"output {index + 1}: torch a tensor {list(t[0].shape)}, MindSpore None")
        if t[1] != m[1]:
            dtypes.append(f"{index}: {t[1]} vs {m[1]}")
        one = compare_pair(t[0], m[0], rtol, atol)
        if one["max_abs"] is None:
            return one
        total["max_abs"] = max(total["max_abs"], one["max_abs"])
        total["max_rel"] = max(total["max_rel"], one["max_rel"])
        if one["status"] == "diverge":
            total.update(status="diverge", reason="values")
    if dtypes:
        total["detail"] = "dtype " + "; ".join(dtypes)
    if extra:
        total["extra"] = extra
    return total
