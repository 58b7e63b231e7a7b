"""`msmigrate data …`: regenerate and inspect the knowledge in mapping_data/."""

from __future__ import annotations

import json
from pathlib import Path

import click

from msmigrate.i18n import t


@click.group()
def data() -> None:
    """Build, inventory, validate and summarise the mapping data."""


@data.command("build")
@click.option(
    "--sources",
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of <release>/<en|zh_cn>/ mapping tables and pytorch_diff/ pages.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to write mapping-<version>.json (default: the bundled mapping_data folder).",
)
def build(sources: Path, out: Path | None) -> None:
    """Regenerate mapping-<version>.json from the official mapping tables and difference pages."""
    from msmigrate.datagen.importer import SourceError, build_all
    from msmigrate.paths import data_dir

    target = out or data_dir()
    try:
        written = build_all(sources, target, inventory_dir=data_dir())
    except SourceError as exc:
        raise click.ClickException(t("kb.build.no_sources", None, path=str(exc))) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(t("kb.build.failed", None, detail=str(exc))) from exc
    for path in written:
        click.echo(t("kb.build.wrote", None, path=str(path)))


@data.command("derive")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to write derived-<version>.json (default: the bundled mapping_data folder).",
)
def derive(out: Path | None) -> None:
    """Derive mappings for torch APIs each table lacks, from the other tables and the inventories."""
    from msmigrate.datagen.derive import derive_all
    from msmigrate.paths import data_dir

    for path in derive_all(out or data_dir()):
        counts = json.loads(path.read_text(encoding="utf-8"))["counts"]
        click.echo(t("derived.cli.wrote", None, path=str(path), mapped=counts["torch_apis"],
                     candidates=counts["candidates"]))


@data.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
def stats(as_json: bool, lang: str) -> None:
    """Count rows, difference pages, parameter renames and unsupported parameters per version."""
    from msmigrate.knowledge.stats import knowledge_stats

    result = knowledge_stats()
    if as_json:
        click.echo(json.dumps(result, indent=2, sort_keys=True))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=t("kb.stats.title", lang))
    table.add_column(t("kb.stats.version", lang))
    for key in ("rows", "diff_pages", "param_renames", "unsupported_params"):
        table.add_column(t(f"kb.stats.{key}", lang), justify="right")
    for version, counts in result["versions"].items():
        table.add_row(
            version, *(str(counts[k]) for k in ("rows", "diff_pages", "param_renames", "unsupported_params"))
        )
    console = Console()
    console.print(table)
    for version, counts in result.get("derived", {}).items():
        console.print(t("derived.stats.line", lang, version=version, **counts), markup=False)
    console.print(
        t(
            "kb.stats.inventories",
            lang,
            torch=result["torch_inventory"],
            mindspore=result["mindspore_inventory"],
        )
    )


def _register_inventory_commands() -> None:
    """Add ``data inventory``, ``data validate`` and its former name ``data check`` (hidden; written in
    data_inventory_cmd.py) when present."""
    try:
        from msmigrate.cli import data_inventory_cmd
    except ImportError:
        return
    for command in (data_inventory_cmd.inventory, data_inventory_cmd.consistency,
                    data_inventory_cmd.renamed_check):
        data.add_command(command)


_register_inventory_commands()
