"""The result of ``msmigrate compare``: per execution mode the outputs' errors, the per-layer table and its
first divergence, the training step; as JSON and as text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msmigrate.compare.graph_errors import GraphError
from msmigrate.i18n import t
from msmigrate.weights.names import Plan

SCHEMA_VERSION = 2  # 2: layer verdicts accumulated/unchecked/downstream, "alone" (worker_alone)
MODE_LABEL = {"pynative": "PyNative", "graph": "GRAPH_MODE"}
SETTLED = ("match", "accumulated", "missing")  # layer verdicts that leave a mode a match


@dataclass(slots=True)
class ModeResult:
    mode: str  # pynative | graph
    outputs: dict[str, Any] | None = None
    layers: list[dict[str, Any]] = field(default_factory=list)
    training: dict[str, Any] | None = None
    graph_error: GraphError | None = None
    error: tuple[str, dict[str, Any]] | None = None

    @property
    def first_divergence(self) -> dict[str, Any] | None:
        """The first layer, in the order torch finished them, that differs by its own error: its output
        differs in the whole run and also when it runs alone on torch's inputs of that call
        (:mod:`msmigrate.compare.worker_alone`). A layer that matches alone (``accumulated``) or has no
        MindSpore cell (``missing``) is listed but not a divergence."""
        return next((row for row in self.layers if row["status"] == "diverge"), None)

    def layers_with(self, status: str) -> list[dict[str, Any]]:
        return [row for row in self.layers if row["status"] == status]

    @property
    def extra_layers(self) -> list[dict[str, Any]]:
        """The layers whose MindSpore output holds a tensor where torch's holds ``None`` (a note)."""
        return [row for row in self.layers if row.get("extra")]

    @property
    def training_status(self) -> str | None:
        if self.training is None:
            return None
        rows = [self.training["loss"], *self.training["gradients"], *self.training["updated"]]
        return "match" if all(r.get("status") == "match" for r in rows) else "diverge"

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        if self.graph_error is not None:
            return "graph_error"
        matched = self.outputs is not None and self.outputs["status"] == "match"
        layers = all(row["status"] in SETTLED for row in self.layers)  # an unchecked one is not settled
        return "match" if matched and layers and self.training_status in (None, "match") else "diverge"

    def to_json(self, lang: str | None) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "status": self.status,
            "outputs": self.outputs,
            "first_divergence": self.first_divergence,
            "layers": self.layers,
            "training": self.training,
            "graph_error": self.graph_error.to_json() if self.graph_error else None,
            "error": None
            if self.error is None
            else {"key": self.error[0], "message": t(self.error[0], lang, **self.error[1])},
        }


@dataclass(slots=True)
class CompareReport:
    name: str
    torch: str
    mindspore: str
    inputs: list[str]
    checkpoint: str | None
    rtol: float
    atol: float
    conversion: Plan | None = None
    modes: list[ModeResult] = field(default_factory=list)
    error: tuple[str, dict[str, Any]] | None = None
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def status(self) -> str:
        if self.error is not None or any(m.status == "error" for m in self.modes):
            return "error"
        return "match" if self.modes and all(m.status == "match" for m in self.modes) else "diverge"

    @property
    def exit_code(self) -> int:
        """0 every mode matches; 1 a divergence or a graph failure; 2 bad input or a worker failure."""
        return {"match": 0, "diverge": 1, "error": 2}[self.status]

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "name": self.name,
            "status": self.status,
            "torch": self.torch,
            "mindspore": self.mindspore,
            "inputs": self.inputs,
            "checkpoint": self.checkpoint,
            "rtol": self.rtol,
            "atol": self.atol,
            "versions": self.versions,
            "conversion": self.conversion.to_json() if self.conversion else None,
            "modes": [m.to_json(lang) for m in self.modes],
            "error": None
            if self.error is None
            else {"key": self.error[0], "message": t(self.error[0], lang, **self.error[1])},
        }


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2e}"


def layer_status(row: dict[str, Any], lang: str | None) -> str:
    """A layer's verdict, with its error when run alone on torch's inputs (when it was)."""
    label = t(f"compare.status.{row['status']}", lang)
    alone = row.get("alone") or {}
    if alone.get("max_abs") is None:
        return label
    return t("compare.report.alone_status", lang, status=label, max_abs=_num(alone["max_abs"]))


def _layer_line(row: dict[str, Any], lang: str | None) -> list[str]:
    name = row["name"] or "(model)"
    return [
        name if row["call"] == 0 else f"{name} #{row['call'] + 1}",
        row["torch_class"],
        row.get("mindspore_class") or "-",
        _num(row.get("max_abs")),
        _num(row.get("max_rel")),
        layer_status(row, lang),
    ]


def _call_name(row: dict[str, Any]) -> str:
    name = row["name"] or "(model)"
    return name if row["call"] == 0 else f"{name} #{row['call'] + 1}"


