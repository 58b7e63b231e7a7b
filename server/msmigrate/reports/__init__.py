"""Renderers of a :class:`~msmigrate.scan.model.ScanReport`: one module per format.

``render(report, fmt, lang)`` returns the whole report as text for ``text``, ``json``, ``csv``,
``html``, ``sarif`` and ``markdown``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from msmigrate.i18n import normalize_lang
from msmigrate.scan.model import ScanReport


@dataclass(frozen=True)
class ReportFormat:
    """One report format: its renderer (``module:function``, imported only when the format is asked
    for), file extension, display name, and place in the editor's export picker (``None``: not offered)."""

    renderer: str
    extension: str
    label: str
    editor_rank: int | None = None


REPORT_FORMATS: dict[str, ReportFormat] = {
    "text": ReportFormat("msmigrate.reports.text:render_text", "txt", "Text"),
    "json": ReportFormat("msmigrate.reports.json_report:render_json", "json", "JSON", 3),
    "csv": ReportFormat("msmigrate.reports.csv_report:render_csv", "csv", "CSV", 2),
    "html": ReportFormat("msmigrate.reports.html:render_html", "html", "HTML", 1),
    "sarif": ReportFormat("msmigrate.reports.sarif:render_sarif", "sarif", "SARIF", 4),
    "markdown": ReportFormat("msmigrate.reports.markdown:render_markdown", "md", "Markdown", 5),
}
RENDERERS: dict[str, str] = {name: f.renderer for name, f in REPORT_FORMATS.items()}
FORMATS: tuple[str, ...] = tuple(RENDERERS)


def renderer(fmt: str) -> Callable[[ScanReport, str], str]:
    if fmt not in RENDERERS:
        raise ValueError(f"unknown report format {fmt!r}; choose one of {', '.join(FORMATS)}")
    module, name = RENDERERS[fmt].split(":")
    return getattr(importlib.import_module(module), name)


def render(report: ScanReport, fmt: str = "text", lang: str = "en") -> str:
    return renderer(fmt)(report, normalize_lang(lang))
