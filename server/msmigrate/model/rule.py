"""A rule's definition: every finding the product reports comes from a documented rule with an id.

Titles and explanations live in the message catalogue under ``rule.<ID>.title`` and
``rule.<ID>.explanation`` (both languages), so ``msmigrate rules`` can list every rule in en/zh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from msmigrate.i18n import t
from msmigrate.model.finding import Finding, FindingCategory, Severity


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


@dataclass(frozen=True, slots=True)
class Detector:
    """A further detector of a rule module (its ``EXTRA_DETECTORS``) with its own place among the others:
    after every detector of the rule ids ``after``, before every detector of the rule ids ``before`` (a
    rule's ``detect`` has the place of its module's ``DETECT_AFTER`` and ``DETECT_BEFORE``)."""

    detect: Callable[..., Iterable[Finding]]
    after: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
