"""Helpers shared by the report renderers: section order, locations, documentation links."""

from __future__ import annotations

from functools import cache

from msmigrate.i18n import t
from msmigrate.model.finding import Finding, FindingCategory

C = FindingCategory

# The text/Markdown sections of a file, in order: (section message key, categories it lists).
SECTIONS: tuple[tuple[str, tuple[FindingCategory, ...]], ...] = (
    ("report.section.convertible", (C.CONSISTENT, C.DIFFERENCES)),
    ("report.section.possible_tensor_api", (C.POSSIBLE_TENSOR_API,)),
    ("report.section.missing", (C.MISSING,)),
    ("report.section.data_processing", (C.DATA_PROCESSING,)),
    ("report.section.unknown_torch_name", (C.UNKNOWN_TORCH_NAME,)),
    ("report.section.dynamic_shape", (C.DYNAMIC_SHAPE,)),
    ("report.section.sparse", (C.SPARSE,)),
    ("report.section.framework_pattern", (C.FRAMEWORK_PATTERN,)),
)


def sections(findings: list[Finding]) -> list[tuple[str, list[Finding]]]:
    """Non-empty sections of one file's findings."""
    out = []
    for key, categories in SECTIONS:
        listed = [f for f in findings if f.category in categories]
        if listed:
            out.append((key, listed))
    return out


def location(finding: Finding) -> str:
    return f"{finding.line}:{finding.column}"


def category_label(category: str, lang: str) -> str:
    return t(f"report.category.{category}", lang)


def format_rate(rate: float | None, mapped: int, total: int, lang: str) -> str:
    if rate is None:
        return t("report.convertible_rate.none", lang)
    return t("report.convertible_rate.value", lang, rate=f"{rate * 100:.1f}%", mapped=mapped, total=total)


@cache
def _rows(mindspore_version: str) -> dict[str, dict[str, str]]:
    """URLs of every mapping row of a version; empty when the mapping data cannot be loaded."""
    from msmigrate.knowledge.base import get_knowledge_base

    try:
        kb = get_knowledge_base(mindspore_version)
        return {row.torch_api: dict(row.urls) for row in kb.rows()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def doc_urls(torch_api: str | None, mindspore_version: str) -> dict[str, str]:
    """The ``https`` documentation links of an API's mapping row (torch, mindspore_en/zh, diff_en/zh)."""
    if not torch_api:
        return {}
    urls = _rows(mindspore_version).get(torch_api, {})
    return {k: v for k, v in urls.items() if isinstance(v, str) and v.startswith(("https://", "http://"))}
