"""A :class:`~msmigrate.compare.report.CompareReport` as a Markdown page: what the language server writes
for editors that open a file rather than a webview (LSP4IJ). Per mode the outputs' errors, the per-layer
table with the first divergence in bold, the training step, a GRAPH_MODE failure with a link to its source
line. Every value from the models or the configuration is escaped (table cells, code spans, link targets).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from msmigrate.compare.report import (
    MODE_LABEL,
    CompareReport,
    ModeResult,
    extra_notes,
    first_line,
    inside_unchecked,
    layer_notes,
    layer_status,
)
from msmigrate.i18n import t

_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def text(value: Any) -> str:
    """Plain text: Markdown's special characters escaped, one line."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(value).split()))


def code(value: Any) -> str:
    """A code span that no backtick in ``value`` can close early."""
    inner = " ".join(str(value).split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", inner)), default=0) + 1)
    pad = " " if inner.startswith("`") or inner.endswith("`") else ""
    return f"{fence}{pad}{inner}{pad}{fence}"


def cell_code(value: Any) -> str:
    """A code span inside a table cell: GitHub-flavoured tables split cells at ``|`` even in code spans,
    unless it is escaped (the backslash is then dropped)."""
    return code(value).replace("|", "\\|")


def link_target(file: str, line: int | None, base: Path | None) -> str:
    """A link to ``file`` (at ``line``): relative to ``base`` (the page's folder) when given, else a
    ``file:`` URI; percent-encoded, so no character of the path ends the link."""
    path = Path(file)
    if base is not None:
        target = quote(Path(os.path.relpath(path, base)).as_posix())
    else:
        target = path.as_uri() if path.is_absolute() else quote(path.as_posix())
    return f"{target}#L{line}" if line else target


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2e}"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _status(status: str | None, lang: str | None) -> str:
    return text(t(f"compare.status.{status}", lang))


def _layer_name(row: dict[str, Any]) -> str:
    return row["name"] or "(model)"


def _summary_row(mode: ModeResult, lang: str | None) -> list[str]:
    label = MODE_LABEL[mode.mode]
    if mode.error is not None:
        return [label, text(t("compare.md.mode_error", lang)), "-", "-", "-", "-"]
    if mode.graph_error is not None:
        return [label, text(t("compare.md.graph_fails", lang)), "-", "-", "-", "-"]
    out = mode.outputs or {}
    first = mode.first_divergence
    return [
        label,
        _status(out.get("status"), lang),
        _num(out.get("max_abs")),
        _num(out.get("max_rel")),
        cell_code(_layer_name(first)) if first else "-",
        _status(mode.training_status, lang),
    ]


def _graph_lines(mode: ModeResult, lang: str | None, base: Path | None) -> list[str]:
    g = mode.graph_error
    assert g is not None
    lines = [t("compare.report.graph_error", lang, mode=MODE_LABEL[mode.mode], message=text(g.message)), ""]
    if g.file:
        shown = f"{Path(g.file).name}:{g.line}" if g.line else Path(g.file).name
        link = f"[{text(shown)}]({link_target(g.file, g.line, base)})"
        lines += [f"- {t('compare.md.graph_where', lang, link=link, source=code(g.source or ''))}"]
    if g.rule:
        lines += [f"- {t('compare.report.graph_rule', lang, rule=g.rule)}"]
    return lines


def _training_lines(mode: ModeResult, lang: str | None) -> list[str]:
    tr = mode.training
    assert tr is not None
    lines = [
        t(
            "compare.report.training",
            lang,
            status=_status(mode.training_status, lang),
            torch=f"{tr['loss']['torch']:.6g}",
            mindspore=f"{tr['loss']['mindspore']:.6g}",
            grads=len(tr["gradients"]),
            grad_abs=_num(max((r.get("max_abs") or 0.0 for r in tr["gradients"]), default=None)),
            updated_abs=_num(max((r.get("max_abs") or 0.0 for r in tr["updated"]), default=None)),
        )
    ]
    for row in tr["gradients"]:
        if row.get("status") in ("diverge", "missing"):
            name = row["torch"] or row["mindspore"]
            lines.append(
                "- "
                + t(
                    "compare.report.grad_diverges",
                    lang,
                    name=code(name),
                    max_abs=_num(row.get("max_abs")),
                    status=_status(row["status"], lang),
                )
            )
    return lines


