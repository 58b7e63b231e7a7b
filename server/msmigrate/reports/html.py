"""HTML report: one self-contained file (inline CSS and JS, no external fetch, strict CSP).

Rendered by a Jinja2 template with autoescaping: every path, API name and message is escaped. Rows are
rendered as HTML (never as data inside the script), and the script only reads the DOM.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from msmigrate.i18n import t
from msmigrate.model.finding import FindingCategory, Severity
from msmigrate.reports.common import category_label, doc_urls, format_rate
from msmigrate.scan.model import ScanReport

_LINK_KEYS = (
    ("mindspore_en", "report.html.docs_en"),
    ("mindspore_zh", "report.html.docs_zh"),
    ("diff_en", "report.html.diff_en"),
    ("diff_zh", "report.html.diff_zh"),
)


@dataclass
class _Node:
    name: str
    path: str
    findings: int = 0
    folders: list[_Node] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)


def breakable(name: str | None) -> Markup:
    """``name`` escaped, with a line-break opportunity after each ``.`` and ``/`` (long dotted API names
    and paths would otherwise widen the findings table past the window)."""
    text = str(escape(name or ""))
    return Markup(text.replace(".", ".<wbr>").replace("/", "/<wbr>"))


@cache
def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("msmigrate.reports", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["breakable"] = breakable
    return env


def _tree(report: ScanReport, lang: str) -> _Node:
    root = _Node("", "")
    index: dict[str, _Node] = {"": root}
    for file in report.files:
        parts = file.path.split("/")
        node = root
        node.findings += len(file.findings)
        for i, name in enumerate(parts[:-1]):
            path = "/".join(parts[: i + 1])
            if path not in index:
                index[path] = _Node(name, path)
                node.folders.append(index[path])
            node = index[path]
            node.findings += len(file.findings)
        node.files.append({"name": parts[-1], "path": file.path, "findings": len(file.findings),
                           "error": file.error(lang), "syntax_error": file.syntax_error(lang)})
    return root


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate * 100:.1f}%"


def render_html(report: ScanReport, lang: str = "en") -> str:
    summary = report.summary()
    rows = []
    for file, f in report.findings():
        urls = doc_urls(f.torch_api, report.mindspore_version)
        rows.append({
            "path": file.path, "line": f.line, "column": f.column, "torch_api": f.torch_api,
            "mindspore_api": f.mindspore_api, "category": f.category.value, "rule": f.rule,
            "severity": f.severity.value, "severity_rank": f.severity.rank, "message": f.message(lang),
            "links": [(t(label, lang), urls[key]) for key, label in _LINK_KEYS if key in urls],
        })
    rate = summary["convertible_rate"]
    template = _environment().get_template("report.html.j2")
    return template.render(
        html_lang="zh-CN" if lang == "zh" else "en",
        title=t("report.title", lang),
        header=t("report.header", lang, tool=report.tool, version=report.version,
                 mindspore_version=report.mindspore_version),
        summary=summary,
        rate_percent=_percent(rate),
        percent=_percent,
        rate_text=format_rate(rate, summary["mapped_usages"], summary["torch_usages"], lang),
        tree=_tree(report, lang),
        rows=rows,
        categories=[c.value for c in FindingCategory],
        severities=[s.value for s in Severity],
        t=lambda key, **fields: t(key, lang, **fields),
        category_label=lambda category: category_label(category, lang),
    ) + "\n"
