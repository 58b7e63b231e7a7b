"""One resolution per API finding (``model/resolution.Resolution``), computed once by the analysis for the
usage, the table and the device (``AnalysisOptions.device``).

For a mapped API (MSM100 / MSM101) it settles, in this order: the call's own verdict for the mapping's
target (overload, parameter facts, argument plan: ``analysis/call_facts.py``); on the device, an in-place
API's out-of-place target written back (``device_targets.out_of_place_target``) where the call's tensor can
be written twice, else the first device replacement (``device_targets.runnable_targets``) this call can be
written for (its result form, its arguments, its shape); for a target used otherwise than the torch name
(a class for a function), a candidate used the same way (``knowledge/resolution.same_shape_candidate``);
then the keywords the fix drops and the argument that blocks it, how the fix writes the target, the
evidence and the safety. The finding's ``mindspore_api``, category, rule and message are set from it
(a note says which target was replaced and why); the quick-fix writes exactly that target.
"""

from __future__ import annotations

import ast
import keyword
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from msmigrate.analysis.call_claims import explain_no_kernel, settle_claims
from msmigrate.analysis.call_facts import OUT_OF_PLACE, CallVerdict, call_verdict_memo
from msmigrate.analysis.categorize import ApiVerdict, categorize, derived_verdict, rule_info, verdict_cache
from msmigrate.analysis.class_members import claim_receiver
from msmigrate.analysis.possible_calls import possible_keywords
from msmigrate.analysis.source_text import segment
from msmigrate.analysis.temporaries import is_temporary
from msmigrate.analysis.usage_claims import CodeIndex, possible_on_device
from msmigrate.i18n import ref
from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base
from msmigrate.knowledge.derived import DerivedMapping
from msmigrate.knowledge.device_targets import NO_EFFECT, NO_KERNEL, DeviceTarget, OutOfPlaceTarget
from msmigrate.knowledge.model import MappingRow
from msmigrate.knowledge.param_facts import CLASS_AS_PARTIAL, means_absent
from msmigrate.knowledge.resolution import (
    METHOD_USAGES,
    UsageFacts,
    catalogue_rewrite,
    device_choices,
    device_replacement,
    evidence_of,
    fails_on_device,
    safety_of,
    same_shape,
    same_shape_candidate,
    shape_of,
    write_back_replacement,
    write_form,
    writes_nothing,
    writes_target,
)
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.resolution import ArgPlan, Replacement, Resolution, Safety, Write

MAPPED_RULES = frozenset({"MSM100", "MSM101"})
TEMPORARY = "<temporary>"  # written_back: the in-place call's tensor is a temporary (analysis/temporaries.py)
PARTIAL_CLASSES = frozenset(torch_api for torch_api, _function in CLASS_AS_PARTIAL)
# the writes whose arguments follow the plan (a Primitive's call binds its own: fixes/primitive_calls.py)
ARGUMENT_WRITES = frozenset({Write.NAME, Write.METHOD, Write.METHOD_TO_FUNCTION, Write.CLASS_AS_PARTIAL})

# General-difference parameters: the values for which dropping the argument keeps the meaning
# (None = any value; MindSpore decides placement / memory layout itself).
DROP_WHEN: dict[str, tuple[str, ...] | None] = {
    "out": ("None",),
    "requires_grad": ("False",),
    "layout": ("None", "torch.strided", "strided"),
    "device": None,
    "pin_memory": None,
    "memory_format": None,
    "non_blocking": None,
    "inplace": None,  # the values computed are the same; MindSpore has no in-place variant here
    "stable": ("None", "False"),
    "sparse_grad": ("False",),
    "size_average": ("None",),
    "reduce": ("None",),
    "return_indices": ("False",),  # the output alone, which a MindSpore pool without the parameter returns
}
BLOCKED_KEY: dict[str, str] = {
    "out": "fix.blocked.out",
    "requires_grad": "fix.blocked.requires_grad",
    "layout": "fix.blocked.layout",
}


