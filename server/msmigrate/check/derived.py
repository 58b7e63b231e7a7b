"""Numeric check of the derived candidates (``msmigrate check --derived --all``).

Every distinct (torch API, MindSpore API) candidate of the ``derived-<v>.json`` files is run like a
table row (same input specs, same worker, same comparison); the results go to
``mapping_data/verified-derived-<device>.json``, keyed by pair. The knowledge base then never offers a
candidate that failed (``knowledge/derived.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from msmigrate.check.request import CheckTarget
from msmigrate.check.spec import ApiSpec, api_kind, load_specs, not_called_spec, pair_key, spec_for
from msmigrate.knowledge.base import VERSIONS, get_knowledge_base
from msmigrate.knowledge.check_result import CheckResult
from msmigrate.knowledge.derived import derived_check_path, derived_path, read_json
from msmigrate.knowledge.derived import pair_key as derived_key
from msmigrate.knowledge.model import MappingRow
from msmigrate.paths import data_dir

SCHEMA_VERSION = 1
_MS_FIELDS = ("ms_args", "ms_kwargs", "ms_init_args", "ms_init_kwargs", "ms_outputs", "ms_call")


def _generic_ms_side(spec: ApiSpec) -> ApiSpec:
    """A spec written for the official row's target, without the MindSpore-side arguments it set for that
    target (a derived candidate takes the torch call's arguments, renamed by its row)."""
    return replace(spec, **{name: None for name in _MS_FIELDS})


def derived_targets(
    folder: Path | None = None, versions: tuple[str, ...] = VERSIONS, apis: Iterable[str] = ()
) -> list[CheckTarget]:
    """One target per distinct candidate pair of the derived files (their CPU alternatives included), newest
    table's row first, sorted; with ``apis``, those of these torch APIs only."""
    wanted = set(apis)
    folder = folder or data_dir()
    rows: dict[tuple[str, str], MappingRow] = {}
    for version in sorted(versions, key=lambda v: tuple(int(p) for p in v.split(".")), reverse=True):
        data = read_json(derived_path(version, folder)) or {}
        items = [*(data.get("mappings") or {}).items(), *(data.get("cpu_alternatives") or {}).items()]
        for torch_api, item in items:
            for candidate in item.get("candidates", ()):
                row = MappingRow.from_json(candidate["row"])
                rows.setdefault((torch_api, row.mindspore_api or ""), row)
    specs = load_specs()
    return [pair_target(torch_api, mindspore_api, row, specs) for (torch_api, mindspore_api), row
            in sorted(rows.items()) if not wanted or torch_api in wanted]


def pair_target(torch_api: str, mindspore_api: str, row: MappingRow,
                specs: dict[str, ApiSpec] | None = None) -> CheckTarget:
    """The check target of one derived candidate pair (its spec, else the torch API's without the
    MindSpore-side arguments written for the official target)."""
    kb = get_knowledge_base()  # inventory accessors only: the same for every table
    specs = load_specs() if specs is None else specs
    kind = api_kind(torch_api, kb.torch_kind(torch_api))
    signatures = kb.torch_signatures(torch_api)
    spec = spec_for(torch_api, kind, signatures, specs, mindspore_api)
    if pair_key(torch_api, mindspore_api) not in specs:
        spec = _generic_ms_side(spec)
    spec = not_called_spec(torch_api, kb.torch_kind(torch_api), spec)  # dtypes, tensor attributes
    names = tuple(tuple(p["name"] for p in sig) for sig in signatures)
    return CheckTarget(torch_api, mindspore_api, kind, spec, row, names)


def render_derived_checks(
    results: list[CheckResult],
    device: str,
    date: str,
    notes: dict[str, str] | None = None,
    kept: dict[str, Any] | None = None,
) -> str:
    """The deterministic text of ``verified-derived-<device>.json`` (``notes`` by pair key or torch API;
    ``kept``: a previous file whose other results stay, for a check of some APIs only)."""
    from msmigrate.knowledge.verified import entry_of

    notes = notes or {}
    entries = dict((kept or {}).get("results") or {})
    for r in results:
        key = derived_key(r.api, r.mindspore_api or "")
        entries[key] = entry_of(r, notes.get(key) or notes.get(r.api))
    versions = next(
        ((r.torch_version, r.mindspore_version) for r in results if r.mindspore_version),
        ((kept or {}).get("torch_version"), (kept or {}).get("mindspore_version")),
    )
    counts = Counter(str(entry.get("status")) for entry in entries.values())
    payload: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "device": device,
        "torch_version": versions[0],
        "mindspore_version": versions[1],
        "date": date,
        "counts": {s: counts.get(s, 0) for s in ("pass", "fail", "error", "skipped")},
        "results": {key: entries[key] for key in sorted(entries)},
    }
    return json.dumps(payload, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def write_derived_checks(
    results: list[CheckResult],
    targets: list[CheckTarget],
    device: str,
    path: Path | None = None,
    date: str | None = None,
    merge: bool = False,
) -> Path:
    """Write the results (``merge``: into the existing file, whose other results stay)."""
    from msmigrate.knowledge.verified import check_date, write_verified

    path = path or derived_check_path(data_dir(), device)
    # a pair's own note, else a note of the torch API's specs (one of its other candidates')
    notes = {t.torch_api: t.spec.note for t in targets if t.spec.note}
    notes |= {derived_key(t.torch_api, t.mindspore_api or ""): t.spec.note for t in targets if t.spec.note}
    text = render_derived_checks(results, device, check_date(date), notes, read_json(path) if merge else None)
    return write_verified(path, text)
