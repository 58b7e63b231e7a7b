"""The result of a conversion: what was read, the name plan, what was written; as JSON and as text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msmigrate.i18n import t
from msmigrate.weights.names import Plan

SCHEMA_VERSION = 1


@dataclass(slots=True)
class ConversionReport:
    source: str
    output: str
    format: str  # ckpt | safetensors
    model: str | None
    read_format: str | None = None  # torch | safetensors
    source_key: str = ""
    ignored: list[str] = field(default_factory=list)
    tensors: int = 0  # tensors read
    plan: Plan | None = None
    written: bool = False
    error: tuple[str, dict[str, Any]] | None = None  # (message key, fields)

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        return "written" if self.written else "not_written"

    @property
    def exit_code(self) -> int:
        """0 written; 1 not written as names or shapes do not line up; 2 bad input or a worker failure."""
        return {"written": 0, "not_written": 1, "error": 2}[self.status]

    def error_text(self, lang: str | None = None) -> str | None:
        return None if self.error is None else t(self.error[0], lang, **self.error[1])

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "status": self.status,
            "source": self.source,
            "output": self.output,
            "format": self.format,
            "model": self.model,
            "read_format": self.read_format,
            "source_key": self.source_key,
            "ignored": self.ignored,
            "tensors": self.tensors,
            "written": self.written,
            "error": None
            if self.error is None
            else {
                "key": self.error[0],
                "message": self.error_text(lang),
                "fields": {k: str(v) for k, v in self.error[1].items()},
            },
            **(self.plan.to_json() if self.plan is not None else {}),
        }

    def render_text(self, lang: str | None = None, every: bool = False) -> str:
        """The read, the table of names (``every``: all of them, else those that are not copied as they
        are), the counts, and what was written or why not."""
        lines: list[str] = []
        if self.read_format is not None:
            where = t("weights.report.under", lang, key=self.source_key) if self.source_key else ""
            lines.append(
                t(
                    "weights.report.read",
                    lang,
                    path=self.source,
                    count=self.tensors,
                    format=t(f"weights.report.format.{self.read_format}", lang),
                    where=where,
                )
            )
            if self.ignored:
                lines.append("  " + t("weights.report.ignored", lang, names=", ".join(self.ignored[:20])))
        plan = self.plan
        if plan is not None:
            if plan.torch_prefix or plan.mindspore_prefix:
                lines.append(
                    "  "
                    + t(
                        "weights.report.prefix",
                        lang,
                        removed=plan.torch_prefix or "-",
                        added=plan.mindspore_prefix or "-",
                    )
                )
            lines.append(
                t("weights.report.model", lang, model=self.model)
                if plan.with_model
                else t("weights.report.no_model", lang)
            )
            lines += _table(plan, lang, every)
            lines.append(_summary(plan, lang))
        if self.error is not None:
            lines.append(t("weights.report.error", lang, message=self.error_text(lang)))
        elif self.written:
            count = len(plan.assignments) if plan else 0
            lines.append(t("weights.report.written", lang, path=self.output, format=self.format, count=count))
        elif plan is not None:
            why = "weights.why.incomplete" if not plan.loadable else "weights.why.unused"
            lines.append(t("weights.report.not_written", lang, why=t(why, lang)))
        return "\n".join(lines)


def _shape(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _grouped(plan: Plan, lang: str | None) -> list[str]:
    """One line per renaming class, per re-layout and per dropped name: ``weight → gamma ×53``."""
    renames: dict[str, dict[tuple[str, str], int]] = {}
    layouts: dict[str, int] = {}
    for a in plan.assignments:
        if a.cell_class:
            pair = (a.torch.rpartition(".")[2], a.mindspore.rpartition(".")[2])
            counts = renames.setdefault(a.cell_class, {})
            counts[pair] = counts.get(pair, 0) + 1
        if a.layout != "same":
            layouts[a.layout] = layouts.get(a.layout, 0) + 1
    lines = [
        t(
            "weights.group.renamed",
            lang,
            cls=cls,
            pairs=", ".join(f"{a} → {b} ×{n}" for (a, b), n in pairs.items()),
        )
        for cls, pairs in renames.items()
    ]
    for how, count in layouts.items():
        note = (
            t("weights.note.insert_axis", lang, axis=how.partition(":")[2])
            if how.startswith("insert_axis")
            else t("weights.note.reshape", lang, shape="…")
        )
        lines.append(t("weights.group.layout", lang, note=note, count=count))
    dropped: dict[tuple[str, str], int] = {}
    for name, reason in plan.dropped:
        key = (name.rpartition(".")[2] if reason == "weights.dropped.step_counter" else name, reason)
        dropped[key] = dropped.get(key, 0) + 1
    lines += [
        t("weights.group.dropped", lang, name=name, count=count, why=t(reason, lang))
        for (name, reason), count in dropped.items()
    ]
    return ["  " + line for line in lines]


def _rows(plan: Plan, lang: str | None, every: bool) -> list[tuple[str, str, str, str]]:
    """Every assignment (``every``), and each tensor or parameter that is not converted."""
    rows: list[tuple[str, str, str, str]] = []
    for a in plan.assignments if every else ():
        notes = []
        if a.cell_class:
            notes.append(t("weights.note.renamed", lang, cls=a.cell_class))
        if a.layout.startswith("insert_axis:"):
            notes.append(t("weights.note.insert_axis", lang, axis=a.layout.partition(":")[2]))
        elif a.layout == "reshape":
            notes.append(t("weights.note.reshape", lang, shape=_shape(a.torch_shape)))
        if notes or every:
            rows.append((a.torch, a.mindspore, _shape(a.shape), "; ".join(notes)))
    for name, reason in plan.dropped if every else ():
        rows.append((name, "-", "", t("weights.note.dropped", lang, why=t(reason, lang))))
    for tensor in plan.unused:
        rows.append((tensor.name, "-", _shape(tensor.shape), t("weights.note.unused", lang)))
    for m in plan.mismatched:
        key = "weights.note.transposed" if m.transposed else "weights.note.mismatch"
        rows.append(
            (
                m.torch,
                m.mindspore,
                _shape(m.shape),
                t(key, lang, torch_shape=_shape(m.torch_shape), shape=_shape(m.shape)),
            )
        )
    for p in plan.missing:
        rows.append(("-", p.name, _shape(p.shape), t("weights.note.missing", lang, cls=p.cell_class)))
    for p in plan.kept_initial:
        rows.append(("-", p.name, _shape(p.shape), t("weights.note.kept_initial", lang, cls=p.cell_class)))
    return rows


def _table(plan: Plan, lang: str | None, every: bool) -> list[str]:
    grouped = [] if every else _grouped(plan, lang)
    rows = _rows(plan, lang, every)
    if not rows:
        return grouped
    head = (
        t("weights.col.torch", lang),
        t("weights.col.mindspore", lang),
        t("weights.col.shape", lang),
        t("weights.col.note", lang),
    )
    widths = [min(48, max(len(r[i]) for r in [head, *rows])) for i in range(3)]
    return grouped + [
        "  " + "  ".join(cell.ljust(widths[i]) if i < 3 else cell for i, cell in enumerate(row)).rstrip()
        for row in [head, *rows]
    ]


def _summary(plan: Plan, lang: str | None) -> str:
    return t(
        "weights.report.summary",
        lang,
        assigned=len(plan.assignments),
        renamed=sum(1 for a in plan.assignments if a.cell_class),
        relaid=sum(1 for a in plan.assignments if a.layout != "same"),
        dropped=len(plan.dropped),
        unused=len(plan.unused),
        missing=len(plan.missing),
        mismatched=len(plan.mismatched),
    )