def plain_reference(node: ast.expr) -> bool:
    """A name or a chain of attributes of one (``x``, ``self.weight``): a rewrite that writes it more than
    once reads the same value each time (no call, no subscript with side effects)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


class Resolver:
    """Resolves the API findings of one analysed file (``tree``: its parsed statements)."""

    def __init__(self, kb: KnowledgeBase, device: str, tree: ast.Module, source: str,
                 is_tensor: Callable[[ast.expr], bool] | None = None, refine: bool = True,
                 values: dict | None = None) -> None:
        self.kb, self.device, self.tree, self.source = kb, _device(device), tree, source
        self.values = values or {}  # the analysis's node values (a member's receiver: its torch class)
        self.is_tensor, self.refine = is_tensor, refine
        self.verdicts = verdict_cache(kb)
        self._starts: list[int] | None = None
        self.index = CodeIndex(tree)

    def text(self, node: ast.AST) -> str:
        return segment(self.source, node)

    def resolve(self, finding: Finding, ref_node: ast.expr | None, call: ast.Call | None) -> None:
        """Set ``finding.resolution`` (and the claims it settles: target, category, rule, message)."""
        kb = self.kb
        if claim_receiver(finding, kb, ref_node, self.values, self.index, call):  # what the receiver is
            finding.resolution = replace(plain_resolution(finding, kb, self.device), by_call=True)
            return
        if finding.rule not in MAPPED_RULES or not finding.torch_api or finding.usage in (
                UsageKind.IMPORT, UsageKind.PATTERN):
            finding.resolution = plain_resolution(finding, kb, self.device)
            if finding.rule == "MSM102" and finding.mindspore_api:
                possible_on_device(finding, kb, self.device)
                possible_keywords(finding, kb, call)
            return
        table_target = finding.mindspore_api
        plan = self._refine(finding, call) if call is not None else None
        facts = self.facts(finding, ref_node, call)
        # the call's overload selects another target than the name's (torch.max(x, 1))
        by_call = finding.mindspore_api != table_target
        _Resolution(self, finding, ref_node, call, facts, plan, by_call).settle()

    # --- the call's verdict for the mapping's own target (formerly the checker of rules/arguments.py)
    def _refine(self, finding: Finding, call: ast.Call) -> ArgPlan | None:
        if not self.refine:
            return None
        verdict = categorize(finding.torch_api or "", self.kb, self.verdicts)
        if verdict.mindspore_api != finding.mindspore_api:
            return None
        found = call_verdict_memo(verdict, call, self.kb, self.is_tensor, self.text)
        if found is None:
            return None
        apply_verdict(finding, found)
        return found.plan

    def verdict_for(self, torch_api: str, call: ast.Call | None, row: MappingRow, version: str,
                    derived: DerivedMapping | None) -> tuple[ApiVerdict | CallVerdict, ArgPlan | None]:
        """The verdict (and the call's plan) for writing ``row``'s target (of table ``version``, or the
        ``derived`` candidate) for this usage: the call's own when it is called."""
        kb = get_knowledge_base(version)
        verdict = _row_verdict(torch_api, kb, row, derived)
        if call is not None:
            found = call_verdict_memo(verdict, call, kb, self.is_tensor, self.text, row)
            if found is not None:
                return found, found.plan
        return verdict, None

    # --- what the code around the usage says
    def facts(self, finding: Finding, ref_node: ast.expr | None, call: ast.Call | None) -> UsageFacts:
        attribute = isinstance(ref_node, ast.Attribute)
        member = ref_node.attr if isinstance(ref_node, ast.Attribute) else ""
        # the statement is read only where a write form needs it: a class MindSpore offers as a function
        # (functools.partial), a property MindSpore offers as a method (x.real → x.real())
        instance_called = call is not None and finding.torch_api in PARTIAL_CLASSES and _instance_called(
            self.statement_of(call), call)
        writes_through = None  # not read: no property here whose target is a method
        if attribute and call is None and self._property_of_method(finding):
            writes_through = _written_through(self.statement_of(ref_node), ref_node)  # type: ignore[arg-type]
        load = not attribute or isinstance(ref_node.ctx, ast.Load)  # type: ignore[union-attr]
        return UsageFacts(call=call is not None, attribute=attribute, member=member,
                          func_is_ref=call is not None and call.func is ref_node,
                          instance_called=instance_called, writes_through=writes_through, load=load)

    def _property_of_method(self, finding: Finding) -> bool:
        """A torch property (``x.real``) whose MindSpore target is a method."""
        kb = self.kb
        return (finding.usage in METHOD_USAGES and shape_of(kb.torch_kind(finding.torch_api)) == "attribute"
                and shape_of(kb.mindspore_kind(finding.mindspore_api or "")) == "method")

    def statement_of(self, node: ast.AST) -> ast.stmt | None:
        """The top-level statement holding ``node``."""
        import bisect

        if self._starts is None:
            self._starts = [statement.lineno for statement in self.tree.body]
        line = getattr(node, "lineno", 0)
        index = bisect.bisect_right(self._starts, line) - 1
        if index < 0:
            return None
        statement = self.tree.body[index]
        return statement if line <= (statement.end_lineno or statement.lineno) else None

    def written_back(self, finding: Finding, ref_node: ast.expr | None, call: ast.Call | None) -> str:
        """The tensor an in-place call changes, as written, when the fix may write it twice (a name or an
        attribute chain, not through a Tensor attribute such as ``x.imag``); "" otherwise."""
        if call is None or ref_node is None:
            return ""
        if finding.usage is UsageKind.TENSOR_METHOD:
            tensor = ref_node.value if isinstance(ref_node, ast.Attribute) and call.func is ref_node else None
        else:
            inputs = [k.value for k in call.keywords if k.arg == "input"]
            tensor = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else next(
                iter(inputs), None)
        if tensor is not None and finding.usage is UsageKind.TENSOR_METHOD and is_temporary(tensor):
            return TEMPORARY  # nothing else reads it: the out-of-place result is all that counts
        if tensor is None or not plain_reference(tensor) or self._through_tensor_attribute(tensor):
            return ""
        return self.text(tensor)

    def _through_tensor_attribute(self, node: ast.expr) -> bool:
        """Whether ``node`` reads a torch Tensor attribute (``x.imag``, ``p.grad``): a view of another tensor
        in torch, in MindSpore a method or missing, so ``x.imag.assign_value`` would not write into ``x``."""
        while isinstance(node, ast.Attribute):
            if shape_of(self.kb.torch_kind(f"torch.Tensor.{node.attr}")) == "attribute":
                return True
            node = node.value
        return False


@lru_cache(maxsize=50_000)
def mapping_of(kb: KnowledgeBase, torch_api: str) -> tuple[MappingRow | None, DerivedMapping | None]:
    """The row ``kb`` applies to ``torch_api`` and the derived mapping it comes from, if it is one."""
    derived = kb.derived(torch_api)
    return (derived.row if derived is not None else kb.row(torch_api)), derived


_ROW_VERDICTS: dict[tuple[int, str, int, int], tuple[ApiVerdict, MappingRow, DerivedMapping | None]] = {}


def _row_verdict(torch_api: str, kb: KnowledgeBase, row: MappingRow,
                 derived: DerivedMapping | None) -> ApiVerdict:
    """The verdict of writing ``row``'s target (the ``derived`` candidate's) for ``torch_api`` with table
    ``kb``, made once per row (so that the call verdicts of its calls are remembered by shape)."""
    key = (id(kb), torch_api, id(row), id(derived))
    found = _ROW_VERDICTS.get(key)
    if found is not None and found[1] is row and found[2] is derived:
        return found[0]
    if derived is not None:
        verdict = derived_verdict(torch_api, derived, kb)
    else:
        verdict = categorize(torch_api, kb)
        if row.mindspore_api and verdict.mindspore_api != row.mindspore_api:  # another torch API's row
            verdict = replace(verdict, mindspore_api=row.mindspore_api)
    if len(_ROW_VERDICTS) > 20_000:
        _ROW_VERDICTS.clear()
    _ROW_VERDICTS[key] = (verdict, row, derived)
    return verdict


class _Resolution:
    """The steps of one mapped finding's resolution (see the module doc)."""

    def __init__(self, resolver: Resolver, finding: Finding, ref_node: ast.expr | None, call: ast.Call | None,
                 facts: UsageFacts, plan: ArgPlan | None, by_call: bool) -> None:
        self.r, self.kb, self.finding, self.call, self.facts = resolver, resolver.kb, finding, call, facts
        self.ref_node = ref_node
        self.torch_api = finding.torch_api or ""
        self.plan, self.by_call = plan, by_call

    def settle(self) -> None:
        kb, finding = self.kb, self.finding
        target = finding.mindspore_api
        row, derived = mapping_of(kb, self.torch_api)
        choice = _Choice(row, kb.version, derived, None, target, self.plan, None, self.by_call)
        out, swaps = device_choices(kb, self.torch_api, target, self.r.device)
        if out is not None:  # written back where the call's tensor allows it
            choice = self.write_back(out) or _Choice(row, kb.version, derived, None, target, self.plan, None,
                                                     True)
        elif swaps:
            choice = self.device_swap(swaps)
        if choice.replacement is None:
            choice.write, choice.explain = self.write_of(choice)
            rewrite = bool(target) and catalogue_rewrite(self.torch_api, target or "")
            if choice.write is Write.NONE and rewrite:
                choice.write = Write.REWRITE  # the missing-API catalogue's exact rewrite (x.size(1))
            elif choice.write is Write.NONE and target and row is not None and not same_shape(
                    kb, self.torch_api, target):
                candidate = same_shape_candidate(kb, self.torch_api, target, self.r.device)
                other = candidate and self.candidate(candidate.row, candidate.version, candidate.derived,
                                                     candidate.replacement, choice.by_call)
                if other is not None and other.write is not Write.NONE:  # (else nothing is written)
                    choice = other
            kept = choice.write is Write.NONE and bool(choice.target) and writes_nothing(
                choice.target or "", self.facts, choice.plan)  # x.new_full(…) left as it is: the target too
            if choice.replacement is None and (writes_target(choice.write) or kept) and fails_on_device(
                    kb, self.torch_api, choice.target, self.r.device):
                choice.write, choice.explain = Write.EXPLAIN, "fix.no_kernel"  # nothing runnable there
        self.finish(choice)

    # --- the choices
    def write_of(self, choice: _Choice, wrapped: bool = False,
                 torch_api: str | None = None) -> tuple[Write, str]:
        if choice.row is None:
            return Write.NONE, ""
        write, explain = write_form(self.kb, torch_api or self.torch_api, self.finding.usage, choice.target,
                                    self.facts, choice.row.torch_api, wrapped, choice.derived is not None)
        if write in ARGUMENT_WRITES and self.call is not None:
            choice.plan = settle_plan(self.kb, choice.plan, self.call, choice.row, choice.target or "")
        if write is Write.METHOD and writes_nothing(choice.target or "", self.facts, choice.plan):
            return Write.NONE, ""
        return write, explain

    def device_swap(self, swaps: tuple[DeviceTarget, ...]) -> _Choice:
        """The first replacement this call can be written for; else the first one's explanation."""
        first: _Choice | None = None
        for index, swap in enumerate(swaps):
            verdict, plan = self.r.verdict_for(self.torch_api, self.call, swap.row, swap.version,
                                               swap.derived)
            choice = _Choice(swap.row, swap.version, swap.derived, device_replacement(swap),
                             swap.row.mindspore_api, plan, verdict, index > 0)
            if swap.form and (plan is None or plan.result_form != swap.form):
                # checked with its result in torch's form, which this call does not get written
                choice.write, choice.explain = Write.EXPLAIN, "fix.device_target_form_not_written"
                first = first or choice
                continue
            choice.write, choice.explain = self.write_of(choice)
            if choice.write is Write.NONE:
                continue
            blocked = choice.plan is not None and choice.plan.blocked and choice.write in ARGUMENT_WRITES
            if choice.write is Write.EXPLAIN or blocked:
                first = first or choice
                continue
            return choice
        if first is not None:
            first.by_call = True
            return first
        swap = swaps[0]
        verdict, plan = self.r.verdict_for(self.torch_api, self.call, swap.row, swap.version, swap.derived)
        return _Choice(swap.row, swap.version, swap.derived, device_replacement(swap), swap.row.mindspore_api,
                       plan, verdict, True, Write.NONE)

    def write_back(self, out: OutOfPlaceTarget) -> _Choice | None:
        """The out-of-place counterpart's target, its result written back into the tensor (None: the
        call cannot be written so; the mapping's own target stands)."""
        tensor = self.r.written_back(self.finding, self.ref_node, self.call)
        if not tensor or self.call is None:
            return None
        if tensor is TEMPORARY:
            return self.temporary(out)
        verdict, plan = self.r.verdict_for(out.torch_api, self.call, out.row, out.version, out.derived)
        own = out.replaced == out.row.mindspore_api  # the API's own target returns a new tensor
        method = self.finding.usage is UsageKind.TENSOR_METHOD
        if own and not _positions_named(plan, self.call, method):
            return None  # checked with its arguments placed for it, which this call may not get
        choice = _Choice(out.row, out.version, out.derived, write_back_replacement(out, tensor),
                         out.row.mindspore_api, plan, verdict, False)
        choice.write, choice.explain = self.write_of(choice, wrapped=True, torch_api=out.torch_api)
        if choice.write is Write.NONE:
            return None
        return choice

    def temporary(self, out: OutOfPlaceTarget) -> _Choice | None:
        """An in-place method on a temporary (``image.mul(f).clamp_(0, 1)``): its out-of-place counterpart,
        whose result is all the code reads."""
        verdict, plan = self.r.verdict_for(out.torch_api, self.call, out.row, out.version, out.derived)
        replacement = Replacement("temporary", out.replaced, out.version, out.device, NO_KERNEL,
                                  derived=out.derived is not None)
        choice = _Choice(out.row, out.version, out.derived, replacement, out.row.mindspore_api, plan, verdict,
                         True)
        choice.write, choice.explain = self.write_of(choice, wrapped=True, torch_api=out.torch_api)
        return None if choice.write is Write.NONE else choice

    def candidate(self, row: MappingRow, version: str, derived: DerivedMapping | None,
                  replacement: Replacement, by_call: bool) -> _Choice:
        verdict, plan = self.r.verdict_for(self.torch_api, self.call, row, version, derived)
        choice = _Choice(row, version, derived, replacement, row.mindspore_api, plan, verdict, by_call)
        choice.write, choice.explain = self.write_of(choice)
        return choice

    # --- the finding
    def finish(self, choice: _Choice) -> None:
        finding, kb = self.finding, self.kb
        if choice.replacement is not None and choice.verdict is not None:
            self.restate(choice)
        if choice.write in ARGUMENT_WRITES and self.call is not None and choice.plan is None:
            choice.plan = settle_plan(kb, None, self.call, choice.row, choice.target or "")
        replaced = choice.replacement is not None
        claims, category = settle_claims(finding, kb, self.r.index, self.torch_api, choice.target,
                                         self.ref_node, self.call, self.r.device, replaced)
        if claims.blocked is not None and choice.plan is not None and choice.plan.blocked is None:
            choice.plan = replace(choice.plan, blocked=claims.blocked)
        blocked = bool(choice.plan is not None and choice.plan.blocked and choice.write in ARGUMENT_WRITES)
        blocked = blocked or (claims.blocked is not None and self.call is None)
        replacement = choice.replacement
        row_api = choice.row.torch_api if choice.row is not None else None
        source = replacement.kind if replacement is not None else (
            "derived" if choice.derived is not None else "table")
        evidence = evidence_of(kb, source if choice.target else "", row_api or self.torch_api, choice.version,
                               choice.derived, choice.target, self.r.device, replacement)
        safety, reason = safety_of(kb, self.torch_api, finding.usage, category, choice.target,
                                   choice.write, evidence, replacement, row_api, blocked, self.r.device)
        if (claims.no_kernel or claims.unverified_form) and safety is Safety.SAFE:  # this call's overload has
            safety, reason = Safety.UNSAFE, claims.unverified_form or "no_kernel"  # no kernel / another form
        if choice.explain == "fix.no_kernel":  # why nothing is written
            explain_no_kernel(finding, kb, self.r.device, choice.target)
        finding.resolution = Resolution(
            self.torch_api, kb.version, self.r.device, choice.target, finding.category.value, choice.write,
            choice.plan if self.call is not None else None, replacement, safety, reason, evidence, row_api,
            choice.version, choice.derived is not None, choice.explain, choice.by_call)

    def restate(self, choice: _Choice) -> None:
        """The finding says what is written: the verdict for the replacement's row, with a note on the
        mapping's own target."""
        finding, verdict, replacement = self.finding, choice.verdict, choice.replacement
        assert verdict is not None and replacement is not None
        args = {**verdict.message_args, "torch_api": self.torch_api, "mindspore_api": choice.target or ""}
        key = verdict.message_key
        if replacement.kind == "device" and key in _PLAIN_KEYS:  # the note says where the target comes from
            key = _PLAIN_KEYS[key]
            args.pop("provenance", None)
        note = _note(replacement, choice.target or "", self.torch_api, self.kb)
        finding.mindspore_api = choice.target
        finding.category = verdict.category
        finding.rule = verdict.rule
        # the verdict's message and the note; the plain facts stay readable (``call_specific`` for hover)
        plain = {name: value for name, value in args.items() if type(value) in (str, bool, int)}
        if replacement.kind == "write_back":  # not a rename: the note says how it is written
            finding.message_key = "resolution.message_write_back"
            finding.message_args = {**plain, "note": (note,)}
        else:
            finding.message_key = "resolution.message"
            finding.message_args = {**plain, "message": (ref(key, **args),), "note": (note,)}
        finding.fixable = rule_info(verdict.rule).fixable and choice.write is not Write.NONE


class _Choice:
    """A target being settled: its row (table, derived candidate), what replaced the mapping's own, the
    call's plan and verdict for it, how it is written."""

    __slots__ = ("row", "version", "derived", "replacement", "target", "plan", "verdict", "by_call", "write",
                 "explain")

    def __init__(self, row: MappingRow | None, version: str, derived: DerivedMapping | None,
                 replacement: Replacement | None, target: str | None, plan: ArgPlan | None,
                 verdict: ApiVerdict | CallVerdict | None, by_call: bool, write: Write = Write.NONE) -> None:
        self.row, self.version, self.derived, self.replacement = row, version, derived, replacement
        self.target, self.plan, self.verdict, self.by_call = target, plan, verdict, by_call
        self.write, self.explain = write, ""


def plain_resolution(finding: Finding, kb: KnowledgeBase, device: str) -> Resolution:
    """The resolution of an API finding the mapping rules do not fix (missing, unknown, possible Tensor
    API, data processing): its target as found; its rule's own fixer (if any) and safety apply."""
    return _plain(finding.torch_api or "", kb.version, _device(device), finding.mindspore_api,
                  finding.category.value)


@lru_cache(maxsize=20_000)
def _plain(torch_api: str, version: str, device: str, target: str | None, category: str) -> Resolution:
    return Resolution(torch_api, version, device, target, category, safety_reason="rule")


def apply_verdict(finding: Finding, found: CallVerdict) -> None:
    finding.mindspore_api = found.mindspore_api
    finding.category = found.category
    finding.rule = found.rule
    finding.message_key = found.message_key
    finding.message_args = dict(found.message_args)
    finding.fixable = found.fixable and rule_info(found.rule).fixable


# --- the keywords a fix drops, the argument that blocks it ------------------------------------------------
def settle_plan(kb: KnowledgeBase, plan: ArgPlan | None, call: ast.Call, row: MappingRow | None,
                target: str) -> ArgPlan:
    """``plan`` (the call's, or for a call without one the row's renames, unchecked) with the keywords the
    fix drops (placement and layout arguments, values that mean what MindSpore does without them) and the
    first argument that blocks the rewrite: a parameter passed by position that MindSpore lacks, a value of
    another type, ``out=y``, ``requires_grad=True``, a torch-only parameter passed by keyword."""
    if plan is None:
        renames = {**(row.input_renames if row else {}), **(row.param_renames if row else {})}
        plan = ArgPlan(renames=tuple(renames.items()), checked=False)
    renames = dict(plan.renames)
    missing = set(plan.missing)
    general = general_params(kb)
    torch_only = (set(row.torch_only_params) if row else set()) | missing
    is_class = row is not None and kb.torch_kind(row.torch_api) == "class"
    drops: list[str] = []
    blocked: tuple[str, str, str] | None = None
    if plan.checked:
        passed = {kw.arg for kw in call.keywords} | {name for _index, name in plan.absent}
        for name in sorted(missing - passed):  # an argument by position MindSpore has no parameter for
            blocked = ("fix.blocked.unsupported", name, "")
            break
        if blocked is None and plan.retyped:  # a value of another type in MindSpore
            blocked = ("fix.blocked.value_type", plan.retyped[0], "")
    for kw in call.keywords if blocked is None else ():
        name = kw.arg
        if name is None:
            continue
        new = renames.get(name)
        if _identifier(new) and new != name:
            continue
        out_of_place = is_class and name in OUT_OF_PLACE  # dropped even where MindSpore takes it
        if name in general and (out_of_place or not mindspore_accepts(kb, target, name)):
            if not _droppable(name, kw.value):
                blocked = (BLOCKED_KEY.get(name, "fix.blocked.value"), name, ast.unparse(kw.value))
                break
            drops.append(name)
        elif name in torch_only and name not in renames and not mindspore_accepts(kb, target, name):
            if not means_absent(target, name, ast.unparse(kw.value)):
                blocked = ("fix.blocked.unsupported", name, "")
                break
            drops.append(name)
    return replace(plan, drops=tuple(drops), blocked=blocked)


def general_params(kb: KnowledgeBase) -> frozenset[str]:
    try:
        listed = set(kb.general_difference_params)
    except (OSError, ValueError, KeyError):
        listed = set()
    return frozenset(listed | set(DROP_WHEN))


def mindspore_accepts(kb: KnowledgeBase, mindspore_api: str, param: str) -> bool:
    for signature in kb.mindspore_signatures(mindspore_api):
        for p in signature:
            if p.get("name") == param or p.get("kind") == "var_keyword":
                return True
    return False


def _droppable(param: str, value: ast.expr) -> bool:
    allowed = DROP_WHEN.get(param, ("None",))
    return allowed is None or ast.unparse(value) in allowed


def _identifier(name: str | None) -> bool:
    return bool(name) and name.isidentifier() and not keyword.iskeyword(name)  # type: ignore[union-attr]


def _positions_named(plan: ArgPlan | None, call: ast.Call, method: bool) -> bool:
    """Whether the plan passes every argument given by position (the tensor of a function call aside) by
    keyword: an in-place API's own target was checked with its arguments placed for it (x.scatter_'s dim
    goes last in ops.tensor_scatter_elements), which a call that the plan cannot name may not get."""
    named = {index for index, _name in plan.to_keyword} if plan else set()
    return all(i in named for i in range(0 if method else 1, len(call.args)))


def _instance_called(statement: ast.stmt | None, call: ast.Call) -> bool:
    """Whether the instance ``call`` builds is only called, as a function is: the value assigned to a
    name or attribute (``self.unfold = nn.Unfold(2)``) or called at once (``nn.Unfold(2)(x)``); not an
    argument (``nn.Sequential(nn.Unfold(2), …)`` needs a Cell)."""
    for node in ast.walk(statement) if statement is not None else ():
        if isinstance(node, ast.Assign) and node.value is call:
            return all(isinstance(t, ast.Name | ast.Attribute) for t in node.targets)
        if isinstance(node, ast.AnnAssign) and node.value is call:
            return isinstance(node.target, ast.Name | ast.Attribute)
        if isinstance(node, ast.Call) and node.func is call:
            return True
    return False


def _written_through(statement: ast.stmt | None, ref_node: ast.expr) -> bool:
    """Whether the statement holding ``ref_node`` assigns into it or calls an in-place method on it
    (``x.real[0] = 1``, ``x.real.zero_()``, ``x.real += 1``); True without one."""
    from msmigrate.knowledge.device_targets import in_place

    if statement is None:
        return True
    for node in ast.walk(statement):
        if isinstance(node, ast.Subscript | ast.Attribute) and node.value is ref_node:
            if not isinstance(node.ctx, ast.Load):
                return True
            if isinstance(node, ast.Attribute) and in_place(node.attr):  # x.real.zero_()
                return True
        if isinstance(node, ast.AugAssign) and node.target is ref_node:
            return True
    return False


# --- the note on the mapping's own target -------------------------------------------------------------
_PLAIN_KEYS = {"analysis.api.derived_consistent": "analysis.api.consistent",
               "analysis.api.derived_differences": "analysis.api.differences"}
_SOURCES = {"derived": "resolution.source.derived", "table": "resolution.source.table",
            "same_values": "resolution.source.same_values"}


def _note(replacement: Replacement, target: str, torch_api: str, kb: KnowledgeBase):
    mindspore = kb.derived_table.mindspore_version
    fields = {"replaced": replacement.replaced, "device": replacement.device, "target": target,
              "table": replacement.version, "mindspore": mindspore, "torch_api": torch_api,
              "tensor": replacement.tensor}
    if replacement.kind == "write_back":
        key = "resolution.note.write_back" + ("_new_tensor" if replacement.new_tensor else "")
        return ref(key, **fields)
    if replacement.kind in ("candidate", "other_table", "temporary"):
        return ref(f"resolution.note.{replacement.kind}", **fields)
    if replacement.reason:
        why = (ref(replacement.reason, replaced=replacement.replaced, device=replacement.device,
                   table=replacement.version),)
        return ref("resolution.note.device_reason", why=why, **fields)
    kind = "derived" if replacement.derived else ("table" if replacement.verified else "same_values")
    source = (ref(_SOURCES[kind], table=replacement.version, device=replacement.device),)
    key = "resolution.note.device_no_effect" if replacement.failure == NO_EFFECT else "resolution.note.device"
    return ref(key, source=source, **fields)


def _device(device: str) -> str:
    return device.upper() if device.lower() != "ascend" else "Ascend"

