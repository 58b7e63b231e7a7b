"""`msmigrate lookup NAME`: the MindSpore equivalent of a torch API and its differences."""

from __future__ import annotations

import json

import click

from msmigrate.i18n import t


@click.command()
@click.argument("name")
@click.option(
    "--mindspore-version",
    default="auto",
    show_default=True,
    help="Mapping table to use: 1.10, 2.3, 2.4, 2.6 or auto (closest to the installed MindSpore).",
)
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
@click.option("--device", type=click.Choice(["CPU", "GPU", "Ascend"], case_sensitive=False), default="CPU",
              show_default=True, help="Device the migrated code runs on (a target without a kernel there is "
              "reported with the replacement the quick-fix writes).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def lookup(name: str, mindspore_version: str, lang: str, device: str, as_json: bool) -> None:
    """Show the MindSpore equivalent of a PyTorch API (full name or alias such as nn.Linear, F.relu)."""
    from msmigrate.knowledge.base import VERSIONS, get_knowledge_base
    from msmigrate.knowledge.lookup import lookup as do_lookup

    if not name.strip().strip("`").strip("()").strip():
        raise click.BadParameter(t("kb.lookup.empty_name", lang), param_hint="NAME")
    try:
        kb = get_knowledge_base(mindspore_version)
    except ValueError as exc:
        message = t("kb.lookup.bad_version", lang, version=mindspore_version, choices=", ".join(VERSIONS))
        raise click.BadParameter(message, param_hint="--mindspore-version") from exc
    result = do_lookup(name, kb.require(load=False), device=device)
    if as_json:
        click.echo(json.dumps(result.to_json(lang), indent=2, ensure_ascii=False))
    else:
        click.echo(result.render_text(lang), nl=False)
    if not result.found:
        raise SystemExit(1)
