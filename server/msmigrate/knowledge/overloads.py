"""Overloads whose MindSpore counterpart depends on the call's arguments (a small reviewed table).

``OVERLOADS[torch_api][form]``: the MindSpore candidates, best first, for the overload the call binds to.
The form is the torch parameter that tells the overloads apart (``other``: two tensors, ``dim``: a
reduction along an axis, ``""``: neither, the full reduction). :func:`overload_target` picks the
candidate in the namespace of the table's own target (``mindspore.mint.`` or ``mindspore.ops.``) that
the MindSpore inventory has.
"""

from __future__ import annotations

from msmigrate.knowledge.base import KnowledgeBase

FORMS: tuple[str, ...] = ("other", "dim", "")

# Reasons, checked under MindSpore 2.10 on CPU: mint.max(a, b) fails there (use maximum); ops.max(x)
# returns (values, indices) while torch.max(x) returns the values only (use amax); ops.max(x, 1) and
# mint.max(x, 1) return (values, indices) as torch.max(x, 1) does.
OVERLOADS: dict[str, dict[str, tuple[str, ...]]] = {
    "torch.max": {
        "other": ("mindspore.mint.maximum", "mindspore.ops.maximum"),
        "dim": ("mindspore.mint.max", "mindspore.ops.max"),
        "": ("mindspore.mint.max", "mindspore.ops.amax"),
    },
    "torch.min": {
        "other": ("mindspore.mint.minimum", "mindspore.ops.minimum"),
        "dim": ("mindspore.mint.min", "mindspore.ops.min"),
        "": ("mindspore.mint.min", "mindspore.ops.amin"),
    },
    "torch.Tensor.max": {
        "other": ("mindspore.Tensor.maximum",),
        "dim": ("mindspore.Tensor.max",),
        "": ("mindspore.Tensor.max",),
    },
    "torch.Tensor.min": {
        "other": ("mindspore.Tensor.minimum",),
        "dim": ("mindspore.Tensor.min",),
        "": ("mindspore.Tensor.min",),
    },
}


def form_of(torch_api: str, bound_names: set[str]) -> str | None:
    """The overload form of a call binding ``bound_names``, or ``None`` when the API has no entry."""
    if torch_api not in OVERLOADS:
        return None
    return next((form for form in FORMS if form and form in bound_names), "")


def overload_target(torch_api: str, form: str, table_target: str | None, kb: KnowledgeBase) -> str | None:
    """The MindSpore API for ``form`` of ``torch_api``, in the namespace of ``table_target``."""
    candidates = [c for c in OVERLOADS.get(torch_api, {}).get(form, ()) if kb.mindspore_has(c)]
    if not candidates:
        return None
    if table_target:
        namespace = table_target.rpartition(".")[0] + "."
        for candidate in candidates:
            if candidate.startswith(namespace):
                return candidate
    return candidates[0]
