"""Category, rule and message of a torch API reference, from the knowledge base (cached per name)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from msmigrate.analysis.finding import FindingCategory
from msmigrate.i18n import MessageRef, ref
from msmigrate.knowledge.model import MappingCategory, MappingRow
from msmigrate.rules import api_rules
from msmigrate.rules.api_rules import RULE_FOR_CATEGORY
from msmigrate.rules.registry import Rule, get_rule

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase
    from msmigrate.knowledge.derived import DerivedMapping

_MAX_ITEMS = 4
_LAST_PART_CUTOFF = 60


@dataclass(frozen=True, slots=True)
class ApiVerdict:
    """Everything a finding for one torch API shares, whatever its position."""

    torch_api: str
    mindspore_api: str | None
    category: FindingCategory
    rule: str
    message_key: str
    message_args: dict[str, Any]
    fixable: bool


def categorize(torch_api: str, kb: KnowledgeBase, cache: dict[str, ApiVerdict] | None = None) -> ApiVerdict:
    """The verdict for a resolved torch name (cached per knowledge base; pass ``verdict_cache(kb)`` in
    loops to skip the cache lookup)."""
    if cache is None:
        cache = verdict_cache(kb)
    found = cache.get(torch_api)
    if found is None:
        found = cache[torch_api] = _categorize(torch_api, kb)
    return found


def possible_verdict(torch_api: str, kb: KnowledgeBase) -> ApiVerdict:
    """The verdict for ``obj.name(...)`` on a receiver of unknown type (``torch_api`` = torch.Tensor.name)."""
    row = kb.mapping(torch_api)
    ms = row.mindspore_api if row is not None and row.category is not MappingCategory.UNSUPPORTED else None
    name = torch_api.rpartition(".")[2]
    key = "analysis.api.possible" if ms else "analysis.api.possible_unmapped"
    category = FindingCategory.POSSIBLE_TENSOR_API
    rule = RULE_FOR_CATEGORY[category]
    args = {"name": name, "torch_api": torch_api, "mindspore_api": ms or ""}
    return ApiVerdict(torch_api, ms, category, rule, key, args, bool(ms) and rule_info(rule).fixable)


def rule_info(rule_id: str) -> Rule:
    """The rule's definition; the API rules are found even when another rule module fails to import."""
    try:
        return get_rule(rule_id)
    except Exception:
        for rule in api_rules.RULES:
            if rule.id == rule_id:
                return rule
        raise


def _categorize(torch_api: str, kb: KnowledgeBase) -> ApiVerdict:
    derived = kb.derived(torch_api)
    if derived is not None and not kb.is_data_processing(torch_api):
        return _derived_verdict(torch_api, derived, kb)
    row = kb.row(torch_api)
    gone = kb.gone_target(torch_api)
    mapped = row is not None and row.mindspore_api and row.category is not MappingCategory.UNSUPPORTED
    mapped = mapped and not gone
    ms = row.mindspore_api if mapped else None
    args: dict[str, Any] = {"torch_api": torch_api, "mindspore_api": ms or "", "version": kb.version}
    if kb.is_data_processing(torch_api):
        category = FindingCategory.DATA_PROCESSING
        key = "analysis.api.data_processing_mapped" if ms else "analysis.api.data_processing"
    elif mapped:
        assert row is not None
        if row.category.is_consistent:
            category, key = FindingCategory.CONSISTENT, "analysis.api.consistent"
        else:
            category, key = FindingCategory.DIFFERENCES, "analysis.api.differences"
            args.update(describe_differences(row))
    elif gone:
        category, key = FindingCategory.MISSING, "analysis.api.gone_target"
        args.update(gone=gone, mindspore=_mindspore_version(kb))
    elif row is not None or kb.is_torch_api(torch_api):
        category, key = FindingCategory.MISSING, "analysis.api.missing"
    else:
        category, key = FindingCategory.UNKNOWN_TORCH_NAME, "analysis.api.unknown"
        suggestion = _suggest(torch_api, kb)
        if suggestion:
            key = "analysis.api.unknown_suggest"
            args["suggestion"] = suggestion
    rule = RULE_FOR_CATEGORY[category]
    fixable = bool(ms) and rule_info(rule).fixable and not _nothing_to_rewrite(torch_api, ms, row)
    return ApiVerdict(torch_api, ms, category, rule, key, args, fixable)


