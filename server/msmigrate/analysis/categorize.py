"""Category, rule and message of a torch API reference, from the knowledge base (cached per name)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from msmigrate.analysis.api_rules import API_RULES_BY_ID, RULE_FOR_CATEGORY
from msmigrate.analysis.tables import RETURN_FIELDS, TORCH_ROOTS
from msmigrate.i18n import MessageRef, ref
from msmigrate.knowledge.device_targets import rewritten_on
from msmigrate.knowledge.model import MappingCategory, MappingRow
from msmigrate.model.finding import FindingCategory
from msmigrate.model.rule import Rule

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase
    from msmigrate.knowledge.derived import DerivedMapping

_MAX_ITEMS = 4
_SHORT_NAME = 7  # last parts up to this length may have one typo (insertion, deletion, swap), longer ones two


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
    written_api: str | None = None  # the spelling looked up, when it is not the canonical name


def categorize(torch_api: str, kb: KnowledgeBase, cache: dict[str, ApiVerdict] | None = None) -> ApiVerdict:
    """The verdict for a torch name as resolved from the code, under its canonical name (``torch_api``;
    ``written_api`` keeps the spelling when it differs). Cached per knowledge base; pass
    ``verdict_cache(kb)`` in loops to skip the cache lookup."""
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
    """The definition of an API rule (``analysis/api_rules.py``)."""
    return API_RULES_BY_ID[rule_id]


def _categorize(written: str, kb: KnowledgeBase) -> ApiVerdict:
    torch_api = kb.resolve_torch(written) or written
    written_api = written if written != torch_api else None
    derived = kb.derived(torch_api)
    if derived is not None and not kb.is_data_processing(torch_api):
        return derived_verdict(torch_api, derived, kb, written_api)
    row = kb.row(written)  # the row of this spelling, else of the canonical name
    gone = kb.gone_target(torch_api)
    mapped = row is not None and row.mindspore_api and row.category is not MappingCategory.UNSUPPORTED
    mapped = mapped and not gone
    ms = row.mindspore_api if mapped else None
    args: dict[str, Any] = {"torch_api": torch_api, "mindspore_api": ms or "", "version": kb.version}
    field = return_field(torch_api)
    if field is not None:  # a field of the named tuple a torch function returns (topk(…).indices)
        category, key = FindingCategory.MISSING, "analysis.api.return_field"
        args.update(field)
    elif kb.is_data_processing(torch_api):
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
        category, key = FindingCategory.UNKNOWN_TORCH_NAME, _unknown_key(torch_api, kb)
        suggestion = _suggest(torch_api, kb)  # (none for a private name)
        if suggestion:
            key = "analysis.api.unknown_suggest"
            args["suggestion"] = suggestion
        elif key == "analysis.api.unknown_uncovered":
            args["root"] = torch_api.partition(".")[0]
    rule = RULE_FOR_CATEGORY[category]
    fixable = bool(ms) and rule_info(rule).fixable and not _nothing_to_rewrite(torch_api, ms, row, kb.version)
    return ApiVerdict(torch_api, ms, category, rule, key, args, fixable, written_api)


def return_field(torch_api: str) -> dict[str, Any] | None:
    """``torch.return_types.topk.indices``: the function, its fields and the field's index."""
    owner, _, field = torch_api.rpartition(".")
    prefix, _, name = owner.rpartition(".")
    fields = RETURN_FIELDS.get(name, ()) if prefix == "torch.return_types" else ()
    if field not in fields:
        return None
    return {"function": name, "field": field, "fields": ", ".join(fields), "index": fields.index(field)}


def _unknown_key(torch_api: str, kb: KnowledgeBase) -> str:
    """Why a name is not in the inventory: a private name (``torch._foreach_mul_``), a package the inventory
    lists only where a table cites it (``torchvision.ops.MultiScaleRoIAlign``), else a typo or a removed
    API."""
    if any(part.startswith("_") for part in torch_api.split(".")):
        return "analysis.api.unknown_private"
    root = torch_api.partition(".")[0]
    if root != "torch" and root in TORCH_ROOTS and kb.torch_kind(root) != "module":
        return "analysis.api.unknown_uncovered"
    return "analysis.api.unknown"


def derived_verdict(torch_api: str, derived: DerivedMapping, kb: KnowledgeBase,
                     written_api: str | None = None) -> ApiVerdict:
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
    fixable = rule_info(rule).fixable and not _nothing_to_rewrite(torch_api, ms, row, kb.version)
    return ApiVerdict(torch_api, ms, category, rule, key, args, fixable, written_api)


def _mindspore_version(kb: KnowledgeBase) -> str:
    return kb.derived_table.mindspore_version


def _nothing_to_rewrite(torch_api: str, mindspore_api: str | None, row: MappingRow | None,
                        version: str) -> bool:
    """``x.mean()`` → ``mindspore.Tensor.mean``: a member mapped to the same-named member, with no
    parameter renames, is already written the MindSpore way (no quick-fix to offer), unless the target
    has no kernel on the check device and another one runs there (``x.unique()`` →
    ``mindspore.ops.unique(x)`` on CPU: ``device_targets.rewritten_on``)."""
    if not mindspore_api or row is None or row.param_renames or row.input_renames:
        return False
    torch_owner, _, torch_name = torch_api.rpartition(".")
    ms_owner, _, ms_name = mindspore_api.rpartition(".")
    is_member = torch_owner.rpartition(".")[2][:1].isupper() and ms_owner.rpartition(".")[2][:1].isupper()
    return is_member and torch_name == ms_name and not rewritten_on(torch_api, version)


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
    """A near-miss spelling of the last part among the real names next to it (``torch.nn.Linaer`` →
    ``torch.nn.Linear``, ``torch.sofmax`` → ``torch.softmax``); none for a different word
    (``is_scripting`` is not a typo of ``script``) or for private names like ``torch._C``."""
    if any(part.startswith("_") for part in torch_api.split(".")):
        return None
    parent, _, last = torch_api.rpartition(".")
    if not parent:
        return None
    owner = kb.resolve_torch(parent)
    if owner is None and "." in parent and not kb.children(parent):
        fixed = _suggest(parent, kb)  # the typo is further up: ``torch.nn.functionl.relu``
        return _suggest(f"{fixed}.{last}", kb) if fixed else None
    owner = owner or parent  # ``torchvision.ops`` is known by its cited names only
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    choices = _CHOICES.get(kb, {}).get(owner)
    if choices is None:
        choices = _CHOICES.setdefault(kb, {})[owner] = sorted(
            name for name in kb.children(owner) if not name.startswith("_"))
    if not choices:
        return None
    limit = 1 if len(last) <= _SHORT_NAME else 2
    found = process.extractOne(last, choices, scorer=OSA.distance, score_cutoff=limit,
                               processor=str.lower)
    if found is None:
        return None
    return kb.canonical(f"{owner}.{found[0]}")


_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_CHOICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def verdict_cache(kb: KnowledgeBase) -> dict[str, ApiVerdict]:
    found = _CACHES.get(kb)
    if found is None:
        found = _CACHES[kb] = {}
    return found
