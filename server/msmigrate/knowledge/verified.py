"""The verified-mappings tables ``mapping_data/verified-<table version>-<device>.json``.

Written by ``msmigrate check --all``; read by hover and reports through :func:`verified_status`.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.i18n import t
from msmigrate.knowledge.check_render import note_text, number, reason_text
from msmigrate.knowledge.check_result import CheckResult
from msmigrate.paths import data_dir

SCHEMA_VERSION = 1
# MindSpore's names for the missing kernel ("The kernel Mm unregistered", "Unsupported op [Einsum]").
KERNEL = re.compile(r"The kernel (\w+) unregistered|Unsupported op \[(\w+)\]")
UNRELATED_NOTE_REASONS = frozenset({"not_op", "no_mapping"})  # the spec's note says nothing about these
NUMBER_FIELDS = ("max_abs_error", "max_rel_error", "cosine_similarity")
DATE_ENV = "MSMIGRATE_CHECK_DATE"  # fixed date for reproducible verified tables


def verified_path(version: str, device: str = "CPU", folder: Path | None = None) -> Path:
    return (folder or data_dir()) / f"verified-{version}-{device}.json"


def _round(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.6g}")


def _short_version(version: str | None) -> str:
    return ".".join((version or "?").split(".")[:2])


def entry_of(result: CheckResult, note: str | None = None) -> dict[str, Any]:
    """The stored facts of one result (numbers rounded to 6 significant digits)."""
    entry: dict[str, Any] = {"mindspore_api": result.mindspore_api, "status": str(result.status)}
    if result.reason:
        entry["reason"] = result.reason
    if result.result_form:
        entry["result_form"] = result.result_form
    for name in NUMBER_FIELDS:
        value = getattr(result, name)
        if value is not None:
            entry[name] = _round(value)
    if result.first_mismatch_index is not None:
        entry["first_mismatch"] = [result.first_mismatch_output or 0, *result.first_mismatch_index]
    if note and result.reason not in UNRELATED_NOTE_REASONS:
        entry["note"] = note
    kernel = KERNEL.search(result.detail or "") if result.reason == "unsupported_on_device" else None
    if kernel:
        entry["kernel"] = kernel.group(1) or kernel.group(2)
    return entry


def render_verified_json(
    results: list[CheckResult],
    version: str,
    device: str,
    torch_version: str | None,
    mindspore_version: str | None,
    date: str,
    notes: dict[str, str] | None = None,
    kept: dict[str, Any] | None = None,
) -> str:
    """The deterministic text of a verified table (``kept``: a previous table whose other results stay,
    for a check of some rows only)."""
    notes = notes or {}
    entries = dict((kept or {}).get("results") or {})
    entries |= {r.api: entry_of(r, notes.get(r.api)) for r in results}
    counts = Counter(str(entry.get("status")) for entry in entries.values())
    payload = {
        "schema_version": SCHEMA_VERSION,
        "mapping_table": version,
        "device": device,
        "torch_version": torch_version,
        "mindspore_version": mindspore_version,
        "date": date,
        "counts": {s: counts.get(s, 0) for s in ("pass", "fail", "error", "skipped")},
        "results": {api: entries[api] for api in sorted(entries)},
    }
    return json.dumps(payload, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def check_date(date: str | None = None) -> str:
    """The date a written table of checks carries: ``date``, else ``$MSMIGRATE_CHECK_DATE``, else today."""
    return date or os.environ.get(DATE_ENV) or datetime.date.today().isoformat()


def write_verified(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    _load.cache_clear()
    return path


@cache
def _load(path: Path, mtime: float) -> dict[str, Any] | None:
    try:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("results"), dict) else None


def load_verified(version: str, device: str = "CPU", folder: Path | None = None) -> dict[str, Any] | None:
    return read_verified(verified_path(version, device, folder))


def read_verified(path: Path) -> dict[str, Any] | None:
    """The verified table in ``path`` (None when missing or not one)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    return _load(path, mtime)


@dataclass(frozen=True, slots=True)
class VerifiedStatus:
    """What a verified table says about one torch API."""

    torch_api: str
    mindspore_api: str | None
    status: str
    reason: str | None
    device: str
    torch_version: str | None
    mindspore_version: str | None
    date: str | None
    max_abs_error: float | None = None
    max_rel_error: float | None = None
    cosine_similarity: float | None = None
    note: str | None = None
    result_form: str | None = None  # the form MindSpore's result was compared in (``value_forms``)

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def render(self, lang: str | None = "en") -> str:
        fields = {
            "device": self.device,
            "mindspore_version": _short_version(self.mindspore_version),
            "torch_version": _short_version(self.torch_version),
        }
        reason = reason_text(self.reason, lang)
        if self.status == "fail" and self.max_abs_error is not None:
            reason += f" ({t('check.verified.max_abs', lang, value=number(self.max_abs_error))})"
        if self.note and self.status != "pass":
            reason += "; " + note_text(self.note, lang)
        if self.status == "pass":
            key = "check.verified.pass_formed" if self.result_form else "check.verified.pass"
            return t(key, lang, **fields)
        if self.status == "fail":
            return t("check.verified.fail", lang, reason=reason, **fields)
        if self.status == "error":
            return t("check.verified.error", lang, reason=reason, **fields)
        return t("check.verified.skipped", lang, reason=reason)


# Results of checks run in this process (language server), newest first over the files.
_SESSION: dict[tuple[str, str, str], tuple[CheckResult, str]] = {}


def record_session_result(result: CheckResult, version: str, note: str | None = None) -> None:
    """Remember a live check so that hover shows it (keyed by table version, device, torch API)."""
    _SESSION[(version, result.device, result.api)] = (result, note or "")


def _session_status(version: str, device: str, torch_api: str) -> VerifiedStatus | None:
    found = _SESSION.get((version, device, torch_api))
    if found is None:
        return None
    result, note = found
    return VerifiedStatus(
        torch_api=torch_api,
        mindspore_api=result.mindspore_api,
        status=str(result.status),
        reason=result.reason,
        device=result.device,
        torch_version=result.torch_version,
        mindspore_version=result.mindspore_version,
        date=None,
        max_abs_error=result.max_abs_error,
        max_rel_error=result.max_rel_error,
        cosine_similarity=result.cosine_similarity,
        note=note or None,
        result_form=result.result_form,
    )


def verified_status(
    torch_api: str, mindspore_version: str | None = None, device: str = "CPU", folder: Path | None = None
) -> VerifiedStatus | None:
    """The recorded check of ``torch_api`` in the table of ``mindspore_version`` (``None`` if unknown)."""
    from msmigrate.knowledge.base import resolve_version

    try:
        version = resolve_version(mindspore_version)
    except ValueError:
        return None
    live = _session_status(version, device, torch_api) if folder is None else None
    if live is not None:
        return live
    data = load_verified(version, device, folder)
    if data is None:
        return None
    entry = data["results"].get(torch_api)
    if not isinstance(entry, dict):
        return None
    return VerifiedStatus(
        torch_api=torch_api,
        mindspore_api=entry.get("mindspore_api"),
        status=entry.get("status", "error"),
        reason=entry.get("reason"),
        device=data.get("device", device),
        torch_version=data.get("torch_version"),
        mindspore_version=data.get("mindspore_version"),
        date=data.get("date"),
        max_abs_error=entry.get("max_abs_error"),
        max_rel_error=entry.get("max_rel_error"),
        cosine_similarity=entry.get("cosine_similarity"),
        note=entry.get("note"),
        result_form=entry.get("result_form"),
    )