def _why_unchecked(row: dict[str, Any], lang: str | None) -> str:
    alone = row.get("alone") or {}
    if alone.get("why") == "run":
        return t("compare.report.unchecked_run", lang, detail=alone.get("detail") or "")
    return t("compare.report.unchecked_input", lang, position=alone.get("position", "?"),
             type=alone.get("type", "?"))


def layer_notes(mode: ModeResult, lang: str | None, limit: int = 5) -> list[str]:
    """The count of layer outputs compared, then (only when there are some) the layers that differ only
    through their input and those that could not be checked alone (the first ``limit`` named)."""
    differ = [r for r in mode.layers if r["status"] not in ("match", "missing")]
    notes = [t("compare.report.layers", lang, count=len(mode.layers), diverging=len(differ),
               missing=len(mode.layers_with("missing")))]
    more = lambda rows: ", …" if len(rows) > limit else ""  # noqa: E731
    separator = t("compare.summary.separator", lang)
    accumulated = mode.layers_with("accumulated")
    if accumulated:
        items = [
            t("compare.report.accumulated_item", lang, name=_call_name(r), max_abs=_num(r.get("max_abs")),
              alone=_num(r["alone"].get("max_abs")))
            for r in accumulated[:limit]
        ]
        notes.append(t("compare.report.accumulated", lang, count=len(accumulated),
                       layers=separator.join(items) + more(accumulated)))
    unchecked = mode.layers_with("unchecked")
    if unchecked:
        items = [t("compare.report.unchecked_item", lang, name=_call_name(r), why=_why_unchecked(r, lang))
                 for r in unchecked[:limit]]
        notes.append(t("compare.report.unchecked", lang, count=len(unchecked),
                       layers=separator.join(items) + more(unchecked)))
    return notes


def inside_unchecked(mode: ModeResult, first: dict[str, Any], lang: str | None) -> str | None:
    """When the first divergence holds layers not checked alone, the note that its error may be theirs."""
    prefix = first["name"] + "." if first["name"] else ""
    inner = [_call_name(r) for r in mode.layers_with("unchecked") if r["name"].startswith(prefix)]
    return t("compare.report.first_holds_unchecked", lang, layers=", ".join(inner)) if inner else None


def first_line(first: dict[str, Any], lang: str | None, name: str, classes: tuple[str, str], status: str
               ) -> str:
    """The first divergence in one sentence (``name``, ``classes`` and ``status`` as the page shows them)."""
    return t(
        "compare.report.first_divergence",
        lang,
        name=name,
        call=first["call"] + 1,
        torch_class=classes[0],
        mindspore_class=classes[1],
        max_abs=_num(first.get("max_abs")),
        alone=_num((first.get("alone") or {}).get("max_abs")),
        status=status,
    )


def extra_notes(mode: ModeResult, lang: str | None, limit: int = 5) -> list[str]:
    """The notes on tensors MindSpore returns where torch returns ``None``: the model's outputs, then the
    layers (the first ``limit`` named)."""
    notes = []
    outputs = (mode.outputs or {}).get("extra") or []
    if outputs:
        positions = ", ".join(str(item["index"]) for item in outputs)
        notes.append(t("compare.report.extra_outputs", lang, positions=positions))
    rows = mode.extra_layers
    if rows:
        items = [
            t("compare.report.extra_item", lang, name=row["name"] or "(model)", position=item["index"],
              shape=item["shape"])
            for row in rows[:limit] for item in row["extra"]
        ]
        more = ", …" if len(rows) > limit else ""
        notes.append(t("compare.report.extra_layers", lang, count=len(rows), layers="; ".join(items) + more))
    return notes


