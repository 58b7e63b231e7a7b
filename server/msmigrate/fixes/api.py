"""Entry points: the fixes offered for findings, and fix-all for a whole file.

Every fix with edits is verified: the edited source must be accepted by ``ast.parse``, otherwise the
fix is not offered. A fix with no edits is an explanation (why the finding cannot be fixed
mechanically); clients show it as a disabled action and fix-all skips it.
"""

from __future__ import annotations

import ast
import bisect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from msmigrate.analysis.severity import carried_fix
from msmigrate.fixes.compositions import CompatModule
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.fixers import fixers_for
from msmigrate.fixes.imports import IMPORT_LINE
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.text import apply_edits, overlaps, sorted_edits
from msmigrate.model.finding import Finding

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase

log = logging.getLogger(__name__)
MAX_PASSES = 3
CLEANUP_RULE = "imports"  # the fix that removes torch imports left unused by the others


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True


def _verified(ctx: FixContext, fix: Fix) -> bool:
    """Whether the file still parses with the fix applied.

    Only the top-level statements the edits touch are re-parsed (the rest of the file is unchanged
    and statements parse independently); the ``import mindspore`` line goes between statements.
    """
    if not fix.edits:
        return True
    edits = [e for e in fix.edits if not (e.new_text.strip() == IMPORT_LINE and e.line == e.end_line)]
    if not edits:
        return True
    first = min(e.line for e in edits)
    last = max(e.end_line for e in edits)
    span = ctx.statement_lines(first, last)
    try:
        if span is None:
            return _parses(apply_edits(ctx.source, fix.edits))
        start, end = span
        snippet = "\n".join(ctx.lines[start - 1 : end])
        shifted = [
            TextEdit(e.line - start + 1, e.column, e.end_line - start + 1, e.end_column, e.new_text)
            for e in edits
        ]
        return _parses(apply_edits(snippet, shifted))
    except ValueError:  # overlapping edits inside one fix
        return False


def _collect(ctx: FixContext, findings: list[Finding], verify: bool) -> list[tuple[Finding, Fix]]:
    found: list[tuple[Finding, Fix]] = []
    for finding in findings:
        _run_fixers(ctx, finding, finding, verify, found)
        carried = carried_fix(finding)  # a fixable finding merged into this one at the same position
        if carried is not None:
            _run_fixers(ctx, finding, carried, verify, found)
    return found


def _run_fixers(ctx: FixContext, finding: Finding, source: Finding, verify: bool,
                found: list[tuple[Finding, Fix]]) -> None:
    """The fixes of ``source``'s rule, offered for ``finding``."""
    for fixer in fixers_for(source.rule):
        try:
            fix = fixer(ctx, source)
        except Exception:  # a fixer bug must not take the caller down
            log.exception(
                "fixer %s failed on %s:%s", getattr(fixer, "__name__", fixer), ctx.path, finding.line
            )
            continue
        if fix is not None and (not verify or _verified(ctx, fix)):
            found.append((finding, fix))


def fixes_by_finding(
    source: str, path: str, findings: list[Finding], kb: KnowledgeBase, context: FixContext | None = None,
    device: str = "CPU",
) -> list[tuple[Finding, Fix]]:
    """(finding, fix) pairs for the given findings, each fix verified on its own.

    ``context`` may be a :class:`FixContext` already built for this very source (the language server
    keeps one per document version).
    """
    if context is not None and context.source == source:
        ctx: FixContext | None = context
    else:
        ctx = FixContext.build(source, path, kb, findings, device)
    if ctx is None:
        return []
    return _collect(ctx, findings, verify=True)


def fixes_for(source: str, path: str, findings: list[Finding], kb: KnowledgeBase) -> list[Fix]:
    """The fixes offered for ``findings`` in ``source`` (explanations included, with no edits)."""
    return [fix for _finding, fix in fixes_by_finding(source, path, findings, kb)]


