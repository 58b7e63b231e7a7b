"""Category of a mapping-table row from its description cell, plus the parameter names it states.

The description text is only read here; nothing of it is stored. English descriptions decide the
category; the Chinese cell is used when the English one is empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from msmigrate.knowledge.model import MappingCategory

_IDENT = r"[A-Za-z_]\w*"


@dataclass(slots=True)
class Classification:
    category: MappingCategory
    torch_only: list[str] = field(default_factory=list)
    mindspore_only: list[str] = field(default_factory=list)
    default_params: list[str] = field(default_factory=list)
    renames: dict[str, str] = field(default_factory=dict)
    # names the description mentions but that need a signature to resolve (``momentum`` related params)
    torch_only_hints: list[str] = field(default_factory=list)
    # "PyTorch has some optimization parameters": which ones only the two signatures can tell
    unnamed_torch_only: bool = False


_DIFF_LINK_TEXT = {"diff", "差异对比", "difference", "differences", "差异"}
_CONSISTENT_RE = re.compile(
    r"^(consistent|一致|the functions? (are|is) consistent|consistent functions?|功能一致|"
    r"functions are consistent)\.?$"
)

# (pattern over lower-cased English or original Chinese text, category) — first match wins
_CATEGORY_PATTERNS: tuple[tuple[re.Pattern[str], MappingCategory], ...] = (
    (re.compile(r"verbose"), MappingCategory.NO_VERBOSE),
    (re.compile(r"\binplace\b"), MappingCategory.NO_INPLACE),
    (re.compile(r"parameter names?|参数名"), MappingCategory.PARAM_NAMES),
    (re.compile(r"default value|默认值"), MappingCategory.DEFAULT_VALUES),
    (re.compile(r"data types?|数据类型"), MappingCategory.DATA_TYPES),
    (
        re.compile(
            r"number or (sequence|order)|个数或顺序|参数列表|no parameter|not contain|does not have|"
            r"additional parameter|different parameters|optimization parameters|不含参数|多参数|两个参数|"
            r"优化参数"
        ),
        MappingCategory.PARAM_COUNT_ORDER,
    ),
)

_NO_PARAM_RES = (
    re.compile(rf"mindspore (?:has no|does not (?:contain|have)) (?:the )?parameters? `?({_IDENT})`?"),
    re.compile(rf"mindspore不含参数\s*`?({_IDENT})`?", re.IGNORECASE),
)
_EXTRA_PARAM_RES = (
    re.compile(r"mindspore has (?:an additional|two different|additional) parameters?:?\s*(.*)"),
    re.compile(r"mindspore多(.*?)(?:两个)?参数", re.IGNORECASE),
    re.compile(r"mindspore多参数(.*)", re.IGNORECASE),
)
_DEFAULT_PARAM_RES = (
    re.compile(rf"default values? of `?({_IDENT})`? (?:is|are) different"),
    re.compile(rf"参数\s*`?({_IDENT})`?\s*默认值"),
)
_UNNAMED_EXTRA_RE = re.compile(r"pytorch has some optimization parameters|pytorch多一些优化参数")
_RENAME_RE = re.compile(rf"the `?({_IDENT})`? parameter is `?({_IDENT})`? in mindspore")
_RELATED_RE = re.compile(r"\bno (.+?) related")


def classify(description: str, has_diff_link: bool, has_mindspore_api: bool) -> Classification:
    """Category and stated facts of one row (``description`` is the cell's plain text)."""
    if not has_mindspore_api:
        return Classification(MappingCategory.UNSUPPORTED)
    text = description.strip()
    lowered = text.lower()
    if not text or lowered in _DIFF_LINK_TEXT:
        return Classification(MappingCategory.DIFF_PAGE if has_diff_link else MappingCategory.CONSISTENT)
    if _CONSISTENT_RE.match(lowered):
        return Classification(MappingCategory.CONSISTENT)
    category = next((cat for pattern, cat in _CATEGORY_PATTERNS if pattern.search(lowered)), None)
    result = Classification(category or MappingCategory.OTHER_DIFFERENCE)
    if category is MappingCategory.NO_VERBOSE:
        result.torch_only.append("verbose")
        # "No `verbose` and `momentum` related input params" (markup already stripped)
        related = _RELATED_RE.search(lowered)
        if related:
            words = re.findall(_IDENT, related.group(1))
            result.torch_only_hints.extend(w for w in words if w not in ("verbose", "and"))
    elif category is MappingCategory.NO_INPLACE:
        result.torch_only.append("inplace")
    for pattern in _NO_PARAM_RES:
        result.torch_only.extend(n for n in pattern.findall(lowered) if n not in result.torch_only)
    for pattern in _EXTRA_PARAM_RES:
        m = pattern.search(lowered)
        if m:
            result.mindspore_only.extend(_names_in(m.group(1)))
            break
    result.unnamed_torch_only = bool(_UNNAMED_EXTRA_RE.search(lowered))
    for pattern in _DEFAULT_PARAM_RES:
        result.default_params.extend(pattern.findall(lowered))
    for torch_name, ms_name in _RENAME_RE.findall(lowered):
        result.renames[torch_name] = ms_name
    return result


def _names_in(fragment: str) -> list[str]:
    """Names in ``group_desc = None``, ``weight_init = None and bias_init = None``, ``dim和keepdim``."""
    names = re.findall(rf"({_IDENT})\s*=", fragment)
    if not names:
        names = re.findall(_IDENT, re.sub(r"\band\b|和|two|parameters?", " ", fragment))
    return list(dict.fromkeys(n for n in names if n not in ("none", "None")))
