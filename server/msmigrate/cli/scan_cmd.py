"""``msmigrate scan PATH...``: scan files and folders, print or write a report.

Exit status: 0; 1 when a finding reaches ``--fail-on``; 2 for usage errors (bad option, missing path,
invalid ``[tool.msmigrate]`` settings), a missing or damaged knowledge base, and a scan in which no file
could be analysed. ``-o -`` writes the report on stdout; ``-o /dev/null`` (or a named pipe) is written to.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from msmigrate.i18n import t
from msmigrate.reports import FORMATS, render

_LEVELS = ("error", "warning", "information", "hint")
_PROGRESS_MIN_FILES = 20


def _help(key: str) -> str:
    return f"{t(key, 'en')} / {t(key, 'zh')}"


def _known_version(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A version that names a bundled table (or ``auto``); anything else is a usage error."""
    from msmigrate.knowledge.base import VERSIONS, resolve_version

    if value is None:
        return None
    try:
        resolve_version(value)
    except ValueError:
        lang = ctx.params.get("lang") or "en"
        message = t("scan.error.bad_version", lang, version=value, choices=", ".join(VERSIONS))
        raise click.BadParameter(message, ctx=ctx, param=param) from None
    return value


def _size(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    from msmigrate.scan.reading import parse_size

    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError:
        raise click.BadParameter(t("scan.error.bad_size", ctx.params.get("lang") or "en", value=value),
                                 ctx=ctx, param=param) from None


@click.command(help=_help("scan.help.command"))
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help=_help("scan.help.format"))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help=_help("scan.help.output"))
@click.option("--mindspore-version", default=None, callback=_known_version,
              help=_help("scan.help.mindspore_version"))
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help=_help("scan.help.lang"))
@click.option("--fail-on", type=click.Choice(_LEVELS), default=None, help=_help("scan.help.fail_on"))
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, help=_help("scan.help.jobs"))
@click.option("--exclude", multiple=True, metavar="GLOB", help=_help("scan.help.exclude"))
@click.option("--no-cache", is_flag=True, help=_help("scan.help.no_cache"))
@click.option("--no-mtime", is_flag=True, help=_help("scan.help.no_mtime"))
@click.option("--max-file-size", default=None, metavar="SIZE", callback=_size,
              help=_help("scan.help.max_file_size"))
@click.option("--device", type=click.Choice(["CPU", "GPU", "Ascend"], case_sensitive=False), default="CPU",
              show_default=True, help=_help("scan.help.device"))
def scan(paths: tuple[str, ...], fmt: str, output: Path | None, mindspore_version: str | None, lang: str,
         fail_on: str | None, jobs: int | None, exclude: tuple[str, ...], no_cache: bool, no_mtime: bool,
         max_file_size: int | None, device: str) -> None:
    from msmigrate.model.finding import Severity
    from msmigrate.scan import ConfigError, ScanOptions, scan_paths

    for path in paths:
        if not Path(path).exists():
            raise click.UsageError(t("scan.error.path_not_found", lang, path=path))
    options = ScanOptions(mindspore_version=mindspore_version, exclude=exclude, use_cache=not no_cache,
                          device=device)
    options.trust_mtime = not no_mtime
    if jobs is not None:
        options.jobs = jobs
    if max_file_size is not None:
        options.max_file_bytes = max_file_size
    with ExitStack() as stack:
        options.progress = _progress_bar(stack, lang)
        try:
            report = scan_paths(list(paths), options)
        except ConfigError as exc:
            raise click.UsageError(t(exc.key, lang, **exc.fields)) from None
        except FileNotFoundError as exc:  # removed between the check above and the walk
            raise click.UsageError(t("scan.error.path_not_found", lang, path=str(exc))) from None

    if output is not None and str(output) == "-":
        click.echo(render(report, fmt, lang), nl=False)
    elif output is not None:
        from msmigrate.safe_paths import UnsafePath, write_output

        try:  # a file is replaced by a rename; a device or pipe is written to; a symlink never followed
            write_output(output, render(report, fmt, lang))
        except UnsafePath:
            raise click.ClickException(t("scan.error.unsafe_output", lang, path=str(output))) from None
        except OSError as exc:
            raise click.ClickException(t("scan.error.write", lang, path=str(output),
                                         detail=exc.strerror or str(exc))) from None
        click.echo(t("scan.wrote", lang, fmt=fmt, path=str(output)), err=True)
    elif fmt == "text" and sys.stdout.isatty():
        from rich.console import Console

        from msmigrate.reports.text import build_lines

        console = Console(highlight=False)
        for line in build_lines(report, lang):
            console.print(line, soft_wrap=True)
    else:
        click.echo(render(report, fmt, lang), nl=False)

    if report.all_failed:  # a gate that checked nothing must not pass
        click.echo(t("scan.all_failed", lang, count=len(report.files)), err=True)
        sys.exit(2)
    if fail_on is not None:
        count = report.count_at_least(Severity(fail_on))
        if count:
            click.echo(t("scan.failed_on", lang, count=count, level=fail_on), err=True)
            sys.exit(1)


def _progress_bar(stack: ExitStack, lang: str) -> Any:
    """A progress callback drawing a bar on stderr, or ``None`` when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return None
    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if total <= _PROGRESS_MIN_FILES:
            return
        if "bar" not in state:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            progress = Progress(TextColumn(t("scan.progress", lang)), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=Console(stderr=True), transient=True)
            stack.enter_context(progress)
            state["bar"] = (progress, progress.add_task("scan", total=total))
        progress, task = state["bar"]
        progress.update(task, completed=done, total=total)

    return update