def _derived_verdict(torch_api: str, derived: DerivedMapping, kb: KnowledgeBase) -> ApiVerdict:
    """A derived mapping: consistent or differences like a table row, its message saying where it comes
    from (``analysis.api.derived_*``)."""
    row = derived.row
    ms = derived.mindspore_api
    args: dict[str, Any] = {
        "torch_api": torch_api,
        "mindspore_api": ms,
        "version": kb.version,
        "provenance": derived.provenance(kb.version),
    }
    if row.category.is_consistent:
        category, key = FindingCategory.CONSISTENT, "analysis.api.derived_consistent"
    else:
        category, key = FindingCategory.DIFFERENCES, "analysis.api.derived_differences"
        args.update(describe_differences(row))
    rule = RULE_FOR_CATEGORY[category]
    fixable = rule_info(rule).fixable and not _nothing_to_rewrite(torch_api, ms, row)
    return ApiVerdict(torch_api, ms, category, rule, key, args, fixable)


def _mindspore_version(kb: KnowledgeBase) -> str:
    return kb.derived_table.mindspore_version


def _nothing_to_rewrite(torch_api: str, mindspore_api: str | None, row: MappingRow | None) -> bool:
    """``x.mean()`` → ``mindspore.Tensor.mean``: a member mapped to the same-named member, with no
    parameter renames, is already written the MindSpore way (no quick-fix to offer)."""
    if not mindspore_api or row is None or row.param_renames or row.input_renames:
        return False
    torch_owner, _, torch_name = torch_api.rpartition(".")
    ms_owner, _, ms_name = mindspore_api.rpartition(".")
    is_member = torch_owner.rpartition(".")[2][:1].isupper() and ms_owner.rpartition(".")[2][:1].isupper()
    return is_member and torch_name == ms_name


def describe_differences(row: MappingRow) -> dict[str, tuple[MessageRef, ...]]:
    """``details``: the row's differences, from its parsed facts, as references to the
    ``analysis.detail.*`` messages (rendered in the reader's language by ``{details:messages}``)."""
    parts: list[MessageRef] = []
    if row.param_renames:
        parts.append(ref("analysis.detail.renames",
                         items=_items(f"{a}→{b}" for a, b in row.param_renames.items())))
    if row.input_renames:
        parts.append(ref("analysis.detail.input_renames",
                         items=_items(f"{a}→{b}" for a, b in row.input_renames.items())))
    if row.torch_only_params:
        parts.append(ref("analysis.detail.torch_only", items=_items(row.torch_only_params)))
    if row.default_differences:
        parts.append(ref("analysis.detail.defaults", items=_items(
            f"{d.param}: {d.torch_default} vs {d.mindspore_default}"
            if d.torch_default is not None or d.mindspore_default is not None
            else d.param
            for d in row.default_differences)))
    if row.mindspore_only_params:
        parts.append(ref("analysis.detail.mindspore_only", items=_items(row.mindspore_only_params)))
    if not parts and row.category is not MappingCategory.DIFF_PAGE:
        parts.append(ref(f"analysis.detail.{row.category.value}"))
    if row.diff_page or row.category is MappingCategory.DIFF_PAGE:
        parts.append(ref("analysis.detail.diff_page"))
    return {"details": tuple(parts)}


def _items(values) -> str:
    values = list(values)
    text = ", ".join(values[:_MAX_ITEMS])
    return text + (", …" if len(values) > _MAX_ITEMS else "")


def _suggest(torch_api: str, kb: KnowledgeBase) -> str | None:
    """The nearest public torch name for a probable typo (none for private names like ``torch._C``)."""
    if any(part.startswith("_") for part in torch_api.split(".")):
        return None
    from rapidfuzz import fuzz, process

    choices = _CHOICES.get(kb)
    if choices is None:
        choices = _CHOICES[kb] = sorted({*kb.torch_inventory, *(r.torch_api for r in kb.rows())})
    # the long shared module prefix inflates the score of the full names: the last parts must look alike
    # too (``torchvision.ops.box_iou`` is not a typo of ``torchvision.ops.roi_align``)
    last = torch_api.rpartition(".")[2]
    for name, _score, _index in process.extract(torch_api, choices, scorer=fuzz.ratio, score_cutoff=75,
                                                limit=5):
        if name != torch_api and fuzz.ratio(last, name.rpartition(".")[2]) >= _LAST_PART_CUTOFF:
            return name
    return None


_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_CHOICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def verdict_cache(kb: KnowledgeBase) -> dict[str, ApiVerdict]:
    found = _CACHES.get(kb)
    if found is None:
        found = _CACHES[kb] = {}
    return found
