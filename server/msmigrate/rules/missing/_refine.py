"""Shared code of the missing-API rules MSM201–MSM204: which policy of the missing-API guide applies to an
unmapped torch API (an ``MSM200`` finding), and the finding that policy makes of it.

Each rule module refines the ``MSM200`` findings of its own policy (``refine(ctx, rule_id)``); a call that a
verified composition replaces is MSM202's whatever its policy (``composed``), so the other rules leave it.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from msmigrate.fixes.receiver_function_fixes import RECEIVER_FUNCTION, receiver_call
from msmigrate.fixes.rewrites import rewrite
from msmigrate.i18n import ref
from msmigrate.knowledge.compositions.catalogue import composition_of_member
from msmigrate.knowledge.compositions.verified import offered_composition
from msmigrate.knowledge.missing_advice import (
    NAME_FIX,
    POLICY_DOC,
    RULE_FOR_POLICY,
    MissingAdvice,
    Policy,
    advice_for,
)
from msmigrate.knowledge.missing_advice_frequent import RECIPE_NOTES
from msmigrate.model.finding import Finding, UsageKind

DOC = POLICY_DOC.format(lang="en")

_ADVICE: weakref.WeakKeyDictionary[object, dict[str, MissingAdvice | None]] = weakref.WeakKeyDictionary()


def advice_of(ctx, torch_api: str) -> MissingAdvice | None:  # noqa: ANN001 - the analysis context
    """The missing-API advice of ``torch_api``, looked up once per knowledge base (it depends on the API and
    the read-only knowledge base only)."""
    cached = _ADVICE.get(ctx.kb)
    if cached is None:
        cached = _ADVICE[ctx.kb] = {}
    if torch_api not in cached:
        cached[torch_api] = advice_for(torch_api, ctx.kb)
    return cached[torch_api]


def composed(torch_api: str) -> bool:
    """Whether a verified composition replaces ``torch_api`` (or the API it is read on:
    ``torch.finfo(...).min``), which makes its finding MSM202's (``fixes/composition_fixes.refine``)."""
    if offered_composition(torch_api) is not None:
        return True
    owner = composition_of_member(torch_api)
    return owner is not None and offered_composition(owner.torch_api) is not None


def unmapped(ctx) -> Iterator[Finding]:  # noqa: ANN001 - the analysis context
    """The findings of unmapped torch APIs not refined yet (rule ``MSM200``)."""
    for finding in ctx.usages:
        if finding.rule == "MSM200" and finding.torch_api:
            yield finding


def refine(ctx, rule_id: str) -> tuple[()]:  # noqa: ANN001 - the analysis context
    """Give each ``MSM200`` finding whose advice's policy is ``rule_id``'s that rule, its replacement and
    whether a fix is exact (a call a composition replaces is left to MSM202)."""
    for finding in unmapped(ctx):
        advice = advice_of(ctx, finding.torch_api)
        if advice is None or advice.policy is None or RULE_FOR_POLICY[advice.policy] != rule_id:
            continue
        if composed(finding.torch_api):
            continue
        apply(ctx, finding, advice)
    return ()


def apply(ctx, finding: Finding, advice: MissingAdvice) -> None:  # noqa: ANN001 - the analysis context
    """Make ``finding`` the finding of its advice's policy."""
    assert advice.policy is not None
    rule = RULE_FOR_POLICY[advice.policy]
    finding.rule = rule
    renamed = reference_rename(finding, advice, ctx.kb)
    if renamed is not None:
        finding.message_key = f"finding.{rule}.reference"  # a type named, not a missing API
    else:
        finding.message_key = message_key(rule, advice)
    finding.message_args = {
        "torch_api": finding.torch_api,
        "replacement": ", ".join(advice.replacements) or "-",
    }
    if renamed is None and advice.note_key in RECIPE_NOTES:  # the note is the answer: say it
        finding.message_key = f"finding.{rule}.recipe"
        finding.message_args["recipe"] = (ref(advice.note_key, **advice.note_args),)
    finding.mindspore_api = finding.mindspore_api or (advice.replacements[0] if advice.replacements else None)
    if renamed is not None:
        finding.fixable = True
    elif advice.fix == NAME_FIX:
        finding.fixable = finding.usage in (UsageKind.ATTRIBUTE, UsageKind.REFERENCE)
    elif advice.fix == RECEIVER_FUNCTION:
        finding.fixable = receiver_call(ctx.call_of(finding)) is not None
    else:
        finding.fixable = bool(rewrite(advice.fix, ctx, ctx.call_of(finding), finding.torch_api))


def message_key(rule: str, advice: MissingAdvice) -> str:
    """The finding's message: an equivalent API with nothing to replace it by is dropped (``.drop``); the
    other policies say what to do whether or not replacements are listed."""
    return f"finding.{rule}.drop" if rule == "MSM201" and not advice.replacements else f"finding.{rule}"


def reference_rename(finding: Finding, advice: MissingAdvice, kb) -> str | None:  # noqa: ANN001
    """The MindSpore class a type reference becomes (``x: torch.Tensor`` → ``mindspore.Tensor``): an
    annotation or ``isinstance`` argument naming a class with an equivalent class is a rename."""
    if finding.usage is not UsageKind.REFERENCE or advice.policy is not Policy.EQUIVALENT:
        return None
    if not advice.replacements:
        return None
    replacement = advice.replacements[0]
    entry = kb.mindspore_inventory.get(replacement)
    return replacement if entry is not None and entry.get("kind") == "class" else None
