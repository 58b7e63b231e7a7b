"""`msmigrate check`: run torch APIs and their mapped MindSpore APIs on the same inputs and compare."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

import click

from msmigrate.i18n import t
from msmigrate.knowledge.model import MappingCategory

CATEGORIES = tuple(category.value for category in MappingCategory)


@click.command()
@click.argument("apis", nargs=-1)
@click.option(
    "--all",
    "check_all",
    is_flag=True,
    help="Check every row of the mapping table and write the verified table; with APIs, only their rows, "
    "updated in the existing table.",
)
@click.option(
    "--derived",
    is_flag=True,
    help="With --all: check every derived candidate (mapping_data/derived-<v>.json) instead of table rows; "
    "with APIs too, only their candidates, updated in the existing file.",
)
@click.option(
    "--compositions",
    is_flag=True,
    help="Check the compositions written for missing APIs (all, or those of the given torch APIs) and write "
    "mapping_data/verified-compositions-<device>.json (with APIs: updated in the existing file).",
)
@click.option(
    "--category", multiple=True, type=click.Choice(CATEGORIES), help="With --all: only these categories."
)
@click.option("--device", type=click.Choice(["CPU", "GPU", "Ascend"]), default="CPU", show_default=True)
@click.option(
    "--mindspore-version",
    default="auto",
    show_default=True,
    help="Mapping table: 1.10, 2.3, 2.4, 2.6 or auto.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--timeout", type=float, default=60.0, show_default=True, help="Seconds per check.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes.")
@click.option("--python", "python", default=None, help="Interpreter of the worker (default: this one).")
@click.option("--memory-mb", type=int, default=None, help="Address-space cap of a worker in MB (0: none).")
@click.option("--rtol", type=float, default=None, help="Relative tolerance for floating outputs.")
@click.option("--atol", type=float, default=None, help="Absolute tolerance for floating outputs.")
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="With --all: where to write the verified table (default: mapping_data/).",
)
@click.option("--no-write", is_flag=True, help="With --all: do not write the verified table.")
@click.option("--write-specs", is_flag=True, help="Regenerate mapping_data/input_specs.json and exit.")
@click.option("--lang", type=click.Choice(["en", "zh"]), default=None)
@click.option("--mapping-override", type=click.Path(exists=True, dir_okay=False), default=None, hidden=True)
def check(
    apis: tuple[str, ...],
    check_all: bool,
    derived: bool,
    compositions: bool,
    category: tuple[str, ...],
    device: str,
    mindspore_version: str,
    as_json: bool,
    timeout: float,
    jobs: int,
    python: str | None,
    memory_mb: int | None,
    rtol: float | None,
    atol: float | None,
    output: Path | None,
    no_write: bool,
    write_specs: bool,
    lang: str | None,
    mapping_override: str | None,
) -> None:
    """Check that torch APIs and their MindSpore mappings give the same results on generated inputs."""
    lang = lang or os.environ.get("MSMIGRATE_LANG")
    if write_specs:
        from msmigrate.check.spec_table import write_specs_file

        click.echo(t("check.cli.wrote", lang, path=str(write_specs_file())))
        return
    if not apis and not check_all and not compositions:
        raise click.UsageError(t("check.cli.no_api", lang))
    if mapping_override:
        from msmigrate.check.request import OVERRIDE_ENV

        os.environ[OVERRIDE_ENV] = str(Path(mapping_override).resolve())

    from msmigrate.check import service
    from msmigrate.check.runner import DEFAULT_MEMORY_MB, RunnerConfig, stop_workers_on_signals
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.knowledge.check_render import describe

    try:
        kb = get_knowledge_base(mindspore_version)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--mindspore-version") from exc
    kb.require()
    config = RunnerConfig(
        python=python, timeout=timeout, memory_mb=DEFAULT_MEMORY_MB if memory_mb is None else memory_mb
    )
    options = {"device": device, "jobs": jobs, "rtol": rtol, "atol": atol}
    # Ctrl-C or a kill ends the workers too (they lead their own process groups)
    click.get_current_context().call_on_close(stop_workers_on_signals())

    if compositions:
        _check_compositions(apis, kb, config, options, output, no_write, as_json, lang)
        return
    if derived and not check_all:
        raise click.UsageError(t("check.cli.derived_needs_all", lang))
    if check_all:
        if derived:
            from msmigrate.check.derived import derived_targets

            targets = derived_targets(apis=[*apis, *(kb.canonical(api) for api in apis)])
        elif apis:
            targets = service.table_targets(kb, category, apis={kb.canonical(api) for api in apis})
        else:
            targets = service.table_targets(kb, category)
        done = Counter()

        def progress(result) -> None:  # noqa: ANN001
            done["n"] += 1
            status = t(f"check.status.{result.status}", lang)
            click.echo(
                t(
                    "check.cli.progress",
                    lang,
                    done=done["n"],
                    total=len(targets),
                    api=result.api,
                    status=status,
                ),
                err=True,
            )

        results = service.check_targets(targets, config, on_result=progress, **options)
    else:
        results = service.check_apis(apis, kb, config, **options)

    if check_all and not no_write and derived:
        from msmigrate.check.derived import write_derived_checks

        path = write_derived_checks(results, targets, device, output, merge=bool(apis))
        click.echo(t("check.cli.wrote", lang, path=str(path)), err=True)
    elif check_all and not no_write:
        path = service.write_verified_table(results, targets, kb.version, device, output, merge=bool(apis))
        click.echo(t("check.cli.wrote", lang, path=str(path)), err=True)
    from msmigrate.check.numpy_support import numpy_warning

    warning = numpy_warning(results, lang, config.interpreter)
    if warning:
        click.echo(warning, err=True)
    if as_json:
        payload = {
            "schema_version": 1,
            "mapping_table": kb.version,
            "device": device,
            "results": [r.to_json() for r in results],
        }
        click.echo(json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False))
    elif not check_all:
        for api, result in zip(apis, results, strict=True):
            click.echo(describe(result, lang, python=config.interpreter))
            if result.reason == "no_mapping":
                _echo_unknown(result.api, kb, lang)
            _echo_table_target(kb.canonical(api), kb, device, lang)
    counts = Counter(str(r.status) for r in results)
    click.echo(
        t(
            "check.cli.summary",
            lang,
            passed=counts["pass"],
            failed=counts["fail"],
            errors=counts["error"],
            skipped=counts["skipped"],
        ),
        err=True,
    )
    if not check_all and any(r.status in ("fail", "error") or r.reason == "no_mapping" for r in results):
        sys.exit(1)


def _echo_table_target(torch_api: str, kb, device: str, lang: str | None) -> None:  # noqa: ANN001
    """Beside a check of what the fix writes on ``device``, the table's own target it replaced."""
    from msmigrate.knowledge.resolution import resolve_name

    resolution = resolve_name(torch_api, kb, device)
    if resolution.replacement is not None and resolution.target:
        click.echo("  " + t("resolution.check.table_target", lang, device=resolution.device,
                            target=resolution.target, table=kb.version, torch_api=torch_api,
                            replaced=resolution.replacement.replaced))