class _EditSet:
    """Accepted edits kept sorted, for fast overlap checks."""

    def __init__(self) -> None:
        self.keys: list[tuple[int, int, int, int]] = []
        self.edits: list[TextEdit] = []

    @staticmethod
    def _key(edit: TextEdit) -> tuple[int, int, int, int]:
        return (edit.line, edit.column, edit.end_line, edit.end_column)

    def conflicts(self, edit: TextEdit) -> bool:
        index = bisect.bisect_left(self.keys, self._key(edit))
        # accepted edits are disjoint, so sorted by start they are sorted by end: neighbours suffice
        return any(overlaps(edit, other) for other in self.edits[max(index - 2, 0) : index + 2])

    def add(self, edit: TextEdit) -> None:
        if edit in self.edits:
            return
        index = bisect.bisect_left(self.keys, self._key(edit))
        self.keys.insert(index, self._key(edit))
        self.edits.insert(index, edit)


def merge_fixes(fixes: list[Fix]) -> tuple[list[Fix], list[TextEdit]]:
    """Greedily keep fixes (in document order) whose edits overlap no kept edit."""
    accepted = _EditSet()
    kept: list[Fix] = []
    ordered = sorted(
        (f for f in fixes if f.edits),
        key=lambda f: min((e.line, e.column) for e in f.edits),
    )
    for fix in ordered:
        if any(accepted.conflicts(edit) for edit in fix.edits):
            continue
        for edit in fix.edits:
            accepted.add(edit)
        kept.append(fix)
    return kept, sorted_edits(accepted.edits)


def fix_all(
    source: str,
    path: str,
    kb: KnowledgeBase,
    options: object | None = None,
    findings: list[Finding] | None = None,
    accept: Callable[[Finding, Fix], bool] | None = None,
    device: str | None = None,
    compat: CompatModule | None = None,
) -> tuple[str, list[Fix]]:
    """Apply every fix of the file (those ``accept(finding, fix)`` allows, when given); returns the new
    source and the fixes applied. ``device``: where the fixed code runs (default: ``options.device``, else
    CPU); the findings' resolutions are made for it. The fixes' ``helpers`` are the compositions the file
    now calls from the project's helper module ``compat``, which the caller writes
    (``fixes/compositions.py``).

    Fixes whose edits overlap an earlier fix wait for the next pass (the file is analysed again, up
    to ``MAX_PASSES`` times), so nested calls such as ``torch.abs(torch.neg(x))`` are all fixed.
    ``findings`` may be the analysis of ``source`` the caller already has (saves the first analysis).
    """
    from dataclasses import replace

    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.analysis.options import AnalysisOptions

    given = options if isinstance(options, AnalysisOptions) else AnalysisOptions()
    device = device or given.device
    options = given if given.device == device else replace(given, device=device)
    applied: list[Fix] = []
    for number in range(MAX_PASSES):
        if number == 0 and findings is not None:
            current = findings
        else:
            current = analyze_source(source, path, kb, options).findings
        ctx = FixContext.build(source, path, kb, current, device, compat)
        if ctx is None:
            break
        candidates = [
            fix for finding, fix in _collect(ctx, current, verify=False)
            if fix.edits and (accept is None or accept(finding, fix))
        ]
        kept, edits = merge_fixes(candidates)
        if not kept:
            break
        new_source = apply_edits(source, edits)
        if not _parses(new_source):  # rare: verify one by one and retry with the good ones
            kept, edits = merge_fixes([fix for fix in kept if _verified(ctx, fix)])
            new_source = apply_edits(source, edits)
            if not kept or not _parses(new_source):
                break
        source = new_source
        applied.extend(kept)
    if applied:
        source, cleanup = _drop_unused_torch_imports(source)
        applied.extend(cleanup)
    return source, applied


def _drop_unused_torch_imports(source: str) -> tuple[str, list[Fix]]:
    """Once fixes removed the last use of a torch import, remove the import (the file ends without torch)."""
    from msmigrate.fixes.torch_imports import unused_torch_import_edits

    edits = unused_torch_import_edits(source)
    if not edits:
        return source, []
    try:
        new_source = apply_edits(source, edits)
    except ValueError:
        return source, []
    if not _parses(new_source):
        return source, []
    return new_source, [Fix(CLEANUP_RULE, "fix.remove_torch_imports", edits)]
