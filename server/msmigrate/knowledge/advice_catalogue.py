"""The missing-API catalogue, read from ``knowledge/facts/missing_advice.toml``.

For the torch APIs most often met in real code that have no row in the mapping table: which of the four
policies applies, the MindSpore APIs to use, a note (``advice.note.<id>``), a MindSpore snippet written for
this project and the quick-fix kind, if the rewrite can be exact. ``missing_advice.advice_for`` reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from pathlib import Path

from msmigrate.knowledge.fact_files import Entry, Field, fact_file, read_entries
from msmigrate.knowledge.snippets import SNIPPETS


class Policy(IntEnum):
    EQUIVALENT = 1  # an equivalent replacement exists
    COMPOSE = 2  # compose it from mapped APIs
    CUSTOM_OPERATOR = 3  # write a mindspore.ops.Custom operator
    COMMUNITY = 4  # ask the MindSpore community


ADVICE_FILE = "missing_advice.toml"
SCHEMA: dict[str, Field] = {
    "note": Field("str", required=True),
    "policy": Field("str", required=True, choices=frozenset(policy.name.lower() for policy in Policy)),
    "snippet": Field("str", choices=frozenset(SNIPPETS)),
    "fix": Field("str"),
    "rule": Field("str"),
    "recipe": Field("bool"),
    "apis": Field("string_lists", required=True),
}
_RULE = re.compile(r"MSM5\d\d")
_NAME = re.compile(r"[A-Za-z_][\w.]*")


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    torch_api: str
    policy: Policy
    replacements: tuple[str, ...]  # MindSpore APIs, best first
    note: str  # message key suffix: advice.note.<note>
    snippet: str | None = None  # key of SNIPPETS
    fix: str | None = None  # fixer kind: a rewrite of fixes/rewrites.py, NAME_FIX or RECEIVER_FUNCTION
    pattern_rule: str | None = None  # the framework-pattern rule that explains the idiom (MSM5xx)


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The catalogue under the torch names, in file order, and the notes of its ``recipe`` entries."""

    entries: dict[str, CatalogueEntry]
    recipe_notes: frozenset[str]  # message keys ``advice.note.<note>``
    recipe_apis: tuple[str, ...]  # the APIs of the recipe entries, in file order


def _checked(entry: Entry, seen: dict[str, int]) -> list[CatalogueEntry]:
    data = entry.data
    rule = data.get("rule")
    if rule is not None and not _RULE.fullmatch(rule):
        raise entry.error(f"'rule' is {rule!r}, not a framework-pattern rule id (MSM5xx)", "rule")
    found = []
    for torch_api, replacements in data["apis"].items():
        for name in (torch_api, *replacements):
            if not _NAME.fullmatch(name):
                raise entry.error(f"{name!r} is not a dotted API name", torch_api)
        if torch_api in seen:
            raise entry.error(f"{torch_api!r} is already advised by entry {seen[torch_api]}", torch_api)
        seen[torch_api] = entry.index
        found.append(CatalogueEntry(torch_api, Policy[data["policy"].upper()], tuple(replacements),
                                    data["note"], data.get("snippet"), data.get("fix"), rule))
    return found


def read_catalogue(path: Path) -> Catalogue:
    """The catalogue of the fact file ``path``, every entry validated."""
    entries: dict[str, CatalogueEntry] = {}
    notes: set[str] = set()
    recipe_apis: list[str] = []
    seen: dict[str, int] = {}
    for entry in read_entries(path, "advice", SCHEMA):
        rows = _checked(entry, seen)
        entries.update((row.torch_api, row) for row in rows)
        if entry.data.get("recipe"):
            notes.add(f"advice.note.{entry.data['note']}")
            recipe_apis.extend(row.torch_api for row in rows)
    return Catalogue(entries, frozenset(notes), tuple(recipe_apis))


@cache
def catalogue() -> Catalogue:
    """The shipped catalogue (read once)."""
    return read_catalogue(fact_file(ADVICE_FILE))
