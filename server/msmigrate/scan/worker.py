"""Analysis of one file's bytes, in the scanning process or in a worker process of the pool.

Results travel (and are cached) in the lossless JSON form
``{"findings": [[field values of a Finding], ...], "error_key", "error_args", "lines"}``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from msmigrate.analysis.finding import FileResult, Finding, FindingCategory, Severity, UsageKind

_WORKER: dict[str, Any] = {}  # per worker process: the knowledge base and analysis options


def analyze_file(data: bytes, rel_path: str, kb: Any, analysis_options: Any) -> FileResult:
    """Run the analyzer on one file; an unexpected exception becomes the file's error, never a crash."""
    try:
        from msmigrate.analysis.analyzer import analyze_source

        result = analyze_source(data, rel_path, kb, analysis_options)
    except Exception as exc:  # the analyzer promises not to raise; a bug must not stop a project scan
        return FileResult(rel_path, [], "scan.error.internal", {"detail": f"{type(exc).__name__}: {exc}"})
    result.path = rel_path
    return result


# Findings are cached as rows of field values (compact, quick to decode); the field order is part of the
# code fingerprint in every cache key, since it comes from analysis/finding.py.
FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Finding))
_ENUMS: dict[str, dict[str, Any]] = {
    "category": {c.value: c for c in FindingCategory},
    "severity": {s.value: s for s in Severity},
    "usage": {u.value: u for u in UsageKind},
}


def finding_to_row(finding: Finding) -> list[Any]:
    return [getattr(finding, name) for name in FIELDS]


_CATEGORY, _SEVERITY, _USAGE = (FIELDS.index(name) for name in ("category", "severity", "usage"))
_CATEGORIES, _SEVERITIES, _USAGES = _ENUMS["category"], _ENUMS["severity"], _ENUMS["usage"]
ARGS = FIELDS.index("message_args")


def finding_from_row(row: list[Any]) -> Finding:
    if type(row) is not list or len(row) != len(FIELDS):
        raise ValueError("not a cached finding")
    values = row.copy()
    values[_CATEGORY] = _CATEGORIES[values[_CATEGORY]]
    values[_SEVERITY] = _SEVERITIES[values[_SEVERITY]]
    values[_USAGE] = _USAGES[values[_USAGE]]
    if type(values[ARGS]) is dict:
        values[ARGS] = values[ARGS].copy()  # never shared with the cached form (or another finding)
    return Finding(*values)


def result_to_cache(result: FileResult) -> dict[str, Any]:
    return {
        "findings": [finding_to_row(f) for f in result.findings],
        "error_key": result.error_key,
        "error_args": {k: v if isinstance(v, str | int | float | bool) else str(v)
                       for k, v in result.error_args.items()},
        "lines": result.lines,
    }


def result_from_cache(rel_path: str, data: dict[str, Any]) -> FileResult:
    return FileResult(
        rel_path,
        [finding_from_row(row) for row in data["findings"]],
        data.get("error_key"),
        dict(data.get("error_args") or {}),
        int(data.get("lines") or 0),
    )


def init_worker(mindspore_version: str, analysis_options: Any) -> None:
    from msmigrate.knowledge.base import get_knowledge_base

    _WORKER["kb"] = get_knowledge_base(mindspore_version)
    _WORKER["options"] = analysis_options


def analyze_chunk(chunk: list[tuple[str, bytes]]) -> list[tuple[str, dict[str, Any]]]:
    """Pool entry point: analyse several files, return their results in cache form."""
    kb, options = _WORKER["kb"], _WORKER["options"]
    return [(rel, result_to_cache(analyze_file(data, rel, kb, options))) for rel, data in chunk]
