"""The rule modules, imported, checked against the rule contract, and what they declare by rule id: the
rules (``all_rules``, ``get_rule``, with the API rules the analysis reports itself,
``analysis/api_rules.py``), their detectors in order (``detectors``), fixers (``rule_fixers``), fix safety
(``fix_safeties``) and examples (``rule_examples``). The modules are the ones ``msmigrate/registry.py``
names; ``Rule`` itself is in ``model/rule.py``.

A rule module of a family (``rules/<family>/msmNNN_<name>.py``) defines exactly one ``RULE``, its
``MESSAGES`` (keys of that rule only: ``rule.<ID>.…``, ``finding.<ID>…``, ``fix.…``), ``EXAMPLES`` (its id →
(example, counter-example, [(line, column)])), ``detect(ctx)``, ``FIXERS`` (a tuple, tried in order) and,
when ``FIXERS`` is not empty, ``FIX_SAFETY`` (a ``Safety`` or ``(kb, finding) -> Safety``). A module that
does not import, or breaks the contract, raises :class:`RuleModuleError` naming its file. A flat module of
``RULE_MODULES`` (the old form) declares ``RULES``, ``CHECKERS`` and a ``FIXERS`` dict instead.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.registry import rule_module, rule_module_names, rule_module_path

_OWN_KEY = re.compile(r"^(rule|finding)\.(MSM\d{3})\b")
_RULE_ID = re.compile(r"^MSM\d{3}$")


class RuleModuleError(ValueError):
    """A rule module that breaks the contract (the message starts with its file)."""


@dataclass(frozen=True)
class RuleModule:
    """What one rule module declares (a flat module may declare several rules)."""

    module: ModuleType
    rules: tuple[Rule, ...]
    detectors: tuple[Callable, ...]
    fixers: dict[str, tuple[Callable, ...]]
    safety: dict[str, Safety | Callable]
    examples: dict[str, tuple[str, str, list[tuple[int, int]]]]
    after: tuple[str, ...] = ()  # DETECT_AFTER: rule ids whose detectors run before this one's
    before: tuple[str, ...] = ()  # DETECT_BEFORE: rule ids whose detectors run after this one's


@cache
def loaded() -> tuple[RuleModule, ...]:
    """Every rule module of ``msmigrate/registry.py``, imported and checked, in its order."""
    return tuple(_load(name) for name in rule_module_names())


def rule_modules() -> tuple[ModuleType, ...]:
    """The rule modules, imported (an import error raises)."""
    return tuple(entry.module for entry in loaded())


def _load(name: str) -> RuleModule:
    where = rule_module_path(name)
    try:
        module = importlib.import_module(rule_module(name))
    except Exception as exc:
        raise RuleModuleError(f"{where}: does not import: {type(exc).__name__}: {exc}") from exc
    if "." not in name:  # a flat module of RULE_MODULES
        fixers = {rule.upper(): tuple(items) if isinstance(items, list | tuple) else (items,)
                  for rule, items in getattr(module, "FIXERS", {}).items()}
        return RuleModule(module, tuple(getattr(module, "RULES", ())), tuple(getattr(module, "CHECKERS", ())),
                          fixers, {}, dict(getattr(module, "EXAMPLES", {})), *_order(module, where))
    return _checked(module, where)


def _order(module: ModuleType, where: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The module's ``DETECT_AFTER`` and ``DETECT_BEFORE`` (tuples of rule ids)."""
    found = []
    for name in ("DETECT_AFTER", "DETECT_BEFORE"):
        rules = getattr(module, name, ())
        if not isinstance(rules, tuple) or not all(isinstance(rule, str) and _RULE_ID.match(rule)
                                                    for rule in rules):
            raise RuleModuleError(f"{where}: {name} is a tuple of rule ids")
        found.append(rules)
    return found[0], found[1]


