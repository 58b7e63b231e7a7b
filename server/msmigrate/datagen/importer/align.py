"""Derive parameter renames by aligning a torch signature with a MindSpore signature."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from msmigrate.datagen.importer.signatures import SigParam

SKIP_NAMES = frozenset({"self", "cls"})
_SIMILARITY = 80  # rapidfuzz ratio above which two optional parameters at the same place are one parameter


@dataclass(slots=True)
class Alignment:
    renames: dict[str, str] = field(default_factory=dict)
    torch_only: list[str] = field(default_factory=list)
    mindspore_only: list[str] = field(default_factory=list)


def params_from_inventory(signature: Iterable[Mapping[str, str]]) -> list[SigParam]:
    """Inventory parameters (``{"name", "kind", "default"}``) as :class:`SigParam`."""
    kinds = {
        "positional_only": "positional",
        "positional_or_keyword": "positional",
        "keyword_only": "keyword_only",
        "var_positional": "var_positional",
        "var_keyword": "var_keyword",
    }
    return [
        SigParam(p["name"], p.get("default"), kinds.get(p.get("kind", ""), "positional")) for p in signature
    ]


def ranked_pairs(
    torch_overloads: list[list[SigParam]], ms_overloads: list[list[SigParam]]
) -> list[tuple[list[SigParam], list[SigParam]]]:
    """The (torch, MindSpore) overload pairs, best agreeing first.

    Ranked by shared names, then names at the same position, then overloads without ``self`` (the
    deprecated ``torch.addr(beta, self, ...)`` forms), then the longer torch overload, then source order.
    """
    scored: list[tuple[tuple[int, ...], list[SigParam], list[SigParam]]] = []
    for ti, t in enumerate(torch_overloads):
        for mi, m in enumerate(ms_overloads):
            common = len({p.name for p in t} & {p.name for p in m})
            same_place = sum(1 for a, b in zip(t, m, strict=False) if a.name == b.name)
            has_self = any(p.name == "self" for p in t)
            scored.append(((common, same_place, -int(has_self), len(t), -ti, -mi), t, m))
    scored.sort(key=lambda item: item[0], reverse=True)
    return [(t, m) for _key, t, m in scored]


def align(
    torch_params: list[SigParam],
    ms_params: list[SigParam],
    known_pairs: Mapping[str, Iterable[str]] | None = None,
    skip: Iterable[str] = (),
    trust_positions: bool = True,
) -> Alignment:
    """Match parameters by equal name, then by pairs known from difference pages, then by position.

    A positional match needs both parameters required, or both optional with similar names. With
    ``trust_positions=False`` (two signatures not known to correspond one to one) a positional match
    always needs similar names.
    ``skip`` names (general difference parameters such as ``out``) never take part in renames but are
    reported as torch-only when MindSpore lacks them.
    """
    skipped = SKIP_NAMES | set(skip)
    t_list = [p for p in torch_params if p.name not in SKIP_NAMES and p.kind != "var_keyword"]
    m_list = [p for p in ms_params if p.name not in SKIP_NAMES and p.kind != "var_keyword"]
    t_names = {p.name for p in t_list}
    m_names = {p.name for p in m_list}
    matched_t = t_names & m_names
    matched_m = set(matched_t)
    result = Alignment()

    def pair(a: SigParam, b: SigParam) -> None:
        result.renames[a.name] = b.name
        matched_t.add(a.name)
        matched_m.add(b.name)

    known = known_pairs or {}
    for a in t_list:
        if a.name in matched_t or a.name in skipped:
            continue
        for candidate in known.get(a.name, ()):
            b = next((p for p in m_list if p.name == candidate and p.name not in matched_m), None)
            if b is not None:
                pair(a, b)
                break
    t_pos = [p for p in t_list if p.kind == "positional" and p.name not in skipped]
    m_pos = [p for p in m_list if p.kind == "positional"]
    _align_positions(t_pos, m_pos, matched_t, matched_m, pair, trust_positions)
    t_call = [p for p in t_list if p.kind == "call_input"]
    m_call = [p for p in m_list if p.kind == "call_input"]
    _align_positions(t_call, m_call, matched_t, matched_m, pair, trust_positions)
    # whatever is left: pair clearly similar names wherever they stand (``bias`` / ``has_bias``)
    for a in t_list:
        if a.name in matched_t or a.name in skipped or a.kind not in ("positional", "keyword_only"):
            continue
        candidates = [b for b in m_list if b.name not in matched_m and similar(a.name, b.name)]
        if candidates:
            pair(a, max(candidates, key=lambda b: fuzz.ratio(a.name, b.name)))
    listed = ("positional", "keyword_only")
    result.torch_only = [p.name for p in t_list if p.name not in matched_t and p.kind in listed]
    result.mindspore_only = [p.name for p in m_list if p.name not in matched_m and p.kind in listed]
    return result


def _align_positions(
    t_pos: list[SigParam],
    m_pos: list[SigParam],
    matched_t: set[str],
    matched_m: set[str],
    pair: Callable[[SigParam, SigParam], None],
    trust_positions: bool,
) -> None:
    for a, b in zip(t_pos, m_pos, strict=False):
        if a.name in matched_t or b.name in matched_m:
            continue
        if not trust_positions:
            if similar(a.name, b.name):
                pair(a, b)
        elif a.required and b.required:
            pair(a, b)
        elif not a.required and not b.required and similar(a.name, b.name):
            pair(a, b)
        else:
            break  # the lists diverge here; later positions are not comparable


def similar(a: str, b: str) -> bool:
    """Names close enough to be one parameter (``keepdim``/``keep_dims``, ``bias``/``has_bias``)."""
    if fuzz.ratio(a, b) >= _SIMILARITY:
        return True
    return a.lower() in b.lower().split("_") or b.lower() in a.lower().split("_")
