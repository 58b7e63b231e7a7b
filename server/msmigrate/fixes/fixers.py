"""Rule id → fixer functions: the ``FIXERS`` of the fix modules ``msmigrate/registry.py`` lists (fixes of
API findings), then the rule modules' fixers (a rule's fixer lives with its detector, collected by
``rules/loader.py``, imported here by name: the rules sit above the fixes); and rule id → the fix safety
a rule module declares (``FIX_SAFETY``, read by ``fixes/safety.py``).

A fix module's ``FIXERS`` maps a rule id to one fixer or a list of fixers; a fixer is
``fixer(ctx: FixContext, finding: Finding) -> Fix | None``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from msmigrate.registry import FIX_MODULES, fix_module

if TYPE_CHECKING:
    from msmigrate.fixes.context import FixContext
    from msmigrate.fixes.model import Fix
    from msmigrate.model.finding import Finding
    from msmigrate.model.resolution import Safety

Fixer = Callable[["FixContext", "Finding"], "Fix | None"]
RULES_LOADER = "msmigrate.rules.loader"


@cache
def _fixers_by_rule() -> dict[str, tuple[Fixer, ...]]:
    found: dict[str, list[Fixer]] = {}
    for name in FIX_MODULES:
        table: dict[str, Any] = getattr(importlib.import_module(fix_module(name)), "FIXERS", {})
        for rule_id, fixers in table.items():
            items = list(fixers) if isinstance(fixers, list | tuple) else [fixers]
            found.setdefault(rule_id.upper(), []).extend(items)
    for rule_id, fixers in importlib.import_module(RULES_LOADER).rule_fixers().items():
        found.setdefault(rule_id, []).extend(fixers)
    return {rule: tuple(fixers) for rule, fixers in sorted(found.items())}


def fixers_for(rule_id: str) -> tuple[Fixer, ...]:
    """The fixers registered for a rule id (empty when the rule has none)."""
    return _fixers_by_rule().get(rule_id.upper(), ())


def fixable_rules() -> list[str]:
    return list(_fixers_by_rule())


def declared_safety(rule_id: str) -> Safety | Callable[..., Safety] | None:
    """The ``FIX_SAFETY`` rule ``rule_id``'s module declares (``None``: it declares none)."""
    return importlib.import_module(RULES_LOADER).fix_safeties().get(rule_id.upper())
