"""The human summary of ``msmigrate fix`` (``ProjectFix`` → lines; the CLI prints them on stderr).

A file counts as converted only when nothing of torch is left in it: the summary gives the files free of
torch, then every leftover with its line and why it was not rewritten; "Nothing left to migrate" only
when no file has a finding or a leftover, and the conversion rate is never rounded up to 100%.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from msmigrate.i18n import t

if TYPE_CHECKING:
    from msmigrate.fixes.project import ProjectFix

MAX_LISTED = 50


def rate_text(converted: int, total: int) -> str:
    """``converted / total`` as a percentage with one decimal, rounded down (99.96% is not 100.0%)."""
    return f"{math.floor(converted / total * 1000) / 10:.1f}%"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summary_lines(result: ProjectFix, lang: str = "en") -> list[str]:
    from msmigrate.fixes.project import FileStatus

    lines: list[str] = []
    say = lines.append
    problems = 0
    for record in result.files:
        if record.status is FileStatus.UNCHANGED:
            continue
        detail = t(record.error_key, lang, **record.error_args) if record.error_key else ""
        problems += record.status in (FileStatus.ERROR, FileStatus.SYNTAX_ERROR, FileStatus.READ_ONLY)
        say(t("fix.cli.file_line", lang, path=record.rel, status=t(f"fix.cli.status.{record.status}", lang),
              count=len(record.applied), detail=detail).rstrip())
    helper = result.helper_module  # the module of compositions (fixes/project_helper.py)
    if helper is not None and helper.status != "unchanged":
        problems += helper.status == "error"
        status = t(f"fix.cli.helper_status.{helper.status}", lang) if not helper.error_key else ""
        say(t(helper.error_key, lang, **helper.error_args) if helper.error_key else
            t("fix.cli.helper_module", lang, path=helper.rel, status=status, helpers=", ".join(helper.added)))
    fixes = sum(len(r.applied) for r in result.files)
    files = sum(1 for r in result.files if r.applied)
    key = "fix.cli.summary_written" if result.written else "fix.cli.summary_pending"
    say(t(key, lang, fixes=fixes, files=files, version=result.version))
    by_rule = result.fixes_by_rule()
    if by_rule:
        say(t("fix.cli.by_rule", lang, items=", ".join(f"{rule} ×{n}" for rule, n in by_rule.items())))
    if result.usages_before:
        rate = rate_text(result.converted, result.usages_before)
        say(t("fix.cli.conversion", lang, converted=result.converted, total=result.usages_before, rate=rate))
    left = result.left_by_category()
    if left:
        say(t("fix.cli.left", lang, items=", ".join(f"{c} {n}" for c, n in left.items())))
    if result.nothing_left:
        say(t("fix.cli.nothing_left", lang))
    readable = [r for r in result.files if r.status not in (FileStatus.ERROR, FileStatus.SYNTAX_ERROR)]
    say(t("fix.cli.torch_free", lang, free=sum(1 for r in readable if r.torch_free), total=len(readable)))
    with_torch = result.with_torch_left()
    if with_torch:
        places = [(r.rel, x) for r in with_torch for x in r.leftovers]
        say(t("fix.cli.torch_left", lang, count=len(places)))
        for rel, x in places[:MAX_LISTED]:
            spot = x.leftover
            say(t("fix.cli.leftover", lang, path=rel, line=spot.line, column=spot.column,
                  text=_short(spot.text), reason=x.reason(lang)))
        if len(places) > MAX_LISTED:
            say("  " + t("fix.cli.more", lang, count=len(places) - MAX_LISTED))
    person = result.needing_a_person()
    if person:
        say(t("fix.cli.needs_person", lang, count=len(person)))
        for rel, finding in person[:MAX_LISTED]:
            say(f"  {rel}:{finding.line}:{finding.column} {finding.rule} {finding.message(lang)}")
        if len(person) > MAX_LISTED:
            say("  " + t("fix.cli.more", lang, count=len(person) - MAX_LISTED))
    skipped = sum(r.unsafe_skipped for r in result.files)
    if skipped:
        say(t("fix.cli.unsafe_skipped", lang, count=skipped))
    if problems:
        say(t("fix.cli.problems", lang, count=problems))
    return lines