def _layer_table(mode: ModeResult, lang: str | None) -> list[str]:
    first = mode.first_divergence
    columns = ("layer", "torch", "mindspore", "max_abs", "max_rel", "status")
    head = [t(f"compare.col.{c}", lang) for c in columns]
    lines = [_row(["#", *head]), _row(["---"] * 7)]
    for index, row in enumerate(mode.layers, 1):
        name = _layer_name(row) + (f" #{row['call'] + 1}" if row["call"] else "")
        cells = [
            str(index),
            cell_code(name),
            text(row["torch_class"]),
            text(row.get("mindspore_class") or "-"),
            _num(row.get("max_abs")),
            _num(row.get("max_rel")),
            text(layer_status(row, lang)),
        ]
        if row is first:
            cells = [f"**{c}**" for c in cells]
            cells[-1] += f" ⟵ {text(t('compare.md.first_marker', lang))}"
        lines.append(_row(cells))
    return lines


def _mode_section(mode: ModeResult, lang: str | None, base: Path | None) -> list[str]:
    label = MODE_LABEL[mode.mode]
    lines = [f"## {label}", ""]
    if mode.error is not None:
        message = t(mode.error[0], lang, **mode.error[1])
        return [*lines, t("compare.report.mode_error", lang, mode=label, message=text(message)), ""]
    if mode.graph_error is not None:
        return [*lines, *_graph_lines(mode, lang, base), ""]
    out = mode.outputs or {}
    lines.append(
        t(
            "compare.report.outputs",
            lang,
            mode=label,
            status=_status(out.get("status"), lang),
            max_abs=_num(out.get("max_abs")),
            max_rel=_num(out.get("max_rel")),
        )
    )
    if out.get("detail"):
        lines += ["", text(out["detail"])]
    for note in extra_notes(mode, lang):
        lines += ["", text(note)]
    lines.append("")
    if mode.training is not None:
        lines += [*_training_lines(mode, lang), ""]
    if mode.layers:
        first = mode.first_divergence
        notes = layer_notes(mode, lang)
        lines.append(text(notes[0]))
        for note in notes[1:]:
            lines += ["", text(note)]
        if first is not None:
            classes = (text(first["torch_class"]), text(first.get("mindspore_class") or "-"))
            status = _status(first["status"], lang)
            summary = first_line(first, lang, code(_layer_name(first)), classes, status)
            lines += ["", f"**{summary}**"]
            holds = inside_unchecked(mode, first, lang)
            lines += ["", text(holds)] if holds else []
        title = text(t("compare.md.layers_title", lang, mode=label))
        lines += ["", f"### {title}", "", *_layer_table(mode, lang)]
        lines.append("")
    return lines


def render_markdown(report: CompareReport, lang: str | None = None, base: Path | None = None) -> str:
    """The report as Markdown; links to source lines are relative to ``base`` (the page's folder)."""
    result = t(f"compare.md.result.{report.status}", lang)
    weights = (
        t("compare.report.checkpoint", lang, path=code(report.checkpoint))
        if report.checkpoint
        else t("compare.report.initial", lang)
    )
    lines = [
        f"# {text(t('compare.md.title', lang, name=report.name, result=result))}",
        "",
        f"- {t('compare.md.torch', lang, model=code(report.torch))}",
        f"- {t('compare.md.mindspore', lang, model=code(report.mindspore))}",
        "- "
        + t(
            "compare.report.setup",
            lang,
            weights=weights,
            inputs=text("; ".join(report.inputs)),
            rtol=f"{report.rtol:g}",
            atol=f"{report.atol:g}",
        ),
    ]
    plan = report.conversion
    if plan is not None:
        renamed = sum(1 for a in plan.assignments if a.cell_class)
        lines.append(
            "- "
            + t("compare.report.converted", lang, count=len(plan.assignments), renamed=renamed,
                dropped=len(plan.dropped))
        )
    lines.append("")
    if report.error is not None:
        message = t(report.error[0], lang, **report.error[1])
        lines += [f"**{text(t('compare.md.error', lang))}** {text(message)}", ""]
    if report.modes:
        head = [t(f"compare.md.col.{c}", lang) for c in ("mode", "outputs", "max_abs", "max_rel", "first",
                                                        "training")]
        lines += [_row(head), _row(["---"] * len(head))]
        lines += [_row(_summary_row(mode, lang)) for mode in report.modes]
        lines.append("")
        for mode in report.modes:
            lines += _mode_section(mode, lang, base)
    return "\n".join(lines).rstrip() + "\n"
