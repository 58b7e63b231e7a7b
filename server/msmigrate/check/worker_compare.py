"""Numerical comparison of two outputs (worker side: imports numpy).

Metrics follow what accuracy-comparison tools report: max absolute error, max relative error
(``|t - m| / (|t| + 1e-7)``, torch being the reference) and cosine similarity; NaN and ±Inf
positions must agree, the rest must satisfy ``allclose`` with per-dtype tolerances.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

REL_EPS = 1e-7

# dtype name → (rtol, atol); integer and bool outputs must be equal.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (1e-3, 1e-3),
    "bfloat16": (1e-2, 1e-2),
    "float32": (1e-4, 1e-4),
    "float64": (1e-7, 1e-7),
    "complex64": (1e-4, 1e-4),
    "complex128": (1e-7, 1e-7),
}
EXACT = (0.0, 0.0)


@dataclass(slots=True)
class Leaf:
    """One output array with the dtype name its framework reported."""

    value: np.ndarray
    dtype: str


@dataclass(slots=True)
class Comparison:
    status: str  # pass | fail
    reason: str | None = None
    max_abs_error: float | None = None
    max_rel_error: float | None = None
    cosine_similarity: float | None = None
    first_mismatch_index: list[int] | None = None
    first_mismatch_output: int | None = None
    rtol: float | None = None
    atol: float | None = None
    details: list[str] = field(default_factory=list)


def tolerance(dtype: str, rtol: float | None = None, atol: float | None = None) -> tuple[float, float]:
    """Tolerances for an output dtype; explicit ``rtol``/``atol`` replace those of floating dtypes."""
    base = TOLERANCES.get(dtype)
    if base is None:
        return EXACT
    return (base[0] if rtol is None else rtol, base[1] if atol is None else atol)


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> float:
    a = a.astype(np.complex128 if np.iscomplexobj(a) else np.float64).ravel()
    b = b.astype(np.complex128 if np.iscomplexobj(b) else np.float64).ravel()
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 and nb == 0.0:
        return 1.0
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(np.real(np.vdot(a, b)) / (na * nb))


def _as_number_array(value: np.ndarray) -> np.ndarray:
    if value.dtype == np.bool_:
        return value.astype(np.int64)
    if np.iscomplexobj(value):
        return value.astype(np.complex128)
    if np.issubdtype(value.dtype, np.integer):
        return value.astype(np.float64) if value.dtype == np.uint64 else value.astype(np.int64)
    return value.astype(np.float64)


def compare_arrays(torch_value: np.ndarray, ms_value: np.ndarray, rtol: float, atol: float) -> Comparison:
    """Compare one output pair of equal shape; torch is the reference."""
    t = _as_number_array(np.asarray(torch_value))
    m = _as_number_array(np.asarray(ms_value))
    if t.shape != m.shape:
        return Comparison("fail", "shape_mismatch", rtol=rtol, atol=atol)
    scalar = t.ndim == 0
    t, m = t.reshape(-1) if scalar else t, m.reshape(-1) if scalar else m
    if t.size == 0:
        return Comparison(
            "pass", max_abs_error=0.0, max_rel_error=0.0, cosine_similarity=1.0, rtol=rtol, atol=atol
        )
    is_float = np.issubdtype(t.dtype, np.inexact) or np.issubdtype(m.dtype, np.inexact)
    t_nan = np.isnan(t) if is_float else np.zeros(t.shape, bool)
    m_nan = np.isnan(m) if is_float else np.zeros(m.shape, bool)
    t_inf = np.isinf(t) if is_float else np.zeros(t.shape, bool)
    m_inf = np.isinf(m) if is_float else np.zeros(m.shape, bool)
    special_bad = (t_nan != m_nan) | (t_inf != m_inf)
    both_inf = t_inf & m_inf
    if both_inf.any():
        special_bad |= both_inf & (np.sign(np.real(t)) != np.sign(np.real(m)))
    finite = ~(t_nan | m_nan | t_inf | m_inf)
    diff = np.zeros(t.shape, np.float64)
    with np.errstate(all="ignore"):
        diff[finite] = np.abs(t[finite] - m[finite])
        rel = diff / (np.abs(t) + REL_EPS) if is_float else diff / np.maximum(np.abs(t), 1)
        rel[~finite] = 0.0
        close = np.ones(t.shape, bool)
        close[finite] = diff[finite] <= atol + rtol * np.abs(t[finite])
    close &= ~special_bad
    finite_t, finite_m = t[finite], m[finite]
    result = Comparison(
        "pass",
        max_abs_error=float(diff.max()),
        max_rel_error=float(rel.max()),
        cosine_similarity=cosine_similarity(finite_t, finite_m) if finite_t.size else 1.0,
        rtol=rtol,
        atol=atol,
    )
    if not close.all():
        result.status = "fail"
        result.reason = "nan_mismatch" if special_bad.any() else "value_mismatch"
        bad = special_bad if special_bad.any() else ~close
        result.first_mismatch_index = [] if scalar else [int(i) for i in np.argwhere(bad)[0]]
    return result


def compare_outputs(
    torch_leaves: list[Leaf],
    ms_leaves: list[Leaf],
    rtol: float | None = None,
    atol: float | None = None,
    shapes_only: bool = False,
) -> Comparison:
    """Compare all outputs: structure, shapes, dtypes, then values (worst output wins)."""
    if len(torch_leaves) != len(ms_leaves):
        return Comparison(
            "fail",
            "output_structure",
            details=[f"{len(torch_leaves)} torch outputs, {len(ms_leaves)} MindSpore outputs"],
        )
    total = Comparison("pass", max_abs_error=0.0, max_rel_error=0.0, cosine_similarity=1.0)
    dtype_mismatch: int | None = None
    for index, (tl, ml) in enumerate(zip(torch_leaves, ms_leaves, strict=True)):
        if tl.value.shape != ml.value.shape:
            return Comparison(
                "fail",
                "shape_mismatch",
                first_mismatch_output=index,
                details=[f"output {index}: {list(tl.value.shape)} vs {list(ml.value.shape)}"],
            )
        if tl.dtype != ml.dtype and dtype_mismatch is None:
            dtype_mismatch = index
        if shapes_only:
            continue
        r, a = tolerance(tl.dtype, rtol, atol)
        one = compare_arrays(tl.value, ml.value, r, a)
        total.rtol = r if total.rtol is None else max(total.rtol, r)
        total.atol = a if total.atol is None else max(total.atol, a)
        total.max_abs_error = max(total.max_abs_error or 0.0, one.max_abs_error or 0.0)
        total.max_rel_error = max(total.max_rel_error or 0.0, one.max_rel_error or 0.0)
        total.cosine_similarity = min(total.cosine_similarity or 0.0, one.cosine_similarity or 0.0)
        if one.status == "fail" and total.status == "pass":
            total.status, total.reason = "fail", one.reason
            total.first_mismatch_index, total.first_mismatch_output = one.first_mismatch_index, index
    if shapes_only:
        total.max_abs_error = total.max_rel_error = total.cosine_similarity = None
    if total.status == "pass" and dtype_mismatch is not None:
        total.status, total.reason, total.first_mismatch_output = "fail", "dtype_mismatch", dtype_mismatch
    return total


def result_fields(cmp: Comparison, torch_leaves: list[Leaf], ms_leaves: list[Leaf]) -> dict[str, Any]:
    """A check result's comparison fields (status, errors, first mismatch, shapes, dtypes, tolerances)."""
    return {
        "status": cmp.status,
        "reason": cmp.reason,
        "detail": "; ".join(cmp.details) or None,
        "max_abs_error": cmp.max_abs_error,
        "max_rel_error": cmp.max_rel_error,
        "cosine_similarity": cmp.cosine_similarity,
        "first_mismatch_index": cmp.first_mismatch_index,
        "first_mismatch_output": cmp.first_mismatch_output,
        "torch_shapes": leaf_shapes(torch_leaves),
        "mindspore_shapes": leaf_shapes(ms_leaves),
        "torch_dtypes": leaf_dtypes(torch_leaves),
        "mindspore_dtypes": leaf_dtypes(ms_leaves),
        "rtol": cmp.rtol,
        "atol": cmp.atol,
    }


def leaf_shapes(leaves: list[Leaf]) -> list[list[int]]:
    return [list(leaf.value.shape) for leaf in leaves]


def leaf_dtypes(leaves: list[Leaf]) -> list[str]:
    return [leaf.dtype for leaf in leaves]


def sorted_leaf(leaf: Leaf) -> Leaf:
    """The leaf's values flattened and sorted (complex: by real, then imaginary part)."""
    return Leaf(np.sort(leaf.value.ravel()), leaf.dtype)
