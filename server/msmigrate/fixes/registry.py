"""Rule id → fixer functions, collected from every ``fixes/*_fixes.py`` module's ``FIXERS``.

A module's ``FIXERS`` maps a rule id to one fixer or a list of fixers; a fixer is
``fixer(ctx: FixContext, finding: Finding) -> Fix | None``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from msmigrate.fixes.context import FixContext
    from msmigrate.fixes.model import Fix
    from msmigrate.model.finding import Finding

Fixer = Callable[["FixContext", "Finding"], "Fix | None"]


@cache
def _registry() -> dict[str, tuple[Fixer, ...]]:
    from msmigrate import fixes

    found: dict[str, list[Fixer]] = {}
    for info in sorted(pkgutil.iter_modules(fixes.__path__), key=lambda i: i.name):
        if not info.name.endswith("_fixes"):
            continue
        module = importlib.import_module(f"msmigrate.fixes.{info.name}")
        table: dict[str, Any] = getattr(module, "FIXERS", {})
        for rule_id, fixers in table.items():
            items = list(fixers) if isinstance(fixers, list | tuple) else [fixers]
            found.setdefault(rule_id.upper(), []).extend(items)
    return {rule: tuple(fixers) for rule, fixers in sorted(found.items())}


def fixers_for(rule_id: str) -> tuple[Fixer, ...]:
    """The fixers registered for a rule id (empty when the rule has none)."""
    return _registry().get(rule_id.upper(), ())


def fixable_rules() -> list[str]:
    return list(_registry())
