"""Whether msmigrate answers a torch API that real code reports "missing" concretely, and how.

The kinds, best first: ``mapping`` (a table row or a verified derived mapping: not missing at all),
``composition`` (a verified composition, MSM202; or a member read on its result, ``torch.finfo(t).eps``),
``fix`` (the advice carries an exact rewrite), ``recipe`` (a catalogued replacement or a precise note: an
equivalent, a composition from mapped APIs, or a custom operator written for that API). ``None``: no
concrete answer (no advice, the uncatalogued "missing API" text, or "ask the community").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msmigrate.knowledge.compositions.catalogue import composition_of_member
from msmigrate.knowledge.compositions.verified import offered_composition
from msmigrate.knowledge.missing_advice import Policy, advice_for

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase

KINDS = ("mapping", "composition", "fix", "recipe")


def answer_kind(torch_api: str, kb: KnowledgeBase) -> str | None:
    """How ``kb`` answers ``torch_api`` (one of :data:`KINDS`); ``None``: no concrete answer."""
    canonical = kb.canonical(torch_api)
    derived = kb.derived(canonical)
    if kb.row(canonical) is not None or (derived is not None and derived.verified):
        return "mapping"
    owner = torch_api.rpartition(".")[0]
    if offered_composition(torch_api) is not None or (
        composition_of_member(torch_api) is not None and offered_composition(owner) is not None
    ):
        return "composition"
    advice = advice_for(torch_api, kb)
    if advice is None or advice.policy in (None, Policy.COMMUNITY):
        return None
    return "fix" if advice.fix else "recipe"
