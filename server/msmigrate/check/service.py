"""Check APIs and whole mapping tables: what the CLI and the language server call."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from msmigrate.check.request import CheckTarget, build_request, precheck, target_for
from msmigrate.check.runner import CheckRunner, RunnerConfig, run_many
from msmigrate.knowledge.check_result import CheckResult

OnResult = Callable[[CheckResult], None]


def _prepare(
    target: CheckTarget, device: str, rtol: float | None, atol: float | None, **literals: Any
) -> tuple[CheckResult | None, dict[str, Any] | None]:
    skipped = precheck(target, device)
    if skipped is not None:
        return skipped, None
    return None, build_request(target, device=device, rtol=rtol, atol=atol, **literals)


def check_targets(
    targets: Iterable[CheckTarget],
    config: RunnerConfig | None = None,
    *,
    device: str = "CPU",
    jobs: int = 1,
    rtol: float | None = None,
    atol: float | None = None,
    on_result: OnResult | None = None,
) -> list[CheckResult]:
    """Check targets (skips decided up front, the rest in ``jobs`` workers), in the given order."""
    prepared = [_prepare(target, device, rtol, atol) for target in targets]
    lock = threading.Lock()

    def report(result: CheckResult) -> None:
        if on_result is not None:
            with lock:
                on_result(result)

    for skipped, _ in prepared:
        if skipped is not None:
            report(skipped)
    requests = [request for _, request in prepared if request is not None]
    ran = iter(run_many(requests, config, jobs=jobs, on_result=report) if requests else [])
    return [skipped if skipped is not None else next(ran) for skipped, _ in prepared]


def check_apis(
    apis: Iterable[str], kb: Any, config: RunnerConfig | None = None, **options: Any
) -> list[CheckResult]:
    """Check torch APIs (canonical or alias names) as the fix writes them with the table of ``kb`` on the
    device (``options["device"]``): :func:`resolved_target`."""
    device = options.get("device", "CPU")
    targets = [resolved_target(kb.canonical(api), kb, device)[0] for api in apis]
    return check_targets(targets, config, **options)


def resolved_target(torch_api: str, kb: Any, device: str = "CPU") -> tuple[CheckTarget, str | None]:
    """The pair the fix writes for ``torch_api`` on ``device`` (its resolution,
    ``knowledge/resolution.resolve_name``): where that is not the table's own target (no kernel there, an
    in-place result written back, a target used otherwise), the row it comes from, checked as the
    verification runs check it; else the table's row. With the table whose verified results the check's
    result belongs to (None: a derived pair's)."""
    from msmigrate.check.request import mapping_overrides
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.knowledge.resolution import resolve_name, row_of

    resolution = resolve_name(torch_api, kb, device)
    row = row_of(resolution) if resolution.replacement is not None and resolution.target else None
    if row is None or torch_api in mapping_overrides():
        return target_for(torch_api, kb), kb.version
    if resolution.row_derived:
        from msmigrate.check.derived import pair_target

        return pair_target(row.torch_api, resolution.target or "", row), None
    version = resolution.row_version or kb.version
    return target_for(row.torch_api, get_knowledge_base(version)), version


def table_targets(kb: Any, categories: Iterable[str] = (), apis: Iterable[str] = ()) -> list[CheckTarget]:
    """One target per torch API of the table (first row wins), optionally of some categories only, or of
    some torch APIs (canonical names) only."""
    wanted = set(categories)
    only = set(apis)
    seen: set[str] = set()
    targets = []
    for row in kb.rows():
        if row.torch_api in seen or (wanted and row.category.value not in wanted):
            continue
        if only and row.torch_api not in only and kb.canonical(row.torch_api) not in only:
            continue
        seen.add(row.torch_api)
        targets.append(target_for(row.torch_api, kb))
    return targets


def check_one(
    target: CheckTarget,
    runner: CheckRunner,
    *,
    device: str = "CPU",
    call_args: list[str] | None = None,
    call_kwargs: dict[str, str] | None = None,
) -> CheckResult:
    """Check one target in an existing runner, with literal call-site arguments (language server)."""
    skipped, request = _prepare(target, device, None, None, call_args=call_args, call_kwargs=call_kwargs)
    if skipped is not None:
        return skipped
    assert request is not None
    result = runner.run(request)
    if request["literals"] and result.detail is None:
        result.detail = "call-site literals: " + ", ".join(request["literals"])
    return result


def write_verified_table(
    results: list[CheckResult],
    targets: list[CheckTarget],
    version: str,
    device: str,
    path: Path | None = None,
    date: str | None = None,
    merge: bool = False,
) -> Path:
    """Write ``verified-<version>-<device>.json`` for the results of :func:`table_targets` (``merge``: the
    results of some rows, into the existing table, whose other results stay)."""
    from msmigrate.knowledge.verified import (
        check_date,
        read_verified,
        render_verified_json,
        verified_path,
        write_verified,
    )

    path = path or verified_path(version, device)
    kept = read_verified(path) if merge else None
    versions = next(
        ((r.torch_version, r.mindspore_version) for r in results if r.mindspore_version),
        ((kept or {}).get("torch_version"), (kept or {}).get("mindspore_version")),
    )
    notes = {target.torch_api: target.spec.note for target in targets if target.spec.note}
    text = render_verified_json(results, version, device, *versions, check_date(date), notes, kept)
    return write_verified(path, text)
