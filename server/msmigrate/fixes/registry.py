"""Rule id → fixer functions, collected from the ``FIXERS`` of the fix modules (fixes of API findings), then
of the rule modules (a rule's fixer lives with its checker), both listed in ``msmigrate/registry.py``.

A module's ``FIXERS`` maps a rule id to one fixer or a list of fixers; a fixer is
``fixer(ctx: FixContext, finding: Finding) -> Fix | None``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from msmigrate.registry import FIX_MODULES, RULE_MODULES, fix_module, rule_module

if TYPE_CHECKING:
    from msmigrate.fixes.context import FixContext
    from msmigrate.fixes.model import Fix
    from msmigrate.model.finding import Finding

Fixer = Callable[["FixContext", "Finding"], "Fix | None"]


@cache
def _registry() -> dict[str, tuple[Fixer, ...]]:
    names = [*map(fix_module, FIX_MODULES), *map(rule_module, RULE_MODULES)]
    found: dict[str, list[Fixer]] = {}
    for name in names:
        module = importlib.import_module(name)
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
