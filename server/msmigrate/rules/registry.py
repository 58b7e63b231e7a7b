"""The rule registry: a rule module in this package defines ``RULES: list[Rule]``; the registry collects
them all, with the API rules the analysis reports itself (``analysis/api_rules.py``). ``Rule`` itself is in
``model/rule.py``."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from msmigrate.model.rule import Rule


@cache
def rule_modules() -> tuple[ModuleType, ...]:
    """Every module of this package but the registry, by name."""
    from msmigrate import rules

    return tuple(importlib.import_module(f"msmigrate.rules.{info.name}")
                 for info in sorted(pkgutil.iter_modules(rules.__path__), key=lambda i: i.name)
                 if info.name != "registry")


@cache
def _registry() -> dict[str, Rule]:
    from msmigrate.analysis import api_rules

    found: dict[str, Rule] = {}
    for module in [api_rules, *rule_modules()]:
        for rule in getattr(module, "RULES", ()):
            if rule.id in found:
                raise ValueError(f"duplicate rule id {rule.id}")
            found[rule.id] = rule
    return dict(sorted(found.items()))


def all_rules() -> list[Rule]:
    return list(_registry().values())


def get_rule(rule_id: str) -> Rule:
    return _registry()[rule_id.upper()]
