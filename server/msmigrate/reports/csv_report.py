"""CSV report: one row per finding (and one per file that could not be analysed), fixed English headers.

Cells that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, tab or CR)
are prefixed with ``'``, since paths and names come from the scanned code.
"""

from __future__ import annotations

import csv
import io

from msmigrate.scan.model import ScanReport

COLUMNS = (
    "path", "line", "column", "end_line", "end_column", "torch_api", "mindspore_api",
    "category", "rule", "severity", "message", "fixable", "error",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def render_csv(report: ScanReport, lang: str = "en") -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for file in report.files:
        if file.error_key:
            writer.writerow([_cell(file.path), *[""] * 11, _cell(file.error(lang))])
        for f in file.findings:
            writer.writerow([
                _cell(v) for v in (
                    file.path, f.line, f.column, f.end_line, f.end_column, f.torch_api, f.mindspore_api,
                    f.category.value, f.rule, f.severity.value, f.message(lang), f.fixable, None,
                )
            ])
    return out.getvalue()
