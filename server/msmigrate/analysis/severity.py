"""The severity of an API finding from what it says, and one finding per source position.

A warning means the code will not work on MindSpore as written and needs thought: an API MindSpore lacks
(``MSM200``, ``MSM202``–``MSM204``), an unknown name (``MSM103``), or a mapped API whose stated
differences change this call's result (a default that differs for a parameter the call leaves out, a
torch-only parameter the call passes). A rename with a quick-fix is a hint; a mapping with differences
that need a look, an equivalent replacement without a fix, data processing: information. A type named in
an annotation or an ``isinstance`` argument is a reference, never more than a hint.

:func:`one_per_position` keeps the most specific finding where several start at the same position (one
with a quick-fix, then a framework-pattern or graph-mode rule over the API finding) and puts the others'
messages in its ``also``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from msmigrate.i18n import ref
from msmigrate.knowledge.model import MappingCategory
from msmigrate.model.finding import Finding, FindingCategory, Severity, UsageKind
from msmigrate.model.resolution import Resolution

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase
    from msmigrate.knowledge.model import MappingRow

HINT, INFORMATION, WARNING = Severity.HINT, Severity.INFORMATION, Severity.WARNING
FIX_OF = "fix_of"  # message argument: the merged fixable finding (rule, category, usage, apis, message)
_MERGED = frozenset({"also", FIX_OF})
API_RULE_PREFIXES = ("MSM1", "MSM2", "MSM6")  # findings of API references (categorize + missing_api)

# severity by rule for the API findings whose severity does not depend on the call
_BY_RULE: dict[str, Severity] = {
    "MSM100": HINT,
    "MSM102": HINT,
    "MSM103": WARNING,
    "MSM200": WARNING,
    "MSM202": WARNING,
    "MSM203": WARNING,
    "MSM204": WARNING,
    "MSM600": INFORMATION,
}
# mapped with differences that only a reading of the difference page can settle
_LOOK_CATEGORIES = frozenset({MappingCategory.DATA_TYPES, MappingCategory.OTHER_DIFFERENCE,
                              MappingCategory.DIFF_PAGE})


def is_api_finding(finding: Finding) -> bool:
    return finding.rule.startswith(API_RULE_PREFIXES)


def api_severity(finding: Finding, call: ast.Call | None, kb: KnowledgeBase) -> Severity:
    """The severity of an API finding (rule after refinement) at this usage and call."""
    if finding.usage is UsageKind.REFERENCE:
        return HINT
    rule = finding.rule
    found = _BY_RULE.get(rule)
    if found is not None:
        return found
    if rule == "MSM201":
        plain = finding.fixable or finding.usage is UsageKind.DECORATOR
        return HINT if plain or _same_member(finding.torch_api, finding.mindspore_api) else INFORMATION
    if rule == "MSM101":  # the row of the target the resolution writes (another table's on a device)
        if finding.resolution is not None and finding.resolution.replacement is not None:
            from msmigrate.knowledge.resolution import row_of

            row = row_of(finding.resolution)
        else:
            row = kb.row(finding.torch_api) if finding.torch_api else None
        return differences_severity(row, call, kb, finding.fixable)
    return finding.severity


def _same_member(torch_api: str | None, mindspore_api: str | None) -> bool:
    """``torch.Tensor.shape`` → ``mindspore.Tensor.shape``: a member of the same name, nothing to rewrite."""
    if not torch_api or not mindspore_api:
        return False
    torch_owner, _, torch_name = torch_api.rpartition(".")
    ms_owner, _, ms_name = mindspore_api.rpartition(".")
    return torch_name == ms_name and torch_owner.rpartition(".")[2][:1].isupper() and (
        ms_owner.rpartition(".")[2][:1].isupper())


def differences_severity(row: MappingRow | None, call: ast.Call | None, kb: KnowledgeBase,
                         fixable: bool) -> Severity:
    """A mapping with differences: warning when a stated difference changes this call's result."""
    if row is None:
        return INFORMATION
    if call is not None:
        passed = passed_params(call, kb.torch_signatures(row.torch_api))
        if passed is not None:
            if any(d.param not in passed for d in row.default_differences):
                return WARNING  # the call takes the default, which differs
            if any(p in passed for p in row.torch_only_params):
                return WARNING  # a parameter MindSpore does not have
    elif row.default_differences:
        return INFORMATION  # a reference (``act = nn.GELU``): the difference applies where it is called
    if row.category in _LOOK_CATEGORIES:
        return INFORMATION
    return HINT if fixable else INFORMATION


