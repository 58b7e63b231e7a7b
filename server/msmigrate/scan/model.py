"""The result of a scan: :class:`ScanReport` (files with findings) and its summary.

Convertible rate (also in docs/report-schema.md): ``mapped / torch_usages`` where

* ``torch_usages`` counts the definite PyTorch API usages: findings of the categories ``consistent``,
  ``differences``, ``missing`` and ``unknown_torch_name``;
* ``mapped`` counts those with a MindSpore mapping: ``consistent`` + ``differences``.

``possible_tensor_api`` (receiver type unknown), ``data_processing`` (outside the network-API analysis)
and the pattern categories (dynamic shape, sparse, framework patterns) are not part of the rate. It is
``None`` when there is no usage at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from msmigrate import __version__
from msmigrate.model.finding import FileResult, Finding, FindingCategory, Severity

SCHEMA_VERSION = 1
C = FindingCategory
USAGE_CATEGORIES: tuple[FindingCategory, ...] = (C.CONSISTENT, C.DIFFERENCES, C.MISSING, C.UNKNOWN_TORCH_NAME)
MAPPED_CATEGORIES: tuple[FindingCategory, ...] = (C.CONSISTENT, C.DIFFERENCES)

# Error keys of files left out on purpose (scan/reading.py): no failure of the scan.
SKIPPED: tuple[str, ...] = ("scan.error.not_regular.", "scan.error.too_large")

# A file entry of a report: path relative to the report root (POSIX), findings or an error.
FileReport = FileResult


def convertible_rate(mapped: int, usages: int) -> float | None:
    return round(mapped / usages, 4) if usages else None


def _counts(findings: list[Finding]) -> dict[str, Any]:
    categories = Counter(f.category for f in findings)
    usages = sum(categories[c] for c in USAGE_CATEGORIES)
    mapped = sum(categories[c] for c in MAPPED_CATEGORIES)
    return {
        "findings": len(findings),
        "categories": {c.value: categories[c] for c in FindingCategory},
        "torch_usages": usages,
        "mapped_usages": mapped,
        "convertible_rate": convertible_rate(mapped, usages),
    }


def folder_of(path: str) -> str:
    parent = PurePosixPath(path).parent.as_posix()
    return parent if parent != "" else "."


def _ancestors(folder: str) -> list[str]:
    if folder == ".":
        return ["."]
    parts = folder.split("/")
    return ["."] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


@dataclass(slots=True)
class ScanReport:
    files: list[FileReport]
    mindspore_version: str
    tool: str = "msmigrate"
    version: str = __version__
    root: str | None = None  # absolute path of the report root (not written to reports)
    cache_hits: int = 0
    cache_misses: int = 0
    _summary: dict[str, Any] | None = field(default=None, repr=False)

    def findings(self) -> Iterator[tuple[FileReport, Finding]]:
        for file in self.files:
            for finding in file.findings:
                yield file, finding

    @property
    def all_failed(self) -> bool:
        """No file was analysed, and not only because files were skipped on purpose (not regular files,
        over the size limit): every file failed (unreadable, not Python text, an internal error…)."""
        failed = [file for file in self.files if file.error_key and not file.error_key.startswith(SKIPPED)]
        return bool(failed) and all(file.error_key for file in self.files)

    def count_at_least(self, level: Severity) -> int:
        return sum(1 for _, f in self.findings() if f.severity.rank >= level.rank)

    def summary(self) -> dict[str, Any]:
        """Counts over all files, per rule, per severity and per folder (folders include subfolders)."""
        if self._summary is not None:
            return self._summary
        every = [f for _, f in self.findings()]
        summary: dict[str, Any] = {
            "files": len(self.files),
            "files_with_errors": sum(1 for f in self.files if f.error_key),
            "files_with_syntax_errors": sum(1 for f in self.files if f.recovered),
            "lines": sum(f.lines for f in self.files),
            **_counts(every),
            "severities": {s.value: 0 for s in Severity},
            "rules": dict(sorted(Counter(f.rule for f in every).items())),
        }
        for finding in every:
            summary["severities"][finding.severity.value] += 1
        by_folder: dict[str, list[FileReport]] = {}
        for file in self.files:
            for folder in _ancestors(folder_of(file.path)):
                by_folder.setdefault(folder, []).append(file)
        summary["folders"] = {
            folder: {"files": len(files), **_counts([f for file in files for f in file.findings])}
            for folder, files in sorted(by_folder.items())
        }
        self._summary = summary
        return summary

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The versioned report document of docs/report-schema.md."""
        return {
            "tool": self.tool,
            "version": self.version,
            "schema_version": SCHEMA_VERSION,
            "mindspore_version": self.mindspore_version,
            "files": [
                {
                    "path": file.path,
                    "error": file.error(lang),
                    "lines": file.lines,
                    "syntax_error": file.syntax_error_dict(lang),
                    "findings": [f.to_dict(lang) for f in file.findings],
                }
                for file in self.files
            ],
            "summary": self.summary(),
        }