def _echo_unknown(api: str, kb, lang: str | None) -> None:  # noqa: ANN001
    click.echo("  " + t("check.cli.unknown_api", lang, api=api, version=kb.version))
    if kb.is_torch_api(kb.canonical(api)):
        return  # a real API the table does not map (torch.save): no typo to suggest a fix for
    names = [name for name in kb.suggest(api) if name != api]
    if names:
        click.echo("  " + t("check.cli.suggestions", lang, names=", ".join(names)))


def _check_compositions(apis, kb, config, options, output, no_write, as_json, lang) -> None:  # noqa: ANN001
    """``--compositions``: check the compositions (of ``apis``, else all) and write their verified file."""
    from msmigrate.check.compositions import check_compositions, selected, write_composition_checks
    from msmigrate.knowledge.compositions.catalogue import COMPOSITIONS

    wanted = {kb.canonical(api) for api in apis}
    chosen = selected(wanted)
    if len(chosen) < len(wanted):
        unknown = sorted(wanted - {c.torch_api for c in chosen})
        names = ", ".join(c.torch_api for c in COMPOSITIONS)
        raise click.UsageError(t("check.cli.no_composition", lang, api=", ".join(unknown), names=names))
    results = check_compositions(chosen, config, device=options["device"], jobs=options["jobs"])
    passed = sum(all(r.passed for _, r in cases) for cases in results.values())
    if as_json:
        payload = {api: {name: r.to_json() for name, r in cases} for api, cases in results.items()}
        click.echo(json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False))
    for api, cases in results.items():
        for name, result in cases:
            if not result.passed:
                click.echo(f"{api} [{name}]: {result.status} {result.reason or ''} {result.detail or ''}",
                           err=True)
    if not no_write:
        path = write_composition_checks(results, options["device"], output, merge=bool(apis))
        click.echo(t("check.cli.compositions_written", lang, count=len(results), passed=passed,
                     path=str(path)), err=True)
