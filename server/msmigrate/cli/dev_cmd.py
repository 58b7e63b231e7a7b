"""``msmigrate dev``: maintenance steps for developers of msmigrate itself."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from msmigrate.i18n import t
from msmigrate.paths import repo_root


@click.group()
def dev() -> None:
    """Maintenance steps for msmigrate's own repository."""


@dev.command()
@click.option("--check", "fail_if_stale", is_flag=True, help=t("dev.help.check", "en"))
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=t("dev.help.root", "en"))
def generate(fail_if_stale: bool, root: Path | None) -> None:
    """Write the editor clients' copies of the server's settings, commands and lists."""
    from msmigrate.contract.generate import stale, write

    root = root or repo_root()
    if root is None:
        raise click.UsageError(t("dev.no_repository", "en"))
    if fail_if_stale:
        outdated = stale(root)
        for relative in outdated:
            click.echo(t("dev.stale", "en", path=relative), err=True)
        sys.exit(1 if outdated else 0)
    for relative in write(root):
        click.echo(t("dev.wrote", "en", path=relative))


@dev.command("new-rule")
@click.argument("rule_id")
@click.argument("name")
@click.option("--family", required=True, help=t("dev.help.new_rule_family", "en"))
@click.option("--fix", is_flag=True, help=t("dev.help.new_rule_fix", "en"))
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=t("dev.help.root", "en"))
def new_rule(rule_id: str, name: str, family: str, fix: bool, root: Path | None) -> None:
    """Write a new rule's module and its test file (docs/ARCHITECTURE.md, "A rule")."""
    from msmigrate.rules.scaffold import ScaffoldError
    from msmigrate.rules.scaffold import new_rule as scaffold

    root = root or repo_root()
    if root is None:
        raise click.UsageError(t("dev.no_repository", "en"))
    try:
        written = scaffold(root, rule_id, name, family, fix)
    except ScaffoldError as exc:
        raise click.UsageError(t(exc.key, "en", **exc.fields)) from None
    for path in written:
        click.echo(t("dev.wrote", "en", path=path.relative_to(root)))
    click.echo(t("dev.new_rule.next", "en", test=written[1].relative_to(root)))
