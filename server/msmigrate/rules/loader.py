"""The rule modules, imported, checked against the rule contract, and what they declare by rule id: the
rules (``all_rules``, ``get_rule``, with the API rules the analysis reports itself,
``analysis/api_rules.py``), their detectors in order (``detectors``), fixers (``rule_fixers``), fix safety
(``fix_safeties``) and examples (``rule_examples``). The modules are the ones ``msmigrate/registry.py``
names; ``Rule`` and ``Detector`` themselves are in ``model/rule.py``.

A rule module (``rules/<family>/msmNNN_<name>.py``) defines exactly one ``RULE``, its ``MESSAGES`` (keys of
that rule only: ``rule.<ID>.…``, ``finding.<ID>…``, ``fix.…``), ``EXAMPLES`` (its id → (example,
counter-example, [(line, column)])), ``detect(ctx)``, ``FIXERS`` (a tuple, tried in order) and, when
``FIXERS`` is not empty, ``FIX_SAFETY`` (a ``Safety`` or ``(kb, finding) -> Safety``). It may declare where
``detect`` runs among the other detectors (``DETECT_BEFORE``, ``DETECT_AFTER``: rule ids), and further
detectors with their own places (``EXTRA_DETECTORS``: ``Detector(function, after=..., before=...)``). A
module that does not import, or breaks the contract, raises :class:`RuleModuleError` naming its file.
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
from msmigrate.model.rule import Detector, Rule
from msmigrate.registry import rule_module, rule_module_names, rule_module_path

_OWN_KEY = re.compile(r"^(rule|finding)\.(MSM\d{3})\b")
_RULE_ID = re.compile(r"^MSM\d{3}$")


class RuleModuleError(ValueError):
    """A rule module that breaks the contract (the message starts with its file)."""


@dataclass(frozen=True)
class RuleModule:
    """What one rule module declares."""

    module: ModuleType
    where: str  # its file, relative to ``msmigrate/``
    rule: Rule
    detectors: tuple[Detector, ...]  # ``detect`` at the module's place, then its EXTRA_DETECTORS at theirs
    fixers: tuple[Callable, ...]
    safety: Safety | Callable | None  # FIX_SAFETY (None: no fixers)
    example: tuple[str, str, list[tuple[int, int]]]


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
    return _checked(module, where)


def _rule_ids(rules: object) -> bool:
    """Whether ``rules`` is a tuple of rule ids."""
    return isinstance(rules, tuple) and all(isinstance(rule, str) and _RULE_ID.match(rule) for rule in rules)


def _detectors(module: ModuleType, detect: Callable, fail: Callable[[str], RuleModuleError]) -> tuple[
        Detector, ...]:
    """``detect`` at the place of ``DETECT_AFTER`` and ``DETECT_BEFORE``, then the ``EXTRA_DETECTORS``."""
    after, before = getattr(module, "DETECT_AFTER", ()), getattr(module, "DETECT_BEFORE", ())
    for name, rules in (("DETECT_AFTER", after), ("DETECT_BEFORE", before)):
        if not _rule_ids(rules):
            raise fail(f"{name} is a tuple of rule ids")
    extra = getattr(module, "EXTRA_DETECTORS", ())
    if not (isinstance(extra, tuple) and all(
            isinstance(item, Detector) and callable(item.detect) and _rule_ids(item.after)
            and _rule_ids(item.before) for item in extra)):
        raise fail("EXTRA_DETECTORS is a tuple of Detector(function, after=(rule ids), before=(rule ids))")
    return (Detector(detect, after, before), *extra)


def _checked(module: ModuleType, where: str) -> RuleModule:
    """The declarations of a rule module, or :class:`RuleModuleError` naming what is wrong."""

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
    safety: Any = None
    if fixers:
        safety = getattr(module, "FIX_SAFETY", None)
        if not (isinstance(safety, Safety) or (callable(safety) and not isinstance(safety, type))):
            raise fail("FIXERS without FIX_SAFETY (a Safety, or (kb, finding) -> Safety)")
    return RuleModule(module, where, rule, _detectors(module, detect, fail), fixers, safety,
                      examples[rule.id])


@cache
def _rules_by_id() -> dict[str, Rule]:
    from msmigrate.analysis import api_rules

    found: dict[str, Rule] = {}
    for rule in [*api_rules.RULES, *(entry.rule for entry in loaded())]:
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
    """The detectors, in module order (rule-id order; a module's ``detect``, then its ``EXTRA_DETECTORS``),
    but for those with a place of their own: one with ``before`` rule ids (``DETECT_BEFORE``) moves just
    before the first detector of those rules, then one with ``after`` rule ids (``DETECT_AFTER``) just after
    the last (a detector that must see an API finding before another rule refines it, or refines what
    another rule reported). Everything else keeps its order. A place that names a rule without a detector,
    or places that contradict, raise :class:`RuleModuleError` naming the module's file."""
    order = [(entry, detector) for entry in loaded() for detector in entry.detectors]
    ruled = {entry.rule.id for entry, _ in order}

    def index(unit: tuple[RuleModule, Detector]) -> int:
        return next(at for at, other in enumerate(order) if other[1] is unit[1])

    def places(rules: tuple[str, ...]) -> list[int]:
        return [at for at, (entry, _) in enumerate(order) if entry.rule.id in rules]

    for entry, detector in order:
        unknown = sorted(set(detector.after + detector.before) - ruled)
        if unknown:
            raise RuleModuleError(f"{entry.where}: {unknown[0]} has no detector to run before or after")
    for unit in [unit for unit in order if unit[1].before]:
        targets = places(unit[1].before)
        if index(unit) > targets[0]:
            order.remove(unit)
            order.insert(targets[0], unit)
    for unit in [unit for unit in order if unit[1].after]:
        targets = places(unit[1].after)
        if index(unit) < targets[-1]:
            order.remove(unit)
            order.insert(places(unit[1].after)[-1] + 1, unit)
    for at, (entry, detector) in enumerate(order):
        if any(place > at for place in places(detector.after)) or any(
                place < at for place in places(detector.before)):
            raise RuleModuleError(f"{entry.where}: DETECT_BEFORE and DETECT_AFTER contradict")
    return tuple(detector.detect for _, detector in order)


@cache
def rule_fixers() -> dict[str, tuple[Callable, ...]]:
    """Rule id → its module's fixers (the rules with fixers)."""
    return {entry.rule.id: entry.fixers for entry in loaded() if entry.fixers}


@cache
def fix_safeties() -> dict[str, Safety | Callable]:
    """Rule id → the ``FIX_SAFETY`` its module declares."""
    return {entry.rule.id: entry.safety for entry in loaded() if entry.safety is not None}


@cache
def rule_examples() -> dict[str, tuple[str, str, list[tuple[int, int]]]]:
    """Rule id → its module's example (example, counter-example, positions)."""
    return {entry.rule.id: entry.example for entry in loaded()}
