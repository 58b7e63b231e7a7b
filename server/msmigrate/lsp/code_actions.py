"""Quick-fixes attached to their diagnostics, and the ``source.fixAll.msmigrate`` action."""

from __future__ import annotations

import asyncio
import bisect
from typing import Any

from lsprotocol import types

from msmigrate.fixes.api import fix_all, fixes_by_finding
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.fixers import fixers_for
from msmigrate.fixes.model import Fix
from msmigrate.i18n import t
from msmigrate.lsp import compositions
from msmigrate.lsp.analysis import analysis_options
from msmigrate.lsp.diagnostics import SOURCE
from msmigrate.lsp.edits import document_edit
from msmigrate.lsp.positions import LineIndex, line_edits
from msmigrate.lsp.server import AnalyzedDocument, MsMigrateServer
from msmigrate.model.finding import Finding

FIX_ALL_KIND = "source.fixAll.msmigrate"


def fix_all_edits(server: MsMigrateServer, analysis: AnalyzedDocument, on_disk: bool = False
                  ) -> tuple[list[types.TextEdit], list[Fix]]:
    """LSP edits applying every fix of the analysed text (runs the core fix-all). Compositions are left out
    when the client cannot create or extend the helper module (``on_disk``: the server writes it then)."""
    from msmigrate.knowledge.base import get_knowledge_base

    kb = get_knowledge_base(server.settings.mindspore_version)
    options = analysis_options(server.settings, server.project_index())
    path = server.path_of(analysis.uri)
    compat = compositions.compat_for(server, analysis.uri)
    new_source, applied = fix_all(analysis.source, path, kb, options, analysis.result.findings,
                                  device=server.settings.device, compat=compat)
    helpers = compositions.helpers_of(applied)
    if helpers and not compositions.usable(server, compat, helpers) and not (
            on_disk and compositions.write_module(server, compat, helpers)):
        new_source, applied = fix_all(analysis.source, path, kb, options, analysis.result.findings,
                                      lambda _finding, fix: not fix.helpers, server.settings.device, compat)
    if not applied:
        return [], []
    index = LineIndex(analysis.source, analysis.index.codec)
    return [index.edit_to_lsp(edit) for edit in line_edits(analysis.source, new_source)], applied


def fix_all_workspace_edit(server: MsMigrateServer, analysis: AnalyzedDocument, on_disk: bool = False
                           ) -> tuple[types.WorkspaceEdit | None, list[Fix]]:
    """The workspace edit of fix-all (with the helper module's changes), None when there is nothing to do."""
    edits, applied = fix_all_edits(server, analysis, on_disk)
    if not edits:
        return None, applied
    compat = compositions.compat_for(server, analysis.uri)
    edit = compositions.workspace_edit(server, analysis.uri, analysis.version, edits, applied, compat)
    return edit or document_edit(server, analysis.uri, analysis.version, edits), applied


def _near(analysis: AnalyzedDocument, first: int, last: int) -> list[Finding]:
    """The findings that may touch lines ``first..last`` (found by bisection: findings are sorted by
    line, and none starts more than the longest finding's span before ``first``)."""
    findings = analysis.result.findings
    if analysis.finding_lines is None:
        analysis.finding_lines = [f.line for f in findings]
        analysis.longest_span = max((f.end_line - f.line for f in findings), default=0)
    lines = analysis.finding_lines
    low = bisect.bisect_left(lines, first - analysis.longest_span)
    return findings[low : bisect.bisect_right(lines, last)]


def _overlaps(finding: Finding, start: tuple[int, int], end: tuple[int, int]) -> bool:
    return (finding.line, finding.column) <= end and start <= (finding.end_line, finding.end_column)


def _matching_diagnostic(
    finding: Finding, analysis: AnalyzedDocument, diagnostics: list[types.Diagnostic]
) -> types.Diagnostic | None:
    wanted = analysis.index.range_to_lsp(finding.line, finding.column, finding.end_line, finding.end_column)
    for diagnostic in diagnostics:
        if diagnostic.source == SOURCE and diagnostic.code == finding.rule and diagnostic.range == wanted:
            return diagnostic
    return None


def _wants(only: list[str] | None, kind: str) -> bool:
    if not only:
        return True
    return any(kind == k or kind.startswith(k + ".") for k in only)


