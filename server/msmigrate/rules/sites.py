"""Sites: the findings-to-be of a family's rules, found in one walk per file and reported by each rule
module for its own rule (``rules/dynamic_shape/_scope.py``, ``rules/sparse/_sites.py``,
``rules/graph/_sites.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from msmigrate.analysis.context import AnalysisContext
from msmigrate.model.finding import Finding
from msmigrate.model.rule import Rule
from msmigrate.rules.support import Range, new_finding


@dataclass(frozen=True, slots=True)
class Site:
    """One finding to be: its rule id, range, message key and fields, the torch API it is about, whether it
    has a quick-fix."""

    rule: str
    span: Range
    key: str
    args: dict
    torch_api: str | None = None
    fixable: bool = False


def sites_of(ctx: AnalysisContext, rule: Rule, name: str, walk: Callable[[AnalysisContext], list[Site]]
             ) -> list[Site]:
    """``rule``'s sites among those ``walk`` finds, walking once per file (kept as ``ctx.memo[name]``)."""
    found = ctx.memo.get(name)
    if found is None:
        found = ctx.memo[name] = walk(ctx)
    return [site for site in found if site.rule == rule.id]


def new_findings(rule: Rule, sites: list[Site]) -> list[Finding]:
    """The sites as new findings of ``rule`` (an API finding at the same place stays)."""
    return [new_finding(rule, site.span, site.key, site.args, torch_api=site.torch_api, fixable=site.fixable)
            for site in sites]
