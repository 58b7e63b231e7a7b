"""``msmigrate convert-weights IN -o OUT``: a torch checkpoint → a MindSpore checkpoint.

Exit status: 0 written; 1 not written because names or shapes do not line up (the table says which);
2 bad input (missing file, a checkpoint with pickled objects, a model that fails to build) or a worker
that crashed or timed out. Nothing is ever written half.
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


@click.command("convert-weights", help=_help("weights.help.command"))
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), required=True, help=_help("weights.help.output")
)
@click.option("--model", metavar="FILE.py:EXPR", default=None, help=_help("weights.help.model"))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["ckpt", "safetensors"]),
    default=None,
    help=_help("weights.help.format"),
)
@click.option("--key", default=None, metavar="KEY[/KEY]", help=_help("weights.help.key"))
@click.option("--allow-unused", is_flag=True, help=_help("weights.help.allow_unused"))
@click.option("--all", "every", is_flag=True, help=_help("weights.help.all"))
@click.option("--json", "as_json", is_flag=True, help=_help("weights.help.json"))
@click.option("--python", default=None, help=_help("weights.help.python"))
@click.option("--timeout", type=float, default=600.0, show_default=True, help=_help("weights.help.timeout"))
@click.option("--memory-mb", type=int, default=None, help=_help("weights.help.memory"))
@click.option("--lang", type=click.Choice(["en", "zh"]), default=None, help=_help("scan.help.lang"))
def convert_weights(
    source: Path,
    output: Path,
    model: str | None,
    fmt: str | None,
    key: str | None,
    allow_unused: bool,
    every: bool,
    as_json: bool,
    python: str | None,
    timeout: float,
    memory_mb: int | None,
    lang: str | None,
) -> None:
    from msmigrate.check.runner import stop_workers_on_signals
    from msmigrate.weights.convert import ConvertOptions
    from msmigrate.weights.convert import convert_weights as convert

    lang = lang or os.environ.get("MSMIGRATE_LANG")
    click.get_current_context().call_on_close(stop_workers_on_signals())
    options = ConvertOptions(
        source=source,
        output=output,
        model=model,
        format=fmt,
        key=key,
        allow_unused=allow_unused,
        python=python,
        timeout=timeout,
        memory_mb=memory_mb,
    )
    report = convert(options, on_step=None if as_json else lambda step: click.echo(t(step, lang), err=True))
    if as_json:
        click.echo(json.dumps(report.to_json(lang), indent=1, ensure_ascii=False))
    else:
        click.echo(report.render_text(lang, every=every))
    sys.exit(report.exit_code)
