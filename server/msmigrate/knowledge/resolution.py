"""The parts of a :class:`~msmigrate.model.resolution.Resolution` that need only the knowledge base: the
target on a device (device replacements, an in-place API's result written back, a target used as the
torch name is), how the fix writes it, the evidence and the safety policy; and :func:`resolve_name`, the
resolution of a name looked up alone (``msmigrate lookup``, ``msmigrate check API``).

A usage in code is resolved by ``analysis/resolution.py`` with the same functions and the facts its call
adds (:class:`UsageFacts`, the argument plan); the quick-fix writes what the resolution says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from msmigrate.knowledge.base import VERSIONS, KnowledgeBase, get_knowledge_base
from msmigrate.knowledge.derived import CHECK_DEVICE, DerivedMapping
from msmigrate.knowledge.device_targets import (
    DEVICE_FAILURES,
    NO_KERNEL,
    DeviceTarget,
    OutOfPlaceTarget,
    device_failure,
    in_place,
    out_of_place_target,
    runnable_targets,
)
from msmigrate.knowledge.missing_advice import CATALOGUE, NAME_FIX
from msmigrate.knowledge.model import MappingCategory, MappingRow
from msmigrate.knowledge.param_facts import MANUAL_REWRITES, class_as_partial, method_as_function
from msmigrate.knowledge.primitive_pairs import is_primitive_call
from msmigrate.knowledge.value_forms import output_shape_primitive
from msmigrate.model.finding import FindingCategory, UsageKind
from msmigrate.model.resolution import ArgPlan, Evidence, Replacement, Resolution, Safety, Write

MINDSPORE_NAME = re.compile(r"^mindspore(\.[A-Za-z_][A-Za-z0-9_]*)+$")
METHOD_USAGES = frozenset(
    {UsageKind.TENSOR_METHOD, UsageKind.TENSOR_ATTRIBUTE, UsageKind.MODULE_METHOD, UsageKind.OPTIMIZER_METHOD}
)
_VARIADIC = ("var_positional", "var_keyword")

# inventory kind → how it is used; a fix never changes how a name is used (function ↔ class ↔ method)
_SHAPE = {
    "function": "function",
    "class": "class",
    "method": "method",
    "tensor_method": "method",
    "attribute": "attribute",
    "tensor_attribute": "attribute",
    "module": "module",
}


def shape_of(kind: str | None) -> str | None:
    return _SHAPE.get(kind or "")


def same_shape(kb: KnowledgeBase, torch_api: str, mindspore_api: str) -> bool:
    """False when the inventories say the two names are used differently (e.g. class vs function)."""
    entry = kb.mindspore_entry(mindspore_api)
    mindspore_shape = shape_of(entry.get("kind")) if entry else None
    torch_shape = shape_of(kb.torch_kind(torch_api))
    return torch_shape is None or mindspore_shape is None or torch_shape == mindspore_shape


def is_member(api: str) -> bool:
    """Whether ``api`` names a member of a class (``mindspore.nn.Cell.recompute``)."""
    owner = api.rpartition(".")[0]
    return owner.rpartition(".")[2][:1].isupper()


@dataclass(frozen=True, slots=True)
class UsageFacts:
    """What the code around a usage says about how it can be rewritten (the defaults: a name looked up
    alone, taken as a call of it whose arguments are unknown, on a plain receiver)."""

    call: bool = True  # the reference is called
    attribute: bool = True  # the reference is ``receiver.name`` (a method usage)
    member: str = ""  # that name
    func_is_ref: bool = True  # the call calls the reference itself (``nn.Unfold(2)``)
    instance_called: bool = True  # the instance the call builds is only called (assigned, or called at once)
    # the statement assigns into the reference or changes it in place (None: not known, taken as True)
    writes_through: bool | None = False
    load: bool = True  # the reference is read (not assigned to)
    tensor: str = "x"  # an in-place method's tensor as written, "" when it is not a plain name / attribute


def usage_of_name(kb: KnowledgeBase, torch_api: str) -> UsageKind:
    """How a name looked up alone is used: a Tensor method or attribute, else a call."""
    kind = kb.torch_kind(torch_api)
    if kind == "tensor_method":
        return UsageKind.TENSOR_METHOD
    if kind == "tensor_attribute":
        return UsageKind.TENSOR_ATTRIBUTE
    return UsageKind.CALL if kind in ("function", "class", "method") else UsageKind.ATTRIBUTE


@lru_cache(maxsize=50_000)
def write_form(kb: KnowledgeBase, torch_api: str, usage: UsageKind, target: str | None, facts: UsageFacts,
               row_api: str | None = None, wrapped: bool = False, derived: bool = False) -> tuple[Write, str]:
    """How the fix writes ``target`` for this usage (and the explanation's key for :attr:`Write.EXPLAIN`).
    ``wrapped``: the result is written back (an in-place method's out-of-place target); ``derived``: the
    row is a derived mapping (the missing-API catalogue may hold its exact rewrite)."""
    if not target or not MINDSPORE_NAME.match(target) or usage in (UsageKind.IMPORT, UsageKind.PATTERN):
        return Write.NONE, ""
    call = facts.call and usage not in (UsageKind.ATTRIBUTE, UsageKind.TENSOR_ATTRIBUTE, UsageKind.REFERENCE,
                                        UsageKind.BASE_CLASS)
    manual = MANUAL_REWRITES.get((torch_api, target))
    if call and manual is not None:
        return Write.EXPLAIN, manual
    if output_shape_primitive(row_api or torch_api, target) is not None:
        return (Write.OUTPUT_SHAPE, "") if call else (Write.NONE, "")
    torch_kind = kb.torch_kind(torch_api)
    as_function = (usage is UsageKind.TENSOR_METHOD and call and facts.attribute
                   and (wrapped or not in_place(facts.member or torch_api))
                   and method_as_function(torch_kind, kb.mindspore_kind(target)))
    if call and not as_function and torch_kind == "function" and is_primitive_call(kb, torch_api, target):
        return Write.PRIMITIVE_CALL, ""
    as_partial = call and facts.func_is_ref and class_as_partial(torch_api, target) and facts.instance_called
    if not as_function and not as_partial and not same_shape(kb, torch_api, target):
        if derived and catalogue_rewrite(torch_api, target):
            return Write.NONE, ""  # the catalogue's exact rewrite (fixes/derived_fixes.py) writes it
        if usage in METHOD_USAGES and not call and property_callable(kb, torch_api, target, facts):
            return Write.PROPERTY_TO_METHOD, ""
        return Write.NONE, ""
    if usage in METHOD_USAGES:
        if as_function:
            return Write.METHOD_TO_FUNCTION, ""
        if not facts.attribute or not is_member(target):
            return Write.NONE, ""  # MindSpore offers a function here, not a method
        return Write.METHOD, ""
    if as_partial:
        return Write.CLASS_AS_PARTIAL, ""
    if is_member(target) and not is_member(torch_api):
        return Write.NONE, ""  # a free function / class would become a method of a MindSpore class
    return Write.NAME, ""


def writes_target(write: Write) -> bool:
    """Whether the fix writes the target (rather than nothing, or an explanation)."""
    return write not in (Write.NONE, Write.EXPLAIN)


def fails_on_device(kb: KnowledgeBase, torch_api: str, target: str | None, device: str) -> bool:
    """Whether the checks recorded that ``target``, the mapping's own target of ``torch_api``, does not work
    on ``device`` (no kernel there, or no effect): where nothing replaces it, the fix explains instead of
    writing a call that cannot run (``fix.no_kernel``)."""
    failed = device_failure(torch_api, kb.version, device) if target else None
    return failed is not None and failed[0] == target


def writes_nothing(target: str, facts: UsageFacts, plan: ArgPlan | None) -> bool:
    """``x.mean()`` → ``mindspore.Tensor.mean`` with nothing to change in the arguments: no edit."""
    same_name = target.rpartition(".")[2] == facts.member
    changes = plan is not None and bool(plan.renames or plan.to_keyword or plan.added or plan.meanings
                                        or plan.forms or plan.result_form or plan.absent or plan.drops
                                        or plan.packed is not None)
    return same_name and not changes and is_member(target)


def property_callable(kb: KnowledgeBase, torch_api: str, target: str, facts: UsageFacts) -> bool:
    """``x.real`` → ``x.real()``: torch's member is a property, MindSpore's a method that needs no
    argument; not where the code writes through the property (``x.real[0] = 1``, ``x.real.zero_()``)."""
    if not facts.attribute or shape_of(kb.torch_kind(torch_api)) != "attribute":
        return False
    entry = kb.mindspore_entry(target)
    if not entry or shape_of(entry.get("kind")) != "method" or not any(
            all("default" in p or p.get("kind") in _VARIADIC for p in signature)
            for signature in kb.mindspore_signatures(target)):
        return False
    return facts.load and facts.writes_through is False and is_member(target)


def catalogue_rewrite(torch_api: str, target: str) -> bool:
    """Whether the missing-API catalogue's exact rewrite writes ``target`` for ``torch_api`` (``x.size(1)``
    → ``x.shape[1]``: fixes/derived_fixes.py)."""
    entry = CATALOGUE.get(torch_api)
    return (entry is not None and entry.fix not in (None, NAME_FIX) and target in entry.replacements
            and target.rpartition(".")[2] != torch_api.rpartition(".")[2])


# --- the device -------------------------------------------------------------------------------------
@lru_cache(maxsize=50_000)
def device_choices(kb: KnowledgeBase, torch_api: str, target: str | None,
                   device: str) -> tuple[OutOfPlaceTarget | None, tuple[DeviceTarget, ...]]:
    """The write-back (an in-place API's out-of-place target) and the device replacements that apply to
    ``target`` on ``device`` (only when ``target`` is the mapping's own)."""
    row = kb.mapping(torch_api)
    out = out_of_place_target(torch_api, kb.version, device)
    if out is not None and target == out.replaced:
        return out, ()
    if out is None and row is not None and target == row.mindspore_api:
        return None, runnable_targets(torch_api, kb.version, device)
    return None, ()


def device_replacement(swap: DeviceTarget) -> Replacement:
    return Replacement("device", swap.replaced, swap.version, swap.device, swap.failure, swap.reason or "",
                       swap.verified, swap.note or "", swap.form or "", swap.derived is not None)


def write_back_replacement(out: OutOfPlaceTarget, tensor: str) -> Replacement:
    return Replacement("write_back", out.replaced, out.version, out.device, NO_KERNEL, "", True, "", "",
                       out.derived is not None, out.replaced == out.row.mindspore_api, tensor)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A target used as the torch name is, written instead of one used otherwise (a class for a
    function): a derived candidate, or another table's row."""

    row: MappingRow
    version: str
    derived: DerivedMapping | None
    replacement: Replacement


def same_shape_candidate(kb: KnowledgeBase, torch_api: str, target: str, device: str) -> Candidate | None:
    """For a mapping whose target is used differently (``torch.tensor`` → the class ``mindspore.Tensor``):
    the first other derived candidate used the same way that passed or needed no check (the function
    ``mindspore.tensor``), else the target of another official table used the same way whose check on the
    device did not fail, newest table first."""
    from msmigrate.knowledge.verified import verified_status

    entry = kb.derived_table.entry(torch_api)
    for candidate in entry.candidates if entry else ():
        if candidate.check == "fail" or candidate.mindspore_api == target:
            continue
        if device == CHECK_DEVICE and (candidate.check, candidate.check_reason) in DEVICE_FAILURES:
            continue  # no kernel there (torch.take: mindspore.mint.take)
        if same_shape(kb, torch_api, candidate.mindspore_api):
            return Candidate(candidate.row, kb.version, candidate,
                             Replacement("candidate", target, kb.version, device, derived=True))
    newest_first = sorted((v for v in VERSIONS if v != kb.version),
                          key=lambda v: tuple(int(p) for p in v.split(".")), reverse=True)
    for version in newest_first:
        row = get_knowledge_base(version).row(torch_api)
        other = row.mindspore_api if row is not None else None
        if row is None or not other or other == target or not kb.mindspore_has(other):
            continue
        status = verified_status(row.torch_api, version, device)
        if (status is None or status.passed) and same_shape(kb, torch_api, other):
            return Candidate(row, version, None, Replacement("other_table", target, version, device))
    return None


# --- rows, evidence and safety ------------------------------------------------------------------------
def row_of(resolution: Resolution) -> MappingRow | None:
    """The mapping row the resolution's target comes from (its table's row, or the derived candidate)."""
    found = _row(resolution.row_version or resolution.version, resolution.row_api or resolution.torch_api,
                 resolution.row_derived, resolution.target or "")
    return found.row if isinstance(found, DerivedMapping) else found


def derived_of(resolution: Resolution) -> DerivedMapping | None:
    """The derived candidate the target comes from, if it is one."""
    if not resolution.row_derived:
        return None
    found = _row(resolution.row_version or resolution.version, resolution.row_api or resolution.torch_api,
                 True, resolution.target or "")
    return found if isinstance(found, DerivedMapping) else None


@cache
def _row(version: str, row_api: str, derived: bool, target: str) -> MappingRow | DerivedMapping | None:
    kb = get_knowledge_base(version)
    if not derived:
        return kb.row(row_api)
    entry = kb.derived_table.entry(row_api)
    pool = [*(entry.candidates if entry else ()), *kb.derived_table.alternatives.get(row_api, ())]
    return next((c for c in pool if c.mindspore_api == target), None)


def evidence_of(kb: KnowledgeBase, source: str, row_api: str, row_version: str,
                derived: DerivedMapping | None, target: str | None, device: str,
                replacement: Replacement | None = None) -> Evidence:
    """Where the target comes from and the numeric check of the written pair on ``device``."""
    checked = (derived.check, derived.check_reason) if derived is not None else None
    return _evidence(source, row_api, row_version, checked, target, device, replacement)


@lru_cache(maxsize=20_000)
def _evidence(source: str, row_api: str, row_version: str, derived: tuple[str | None, str | None] | None,
              target: str | None, device: str, replacement: Replacement | None) -> Evidence:
    from msmigrate.knowledge.verified import verified_status

    check = ""
    if replacement is not None and replacement.kind in ("device", "write_back", "temporary") and (
            not replacement.reason):
        check = "pass" if replacement.verified else "fail"  # what chose it: its check on the device
    elif derived is not None:
        if device == CHECK_DEVICE:
            check = NO_KERNEL if derived in DEVICE_FAILURES else derived[0] or ""
    elif target:
        status = verified_status(row_api, row_version, device)
        if status is not None and status.mindspore_api == target:
            check = NO_KERNEL if (status.status, status.reason) in DEVICE_FAILURES else status.status
    return Evidence(source, row_version, check, device)


@lru_cache(maxsize=20_000)
def safety_of(kb: KnowledgeBase, torch_api: str, usage: UsageKind, category: FindingCategory,
              target: str | None, write: Write, evidence: Evidence, replacement: Replacement | None,
              row_api: str | None, blocked: bool, device: str) -> tuple[Safety, str]:
    """Safe when the rewrite cannot change what the program computes (``fixes/safety.py`` explains the
    policy), with the reason (``resolution.safety.<reason>``)."""
    if write is Write.EXPLAIN or blocked:
        return Safety.BY_HAND, "by_hand"
    if not target:
        return Safety.UNSAFE, "no_target"
    if write is Write.NONE:
        return Safety.UNSAFE, "no_fix"  # nothing is written for this usage
    if usage is UsageKind.REFERENCE:
        return Safety.SAFE, "reference"  # a type named computes nothing
    if replacement is not None and replacement.kind == "write_back":
        return Safety.UNSAFE, "write_back"  # a view's base is not updated
    if class_as_partial(torch_api, target) or output_shape_primitive(row_api or torch_api,
                                                                     target) is not None:
        return Safety.UNSAFE, "other_way"  # no Cell any more / batched inputs only
    if replacement is not None and replacement.reason:
        return Safety.UNSAFE, "reviewed_fact"
    if evidence.check == "pass":
        return Safety.SAFE, "verified"
    if evidence.check == "fail":
        return Safety.UNSAFE, "check_failed"
    failed = device_failure(torch_api, kb.version, device) if replacement is None else None
    if evidence.check == NO_KERNEL or (failed is not None and failed[0] == target):
        return Safety.UNSAFE, "no_kernel"  # the target does not work on the device
    if category is FindingCategory.CONSISTENT and same_parameters(kb.torch_signatures(torch_api),
                                                                  kb.mindspore_signatures(target)):
        return Safety.SAFE, "same_parameters"
    return Safety.UNSAFE, "not_verified"


def same_parameters(torch_sigs: list[list[dict]], ms_sigs: list[list[dict]]) -> bool:
    """Whether one torch signature and one MindSpore signature list the same named parameters in the
    same order (``self`` ignored); unknown signatures are never the same."""
    if not torch_sigs or not ms_sigs:
        return False
    torch_shapes = {_signature_shape(sig) for sig in torch_sigs}
    return any(_signature_shape(sig) in torch_shapes for sig in ms_sigs)


def _signature_shape(signature: list[dict]) -> tuple[tuple[str, str], ...]:
    return tuple(
        (p.get("name", ""), p.get("kind", "")) if p.get("kind") not in _VARIADIC else ("*", p.get("kind", ""))
        for p in signature
        if p.get("name") != "self"
    )


# --- a name alone -------------------------------------------------------------------------------------
def mapped_target(kb: KnowledgeBase, torch_api: str) -> tuple[str | None, FindingCategory]:
    """The mapping's own target and category (as the analysis categorises the name)."""
    row = kb.mapping(torch_api)
    gone = kb.gone_target(torch_api) if kb.derived(torch_api) is None else None
    if row is None or not row.mindspore_api or row.category is MappingCategory.UNSUPPORTED or gone:
        return None, FindingCategory.MISSING
    consistent = row.category.is_consistent
    return row.mindspore_api, FindingCategory.CONSISTENT if consistent else FindingCategory.DIFFERENCES


def resolve_name(torch_api: str, kb: KnowledgeBase, device: str = "CPU") -> Resolution:
    """The resolution of a name looked up alone: a call of it (its receiver a plain name, its arguments
    unknown) on ``device``. A usage in code may resolve otherwise (``Resolution.by_call``)."""
    return _resolve_name(torch_api, kb, _device(device))


def _device(device: str) -> str:
    return device.upper() if device.lower() != "ascend" else "Ascend"


@cache
def _resolve_name(torch_api: str, kb: KnowledgeBase, device: str) -> Resolution:
    usage = usage_of_name(kb, torch_api)
    facts = UsageFacts(call=usage not in (UsageKind.ATTRIBUTE, UsageKind.TENSOR_ATTRIBUTE),
                       member=torch_api.rpartition(".")[2])
    target, category = mapped_target(kb, torch_api)
    row = kb.mapping(torch_api)
    derived = kb.derived(torch_api)
    if target is None or row is None:
        return Resolution(torch_api, kb.version, device, None, category.value, safety_reason="no_target")
    out, swaps = device_choices(kb, torch_api, target, device)
    version, replacement, wrapped = kb.version, None, False
    if out is not None and facts.call:
        row, version, derived = out.row, out.version, out.derived
        replacement, wrapped = write_back_replacement(out, facts.tensor), True
    elif swaps:
        swap = swaps[0]
        row, version, derived, replacement = swap.row, swap.version, swap.derived, device_replacement(swap)
    target = row.mindspore_api

    def written(row: MappingRow, derived: DerivedMapping | None, wrapped: bool = False) -> tuple[Write, str]:
        write, explain = write_form(kb, torch_api, usage, row.mindspore_api, facts, row.torch_api, wrapped,
                                    derived is not None)
        if write is Write.METHOD and writes_nothing(row.mindspore_api or "", facts, None):
            return Write.NONE, ""
        return write, explain

    write, explain = written(row, derived, wrapped)
    rewrite = bool(target) and catalogue_rewrite(torch_api, target or "")
    if replacement is None and write is Write.NONE and target and rewrite:
        write = Write.REWRITE
    elif replacement is None and write is Write.NONE and target and not same_shape(kb, torch_api, target):
        other = same_shape_candidate(kb, torch_api, target, device)
        if other is not None and written(other.row, other.derived)[0] is not Write.NONE:
            row, version, derived, replacement = other.row, other.version, other.derived, other.replacement
            target = row.mindspore_api
            write, explain = written(row, derived)
    kept = write is Write.NONE and bool(target) and writes_nothing(target or "", facts, None)  # x.new_full(…)
    if replacement is None and (writes_target(write) or kept) and fails_on_device(kb, torch_api, target,
                                                                                  device):
        write, explain = Write.EXPLAIN, "fix.no_kernel"
    category = _category_of(row)
    source = replacement.kind if replacement is not None else ("derived" if derived is not None else "table")
    evidence = evidence_of(kb, source, row.torch_api, version, derived, target, device, replacement)
    safety, reason = safety_of(kb, torch_api, usage, category, target, write, evidence, replacement,
                               row.torch_api, False, device)
    return Resolution(torch_api, kb.version, device, target, category.value, write, None, replacement, safety,
                      reason, evidence, row.torch_api, version, derived is not None, explain)


def _category_of(row: MappingRow) -> FindingCategory:
    return FindingCategory.CONSISTENT if row.category.is_consistent else FindingCategory.DIFFERENCES
