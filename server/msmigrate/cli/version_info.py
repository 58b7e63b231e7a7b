"""``msmigrate --version``: the package's version and what its knowledge base covers."""

from __future__ import annotations

import os

import click

from msmigrate import __version__
from msmigrate.cli.knowledge_errors import EXIT_STATUS, message
from msmigrate.data_files import KnowledgeBaseError, require_files, required_files
from msmigrate.i18n import t


def print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """Eager ``--version`` callback: the lines on stdout; a missing knowledge base is said on stderr
    (exit status 2)."""
    if not value or ctx.resilient_parsing:
        return
    from msmigrate.knowledge.base import VERSIONS
    from msmigrate.knowledge.coverage import coverage

    lang = os.environ.get("MSMIGRATE_LANG")
    click.echo(f"msmigrate {__version__}")
    found = coverage()
    try:
        require_files(found.folder, required_files(VERSIONS))
    except KnowledgeBaseError as exc:
        click.echo(message(exc, lang), err=True)
        ctx.exit(EXIT_STATUS)
    unknown = t("kb.version.unknown", lang)
    tables = t("kb.version.separator", lang).join(
        t("kb.version.table", lang, version=version, release=release or unknown)
        for version, release in found.tables
    )
    click.echo(t("kb.version.inventories", lang, torch=found.torch or unknown,
                 mindspore=found.mindspore or unknown))
    click.echo(t("kb.version.tables", lang, tables=tables))
    click.echo(t("kb.version.data", lang, path=str(found.folder)))
    ctx.exit(0)
