"""``msmigrate compare``: the torch original and the migrated MindSpore model side by side.

Models from ``[[tool.msmigrate.compare]]`` tables of ``pyproject.toml`` or from ``--torch/--mindspore/
--input``. Exit status: 0 every comparison matches; 1 one differs or does not compile in GRAPH_MODE; 2 bad
input or a worker that crashed or timed out.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from msmigrate.i18n import t


def _help(key: str) -> str:
    return f"{t(key, 'en')} / {t(key, 'zh')}"


@click.command("compare", help=_help("compare.help.command"))
@click.argument("names", nargs=-1)
@click.option(
    "--config",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help=_help("compare.help.config"),
)
@click.option(
    "--torch", "torch_model", metavar="FILE.py:EXPR", default=None, help=_help("compare.help.torch")
)
@click.option(
    "--mindspore", "ms_model", metavar="FILE.py:EXPR", default=None, help=_help("compare.help.mindspore")
)
@click.option("--input", "inputs", multiple=True, metavar="SPEC", help=_help("compare.help.input"))
@click.option("--kwarg", "kwargs", multiple=True, metavar="NAME=LITERAL", help=_help("compare.help.kwarg"))
@click.option(
    "--checkpoint", type=click.Path(path_type=Path), default=None, help=_help("compare.help.checkpoint")
)
@click.option("--key", default=None, help=_help("weights.help.key"))
@click.option(
    "--mode", type=click.Choice(["pynative", "graph", "both"]), default=None, help=_help("compare.help.mode")
)
@click.option("--rtol", type=float, default=None)
@click.option("--atol", type=float, default=None)
@click.option("--layers", "every_layer", is_flag=True, help=_help("compare.help.layers"))
@click.option("--json", "as_json", is_flag=True, help=_help("weights.help.json"))
@click.option("--python", default=None, help=_help("weights.help.python"))
@click.option("--timeout", type=float, default=600.0, show_default=True, help=_help("weights.help.timeout"))
@click.option("--lang", type=click.Choice(["en", "zh"]), default=None, help=_help("scan.help.lang"))
def compare(
    names: tuple[str, ...],
    config: Path | None,
    torch_model: str | None,
    ms_model: str | None,
    inputs: tuple[str, ...],
    kwargs: tuple[str, ...],
    checkpoint: Path | None,
    key: str | None,
    mode: str | None,
    rtol: float | None,
    atol: float | None,
    every_layer: bool,
    as_json: bool,
    python: str | None,
    timeout: float,
    lang: str | None,
) -> None:
    from msmigrate.check.runner import stop_workers_on_signals
    from msmigrate.compare.config import select_specs
    from msmigrate.compare.report import render_text
    from msmigrate.compare.service import CompareOptions, compare_models
    from msmigrate.weights.session import WeightsError

    lang = lang or os.environ.get("MSMIGRATE_LANG")
    click.get_current_context().call_on_close(stop_workers_on_signals())
    try:
        specs = select_specs(names, config, torch_model, ms_model, inputs, checkpoint, key, mode, rtol, atol,
                             kwargs=kwargs)
    except WeightsError as error:
        click.echo(t("weights.report.error", lang, message=t(error.key, lang, **error.fields)), err=True)
        sys.exit(2)
    options = CompareOptions(python=python, timeout=timeout)
    reports = []
    for spec in specs:
        report = compare_models(
            spec, options, on_step=None if as_json else lambda s: click.echo(t(s, lang), err=True)
        )
        reports.append(report)
        if not as_json:
            click.echo(render_text(report, lang, every_layer))
    if as_json:
        click.echo(
            json.dumps(
                {"schema_version": 1, "comparisons": [r.to_json(lang) for r in reports]},
                indent=1,
                ensure_ascii=False,
            )
        )
    sys.exit(max(r.exit_code for r in reports))
