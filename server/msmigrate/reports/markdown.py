"""Markdown report for pull-request comments: a summary table, then one collapsible ``<details>`` per file.

Every string from the scanned code or the messages is escaped with HTML entities (``<>&"'``) and the
Markdown-active characters (``|`` `` ` `` ``*`` ``_`` ``[`` ``]`` ``\\`` ``#`` ``~``), so it can break
neither the table nor the surrounding comment. ``@`` is followed by a zero-width space, so ``@name`` in
code or a file name never becomes a GitHub mention (an entity such as ``&#64;`` would not help: GitHub
decodes it before it looks for mentions).
"""

from __future__ import annotations

import html

from msmigrate.i18n import t
from msmigrate.reports.common import category_label, format_rate, location
from msmigrate.scan.model import ScanReport

# one pass over the original characters: an entity made for one character is never escaped again
# (a quote's ``&#x27;`` must not have its ``#`` turned into ``&#35;``)
_ESCAPES = str.maketrans({**{c: html.escape(c, quote=True) for c in "&<>\"'"},
                          **{c: f"&#{ord(c)};" for c in "|`*_[]\\#~"}, "@": "@\u200b"})


def md_escape(value: object) -> str:
    text = str(value).translate(_ESCAPES)
    return " ".join(text.split())  # no newline may end a table row


def _code(value: str | None) -> str:
    return f"<code>{md_escape(value)}</code>" if value else ""


COMMENT_LIMIT = 65_536  # characters in a GitHub pull-request comment
_BUDGET = COMMENT_LIMIT - 1_536  # room for the closing note and a header the caller may add


def render_markdown(report: ScanReport, lang: str = "en", budget: int = _BUDGET) -> str:
    """The report, cut after the finding rows that fit in ``budget`` characters (a note says how many
    more there are)."""
    summary = report.summary()
    out = [
        f"## {md_escape(t('report.title', lang))}",
        "",
        md_escape(t("report.header", lang, tool=report.tool, version=report.version,
                    mindspore_version=report.mindspore_version)),
        "",
        f"| {md_escape(t('report.summary', lang))} | {md_escape(t('report.col.count', lang))} |",
        "|---|---:|",
        f"| {md_escape(t('report.files', lang))} | {summary['files']} |",
        f"| {md_escape(t('report.files_with_errors', lang))} | {summary['files_with_errors']} |",
    ]
    if summary["files_with_syntax_errors"]:
        out.append(f"| {md_escape(t('analysis.files_with_syntax_errors', lang))} | "
                   f"{summary['files_with_syntax_errors']} |")
    out += [
        f"| {md_escape(t('report.findings', lang))} | {summary['findings']} |",
    ]
    out += [
        f"| {md_escape(category_label(category, lang))} | {count} |"
        for category, count in summary["categories"].items()
        if count
    ]
    out += [
        f"| {md_escape(t('report.torch_usages', lang))} | {summary['torch_usages']} |",
        "",
        f"**{md_escape(t('report.convertible_rate', lang))}**: "
        + md_escape(format_rate(summary["convertible_rate"], summary["mapped_usages"],
                                summary["torch_usages"], lang)),
    ]
    header = ["location", "torch_api", "mindspore_api", "category", "rule", "severity", "message"]
    size = sum(len(line) + 1 for line in out)
    shown = 0
    full = True
    for file in report.files:
        if not file.findings and not file.error_key and not file.recovered:
            continue
        count = f"{len(file.findings)} {t('report.findings', lang).lower()}" if lang == "en" else \
            f"{t('report.findings', lang)} {len(file.findings)}"
        block = ["", f"<details><summary>{_code(file.path)} — {md_escape(count)}</summary>", ""]
        if file.error_key:
            block += [md_escape(t("report.file_error", lang, message=file.error(lang))), ""]
        if file.recovered:
            block += [f"> ⚠️ {md_escape(file.syntax_error(lang))}", ""]
        if file.findings:
            block.append("| " + " | ".join(md_escape(t(f"report.col.{c}", lang)) for c in header) + " |")
            block.append("|" + "---|" * len(header))
        closing = ["", "</details>"]
        size += sum(len(line) + 1 for line in block + closing)
        if size > budget:
            full = False
            break
        out += block
        for f in file.findings:
            cells = [
                location(f), _code(f.torch_api), _code(f.mindspore_api),
                md_escape(category_label(f.category.value, lang)), md_escape(f.rule),
                md_escape(t(f"report.severity.{f.severity.value}", lang)), md_escape(f.message(lang)),
            ]
            row = "| " + " | ".join(cells) + " |"
            size += len(row) + 1
            if size > budget:
                full = False
                break
            out.append(row)
            shown += 1
        out += closing
        if not full:
            break
    if not full:
        out += ["", md_escape(t("report.markdown.truncated", lang, count=summary["findings"] - shown))]
    return "\n".join(out) + "\n"
