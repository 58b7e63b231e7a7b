"""Rule definitions and their registry.

A rule module in this package defines ``RULES: list[Rule]``; the registry collects them all.
Titles and explanations live in the message catalogue under ``rule.<ID>.title`` and
``rule.<ID>.explanation`` (both languages), so ``msmigrate rules`` can list every rule in en/zh.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache

from msmigrate.analysis.finding import FindingCategory, Severity
from msmigrate.i18n import t


@dataclass(frozen=True, slots=True)
class Rule:
    # MSM1xx mapping, MSM2xx missing API, MSM3xx dynamic shape, MSM4xx sparse, MSM5xx patterns, MSM6xx data
    id: str
    category: FindingCategory
    severity: Severity
    docs_url: str
    fixable: bool = False

    def title(self, lang: str = "en") -> str:
        return t(f"rule.{self.id}.title", lang)

    def explanation(self, lang: str = "en") -> str:
        return t(f"rule.{self.id}.explanation", lang)

    def docs_url_for(self, lang: str = "en") -> str:
        """The docs link in the reader's language (the MindSpore site's ``/docs/zh-CN/`` twin for zh)."""
        if lang == "zh":
            return self.docs_url.replace("mindspore.cn/docs/en/", "mindspore.cn/docs/zh-CN/", 1)
        return self.docs_url


@cache
def _registry() -> dict[str, Rule]:
    from msmigrate import rules

    found: dict[str, Rule] = {}
    for info in pkgutil.iter_modules(rules.__path__):
        if info.name == "registry":
            continue
        module = importlib.import_module(f"msmigrate.rules.{info.name}")
        for rule in getattr(module, "RULES", ()):
            if rule.id in found:
                raise ValueError(f"duplicate rule id {rule.id}")
            found[rule.id] = rule
    return dict(sorted(found.items()))


def all_rules() -> list[Rule]:
    return list(_registry().values())


def get_rule(rule_id: str) -> Rule:
    return _registry()[rule_id.upper()]
