"""``msmigrate rules``: list every rule, or explain one (``msmigrate rules MSM301``)."""

from __future__ import annotations

import json

import click

from msmigrate.i18n import LANGS, normalize_lang, t


def rule_json(rule) -> dict:
    """The public JSON form of a rule (both languages)."""
    return {
        "id": rule.id,
        "category": rule.category.value,
        "severity": rule.severity.value,
        "fixable": rule.fixable,
        "docs_url": rule.docs_url,
        "title": {lang: rule.title(lang) for lang in LANGS},
        "explanation": {lang: rule.explanation(lang) for lang in LANGS},
    }


def example_for(rule_id: str) -> str | None:
    """A short PyTorch snippet that triggers the rule (from the rule examples table)."""
    from msmigrate.rules.examples import EXAMPLES

    return EXAMPLES.get(rule_id)


@click.command()
@click.argument("rule_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (both languages).")
@click.option(
    "--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True, help="Output language."
)
def rules(rule_id: str | None, as_json: bool, lang: str) -> None:
    """List the analysis rules, or explain RULE_ID."""
    from msmigrate.reports.common import category_label
    from msmigrate.rules.loader import all_rules, get_rule

    lang = normalize_lang(lang)
    if rule_id is None:
        listed = all_rules()
        if as_json:
            click.echo(json.dumps({"rules": [rule_json(r) for r in listed]}, ensure_ascii=False, indent=1))
            return
        click.echo(t("rules.cli.header", lang, count=len(listed)))
        click.echo(t("rules.cli.legend", lang))
        for rule in listed:
            fix = "*" if rule.fixable else " "
            click.echo(
                f"{rule.id} {fix} {rule.severity.value:<11} {rule.category.value:<20} {rule.title(lang)}"
            )
        return
    try:
        rule = get_rule(rule_id)
    except KeyError:
        raise click.ClickException(t("rules.cli.unknown", lang, rule=rule_id)) from None
    example = example_for(rule.id)
    if as_json:
        data = rule_json(rule)
        data["example"] = example
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    yes_no = t("rules.cli.yes" if rule.fixable else "rules.cli.no", lang)
    category = rule.category.value
    lines = [
        f"{rule.id}: {rule.title(lang)}",
        "",
        rule.explanation(lang),
        "",
        f"{t('rules.cli.category', lang)}: {category_label(category, lang)} ({category})",
        f"{t('rules.cli.severity', lang)}: {t('report.severity.' + rule.severity.value, lang)}",
        f"{t('rules.cli.fixable', lang)}: {yes_no}",
        f"{t('rules.cli.docs', lang)}: {rule.docs_url_for(lang)}",
    ]
    if example:
        lines += ["", f"{t('rules.cli.example', lang)}:", *("    " + line for line in example.splitlines())]
    lines += ["", t("rules.cli.disable", lang, rule=rule.id)]
    click.echo("\n".join(lines))