def passed_params(call: ast.Call, signatures: list[list[dict]]) -> set[str] | None:
    """Names of the parameters the call passes (keywords, positionals by the torch signature), or
    ``None`` when that cannot be told (``*args``/``**kwargs``, no signature fits)."""
    passed = set()
    for keyword in call.keywords:
        if keyword.arg is None:
            return None
        passed.add(keyword.arg)
    count = len(call.args)
    if any(type(arg) is ast.Starred for arg in call.args):
        return None
    if not count:
        return passed
    for signature in signatures:
        positional = [p for p in signature
                      if p.get("kind") in (None, "positional_only", "positional_or_keyword")]
        if positional and positional[0].get("name") == "self":
            positional = positional[1:]
        if any(p.get("kind") == "var_positional" for p in signature):
            return None  # ``x.view(2, 3)``: positionals fill a *size
        if len(positional) >= count:
            return passed | {p["name"] for p in positional[:count]}
    return None if signatures else passed


def one_per_position(findings: list[Finding]) -> list[Finding]:
    """One finding per (line, column): the most specific one, carrying the others' messages in
    ``message_args["also"]`` (rendered after its own message) and their MindSpore API if it has none.
    ``findings`` are sorted by position."""
    out: list[Finding] = []
    index = 0
    count = len(findings)
    while index < count:
        finding = findings[index]
        end = index + 1
        while end < count and findings[end].line == finding.line and findings[end].column == finding.column:
            end += 1
        if end == index + 1:
            out.append(finding)
        else:
            out.append(_merge(findings[index:end]))
        index = end
    return out


def _specificity(finding: Finding) -> tuple[int, int, bool]:
    """A rule's finding over the API finding (the framework pattern or graph-mode fact is the more
    specific one), then the severity, then one with a quick-fix."""
    return (0 if is_api_finding(finding) else 1, finding.severity.rank, finding.fixable)


def carried_fix(finding: Finding) -> Finding | None:
    """The fixable finding merged into ``finding`` (its quick-fix stays offered), rebuilt."""
    carried = finding.message_args.get(FIX_OF)
    if not carried:
        return None
    rule, category, usage, torch_api, mindspore_api, key, args, resolution = carried
    return Finding(finding.line, finding.column, finding.end_line, finding.end_column, torch_api,
                   mindspore_api, FindingCategory(category), rule, finding.severity, key, dict(args), True,
                   UsageKind(usage), resolution=Resolution.from_json(resolution) if resolution else None)


def _merge(group: list[Finding]) -> Finding:
    winner = max(group, key=_specificity)  # the first of equals (the group is sorted by rule)
    also = list(winner.message_args.get("also", ()))
    fix_of = None
    for other in group:
        if other is winner:
            continue
        own = {key: value for key, value in other.message_args.items() if key not in _MERGED}
        if other.message_key != winner.message_key or other.message_args != winner.message_args:
            also.append(ref(other.message_key, **own))
            also.extend(other.message_args.get("also", ()))
        if other.fixable and not winner.fixable and fix_of is None:
            fix_of = (other.rule, other.category.value, other.usage.value, other.torch_api,
                      other.mindspore_api, other.message_key, tuple(own.items()),
                      other.resolution.to_json() if other.resolution is not None else None)
        if winner.mindspore_api is None:
            winner.mindspore_api = other.mindspore_api
        if winner.resolution is None and other.resolution is not None and (
                winner.mindspore_api == other.resolution.target):  # what the carried API fix writes
            winner.resolution = other.resolution
        if winner.torch_api is None:
            winner.torch_api = other.torch_api
        if other.severity.rank > winner.severity.rank:
            winner.severity = other.severity
    if also or fix_of:
        winner.message_args = {**winner.message_args, "also": tuple(also)}
        if fix_of:  # offered with this finding (``fixable`` stays this rule's own)
            winner.message_args[FIX_OF] = fix_of
    return winner