def quick_fixes(
    server: MsMigrateServer, analysis: AnalyzedDocument, params: types.CodeActionParams
) -> list[types.CodeAction]:
    start = analysis.index.from_lsp(params.range.start)
    end = analysis.index.from_lsp(params.range.end)
    near = _near(analysis, start[0], end[0])
    findings = [f for f in near if fixers_for(f.rule) and _overlaps(f, start, end)]
    if not findings:
        return []
    path = server.path_of(analysis.uri)
    context = analysis.fix_context or None
    if context is None and analysis.fix_context is not False:
        # the statements holding these findings (and the imports), parsed alone: a big file is not
        # parsed whole for each version the cursor stops in
        lines = tuple(sorted({line for f in findings for line in (f.line, f.end_line)}))
        context = analysis.partial_fix_contexts.get(lines)
        documents = server.documents
        tree = None if context else documents.statements_for(analysis.uri, analysis.source, list(lines))
        if tree is not None:
            context = FixContext.of_statements(
                analysis.source, path, server.kb, tree, analysis.result.findings, list(analysis.index.lines)
            )
            analysis.partial_fix_contexts[lines] = context
        elif context is None:  # one parse per document version, shared by all requests
            built = FixContext.build(analysis.source, path, server.kb, analysis.result.findings)
            analysis.fix_context = built if built is not None else False
            context = built
    if context is None:
        return []
    context.device = server.settings.device  # a cached context follows the current setting
    context.compat = compat = compositions.compat_for(server, analysis.uri)
    pairs = fixes_by_finding(analysis.source, path, findings, server.kb, context)
    disabled_ok = server.client_supports("text_document", "code_action", "disabled_support")
    actions: list[types.CodeAction] = []
    preferred_given: set[int] = set()
    for finding, fix in pairs:
        diagnostic = _matching_diagnostic(finding, analysis, params.context.diagnostics)
        title = fix.title(server.lang)
        attached = [diagnostic] if diagnostic else None
        if fix.edits:
            edits = [analysis.index.edit_to_lsp(e) for e in fix.edits]
            edit = (compositions.workspace_edit(server, analysis.uri, analysis.version, edits, [fix], compat)
                    if fix.helpers else document_edit(server, analysis.uri, analysis.version, edits))
            if edit is None:  # the client cannot create the helper module: say why
                if disabled_ok:
                    reason = t("lsp.composition.no_create", server.lang, title=title,
                               path=compat.path.name)
                    actions.append(types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix,
                                                    diagnostics=attached,
                                                    disabled=types.CodeActionDisabled(reason=reason)))
                continue
            preferred = id(finding) not in preferred_given
            preferred_given.add(id(finding))
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=attached,
                    edit=edit,
                    is_preferred=preferred,
                )
            )
        elif disabled_ok:
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=attached,
                    disabled=types.CodeActionDisabled(reason=title),
                )
            )
    return actions


def fix_all_action(server: MsMigrateServer, analysis: AnalyzedDocument, asked: bool
                   ) -> types.CodeAction | None:
    """The fix-all action: its edit comes from ``codeAction/resolve`` when the client can resolve
    edits, is computed now when the client asked for this kind explicitly (e.g. on save), and is
    otherwise the ``msmigrate.fixAll`` command."""
    if not any(fixers_for(f.rule) for f in analysis.result.findings):
        return None
    title = t("fix.fix_all", server.lang)
    action = types.CodeAction(
        title=title, kind=FIX_ALL_KIND, data={"uri": analysis.uri, "version": analysis.version}
    )
    code_action = (
        server.client_capabilities.text_document and server.client_capabilities.text_document.code_action
    )
    resolve = code_action.resolve_support if code_action else None
    if resolve is not None and "edit" in (resolve.properties or []):
        return action
    if asked:
        edit, applied = fix_all_workspace_edit(server, analysis)
        if not applied or edit is None:
            return None
        action.edit = edit
        return action
    action.command = types.Command(title=title, command="msmigrate.fixAll", arguments=[analysis.uri])
    return action


def register(server: MsMigrateServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[
                types.CodeActionKind.QuickFix,
                types.CodeActionKind.SourceFixAll,
                FIX_ALL_KIND,
            ],
            resolve_provider=True,
        ),
    )
    @server.guarded("codeAction", default=list)
    async def code_action(ls: MsMigrateServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        analysis = await server.current(params.text_document.uri)
        if analysis is None:
            return []
        only = params.context.only
        loop = asyncio.get_running_loop()
        actions: list[types.CodeAction] = []
        if _wants(only, types.CodeActionKind.QuickFix):
            actions += await loop.run_in_executor(
                server.analysis_executor, quick_fixes, server, analysis, params
            )
        if _wants(only, FIX_ALL_KIND):
            asked = bool(only)
            action = await loop.run_in_executor(
                server.analysis_executor, fix_all_action, server, analysis, asked
            )
            if action is not None:
                actions.append(action)
        for provider in server.code_action_providers:
            try:
                extra = provider(server, analysis, params)
            except Exception as exc:  # an optional feature never loses the other actions
                server.report_failure(f"codeAction provider {getattr(provider, '__name__', provider)}", exc)
                continue
            actions += [a for a in extra if _wants(only, a.kind or "")]
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(ls: MsMigrateServer, action: types.CodeAction) -> types.CodeAction:
        data: Any = action.data
        if action.edit is not None or not isinstance(data, dict) or "uri" not in data:
            return action
        try:
            analysis = await server.current(data["uri"])
            if analysis is None:
                return action
            loop = asyncio.get_running_loop()
            edit, _applied = await loop.run_in_executor(
                server.analysis_executor, fix_all_workspace_edit, server, analysis
            )
            action.edit = edit or document_edit(server, analysis.uri, analysis.version, [])
        except Exception as exc:  # the action comes back unchanged; the server keeps serving
            server.report_failure("codeAction/resolve", exc)
        return action
