"""Rule id → fixer functions, collected from the ``FIXERS`` of every ``fixes/*_fixes.py`` module (fixes of
API findings) and of every rule module (``rules/*.py``: a rule's fixer lives with its checker).

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
    from msmigrate import fixes, rules

    names = [f"msmigrate.fixes.{info.name}" for info in sorted(pkgutil.iter_modules(fixes.__path__),
             key=lambda i: i.name) if info.name.endswith("_fixes")]
    names += [f"msmigrate.rules.{info.name}" for info in sorted(pkgutil.iter_modules(rules.__path__),
              key=lambda i: i.name)]
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
