"""Compare a torch signature with a MindSpore one (both from the inventories) into mapping-row facts.

Used for derived mappings (``datagen/derive.py``): parameters are matched by name, then by position
(:func:`msmigrate.datagen.importer.align.align`); what is left becomes torch-only or MindSpore-only
parameters, and matched parameters whose defaults differ become default differences.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from msmigrate.datagen.importer.align import align, params_from_inventory, ranked_pairs
from msmigrate.datagen.importer.signatures import SigParam
from msmigrate.knowledge.derived import DIFFERS, NO_PARAMETERS, SAME, UNKNOWN
from msmigrate.knowledge.model import DefaultDifference, MappingCategory

__all__ = ["DIFFERS", "NO_PARAMETERS", "SAME", "UNKNOWN", "SignatureFacts", "compare_signatures"]

_POSITIONAL = ("positional", "call_input")


@dataclass(slots=True)
class SignatureFacts:
    """The comparison's verdict and the row facts it found."""

    signature: str
    category: MappingCategory = MappingCategory.CONSISTENT
    param_renames: dict[str, str] = field(default_factory=dict)
    torch_only_params: tuple[str, ...] = ()
    mindspore_only_params: tuple[str, ...] = ()
    default_differences: tuple[DefaultDifference, ...] = ()


def compare_signatures(
    torch_entry: dict[str, Any], ms_entry: dict[str, Any], *, member: bool = False, receiver: bool = False
) -> SignatureFacts:
    """Facts of the best agreeing overload pair of two inventory entries (``member``: drop the receiver;
    ``receiver``: the MindSpore function's first parameter takes the torch method's tensor, so it is
    left out)."""
    if torch_entry.get("kind") in ("attribute", "tensor_attribute", "module"):
        return SignatureFacts(NO_PARAMETERS)
    torch_sigs = [params_from_inventory(s) for s in torch_entry.get("signatures") or []]
    ms_sigs = [params_from_inventory(s) for s in ms_entry.get("signatures") or []]
    if not torch_sigs or not ms_sigs:
        return SignatureFacts(UNKNOWN)
    if member:
        torch_sigs = [_drop_receiver(s) for s in torch_sigs]
        ms_sigs = [_drop_receiver(s) for s in ms_sigs]
    elif receiver:
        ms_sigs = [s[1:] for s in ms_sigs if s]
    best: SignatureFacts | None = None
    for torch_sig, ms_sig in ranked_pairs(torch_sigs, ms_sigs):
        facts = _compare(torch_sig, ms_sig)
        if facts.signature == SAME:
            return facts
        if best is None or _weight(facts) < _weight(best):
            best = facts
    assert best is not None
    return best


def _drop_receiver(params: list[SigParam]) -> list[SigParam]:
    return params[1:] if params and params[0].name in ("self", "cls") else params


def _weight(facts: SignatureFacts) -> int:
    return (
        len(facts.param_renames)
        + 2 * len(facts.torch_only_params)
        + len(facts.mindspore_only_params)
        + len(facts.default_differences)
        + (3 if facts.category is MappingCategory.PARAM_COUNT_ORDER else 0)
    )


def _compare(torch_sig: list[SigParam], ms_sig: list[SigParam]) -> SignatureFacts:
    if _shape(torch_sig) == _shape(ms_sig):
        return SignatureFacts(SAME)
    result = align(torch_sig, ms_sig)
    ms_by_name = {p.name: p for p in ms_sig}
    ms_positional = [p.name for p in ms_sig if p.kind in _POSITIONAL]
    # a call can pass these by position: each must reach the MindSpore parameter at the same place
    torch_positional = [p for p in torch_sig if p.kind in _POSITIONAL]
    order_differs = any(
        (target := result.renames.get(p.name, p.name)) in ms_by_name
        and (target not in ms_positional or ms_positional.index(target) != index)
        for index, p in enumerate(torch_positional)
    )
    if _has_var_positional(torch_sig) and not _has_var_positional(ms_sig):
        order_differs = True  # ``x.permute(0, 2, 1)`` against a MindSpore method taking one tuple
    defaults: list[DefaultDifference] = []
    for param in torch_sig:
        target = ms_by_name.get(result.renames.get(param.name, param.name))
        if target is None or param.kind not in (*_POSITIONAL, "keyword_only") or param.default is None:
            continue
        if target.default is None:
            order_differs = True  # MindSpore requires what a torch call may leave out
        elif not same_default(param.default, target.default):
            defaults.append(DefaultDifference(param.name, param.default, target.default))
    if any(ms_by_name[name].required for name in result.mindspore_only):
        order_differs = True
    if order_differs or result.torch_only:
        category = MappingCategory.PARAM_COUNT_ORDER
    elif result.renames:
        category = MappingCategory.PARAM_NAMES
    elif defaults:
        category = MappingCategory.DEFAULT_VALUES
    else:
        category = MappingCategory.CONSISTENT  # extra optional MindSpore parameters change no torch call
    return SignatureFacts(
        DIFFERS,
        category,
        dict(result.renames),
        tuple(result.torch_only),
        tuple(result.mindspore_only),
        tuple(defaults),
    )


def _has_var_positional(params: list[SigParam]) -> bool:
    return any(p.kind == "var_positional" for p in params)


def _shape(params: list[SigParam]) -> tuple[object, ...]:
    """What a caller sees of a signature: positional names and defaults in order, ``*args`` (any name),
    keyword-only names and defaults in any order, ``**kwargs``."""
    positional = tuple((p.name, _default_key(p.default)) for p in params if p.kind in _POSITIONAL)
    keyword = frozenset((p.name, _default_key(p.default)) for p in params if p.kind == "keyword_only")
    return positional, _has_var_positional(params), keyword, any(p.kind == "var_keyword" for p in params)


def _default_key(default: str | None) -> object:
    if default is None:
        return None
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return default
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int | float):
        return repr(float(value))
    return repr(value)


def same_default(a: str, b: str) -> bool:
    """Two default reprs mean the same value (``1e-05``/``1e-5``, ``'mean'``/``"mean"``, ``0``/``0.0``);
    an unknown default (``...``) agrees with anything."""
    if a == b or "..." in (a, b):
        return True
    try:
        left, right = ast.literal_eval(a), ast.literal_eval(b)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    return bool(type(left) is type(right) or (_is_number(left) and _is_number(right))) and left == right


def _is_number(value: object) -> bool:
    return isinstance(value, int | float)
