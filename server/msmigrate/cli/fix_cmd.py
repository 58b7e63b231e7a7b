"""``msmigrate fix PATH...``: apply the migration fixes across a project (like ``ruff check --fix``).

Exit status: 0; 1 with ``--check`` when fixes are pending; 2 for usage errors.
"""

from __future__ import annotations

import json
import sys

import click

from msmigrate.i18n import t


def _help(key: str) -> str:
    return f"{t(key, 'en')} / {t(key, 'zh')}"


@click.command(help=_help("fix.help.command"))
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=str))
@click.option("--diff", "show_diff", is_flag=True, help=_help("fix.help.diff"))
@click.option("--check", "fail_if_pending", is_flag=True, help=_help("fix.help.check"))
@click.option("--select", multiple=True, metavar="RULE", help=_help("fix.help.select"))
@click.option("--ignore", multiple=True, metavar="RULE", help=_help("fix.help.ignore"))
@click.option("--unsafe-fixes", is_flag=True, help=_help("fix.help.unsafe"))
@click.option("--mindspore-version", default=None, help=_help("scan.help.mindspore_version"))
@click.option("--exclude", multiple=True, metavar="GLOB", help=_help("scan.help.exclude"))
@click.option("--device", type=click.Choice(["CPU", "GPU", "Ascend"], case_sensitive=False), default="CPU",
              show_default=True, help=_help("fix.help.device"))
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help=_help("scan.help.lang"))
@click.option("--json", "as_json", is_flag=True, help=_help("fix.help.json"))
def fix(paths: tuple[str, ...], show_diff: bool, fail_if_pending: bool, select: tuple[str, ...],
        ignore: tuple[str, ...], unsafe_fixes: bool, mindspore_version: str | None, exclude: tuple[str, ...],
        device: str, lang: str, as_json: bool) -> None:
    from msmigrate.fixes.project import FixOptions, fix_paths
    from msmigrate.knowledge.base import VERSIONS, resolve_version
    from msmigrate.scan import ConfigError

    try:
        resolve_version(mindspore_version)
        major = (mindspore_version or "auto").lstrip("rv").split(".")[0]
        if major != "auto" and major not in {v.split(".")[0] for v in VERSIONS}:
            raise ValueError(mindspore_version)
    except ValueError:
        raise click.BadParameter(
            t("scan.error.bad_version", lang, version=mindspore_version, choices=", ".join(VERSIONS)),
            param_hint="--mindspore-version",
        ) from None
    options = FixOptions(mindspore_version=mindspore_version, select=select, ignore=ignore,
                         unsafe=unsafe_fixes, write=not (show_diff or fail_if_pending), exclude=exclude,
                         device=device)
    try:
        result = fix_paths(list(paths), options)
    except ConfigError as exc:
        raise click.UsageError(t(exc.key, lang, **exc.fields)) from None

    if as_json:
        click.echo(json.dumps(result.to_json(lang), ensure_ascii=False, indent=1))
    else:
        if show_diff:
            for record in result.files:
                if record.diff:
                    click.echo(record.diff, nl=False)
            if result.helper_module is not None and result.helper_module.diff:
                click.echo(result.helper_module.diff, nl=False)
        _summary(result, lang)
    if fail_if_pending and result.pending:
        sys.exit(1)


def _summary(result, lang: str) -> None:
    """The human summary on stderr (stdout keeps the diff clean for ``git apply``)."""
    from msmigrate.reports.fix_summary import summary_lines

    for line in summary_lines(result, lang):
        click.echo(line, err=True)