def _table(rows: list[list[str]], head: list[str]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    return [
        "    " + "  ".join(c.ljust(widths[i]) if i < len(widths) else c for i, c in enumerate(r)).rstrip()
        for r in [head, *rows]
    ]


def render_text(report: CompareReport, lang: str | None = None, every_layer: bool = False) -> str:
    lines = [t("compare.report.head", lang, name=report.name, torch=report.torch, mindspore=report.mindspore)]
    weights = (
        t("compare.report.checkpoint", lang, path=report.checkpoint)
        if report.checkpoint
        else t("compare.report.initial", lang)
    )
    lines.append(
        "  "
        + t(
            "compare.report.setup",
            lang,
            weights=weights,
            inputs="; ".join(report.inputs),
            rtol=f"{report.rtol:g}",
            atol=f"{report.atol:g}",
        )
    )
    plan = report.conversion
    if plan is not None:
        lines.append(
            "  "
            + t(
                "compare.report.converted",
                lang,
                count=len(plan.assignments),
                renamed=sum(1 for a in plan.assignments if a.cell_class),
                dropped=len(plan.dropped),
            )
        )
    for mode in report.modes:
        lines += _mode_lines(mode, lang, every_layer)
    if report.error is not None:
        lines.append(t("weights.report.error", lang, message=t(report.error[0], lang, **report.error[1])))
    lines.append(t(f"compare.report.status.{report.status}", lang))
    return "\n".join(lines)


def _mode_lines(mode: ModeResult, lang: str | None, every_layer: bool) -> list[str]:
    label = MODE_LABEL[mode.mode]
    if mode.error is not None:
        return [
            "  "
            + t(
                "compare.report.mode_error", lang, mode=label, message=t(mode.error[0], lang, **mode.error[1])
            )
        ]
    if mode.graph_error is not None:
        g = mode.graph_error
        lines = ["  " + t("compare.report.graph_error", lang, mode=label, message=g.message)]
        if g.file:
            lines.append(
                "    "
                + t("compare.report.graph_where", lang, file=g.file, line=g.line, source=g.source or "")
            )
        if g.rule:
            lines.append("    " + t("compare.report.graph_rule", lang, rule=g.rule))
        return lines
    out = mode.outputs or {}
    lines = [
        "  "
        + t(
            "compare.report.outputs",
            lang,
            mode=label,
            status=t(f"compare.status.{out.get('status')}", lang),
            max_abs=_num(out.get("max_abs")),
            max_rel=_num(out.get("max_rel")),
        )
    ]
    if out.get("detail"):
        lines.append("    " + str(out["detail"]))
    first = mode.first_divergence
    if mode.layers:
        lines += ["    " + note for note in layer_notes(mode, lang)]
    lines += ["    " + note for note in extra_notes(mode, lang)]
    if mode.layers:
        if first is not None:
            classes = (first["torch_class"], first.get("mindspore_class") or "-")
            status = t(f"compare.status.{first['status']}", lang)
            lines.append("    " + first_line(first, lang, first["name"] or "(model)", classes, status))
            holds = inside_unchecked(mode, first, lang)
            lines += ["    " + holds] if holds else []
        if every_layer or first is not None:
            head = [
                t(f"compare.col.{c}", lang)
                for c in ("layer", "torch", "mindspore", "max_abs", "max_rel", "status")
            ]
            upto = len(mode.layers) if every_layer else mode.layers.index(first) + 1
            lines += _table(
                [_layer_line(r, lang) for r in mode.layers[:upto]][-12 if not every_layer else 0 :], head
            )
    if mode.training is not None:
        tr = mode.training
        grads = [r for r in tr["gradients"] if r.get("status") == "diverge" or r.get("status") == "missing"]
        lines.append(
            "    "
            + t(
                "compare.report.training",
                lang,
                status=t(f"compare.status.{mode.training_status}", lang),
                torch=f"{tr['loss']['torch']:.6g}",
                mindspore=f"{tr['loss']['mindspore']:.6g}",
                grads=len(tr["gradients"]),
                grad_abs=_num(max((r.get("max_abs") or 0.0 for r in tr["gradients"]), default=None)),
                updated_abs=_num(max((r.get("max_abs") or 0.0 for r in tr["updated"]), default=None)),
            )
        )
        for row in grads[:5]:
            lines.append(
                "      "
                + t(
                    "compare.report.grad_diverges",
                    lang,
                    name=row["torch"] or row["mindspore"],
                    max_abs=_num(row.get("max_abs")),
                    status=t(f"compare.status.{row['status']}", lang),
                )
            )
    return lines


def summary_line(report: CompareReport, lang: str | None = None) -> str:
    """One line for a notification: the verdict, then per mode what decided it."""
    head = t("compare.md.title", lang, name=report.name, result=t(f"compare.md.result.{report.status}", lang))
    if report.error is not None:
        message = t(report.error[0], lang, **report.error[1])
        return t("compare.summary.error", lang, head=head, message=message)
    if not report.modes:
        return head
    modes = t("compare.summary.separator", lang).join(_mode_summary(mode, lang) for mode in report.modes)
    return t("compare.summary.modes", lang, head=head, modes=modes)


def _mode_summary(mode: ModeResult, lang: str | None) -> str:
    label = MODE_LABEL[mode.mode]
    if mode.error is not None:
        return t("compare.summary.mode", lang, mode=label, text=t(mode.error[0], lang, **mode.error[1]))
    if mode.graph_error is not None:
        g = mode.graph_error
        where = ""
        if g.file and g.line:
            name = g.file.replace("\\", "/").rsplit("/", 1)[-1]
            where = t("compare.summary.graph_where", lang, file=name, line=g.line)
        return t("compare.summary.mode", lang, mode=label, text=t("compare.summary.graph", lang, where=where))
    out = mode.outputs or {}
    text = t("compare.summary.outputs", lang, status=t(f"compare.status.{out.get('status')}", lang),
             max_abs=_num(out.get("max_abs")))
    first = mode.first_divergence
    if first is not None:
        text += t("compare.summary.first", lang, name=first["name"] or "(model)")
    elif mode.layers_with("unchecked"):
        text += t("compare.summary.unchecked", lang, count=len(mode.layers_with("unchecked")))
    if mode.training_status is not None:
        text += t("compare.summary.training", lang, status=t(f"compare.status.{mode.training_status}", lang))
    return t("compare.summary.mode", lang, mode=label, text=text)
