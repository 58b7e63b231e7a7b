"""Numeric check of the compositions (``msmigrate check --compositions``).

Every case of ``knowledge/facts/composition_cases.toml`` (read by ``check/composition_cases.py``) becomes
one worker request of kind ``composition``: the worker (``check/worker_composition.py``) runs torch's API and
the helper, taken from the helper module text the fix writes, on the same generated inputs and compares as a
mapping check does. A composition passes when all its cases pass; the results go to
``mapping_data/verified-compositions-<device>.json`` (read by ``knowledge/compositions/verified.py``: only
passing compositions are offered).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from msmigrate.check.composition_cases import Case, composition_cases
from msmigrate.check.runner import RunnerConfig, run_many
from msmigrate.knowledge.check_result import CheckResult
from msmigrate.knowledge.compositions.catalogue import COMPOSITIONS, METHOD, Composition

SCHEMA_VERSION = 1
REQUEST_KIND = "composition"


def _extract(value: Any, tensors: dict[str, Any]) -> Any:
    """``value`` with each tensor spec replaced by a reference (the spec goes to ``tensors``)."""
    if isinstance(value, dict):
        if "tensor" in value:
            name = f"t{len(tensors)}"
            tensors[name] = value["tensor"]
            return {"ref": name}
        return {key: _extract(item, tensors) for key, item in value.items()}
    if isinstance(value, list | tuple):
        items = [_extract(item, tensors) for item in value]
        return {"tuple": items} if isinstance(value, tuple) else items
    return value


def case_request(composition: Composition, case: Case, device: str = "CPU", seed: int = 0) -> dict[str, Any]:
    """The worker request of one case."""
    tensors: dict[str, Any] = {}
    return {
        "kind": REQUEST_KIND,
        "torch_api": composition.torch_api,
        "helper": composition.helper,
        "method": composition.form == METHOD,
        "is_class": composition.helper[:1].isupper(),
        "case": case.name,
        "device": device,
        "seed": seed,
        "args": [_extract(v, tensors) for v in case.args],
        "kwargs": {k: _extract(v, tensors) for k, v in case.kwargs.items()},
        "init_args": [_extract(v, tensors) for v in case.init_args],
        "init_kwargs": {k: _extract(v, tensors) for k, v in case.init_kwargs.items()},
        "tensors": tensors,
        "read": list(case.read),
        "compare": case.compare,
        "rtol": case.rtol,
        "atol": case.atol,
    }


def selected(apis: Iterable[str] = ()) -> list[Composition]:
    """The compositions of ``apis`` (all when none is given)."""
    wanted = set(apis)
    return [c for c in COMPOSITIONS if not wanted or c.torch_api in wanted]


def check_compositions(
    compositions: list[Composition], config: RunnerConfig | None = None, *, device: str = "CPU",
    jobs: int = 1, on_result: Callable[[CheckResult], None] | None = None,
) -> dict[str, list[tuple[str, CheckResult]]]:
    """Run every case of ``compositions``: torch API → [(case name, result)], in the catalogue's order."""
    cases = composition_cases()
    planned = [(c, case) for c in compositions for case in cases.get(c.torch_api, ())]
    results = run_many([case_request(c, case, device) for c, case in planned], config, jobs, on_result)
    found: dict[str, list[tuple[str, CheckResult]]] = {c.torch_api: [] for c in compositions}
    for (composition, case), result in zip(planned, results, strict=True):
        found[composition.torch_api].append((case.name, result))
    return found


def render_composition_checks(results: dict[str, list[tuple[str, CheckResult]]], device: str, date: str,
                              kept: dict[str, Any] | None = None) -> str:
    """The deterministic text of ``verified-compositions-<device>.json`` (``kept``: a previous file whose
    other compositions stay)."""
    from msmigrate.knowledge.verified import entry_of

    helpers = {c.torch_api: c.helper for c in COMPOSITIONS}
    entries = dict((kept or {}).get("compositions") or {})
    for torch_api, cases in results.items():
        status = "pass" if cases and all(r.passed for _, r in cases) else "fail"
        entries[torch_api] = {"helper": helpers[torch_api], "status": status,
                              "cases": {name: entry_of(result) for name, result in cases}}
    every = [r for cases in results.values() for _, r in cases]
    versions = next(((r.torch_version, r.mindspore_version) for r in every if r.mindspore_version),
                    ((kept or {}).get("torch_version"), (kept or {}).get("mindspore_version")))
    payload = {
        "schema_version": SCHEMA_VERSION,
        "device": device,
        "torch_version": versions[0],
        "mindspore_version": versions[1],
        "date": date,
        "counts": {s: sum(1 for e in entries.values() if e["status"] == s) for s in ("pass", "fail")},
        "compositions": {key: entries[key] for key in sorted(entries)},
    }
    return json.dumps(payload, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def write_composition_checks(results: dict[str, list[tuple[str, CheckResult]]], device: str,
                             path: Path | None = None, merge: bool = False) -> Path:
    """Write the results (``merge``: into the existing file, whose other compositions stay)."""
    from msmigrate.knowledge.compositions.verified import verified_path
    from msmigrate.knowledge.verified import check_date, write_verified

    path = path or verified_path(device)
    kept = None
    if merge and path.is_file():
        kept = json.loads(path.read_text(encoding="utf-8"))
    return write_verified(path, render_composition_checks(results, device, check_date(), kept))
