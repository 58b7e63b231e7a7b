"""MSM201–MSM204: which missing-API policy applies to an unmapped torch API (refines MSM200 findings),
and the MSM201 quick-fix: the exact rewrite of the advice (``fixes/rewrites.py``) or the MindSpore name."""

from __future__ import annotations

import weakref
from collections.abc import Iterable

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.rewrites import rewrite, title_args
from msmigrate.knowledge.missing_advice import (
    NAME_FIX,
    POLICY_DOC,
    RULE_FOR_POLICY,
    MissingAdvice,
    Policy,
    advice_for,
)
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule

DOC = POLICY_DOC.format(lang="en")

RULES = [
    Rule("MSM201", C.MISSING, S.INFORMATION, DOC, fixable=True),  # a hint when a rename or a fix does it
    Rule("MSM202", C.MISSING, S.WARNING, DOC),
    Rule("MSM203", C.MISSING, S.WARNING, DOC),
    Rule("MSM204", C.MISSING, S.WARNING, DOC),
]


_ADVICE: weakref.WeakKeyDictionary[object, dict[str, MissingAdvice | None]] = weakref.WeakKeyDictionary()


def refine(ctx) -> Iterable[Finding]:
    """Give each ``MSM200`` finding the rule of its policy, its replacement and whether a fix is exact."""
    advice_of = _ADVICE.get(ctx.kb)
    if advice_of is None:  # the advice depends on the API and the (read-only) knowledge base only
        advice_of = _ADVICE[ctx.kb] = {}
    for finding in ctx.usages:
        if finding.rule != "MSM200" or not finding.torch_api:
            continue
        if finding.torch_api in advice_of:
            advice = advice_of[finding.torch_api]
        else:
            advice = advice_of[finding.torch_api] = advice_for(finding.torch_api, ctx.kb)
        if advice is None or advice.policy is None:
            continue
        rule = RULE_FOR_POLICY[advice.policy]
        finding.rule = rule
        renamed = reference_rename(finding, advice, ctx.kb)
        if renamed is not None:
            finding.message_key = f"finding.{rule}.reference"  # a type named, not a missing API
        else:
            finding.message_key = f"finding.{rule}" if advice.replacements else f"finding.{rule}.drop"
        finding.message_args = {
            "torch_api": finding.torch_api,
            "replacement": ", ".join(advice.replacements) or "-",
        }
        finding.mindspore_api = finding.mindspore_api or (
            advice.replacements[0] if advice.replacements else None
        )
        if renamed is not None:
            finding.fixable = True
        elif advice.fix == NAME_FIX:
            finding.fixable = finding.usage in (UsageKind.ATTRIBUTE, UsageKind.REFERENCE)
        else:
            finding.fixable = bool(rewrite(advice.fix, ctx, ctx.call_of(finding), finding.torch_api))
    return ()


CHECKERS = [refine]


def reference_rename(finding: Finding, advice: MissingAdvice, kb) -> str | None:
    """The MindSpore class a type reference becomes (``x: torch.Tensor`` → ``mindspore.Tensor``): an
    annotation or ``isinstance`` argument naming a class with an equivalent class is a rename."""
    if finding.usage is not UsageKind.REFERENCE or advice.policy is not Policy.EQUIVALENT:
        return None
    if not advice.replacements:
        return None
    replacement = advice.replacements[0]
    entry = kb.mindspore_inventory.get(replacement)
    return replacement if entry is not None and entry.get("kind") == "class" else None


def missing_api(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM201: the exact rewrite of the advice, when it applies to the call as written."""
    if not finding.torch_api:
        return None
    advice = advice_for(finding.torch_api, ctx.kb)
    if advice is None:
        return None
    renamed = reference_rename(finding, advice, ctx.kb)
    if renamed is not None:
        return _mindspore_name(ctx, finding, renamed)
    if advice.fix is None:
        return None
    if advice.fix == NAME_FIX:
        return _mindspore_name(ctx, finding, advice.replacements[0])
    call = ctx.call_of(finding)
    if call is None:
        return None
    raw = rewrite(advice.fix, ctx, call, advice.torch_api)
    if not raw:
        return None
    return Fix(
        "MSM201",
        f"fix.pattern.{advice.fix}",
        [TextEdit(*edit) for edit in raw],
        title_args(advice.fix, call, advice.torch_api, ctx),
    )


def _mindspore_name(ctx: FixContext, finding: Finding, mindspore_api: str) -> Fix | None:
    """A dtype such as ``torch.float32`` → ``mindspore.float32`` (plain references only, not imports)."""
    reference = ctx.reference_of(finding)
    if finding.usage not in (UsageKind.ATTRIBUTE, UsageKind.REFERENCE) or reference is None:
        return None
    name, import_edits = ctx.mindspore_reference(mindspore_api, finding.line)
    edit = TextEdit(*ctx.node_range(reference), name)
    return Fix("MSM201", "fix.pattern.mindspore_name", [edit, *import_edits], {"name": mindspore_api})


FIXERS = {"MSM201": missing_api}
