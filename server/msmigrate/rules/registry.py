"""The rules by id: each rule module listed in ``msmigrate/registry.py`` defines ``RULES: list[Rule]``; they
are collected with the API rules the analysis reports itself (``analysis/api_rules.py``). ``Rule`` itself is
in ``model/rule.py``."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

from msmigrate.model.rule import Rule
from msmigrate.registry import RULE_MODULES, rule_module


@cache
def rule_modules() -> tuple[ModuleType, ...]:
    """The rule modules of ``msmigrate/registry.py``, imported (an import error raises)."""
    return tuple(importlib.import_module(rule_module(name)) for name in RULE_MODULES)


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
