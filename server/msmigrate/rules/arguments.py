"""Argument-aware mapping: each call of a mapped torch API gets the overload its arguments select and
the parameter facts that apply to it (see ``analysis/call_facts.py``). No rule of its own: the checker
refines the MSM100 / MSM101 findings in place."""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.analysis.call_facts import call_verdict_memo
from msmigrate.analysis.categorize import categorize, rule_info, verdict_cache
from msmigrate.analysis.source_text import segment
from msmigrate.model.finding import Finding

RULES: list = []
_REFINED = frozenset({"MSM100", "MSM101"})


def refine_calls(ctx) -> Iterable[Finding]:
    verdicts = verdict_cache(ctx.kb)
    source = ctx.source

    def text(node) -> str:
        return segment(source, node)

    for finding in ctx.usages:
        if finding.rule not in _REFINED or not finding.torch_api:
            continue
        call = ctx.call_of(finding)
        if call is None:
            continue
        ctx.cancel.check()
        verdict = categorize(finding.torch_api, ctx.kb, verdicts)
        if verdict.mindspore_api != finding.mindspore_api:
            continue  # another refinement already chose the mapping
        found = call_verdict_memo(verdict, call, ctx.kb, ctx.is_tensor, text)
        if found is None:
            continue
        finding.mindspore_api = found.mindspore_api
        finding.category = found.category
        finding.rule = found.rule
        finding.message_key = found.message_key
        finding.message_args = dict(found.message_args)
        finding.fixable = found.fixable and rule_info(found.rule).fixable
    return ()


CHECKERS = [refine_calls]
