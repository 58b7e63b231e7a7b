"""MSM201–MSM204: which missing-API policy applies to an unmapped torch API (refines MSM200 findings)."""

from __future__ import annotations

import weakref
from collections.abc import Iterable

from msmigrate.fixes.rewrites import rewrite
from msmigrate.knowledge.missing_advice import POLICY_DOC, RULE_FOR_POLICY, MissingAdvice, Policy, advice_for
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule

DOC = POLICY_DOC.format(lang="en")
NAME_FIX = "mindspore_name"  # the reference itself is replaced by the MindSpore name (dtypes)

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
