"""Human-readable text of check results (CLI, language server)."""

from __future__ import annotations

import ast

from msmigrate.i18n import catalogue, t
from msmigrate.knowledge.check_result import CheckResult, CheckStatus
from msmigrate.knowledge.value_forms import adapted

HINTED = ("missing_framework", "device_unavailable", "timeout", "worker_crash", "worker_start")


def number(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def reason_text(reason: str | None, lang: str | None) -> str:
    key = f"check.reason.{reason}"
    return t(key, lang) if reason and key in catalogue() else (reason or "")


def note_text(note: str | None, lang: str | None) -> str:
    """The text of a note id (``check.note.<id>``, or ``<id>:<name>`` with a parameter name)."""
    if not note:
        return ""
    ident, _, name = note.partition(":")
    key = f"check.note.{ident}"
    if key not in catalogue():
        return note  # not a note id: an exception text or a plain detail
    return t(key, lang, name=name) if name else t(key, lang)


def status_text(result: CheckResult, lang: str | None) -> str:
    status = t(f"check.status.{result.status}", lang)
    if result.status is CheckStatus.PASS or not result.reason:
        return status
    return t("check.result.because", lang, status=status, reason=reason_text(result.reason, lang))


def summary(result: CheckResult, lang: str | None) -> str:
    """One line: status, and the numbers when there are some."""
    text = status_text(result, lang)
    if result.max_abs_error is not None:
        text += "; " + numbers(result, lang)
    return text


def numbers(result: CheckResult, lang: str | None) -> str:
    return t(
        "check.result.numbers",
        lang,
        max_abs=number(result.max_abs_error),
        max_rel=number(result.max_rel_error),
        cosine=number(result.cosine_similarity),
    )


def hint(result: CheckResult, lang: str | None, python: str = "") -> str | None:
    """An actionable sentence for worker/environment problems."""
    if result.reason not in HINTED:
        return None
    return t(f"check.hint.{result.reason}", lang, detail=result.detail or "", python=python)


def describe(result: CheckResult, lang: str | None, python: str = "") -> str:
    """Several lines: the verdict, numbers, first mismatch, shapes, versions, detail."""
    lines = [
        t(
            "check.result.line",
            lang,
            api=result.api,
            mindspore_api=result.mindspore_api or "-",
            status=status_text(result, lang),
        )
    ]

    def add(key: str, **fields: object) -> None:
        lines.append("  " + t(key, lang, **fields))

    if result.max_abs_error is not None:
        lines.append("  " + numbers(result, lang))
        if result.rtol is not None:
            add("check.result.tolerance", rtol=result.rtol, atol=result.atol)
    if result.first_mismatch_index is not None:
        add(
            "check.result.first_mismatch",
            output=result.first_mismatch_output or 0,
            index=tuple(result.first_mismatch_index),
        )
    if result.torch_shapes or result.mindspore_shapes:
        add(
            "check.result.shapes",
            torch_shapes=result.torch_shapes,
            mindspore_shapes=result.mindspore_shapes,
            torch_dtypes=result.torch_dtypes,
            mindspore_dtypes=result.mindspore_dtypes,
        )
    if result.result_form:
        call = f"{result.mindspore_api or '-'}(…)"
        node = ast.Call(func=ast.Name("f"), args=[], keywords=[])
        add("check.result.result_form", written=adapted(result.result_form, call, node))
    hinted = hint(result, lang, python)
    if hinted:
        lines.append("  " + hinted)
    elif result.detail:
        add("check.result.detail", detail=note_text(result.detail, lang))
    if result.mindspore_version:
        add(
            "check.result.versions",
            device=result.device,
            mindspore_version=result.mindspore_version,
            torch_version=result.torch_version,
        )
    return "\n".join(lines)
