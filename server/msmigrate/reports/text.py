"""Terminal report: per file, the Dev Toolkit's lists (convertible / possibly Tensor API / no direct
mapping) and the other categories, then a summary with counts and the convertible rate. Control
characters from file names and code are shown escaped (``\x1b``), never sent to the terminal.

The report is built once as :class:`rich.text.Text` lines: printed through a rich console on a terminal
(colours), or joined as plain text for files and pipes (user strings are never parsed as markup).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from msmigrate.i18n import t, t_list
from msmigrate.model.finding import Finding, FindingCategory
from msmigrate.reports.common import category_label, format_rate, location, sections
from msmigrate.reports.control_chars import escape_controls as _c
from msmigrate.scan.model import ScanReport

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "information": "cyan", "hint": "dim"}
_SECTION_STYLE = {
    "report.section.convertible": "green",
    "report.section.possible_tensor_api": "yellow",
    "report.section.missing": "red",
}


_ARROW_KEYS = frozenset({"analysis.api.differences", "analysis.api.derived_differences"})
_DERIVED_KEYS = frozenset({"analysis.api.derived_consistent", "analysis.api.derived_differences"})


def _finding_line(finding: Finding, lang: str) -> Text:
    line = Text("    ")
    line.append(location(finding).ljust(8), style="dim")
    if finding.torch_api:
        line.append(_c(finding.torch_api), style="bold")
        if finding.mindspore_api:
            line.append(" → ")
            line.append(_c(finding.mindspore_api), style="green")
        line.append("  ")
    details = None
    if finding.category is FindingCategory.DIFFERENCES:
        line.append(f"({category_label(finding.category.value, lang)}) ", style="yellow")
        if finding.message_key in _ARROW_KEYS and finding.mindspore_api:
            # the arrow is already printed: only the differences follow it
            details = t_list(finding.message_args.get("details") or (), lang)
    if finding.message_key in _DERIVED_KEYS:  # a derived mapping says where it comes from
        provenance = t_list(finding.message_args.get("provenance") or (), lang)
        details = (
            t("derived.details_then_provenance", lang, details=details, provenance=provenance)
            if details
            else provenance
        )
    if details:
        line.append(_c(details) + "  ")
    elif finding.category is not FindingCategory.CONSISTENT or not finding.mindspore_api:
        line.append(_c(finding.message(lang)) + "  ")  # a consistent mapping needs no more than its arrow
    line.append(f"[{finding.rule} ", style="dim")
    line.append(t(f"report.severity.{finding.severity.value}", lang), style=_SEVERITY_STYLE[finding.severity])
    line.append("]", style="dim")
    return line


def _aligned(rows: list[tuple[str, str]], indent: str = "  ") -> list[Text]:
    width = max((cell_len(label) for label, _ in rows), default=0)
    return [Text(f"{indent}{label}{' ' * (width - cell_len(label))}  {value}") for label, value in rows]


def build_lines(report: ScanReport, lang: str = "en") -> list[Text]:
    lines: list[Text] = [
        Text(t("report.header", lang, tool=report.tool, version=report.version,
               mindspore_version=report.mindspore_version), style="bold"),
    ]
    if not report.files:
        lines += [Text(""), Text(t("report.no_files", lang))]
    for file in report.files:
        if not file.findings and not file.error_key and not file.recovered:
            continue
        lines += [Text(""), Text(_c(file.path), style="bold underline")]
        if file.error_key:
            message = _c(t("report.file_error", lang, message=file.error(lang)))
            lines.append(Text("  " + message, style="red"))
        if file.recovered:
            lines.append(Text("  " + _c(file.syntax_error(lang) or ""), style="yellow"))
        for key, findings in sections(file.findings):
            lines.append(Text(f"  {t(key, lang)} ({len(findings)})", style=_SECTION_STYLE.get(key, "bold")))
            lines += [_finding_line(f, lang) for f in findings]

    summary = report.summary()
    lines += [Text(""), Text(t("report.summary", lang), style="bold")]
    rows = [
        (t("report.files", lang), str(summary["files"])),
        (t("report.files_with_errors", lang), str(summary["files_with_errors"])),
    ]
    if summary["files_with_syntax_errors"]:
        rows.append((t("analysis.files_with_syntax_errors", lang), str(summary["files_with_syntax_errors"])))
    rows += [
        (t("report.lines", lang), str(summary["lines"])),
        (t("report.findings", lang), str(summary["findings"])),
    ]
    rows += [
        ("  " + category_label(category, lang), str(count))
        for category, count in summary["categories"].items()
        if count
    ]
    rows.append((t("report.torch_usages", lang), str(summary["torch_usages"])))
    rows.append((
        t("report.convertible_rate", lang),
        format_rate(summary["convertible_rate"], summary["mapped_usages"], summary["torch_usages"], lang),
    ))
    lines += _aligned(rows)
    return lines


def render_text(report: ScanReport, lang: str = "en") -> str:
    return "\n".join(line.plain for line in build_lines(report, lang)) + "\n"
