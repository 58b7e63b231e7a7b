"""Why torch is left in a fixed file: each leftover (``analysis/leftovers.py``) with the finding that speaks
for it and the fix that was not applied, for the summary of ``msmigrate fix`` and its ``--json``.

An import of torch is kept because names it binds are still used (the lines are given); a use is left
because its fix was not applied (unsafe in a safe run, or a step to do by hand: the fix's title says
what), because the fix only explains what to do (its title), because the finding has no fix (its
message), or because no rule covers it (``MSM104``; a torch.nn.Module member left on a Cell: its message,
which names the member).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from msmigrate.analysis.leftovers import (
    RULE,
    CoveringIndex,
    Leftover,
    LeftoverKind,
    torch_bindings,
)
from msmigrate.fixes.safety import is_safe
from msmigrate.i18n import t
from msmigrate.model.finding import Finding, FindingCategory

if TYPE_CHECKING:
    import ast

    from msmigrate.fixes.model import Fix
    from msmigrate.knowledge.base import KnowledgeBase

USAGES = (FindingCategory.CONSISTENT, FindingCategory.DIFFERENCES, FindingCategory.MISSING,
          FindingCategory.UNKNOWN_TORCH_NAME)


@dataclass(frozen=True, slots=True)
class FileLeftover:
    leftover: Leftover
    finding: Finding | None = None  # the finding that speaks for it (None: an import, or MSM104)
    fix: Fix | None = None  # the fix of that finding that was not applied
    why: str = "none"  # import | unsafe | by_hand | finding | none (no rule covers it: MSM104 or nothing)
    used_on: tuple[int, ...] = ()  # an import: the lines that still use the names it binds

    @property
    def rule(self) -> str | None:
        return self.finding.rule if self.finding is not None else None

    def reason(self, lang: str = "en") -> str:
        if self.why == "import":
            if not self.used_on:
                return t("leftover.reason.import_unused", lang)
            key = "leftover.reason.import_one" if len(self.used_on) == 1 else "leftover.reason.import"
            return t(key, lang, lines=", ".join(str(n) for n in self.used_on))
        if self.finding is not None and self.finding.rule == RULE and self.leftover.kind is LeftoverKind.CELL:
            return t("leftover.reason.finding", lang, rule=RULE, message=self.finding.message(lang))
        if self.finding is None or self.finding.rule == RULE:
            return t("leftover.reason.none", lang)
        title = self.fix.title(lang) if self.fix is not None else ""
        if self.why in ("unsafe", "by_hand"):
            return t(f"leftover.reason.{self.why}", lang, rule=self.finding.rule, title=title)
        return t("leftover.reason.finding", lang, rule=self.finding.rule,
                 message=title or self.finding.message(lang))

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        x = self.leftover
        return {"line": x.line, "column": x.column, "end_line": x.end_line, "end_column": x.end_column,
                "kind": x.kind.value, "text": x.text, "rule": self.rule, "reason": self.reason(lang),
                "used_on": list(self.used_on)}


def file_leftovers(tree: ast.Module, source: str, path: str, findings: list[Finding], kb: KnowledgeBase,
                   unsafe: bool, device: str = "CPU", with_fixes: bool = True) -> list[FileLeftover]:
    """Every leftover of ``source`` (parsed as ``tree``; ``findings``: its analysis) with its reason
    (``with_fixes=False``: without asking the fixes, enough for :func:`torch_left`)."""
    from msmigrate.analysis.cell_leftovers import all_leftovers
    from msmigrate.analysis.columns import ColumnMap
    from msmigrate.analysis.parse import split_lines
    from msmigrate.fixes.api import fixes_by_finding

    leftovers = all_leftovers(tree, ColumnMap(split_lines(source), source.isascii()), kb)
    if not leftovers:
        return []
    index = CoveringIndex(findings)
    speaking = {id(x): _speaking(x, index) for x in leftovers}
    chosen = [f for f in speaking.values() if f is not None]
    offered: dict[int, list[Fix]] = {}
    for finding, fix in fixes_by_finding(source, path, chosen, kb, device=device) if with_fixes else ():
        offered.setdefault(id(finding), []).append(fix)
    bound = torch_bindings(tree)
    out: list[FileLeftover] = []
    for x in leftovers:
        used_on: tuple[int, ...] = ()
        if x.kind is LeftoverKind.IMPORT:
            names = {name for name in x.binds if name in bound}
            used_on = tuple(sorted({u.line for u in leftovers if u.kind is not LeftoverKind.IMPORT
                                    and u.root in names}))
            if not x.foreign:
                out.append(FileLeftover(x, why="import", used_on=used_on))
                continue
        finding = speaking[id(x)]
        if finding is None or finding.rule == RULE:
            out.append(FileLeftover(x, finding, used_on=used_on))
            continue
        fixes = offered.get(id(finding), [])
        fix = next((f for f in fixes if f.edits), fixes[0] if fixes else None)
        if fix is not None and fix.edits and not unsafe:
            why = "unsafe" if not is_safe(finding, kb, fix) else "by_hand" if fix.by_hand else "finding"
        else:
            why = "finding"
        out.append(FileLeftover(x, finding, fix, why))
    return out


def _speaking(leftover: Leftover, index: CoveringIndex) -> Finding | None:
    """The finding covering the leftover, the narrowest first (a Cell's member: its MSM104 finding)."""
    covering = index.covering(leftover)
    if leftover.kind is LeftoverKind.CELL:
        covering = [f for f in covering if f.rule == RULE] or covering
    return min(covering, key=lambda f: (f.end_line - f.line, f.end_column - f.column), default=None)


def torch_left(findings: list[Finding], leftovers: list[FileLeftover]) -> int:
    """The torch usages left: usage findings, plus the leftovers no usage finding speaks for (a use under a
    framework-pattern finding such as ``@torch.no_grad()`` still needs torch). Imports are not counted."""
    count = sum(1 for f in findings if f.category in USAGES)
    for x in leftovers:
        if x.why == "import":
            count += not x.used_on  # an import nothing else accounts for
        elif x.finding is None or x.finding.category not in USAGES:
            count += 1
    return count