def _checked(module: ModuleType, where: str) -> RuleModule:
    """The declarations of a family rule module, or :class:`RuleModuleError` naming what is wrong."""

    def fail(problem: str) -> RuleModuleError:
        return RuleModuleError(f"{where}: {problem}")

    rule = getattr(module, "RULE", None)
    if not isinstance(rule, Rule):
        raise fail("no RULE = Rule(...)")
    if not where.rpartition("/")[2].startswith(f"msm{rule.id[3:]}_"):
        raise fail(f"RULE is {rule.id}, the file name says otherwise")
    if any(isinstance(value, Rule) and value is not rule for value in vars(module).values()):
        raise fail("more than one Rule: a rule module defines exactly one RULE")
    doc = (module.__doc__ or "").strip()
    if not doc.startswith(f"{rule.id}: "):
        raise fail(f"the module docstring starts with '{rule.id}: <one line>'")
    messages = getattr(module, "MESSAGES", None)
    if not isinstance(messages, dict) or not messages:
        raise fail("no MESSAGES")
    for key in (f"rule.{rule.id}.title", f"rule.{rule.id}.explanation"):
        if key not in messages:
            raise fail(f"MESSAGES has no {key}")
    for key, texts in messages.items():
        own = _OWN_KEY.match(key)
        if (own is None and not key.startswith("fix.")) or (own is not None and own.group(2) != rule.id):
            raise fail(f"MESSAGES key {key!r} is not {rule.id}'s "
                       f"(rule.{rule.id}.…, finding.{rule.id}…, fix.…)")
        if not (isinstance(texts, tuple) and len(texts) == 2
                and all(isinstance(text, str) and text for text in texts)):
            raise fail(f"MESSAGES[{key!r}] is not (English, Chinese)")
    examples = getattr(module, "EXAMPLES", None)
    if not isinstance(examples, dict) or list(examples) != [rule.id]:
        raise fail(f"EXAMPLES = {{{rule.id!r}: (example, counter-example, [(line, column), ...])}}")
    detect = getattr(module, "detect", None)
    if not callable(detect):
        raise fail("no detect(ctx)")
    fixers = getattr(module, "FIXERS", None)
    if not isinstance(fixers, tuple) or not all(callable(fixer) for fixer in fixers):
        raise fail("FIXERS is a tuple of fixers (empty when the rule has none)")
    if bool(fixers) != rule.fixable:
        raise fail(f"Rule(fixable={rule.fixable}) but {len(fixers)} FIXERS")
    safety: dict[str, Any] = {}
    if fixers:
        declared = getattr(module, "FIX_SAFETY", None)
        if not (isinstance(declared, Safety) or (callable(declared) and not isinstance(declared, type))):
            raise fail("FIXERS without FIX_SAFETY (a Safety, or (kb, finding) -> Safety)")
        safety[rule.id] = declared
    return RuleModule(module, (rule,), (detect,), {rule.id: fixers} if fixers else {}, safety, dict(examples),
                      *_order(module, where))


@cache
def _rules_by_id() -> dict[str, Rule]:
    from msmigrate.analysis import api_rules

    found: dict[str, Rule] = {}
    for rules in [api_rules.RULES, *(entry.rules for entry in loaded())]:
        for rule in rules:
            if rule.id in found:
                raise ValueError(f"duplicate rule id {rule.id}")
            found[rule.id] = rule
    return dict(sorted(found.items()))


def all_rules() -> list[Rule]:
    return list(_rules_by_id().values())


def get_rule(rule_id: str) -> Rule:
    return _rules_by_id()[rule_id.upper()]


@cache
def detectors() -> tuple[Callable, ...]:
    """The detectors (``detect`` of a family module, ``CHECKERS`` of a flat one), in module order (rule-id
    order), but for the modules that declare where they run among the others: one with ``DETECT_BEFORE``
    moves just before the first module of those rules, then one with ``DETECT_AFTER`` just after the last
    (a detector that must see an API finding before another rule refines it, or refines what another rule
    reported). Everything else keeps its order."""
    order = list(loaded())

    def places(rules: tuple[str, ...]) -> list[int]:
        return [index for index, entry in enumerate(order) if any(rule.id in rules for rule in entry.rules)]

    for entry in [entry for entry in order if entry.before]:
        targets = places(entry.before)
        if targets and order.index(entry) > targets[0]:
            order.remove(entry)
            order.insert(targets[0], entry)
    for entry in [entry for entry in order if entry.after]:
        targets = places(entry.after)
        if targets and order.index(entry) < targets[-1]:
            order.remove(entry)
            order.insert(places(entry.after)[-1] + 1, entry)
    for index, entry in enumerate(order):
        if any(place > index for place in places(entry.after)) or any(
                place < index for place in places(entry.before)):
            raise RuleModuleError(f"{entry.module.__name__}: DETECT_BEFORE and DETECT_AFTER contradict")
    return tuple(detector for entry in order for detector in entry.detectors)


@cache
def rule_fixers() -> dict[str, tuple[Callable, ...]]:
    """Rule id → the rule modules' fixers for it, in module order."""
    found: dict[str, list[Callable]] = {}
    for entry in loaded():
        for rule_id, fixers in entry.fixers.items():
            found.setdefault(rule_id, []).extend(fixers)
    return {rule_id: tuple(fixers) for rule_id, fixers in found.items()}


@cache
def fix_safeties() -> dict[str, Safety | Callable]:
    """Rule id → the ``FIX_SAFETY`` its module declares."""
    return {rule_id: safety for entry in loaded() for rule_id, safety in entry.safety.items()}


@cache
def rule_examples() -> dict[str, tuple[str, str, list[tuple[int, int]]]]:
    """Rule id → its module's example (example, counter-example, positions)."""
    found: dict[str, tuple[str, str, list[tuple[int, int]]]] = {}
    for entry in loaded():
        for rule_id, example in entry.examples.items():
            if rule_id in found:
                raise ValueError(f"two examples for {rule_id}")
            found[rule_id] = example
    return found
