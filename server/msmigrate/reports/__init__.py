"""Renderers of a :class:`~msmigrate.scan.model.ScanReport`: one module per format.

``render(report, fmt, lang)`` returns the whole report as text for ``text``, ``json``, ``csv``,
``html``, ``sarif`` and ``markdown``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from msmigrate.i18n import normalize_lang
from msmigrate.scan.model import ScanReport

# format → "module:function"; modules are imported only when their format is asked for
RENDERERS: dict[str, str] = {
    "text": "msmigrate.reports.text:render_text",
    "json": "msmigrate.reports.json_report:render_json",
    "csv": "msmigrate.reports.csv_report:render_csv",
    "html": "msmigrate.reports.html:render_html",
    "sarif": "msmigrate.reports.sarif:render_sarif",
    "markdown": "msmigrate.reports.markdown:render_markdown",
}
FORMATS: tuple[str, ...] = tuple(RENDERERS)


def renderer(fmt: str) -> Callable[[ScanReport, str], str]:
    if fmt not in RENDERERS:
        raise ValueError(f"unknown report format {fmt!r}; choose one of {', '.join(FORMATS)}")
    module, name = RENDERERS[fmt].split(":")
    return getattr(importlib.import_module(module), name)


def render(report: ScanReport, fmt: str = "text", lang: str = "en") -> str:
    return renderer(fmt)(report, normalize_lang(lang))
