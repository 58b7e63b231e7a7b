"""Derived mappings as the knowledge base reads them: ``mapping_data/derived-<v>.json`` (written by
``msmigrate data derive``, see ``datagen/derive.py``) plus the CPU check of each candidate
(``mapping_data/verified-derived-CPU.json``, written by ``msmigrate check --derived --all``).

For a torch API without a usable row in table ``<v>``, the offered mapping is the first candidate (in
evidence order) whose numeric check did not fail, preferring one MindSpore did not reject on the check's
arguments; a failed candidate is never offered.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from msmigrate.i18n import MessageRef, ref
from msmigrate.knowledge.model import MappingRow

SCHEMA_VERSION = 1
CHECK_DEVICE = "CPU"
SECTION = "derived"  # ``MappingRow.section`` of a derived row
NO_KERNEL = "unsupported_on_device"
MINDSPORE_ERROR = "mindspore_error"  # the torch call ran, the MindSpore one raised
# ``DerivedMapping.signature``: how the candidate's signature compares with the torch API's
SAME = "same"  # identical parameter names, kinds, order and defaults
DIFFERS = "differs"  # facts in the row
UNKNOWN = "unknown"  # a side has no signature in its inventory
NO_PARAMETERS = "none"  # attributes and dtypes: nothing to compare


def derived_path(version: str, folder: Path) -> Path:
    return folder / f"derived-{version}.json"


def derived_check_path(folder: Path, device: str = CHECK_DEVICE) -> Path:
    return folder / f"verified-derived-{device}.json"


def pair_key(torch_api: str, mindspore_api: str) -> str:
    return f"{torch_api} -> {mindspore_api}"


@dataclass(frozen=True, slots=True)
class DerivedMapping:
    """One derived candidate with its evidence (and its CPU check, when one was run)."""

    row: MappingRow  # section "derived"; facts from the source table row or the signature comparison
    tables: tuple[str, ...]  # other official tables mapping this pair (target exists), newest first
    by_name: bool  # counterpart by namespace and name
    signature: str  # SAME | DIFFERS | UNKNOWN | NO_PARAMETERS (set by datagen/derive_signature.py)
    mindspore_version: str  # of the MindSpore inventory, e.g. "2.10"
    check: str | None = None  # pass | fail | error | skipped; None: not checked
    check_reason: str | None = None
    replaces: str | None = None  # the official row's target, which this MindSpore no longer has
    check_note: str | None = None  # the check's note (``int32_indices``: a fail whose values agree)
    # the form the check compared MindSpore's result in (``value_forms.CHECKED_FORMS``): the fix must write it
    check_form: str | None = None

    @property
    def torch_api(self) -> str:
        return self.row.torch_api

    @property
    def mindspore_api(self) -> str:
        return self.row.mindspore_api or ""

    @property
    def verified(self) -> bool:
        return self.check == "pass"

    def evidence(self) -> tuple[MessageRef, ...]:
        """Where the mapping comes from, as message references (``derived.evidence.*``)."""
        parts: list[MessageRef] = []
        if self.tables:
            parts.append(ref("derived.evidence.tables", tables=", ".join(self.tables)))
        if self.signature == "same":
            key = "derived.evidence.same_parameters" if self.by_name else "derived.evidence.same_signature"
            parts.append(ref(key, mindspore=self.mindspore_version))
        elif self.by_name:
            key = {
                "differs": "derived.evidence.name_params_differ",
                "none": "derived.evidence.same_name",
            }.get(self.signature, "derived.evidence.name_unknown_params")
            parts.append(ref(key, mindspore=self.mindspore_version))
        elif self.signature == "differs":
            parts.append(ref("derived.evidence.params_differ", mindspore=self.mindspore_version))
        if self.check == "pass":
            parts.append(ref("derived.evidence.verified", device=CHECK_DEVICE))
        elif self.check == "error" and self.check_reason == NO_KERNEL:
            parts.append(
                ref("derived.evidence.no_kernel", device=CHECK_DEVICE, mindspore=self.mindspore_version)
            )
        elif self.check == "error" and self.check_reason == MINDSPORE_ERROR:
            parts.append(ref("derived.evidence.check_error", device=CHECK_DEVICE))
        return tuple(parts)

    def provenance(self, table_version: str) -> tuple[MessageRef]:
        """One sentence: not in (or outdated in) table ``table_version``, and the evidence."""
        if self.replaces:
            return (ref("derived.provenance_replaces", version=table_version, gone=self.replaces,
                        mindspore=self.mindspore_version, evidence=self.evidence()),)
        return (ref("derived.provenance", version=table_version, evidence=self.evidence()),)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": "derived",
            "mindspore_api": self.mindspore_api,
            "tables": list(self.tables),
            "by_name": self.by_name,
            "signature": self.signature,
            "check": self.check,
            "check_reason": self.check_reason,
            "replaces": self.replaces,
        }


@dataclass(frozen=True, slots=True)
class DerivedEntry:
    """Everything the derived file says about one torch API of one table."""

    candidates: tuple[DerivedMapping, ...]
    replaces: str | None = None  # set when the official row's target is gone

    @property
    def offered(self) -> DerivedMapping | None:
        """The best candidate that did not fail its check; one that MindSpore rejected while torch ran
        (``mindspore_error``) only when no other is left."""
        usable = [c for c in self.candidates if c.check != "fail"]
        return min(usable, key=lambda c: c.check_reason == MINDSPORE_ERROR, default=None)


class DerivedTable:
    """The derived mappings of one table version, with the checks applied."""

    def __init__(
        self,
        entries: dict[str, DerivedEntry],
        header: dict[str, Any],
        alternatives: dict[str, tuple[DerivedMapping, ...]] | None = None,
    ) -> None:
        self.entries = entries
        self.header = header
        # table rows whose target has no CPU kernel → other MindSpore APIs (``datagen/derive_device.py``);
        # never the offered mapping: ``knowledge/device_targets.py`` takes the verified ones on CPU
        self.alternatives = alternatives or {}

    @classmethod
    def empty(cls) -> DerivedTable:
        return cls({}, {})

    @property
    def mindspore_version(self) -> str:
        """``2.10`` for a MindSpore 2.10.0 inventory."""
        return short_version(self.header.get("mindspore_version"))

    def entry(self, torch_api: str) -> DerivedEntry | None:
        return self.entries.get(torch_api)

    def offered(self, torch_api: str) -> DerivedMapping | None:
        entry = self.entries.get(torch_api)
        return entry.offered if entry is not None else None

    def gone_target(self, torch_api: str) -> str | None:
        entry = self.entries.get(torch_api)
        return entry.replaces if entry is not None else None


def load_derived(version: str, folder: Path) -> DerivedTable:
    """The derived table of ``version`` in ``folder`` (empty when the file is missing or unreadable)."""
    path = derived_path(version, folder)
    checks_path = derived_check_path(folder)
    return _load(path, _mtime(path), checks_path, _mtime(checks_path))


def short_version(version: object) -> str:
    return ".".join(str(version or "?").split(".")[:2])


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


@cache
def _load(path: Path, _mtime: float, checks_path: Path, _checks_mtime: float) -> DerivedTable:
    data = read_json(path)
    if data is None or not isinstance(data.get("mappings"), dict):
        return DerivedTable.empty()
    checks = (read_json(checks_path) or {}).get("results") or {}
    ms_version = short_version(data.get("mindspore_version"))
    entries = {
        torch_api: DerivedEntry(_candidates(torch_api, item, checks, ms_version, item.get("replaces")),
                                item.get("replaces"))
        for torch_api, item in data["mappings"].items()
    }
    alternatives = {
        torch_api: _candidates(torch_api, item, checks, ms_version)
        for torch_api, item in (data.get("cpu_alternatives") or {}).items()
    }
    header = {k: v for k, v in data.items() if k not in ("mappings", "cpu_alternatives")}
    return DerivedTable(entries, header, alternatives)


def _candidates(
    torch_api: str, item: dict[str, Any], checks: dict[str, Any], ms_version: str, replaces: str | None = None
) -> tuple[DerivedMapping, ...]:
    candidates = []
    for candidate in item.get("candidates", ()):
        row = MappingRow.from_json(candidate["row"])
        check = checks.get(pair_key(torch_api, row.mindspore_api or ""))
        candidates.append(
            DerivedMapping(
                row=row,
                tables=tuple(candidate.get("tables", ())),
                by_name=bool(candidate.get("by_name")),
                signature=candidate.get("signature", "unknown"),
                mindspore_version=ms_version,
                check=check.get("status") if isinstance(check, dict) else None,
                check_reason=check.get("reason") if isinstance(check, dict) else None,
                replaces=replaces,
                check_note=check.get("note") if isinstance(check, dict) else None,
                check_form=check.get("result_form") if isinstance(check, dict) else None,
            )
        )
    return tuple(candidates)
