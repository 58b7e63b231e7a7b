"""How ``msmigrate compare`` judges two results (worker side: NumPy only).

An element differs when ``|m - t| > atol + rtol · max|t|``: the tolerance scales with the magnitude of the
torch tensor as a whole, not with each element, because float32 rounding in a layer grows with the values
it sums (a convolution output near zero carries the rounding of its large terms). ``max_rel`` is
``max|m - t| / max|t|``. NaN and infinity must sit at the same places; tensors must agree in number and
shape (a different dtype is reported, and the values still compared).
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


def compare_all(
    torch_values: list[tuple[Any, str]], ms_values: list[tuple[Any, str]], rtol: float, atol: float
) -> dict[str, Any]:
    """Every tensor of an output against its counterpart (the worst one decides)."""
    if len(torch_values) != len(ms_values):
        return {
            "status": "diverge",
            "reason": "structure",
            "max_abs": None,
            "max_rel": None,
            "detail": f"{len(torch_values)} torch tensors, {len(ms_values)} MindSpore tensors",
        }
    total: dict[str, Any] = {
        "status": "match",
        "reason": None,
        "max_abs": 0.0,
        "max_rel": 0.0,
        "detail": None,
    }
    dtypes = [
        f"{i}: {td} vs {md}"
        for i, ((_, td), (_, md)) in enumerate(zip(torch_values, ms_values, strict=True))
        if td != md
    ]
    for (t, _), (m, _) in zip(torch_values, ms_values, strict=True):
        one = compare_pair(t, m, rtol, atol)
        if one["max_abs"] is None:
            return one
        total["max_abs"] = max(total["max_abs"], one["max_abs"])
        total["max_rel"] = max(total["max_rel"], one["max_rel"])
        if one["status"] == "diverge":
            total.update(status="diverge", reason="values")
    if dtypes:
        total["detail"] = "dtype " + "; ".join(dtypes)
    return total
