"""Hover on a torch name: its MindSpore equivalent, parameter facts and links (or missing-API advice)."""

from __future__ import annotations

import bisect

from lsprotocol import types

from msmigrate.i18n import t
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.model import MappingRow
from msmigrate.lsp.server import AnalyzedDocument, MsMigrateServer
from msmigrate.model.finding import Finding, FindingCategory

UNMAPPED = (FindingCategory.MISSING, FindingCategory.UNKNOWN_TORCH_NAME)


def finding_at(analysis: AnalyzedDocument, line: int, column: int) -> Finding | None:
    """The narrowest finding naming a torch API that covers (line, column)."""
    findings = analysis.result.findings
    hi = bisect.bisect_right(findings, line, key=lambda f: f.line)
    best: Finding | None = None
    for index in range(hi - 1, -1, -1):
        finding = findings[index]
        if finding.line < line - 50:
            break
        if not finding.torch_api:
            continue
        if (finding.line, finding.column) <= (line, column) <= (finding.end_line, finding.end_column):
            span = (finding.end_line - finding.line, finding.end_column - finding.column)
            if best is None or span < (best.end_line - best.line, best.end_column - best.column):
                best = finding
    return best


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def row_markdown(row: MappingRow, lang: str) -> str:
    """Markdown for a mapping row (used when the lookup module offers none)."""
    parts = [f"{_code(row.torch_api)} → {_code(row.mindspore_api or '—')}"]
    parts.append(t("lsp.hover.category", lang, category=t(f"lsp.category.{row.category.value}", lang)))
    table: list[tuple[str, str, str]] = []
    for old, new in {**row.input_renames, **row.param_renames}.items():
        table.append((_code(old), _code(new), ""))
    for name in row.torch_only_params:
        table.append((_code(name), "—", t("lsp.hover.unsupported", lang)))
    for diff in row.default_differences:
        note = t(
            "lsp.hover.default_differs",
            lang,
            torch_default=diff.torch_default or "—",
            mindspore_default=diff.mindspore_default or "—",
        )
        table.append((_code(diff.param), _code(row.param_renames.get(diff.param, diff.param)), note))
    if table:
        head = t("lsp.hover.table_head", lang)
        lines = [head, "|---|---|---|"] + [f"| {a} | {b} | {_cell(c)} |" for a, b, c in table]
        parts.append("\n".join(lines))
    links = []
    lang_key = "zh" if lang == "zh" else "en"
    if row.urls.get("torch"):
        links.append(f"[{t('lsp.hover.link_torch', lang)}]({row.urls['torch']})")
    ms_url = row.urls.get(f"mindspore_{lang_key}") or row.urls.get("mindspore_en")
    if ms_url:
        links.append(f"[{t('lsp.hover.link_mindspore', lang)}]({ms_url})")
    diff_url = row.urls.get(f"diff_{lang_key}") or row.urls.get("diff_en")
    if diff_url:
        links.append(f"[{t('lsp.hover.link_diff', lang)}]({diff_url})")
    if links:
        parts.append(" · ".join(links))
    return "\n\n".join(parts)


def _lookup_markdown(name: str, kb: KnowledgeBase, lang: str, device: str = "CPU",
                     finding: Finding | None = None) -> str | None:
    try:
        from msmigrate.knowledge.lookup import lookup
    except ImportError:
        return None
    resolution = finding.resolution if finding is not None else None  # what this usage's fix writes
    return lookup(name, kb, device=device, resolution=resolution).render_markdown(lang)


def _advice_markdown(name: str, kb: KnowledgeBase, lang: str) -> str | None:
    try:
        from msmigrate.knowledge.missing_advice import advice_for
    except ImportError:
        return None
    advice = advice_for(name, kb)
    return advice.render_markdown(lang) if advice is not None else None


def _verified_line(finding: Finding, kb: KnowledgeBase, device: str, lang: str) -> str | None:
    """The stored check of the pair the finding's fix writes (of its row's table), when there is one."""
    try:
        from msmigrate.knowledge.verified import verified_status
    except ImportError:
        return None
    resolution = finding.resolution
    if resolution is not None and resolution.replacement is not None:
        status = verified_status(resolution.row_api or "", resolution.row_version, resolution.device)
        if status is None or status.mindspore_api != resolution.target:
            return None
    else:
        status = verified_status(finding.torch_api or "", kb.version, device)
    return status.render(lang) if status is not None else None


def hover_markdown(finding: Finding, kb: KnowledgeBase, lang: str, device: str = "CPU") -> str:
    """The hover text for one finding, in ``lang``."""
    name = finding.torch_api or ""
    sections: list[str] = []
    looked_up = _lookup_markdown(name, kb, lang, device, finding)
    row = kb.row(name)
    if looked_up:
        sections.append(looked_up)
    elif row is not None:
        sections.append(row_markdown(row, lang))
    else:
        sections.append(f"{_code(name)}\n\n{finding.message(lang)}")
    if finding.message_args.get("call_specific"):
        # the call's own mapping (its overload) and the parameter facts that apply to it
        sections.insert(1, t("lsp.hover.this_call", lang, message=finding.message(lang)))
    if finding.category in UNMAPPED and not looked_up:  # lookup renders the advice itself
        advice = _advice_markdown(name, kb, lang)
        if advice:
            sections.append(advice)
    verified = _verified_line(finding, kb, device, lang)
    if verified:
        sections.append(verified)
    return "\n\n---\n\n".join(sections)


def register(server: MsMigrateServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @server.guarded("hover")
    async def hover(ls: MsMigrateServer, params: types.HoverParams) -> types.Hover | None:
        analysis = await server.current(params.text_document.uri)
        if analysis is None:
            return None
        line, column = analysis.index.from_lsp(params.position)
        finding = finding_at(analysis, line, column)
        if finding is None:
            return None
        text = hover_markdown(finding, server.kb, server.lang, server.settings.device)
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
            range=analysis.index.range_to_lsp(
                finding.line, finding.column, finding.end_line, finding.end_column
            ),
        )
