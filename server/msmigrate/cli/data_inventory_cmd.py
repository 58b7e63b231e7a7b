"""`msmigrate data inventory` and `msmigrate data validate` (registered in the `data` group).

`msmigrate data check`, the former name of `data validate`, stays as a hidden alias that says it was renamed
("check" is the equivalence checker, `msmigrate check`).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from msmigrate.i18n import t


def _default_sources() -> Path | None:
    from msmigrate.paths import repo_root

    root = repo_root()
    candidate = root.parent / "shared" / "mapping_sources" if root else None
    return candidate if candidate is not None and candidate.is_dir() else None


@click.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write {torch,mindspore}_inventory.json into (default: mapping_data/).")
@click.option("--package", type=click.Choice(["torch", "mindspore", "all"]), default="all", show_default=True)
@click.option("--sources", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Markdown mapping tables, read only when mapping_data/ has no mapping-<v>.json.")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
def inventory(out_dir: Path | None, package: str, sources: Path | None, lang: str) -> None:
    """Regenerate the torch / MindSpore API inventories from the installed packages."""
    from msmigrate.datagen.inventory import PACKAGES, generate
    from msmigrate.paths import data_dir

    target = out_dir or data_dir()
    for name in PACKAGES if package == "all" else (package,):
        try:
            path = generate(name, target, sources=sources or _default_sources())
        except ImportError as exc:
            raise click.ClickException(t("inventory.not_installed", lang, package=name, detail=exc)) from exc
        doc = json.loads(path.read_text(encoding="utf-8"))
        click.echo(t("inventory.generated", lang, path=path, count=len(doc["apis"]), package=name,
                     version=doc["version"]))


@click.command("validate")
@click.option("--mindspore-version", "version", default=None,
              help="Table to validate (1.10, 2.3, 2.4, 2.6); all four when omitted.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
def consistency(version: str | None, as_json: bool, lang: str) -> None:
    """Validate the knowledge base: list table rows whose torch or MindSpore API is missing from the
    inventories."""
    from msmigrate.knowledge.base import resolve_version
    from msmigrate.knowledge.consistency import consistency_of

    try:
        versions = [resolve_version(version)] if version else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--mindspore-version") from exc
    report = consistency_of(versions)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=1, sort_keys=True, ensure_ascii=False))
    else:
        click.echo(report.render_text(lang), nl=False)


def _renamed_check(**options: object) -> None:
    """``data check``: say it was renamed (on stderr: a ``--json`` output stays parseable), then validate."""
    click.echo(t("inventory.check.renamed", str(options["lang"])), err=True)
    click.get_current_context().invoke(consistency, **options)


renamed_check = click.Command("check", callback=_renamed_check, params=consistency.params, hidden=True,
                              help="Renamed: msmigrate data validate.")
