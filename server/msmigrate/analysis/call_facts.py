"""Per-call facts of a mapped torch API: the overload the arguments select, and the parameter facts
that apply to this call, checked against the installed MindSpore signature.

:func:`call_verdict` gives the mapping, rule, message and the quick-fix's argument plan for one call
(``None`` when the call changes nothing about the API's verdict). Facts that apply: the arguments' renames
to keywords MindSpore 2.10 takes, arguments by position that would land on another MindSpore parameter,
parameters passed that MindSpore lacks, and defaults that differ for parameters the call leaves out.
``message_args["changes_results"]`` says whether one of them changes what the code computes.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from msmigrate.analysis.api_rules import RULE_FOR_CATEGORY
from msmigrate.analysis.arguments import Binding, argument_kind, bind
from msmigrate.analysis.categorize import ApiVerdict, describe_differences
from msmigrate.analysis.packed_args import packed_from, packed_text
from msmigrate.i18n import MessageRef, ref
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.device_targets import rewritten_on
from msmigrate.knowledge.model import MappingCategory, MappingRow
from msmigrate.knowledge.overloads import form_of, overload_target
from msmigrate.knowledge.page_facts import page_settled
from msmigrate.knowledge.param_facts import (
    DEFAULT_FROM,
    POSITIONAL,
    REQUIRED,
    ArgumentPlan,
    class_as_partial,
    companions,
    converts,
    default_differences,
    defaults_from,
    literal_kind,
    means_absent,
    mindspore_value,
    pair_renames,
    plan_arguments,
    receiver_first,
    same_default,
)
from msmigrate.knowledge.resolution import same_shape
from msmigrate.knowledge.value_forms import (
    adapted,
    argument_form,
    call_forms,
    fixed_dtype,
    inferred_dtype,
    needed,
    result_form,
)
from msmigrate.model.finding import FindingCategory
from msmigrate.model.resolution import ArgPlan as CallPlan

# parameters whose value the quick-fix may drop (they do not change what is computed), as fixes/api_fixes.py
# drops them: device placement, memory layout, ``out=None``
_HARMLESS = {"device": None, "pin_memory": None, "memory_format": None, "non_blocking": None,
             "return_indices": ("False",),
             "out": ("None",), "requires_grad": ("False",), "layout": ("None", "torch.strided"),
             "inplace": None, "sparse_grad": ("False",)}
# arguments of a class's constructor dropped even where MindSpore takes them: the instance's result is
# computed out of place with the same values, as the numeric check ran it (MindSpore 2.10 has no CPU kernel
# for the in-place variants: nn.SiLU(True) → mint.nn.SiLU(True) needs InplaceSiLU)
OUT_OF_PLACE = frozenset({"inplace"})
_MAX_ITEMS = 4
_DERIVED_KEYS = {"analysis.api.consistent": "analysis.api.derived_consistent",
                 "analysis.api.differences": "analysis.api.derived_differences"}


@dataclass(frozen=True, slots=True)
class CallVerdict:
    mindspore_api: str
    category: FindingCategory
    rule: str
    message_key: str
    message_args: dict[str, Any]
    fixable: bool = True
    plan: CallPlan | None = None  # how the quick-fix writes this call's arguments


# a derived mapping's verdict keeps saying where the mapping comes from
_DERIVED_KEYS = {"analysis.api.consistent": "analysis.api.derived_consistent",
                 "analysis.api.differences": "analysis.api.derived_differences"}


def call_verdict(verdict: ApiVerdict, call: ast.Call, kb: KnowledgeBase,
                 is_tensor: Callable[[ast.expr], bool] | None = None,
                 row: MappingRow | None = None) -> CallVerdict | None:
    """The verdict for this call of a mapped API (MSM100 / MSM101), or ``None`` to keep ``verdict``.
    A derived mapping's verdict keeps saying where the mapping comes from. ``row``: the row the verdict
    stands on when it is not ``kb``'s own (a device-aware replacement, ``fixes/api_fixes.py``)."""
    found = _call_verdict(verdict, call, kb, is_tensor, row)
    provenance = verdict.message_args.get("provenance")
    if found is None or not provenance:
        return found
    key = _DERIVED_KEYS.get(found.message_key, found.message_key)
    return replace(found, message_key=key, message_args={**found.message_args, "provenance": provenance})


def call_shape(call: ast.Call, is_tensor: Callable[[ast.expr], bool] | None,
               text: Callable[[ast.AST], str]) -> tuple | None:
    """All :func:`call_verdict` reads of a call (``row`` aside): each argument's place (``*``, keyword
    name), kind (:func:`argument_kind`) and source text, which fixes its tree. ``None`` when a text is
    missing (no key: the call is checked on its own)."""
    shape: list[tuple] = []
    for arg in call.args:
        value = text(arg)
        if not value:
            return None
        shape.append((type(arg) is ast.Starred, argument_kind(arg, is_tensor), value))
    for keyword in call.keywords:
        value = text(keyword.value)
        if not value:
            return None
        shape.append((keyword.arg, argument_kind(keyword.value, is_tensor), value))
    return tuple(shape)


_MEMOS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MEMO_SIZE = 20_000
_NONE = object()


def call_verdict_memo(verdict: ApiVerdict, call: ast.Call, kb: KnowledgeBase,
                      is_tensor: Callable[[ast.expr], bool] | None,
                      text: Callable[[ast.AST], str], row: MappingRow | None = None) -> CallVerdict | None:
    """:func:`call_verdict` once per API verdict (and ``row``) and call shape (:func:`call_shape`) for
    ``kb``: calls of one shape get the same verdict (its ``message_args`` shared: copy before changing
    it)."""
    shape = call_shape(call, is_tensor, text)
    if shape is None:
        return call_verdict(verdict, call, kb, is_tensor, row)
    memo = _MEMOS.get(kb)
    if memo is None:
        memo = _MEMOS[kb] = {}
    key = (id(verdict), id(row), shape)
    found = memo.get(key)
    if found is not None and found[0] is verdict and found[2] is row:  # kept: their ids are not reused
        return None if found[1] is _NONE else found[1]
    result = call_verdict(verdict, call, kb, is_tensor, row)
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = (verdict, _NONE if result is None else result, row)
    return result


def _call_verdict(verdict: ApiVerdict, call: ast.Call, kb: KnowledgeBase,
                  is_tensor: Callable[[ast.expr], bool] | None, row: MappingRow | None) -> CallVerdict | None:
    torch_api, table_target = verdict.torch_api, verdict.mindspore_api
    if not table_target or verdict.category not in (FindingCategory.CONSISTENT, FindingCategory.DIFFERENCES):
        return None
    if row is None:  # the row the verdict stands on
        derived = kb.derived(torch_api) if "provenance" in verdict.message_args else None
        row = derived.row if derived is not None else kb.row(torch_api)
    torch_signatures = kb.torch_signatures(torch_api)
    bindings = bind(call, torch_signatures, lambda node: argument_kind(node, is_tensor)) \
        if torch_signatures else []
    form = _form(torch_api, bindings)
    target = table_target
    if form is not None:
        target = overload_target(torch_api, form, table_target, kb) or table_target
    ms_signatures = [s for s in kb.mindspore_signatures(target) if not _opaque(s)]
    receiver = receiver_first(kb.torch_kind(torch_api), kb.mindspore_kind(target))
    if not (receiver or class_as_partial(torch_api, target) or same_shape(kb, torch_api, target)):
        return None  # a function for a class (torch.nn.init.constant_ → Constant): its arguments go elsewhere
    if receiver:
        ms_signatures = [s[1:] for s in ms_signatures if s]  # the method's tensor is the first argument
    elif class_as_partial(torch_api, target):  # functools.partial(function, …): the instance's input comes
        # first at its call, so every constructor argument is bound by keyword
        ms_signatures = [[{**p, "kind": "keyword_only"} if p.get("kind") in POSITIONAL else p for p in s[1:]]
                         for s in ms_signatures if s]
    if not ms_signatures:
        return _overload_only(verdict, target, form) if target != table_target else None
    binding = _one_binding(bindings)
    positional: list[str | None] = list(binding.positional) if binding else [None] * len(call.args)
    if any(isinstance(a, ast.Starred) for a in call.args):
        positional = []
    keywords = [k.arg for k in call.keywords if k.arg is not None]
    torch_names = [p["name"] for p in binding.signature] if binding else []
    same_target = target == table_target
    renames = pair_renames(torch_api, target)
    renames.update({**row.input_renames, **row.param_renames} if row is not None and same_target else {})
    plan = plan_arguments(positional, keywords, torch_names, ms_signatures, renames)
    if plan is None:
        return None
    overload = ms_signatures[plan.overload]
    passed_targets = {t for n, t in plan.targets if binding and n in binding.arguments} | set(keywords)
    added = companions(target, overload, passed_targets, torch_api)
    added += _defaults_from(binding, plan, target, overload)
    arguments = _agreed_arguments(call, bindings)
    dtype = _inferred_dtype(arguments, plan, target, overload)
    skipped = {name for name, _value, _default in added} | ({dtype[0]} if dtype and dtype[1] else set())
    facts, changes, explicit = _facts(call, binding, plan, row if same_target else None, overload, skipped,
                                      target)
    is_class = kb.torch_kind(torch_api) == "class"
    absent = _absent_positions(call, positional, plan, target, is_class)
    out_of_place = sorted({name for _i, name in absent if name not in plan.missing} | {
        k.arg for k in call.keywords if is_class and k.arg in OUT_OF_PLACE and k.arg not in plan.missing})
    if out_of_place:
        facts.append(ref("analysis.detail.call_out_of_place", items=_items(out_of_place)))
    packed = None if plan.to_keyword or class_as_partial(torch_api, target) else packed_from(
        call, bindings, kb.mindspore_signatures(target), int(receiver))
    if packed is not None:  # torch's separate sizes, one tuple in MindSpore
        facts.append(ref("analysis.detail.call_packed", items=packed_text(call, packed)))
        changes = True
    converted, unwritable = _converted_values(call, binding, plan, target)
    if converted:
        facts.append(ref("analysis.detail.call_value_meaning",
                         items=_items(f"{n}={old} → {new}" for n, _where, old, new in converted)))
        changes = True
    if added:
        facts.append(ref("analysis.detail.call_companion",
                         items=_items(f"{n}={v}" + ("" if d == REQUIRED else f" (MindSpore default {d})")
                                     for n, v, d in added)))
        changes = True
    if dtype and dtype[1]:
        facts.append(ref("analysis.detail.call_inferred_dtype", items=f"{dtype[0]}={dtype[1]}"))
        added.append(dtype)
        changes = True
    elif dtype:  # the value's type does not show: MindSpore's fixed dtype is right only if it is its type
        facts.append(ref("analysis.detail.call_dtype_not_inferred", param=dtype[0],
                         dtype=fixed_dtype(target) or dtype[2]))
        changes = True
    forms = _argument_forms(call, arguments, plan, target, is_tensor)
    if kb.torch_kind(torch_api) == "class":  # arguments the instance's calls take in another form
        for param, call_form in sorted(call_forms(target).items()):
            facts.append(ref(f"analysis.detail.call_forms.{call_form}", mindspore_api=target, param=param))
            changes = True
    given = {dict(plan.targets).get(n, n) for n, node in arguments.items() if not _is_none(node)}
    result = result_form(target, given | {k.arg for k in call.keywords if k.arg and not _is_none(k.value)})
    if forms or result:
        shown = [f"{text} → {adapted(form, text, node)}" for _w, form, text, node in forms]
        if result:
            name = target.rpartition(".")[2] + "(…)"
            shown.append(f"{name} → {adapted(result, name, call)}")
        facts.append(ref("analysis.detail.call_value_forms", items=_items(shown)))
        changes = True
    written = {name for name, _where, _old, _new in converted}  # values written in MindSpore's meaning
    retyped = [item for item in _value_types(binding, plan, overload, is_tensor)
               if item.partition(":")[0] not in written] + unwritable
    if retyped:
        facts.append(ref("analysis.detail.call_value_type", items=_items(retyped)))
        changes = True
    fixable = (not _same_member(torch_api, target) or rewritten_on(torch_api, kb.version)
               or bool(plan.renames or plan.to_keyword or plan.missing or forms or result)
               or packed is not None)
    args: dict[str, Any] = {"torch_api": torch_api, "mindspore_api": target, "version": kb.version,
                            "changes_results": changes}
    arg_plan = _plan_args(plan, (*explicit, *((n, v) for n, v, *_d in added)),
                          tuple(item.partition(":")[0] for item in retyped),
                          tuple((where, new) for _n, where, _old, new in converted),
                          tuple((where, form) for where, form, _t, _n in forms),
                          result or "", absent, packed)
    form_ref = ref(f"analysis.form.{form or 'full'}") if form is not None else None
    args["call_specific"] = bool(facts or form_ref)  # the message says more than the name's mapping
    if facts:
        details = ((form_ref,) if form_ref else ()) + tuple(facts)
        if row is not None and same_target and row.diff_page:
            details += (ref("analysis.detail.diff_page"),)
        return _differences(target, args, details, fixable, arg_plan)
    if row is not None and same_target and not row.category.is_consistent and not _settled_by_call(
            row, call, bindings, _row_beyond_call(row, torch_signatures)):
        details = describe_differences(_row_beyond_call(row, torch_signatures))["details"]
        if form_ref:
            details = (form_ref, *details)
        return _differences(target, args, details, fixable, arg_plan)
    if form_ref is not None:
        args["form"] = (form_ref,)
        key = "analysis.api.consistent_form"
    else:
        key = "analysis.api.consistent"
    category = FindingCategory.CONSISTENT
    return CallVerdict(target, category, RULE_FOR_CATEGORY[category], key, args, fixable, arg_plan)


# row categories that state only parameter facts, which the call's plan checks against the signatures
_PLAN_CATEGORIES = frozenset({MappingCategory.PARAM_NAMES, MappingCategory.PARAM_COUNT_ORDER,
                              MappingCategory.NO_INPLACE, MappingCategory.NO_VERBOSE})


def _settled_by_call(row: MappingRow, call: ast.Call, bindings: list[Binding], beyond: MappingRow) -> bool:
    """Whether the call's own facts (none here) settle the row's differences: a category of parameter
    facts (or parsed defaults), checked by the plan for every argument the call binds, no MindSpore-only
    parameter left to state, and no difference page but one whose facts the call avoids
    (``knowledge/page_facts.py``)."""
    if not bindings or not all(b.complete for b in bindings) or beyond.mindspore_only_params:
        return False
    arguments = _agreed_arguments(call, bindings)
    differences = row.default_differences
    known = all(d.torch_default is not None and d.mindspore_default is not None for d in differences)
    parsed_defaults = row.category is MappingCategory.DEFAULT_VALUES and bool(differences) and known
    if row.category in _PLAN_CATEGORIES or parsed_defaults:
        return not row.diff_page or page_settled(row.torch_api, arguments)
    return row.category is MappingCategory.DIFF_PAGE and page_settled(row.torch_api, arguments)


def _same_member(torch_api: str, mindspore_api: str) -> bool:
    """``x.mean()`` → ``mindspore.Tensor.mean``: already written the MindSpore way."""
    torch_owner, _, torch_name = torch_api.rpartition(".")
    ms_owner, _, ms_name = mindspore_api.rpartition(".")
    members = torch_owner.rpartition(".")[2][:1].isupper() and ms_owner.rpartition(".")[2][:1].isupper()
    return members and torch_name == ms_name


def _differences(target: str, args: dict[str, Any], details: tuple[MessageRef, ...],
                 fixable: bool, plan: CallPlan) -> CallVerdict:
    category = FindingCategory.DIFFERENCES
    return CallVerdict(target, category, RULE_FOR_CATEGORY[category], "analysis.api.differences",
                       {**args, "details": details}, fixable, plan)


def _overload_only(verdict: ApiVerdict, target: str, form: str | None) -> CallVerdict:
    category = FindingCategory.CONSISTENT
    form_ref = ref(f"analysis.form.{form or 'full'}")
    args = {**verdict.message_args, "mindspore_api": target, "form": (form_ref,), "call_specific": True}
    return CallVerdict(target, category, RULE_FOR_CATEGORY[category], "analysis.api.consistent_form", args)


def _one_binding(bindings: list[Binding]) -> Binding | None:
    """The call's binding: the one overload it fits, or the first of overloads that differ only in the
    types of their values (``F.conv2d``'s padding int or str): the same parameters, the arguments bound to
    the same ones."""
    if not bindings:
        return None
    first = bindings[0]
    same = all(b.names() == first.names() and b.positional == first.positional
               and b.arguments.keys() == first.arguments.keys() for b in bindings[1:])
    return first if same else None


def _form(torch_api: str, bindings: list[Binding]) -> str | None:
    """The overload form all bindings agree on (``None``: no table entry, or the arguments leave it open)."""
    forms = {form_of(torch_api, set(b.arguments)) for b in bindings}
    return forms.pop() if len(forms) == 1 else None


def _facts(call: ast.Call, binding: Binding | None, plan: ArgumentPlan, row: MappingRow | None,
           ms_overload, skipped: set[str], mindspore_api: str) -> tuple[list[MessageRef], bool,
                                                                         list[tuple[str, str]]]:
    facts: list[MessageRef] = []
    changes = False
    values = {k.arg: k.value for k in call.keywords if k.arg is not None}
    given = {**(binding.arguments if binding else {}), **values}  # positional ones too
    lacking = [n for n in plan.missing if not (n in given and _droppable(n, given[n], mindspore_api))]
    dropped = [n for n in plan.missing if n not in lacking]
    shifted = [(a, b) for a, b in plan.shifted if a not in dropped]  # a dropped one lands nowhere
    if shifted:
        facts.append(ref("analysis.detail.call_positional", items=_items(f"{a}→{b}" for a, b in shifted)))
        changes = True
    if plan.renames:
        facts.append(ref("analysis.detail.call_renames", items=_items(f"{a}→{b}" for a, b in plan.renames)))
    if lacking:
        facts.append(ref("analysis.detail.call_unsupported", items=_items(lacking)))
        changes = True
    if dropped:
        facts.append(ref("analysis.detail.call_dropped", items=_items(dropped)))
    passed = set(binding.arguments) if binding else set(values)
    defaults = _defaults(binding, plan, row, ms_overload, passed, skipped, mindspore_api)
    if defaults:
        items = _items(_default_item(name, *fact) for name, fact in defaults.items())
        facts.append(ref("analysis.detail.call_defaults", items=items))
        changes = True
    unchecked = [n for n in values if n not in dict(plan.targets)] if plan.var_keyword else []
    if unchecked and facts:  # a note on the other facts, not a difference of its own
        facts.append(ref("analysis.detail.call_var_keyword", items=_items(unchecked)))
    return facts, changes, _torch_defaults_to_pass(defaults, mindspore_api)


def _defaults_from(binding: Binding | None, plan: ArgumentPlan, mindspore_api: str,
                   overload) -> list[tuple[str, str, str]]:
    """(MindSpore parameter, value, MindSpore default) for parameters the call leaves out whose torch
    default is another argument's value (``nn.MaxPool2d(2)``: stride=2), when that argument is a name or
    a literal (it is written twice)."""
    if binding is None or mindspore_api not in DEFAULT_FROM:  # no such parameter: no text to write
        return []
    targets = dict(plan.targets)
    # MindSpore name → the value's text ("" for a value that is not plain: passed, but not written twice)
    passed = {targets.get(name, name): ast.unparse(node) if _plain_value(node) else ""
              for name, node in binding.arguments.items()}
    return [(name, value, default) for name, value, default in defaults_from(mindspore_api, overload, passed)
            if value]


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _agreed_arguments(call: ast.Call, bindings: list[Binding]) -> dict[str, ast.expr]:
    """The call's arguments by torch parameter name, as every overload it fits binds them (``torch.full``
    has three that bind ``size`` and ``fill_value`` alike); else its keyword arguments."""
    found = [b.arguments for b in bindings]
    if found and all(a.keys() == found[0].keys() and all(a[k] is found[0][k] for k in a) for a in found):
        return found[0]
    return {k.arg: k.value for k in call.keywords if k.arg}


def _inferred_dtype(arguments: dict[str, ast.expr], plan: ArgumentPlan, mindspore_api: str,
                    overload) -> tuple[str, str | None, str] | None:
    """(dtype parameter, dtype, MindSpore default) where torch infers the dtype from an argument the call
    passes and MindSpore's default is fixed (``value_forms.DTYPE_FROM``); dtype ``None``: not shown."""
    targets = dict(plan.targets)
    passed = {targets.get(name, name): node for name, node in arguments.items()}
    found = inferred_dtype(mindspore_api, passed)
    if found is None:
        return None
    defaults = {p["name"]: p.get("default") for p in overload}
    return (found[0], found[1], defaults.get(found[0]) or "")


def _argument_forms(call: ast.Call, arguments: dict[str, ast.expr], plan: ArgumentPlan, mindspore_api: str,
                    is_tensor: Callable[[ast.expr], bool] | None) -> list[tuple[str, str, str, ast.expr]]:
    """(where (positional index or keyword), form, text, node) of the arguments MindSpore takes in
    another form (``value_forms.ARGUMENT_FORMS``: int32 indices, a Tensor for a number)."""
    targets = dict(plan.targets)
    found = []
    for name, node in arguments.items():
        form = argument_form(mindspore_api, targets.get(name, name))
        if form is None or isinstance(node, ast.Starred):
            continue
        if not needed(form, node, bool(is_tensor and is_tensor(node))):
            continue
        found.append((_where(call, node, name), form, ast.unparse(node), node))
    return found


def _where(call: ast.Call, node: ast.expr, name: str) -> str:
    """Where ``call`` passes the argument ``node`` (bound to torch's ``name``), as the fix's argument plan
    says it: its positional index (digits), or its keyword."""
    index = next((i for i, arg in enumerate(call.args) if arg is node), None)
    return str(index) if index is not None else name


def _plain_value(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple):
        return all(_plain_value(e) for e in node.elts)
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name | ast.Constant)


def _converted_values(call: ast.Call, binding: Binding | None, plan: ArgumentPlan,
                      mindspore_api: str) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """Arguments passed for a MindSpore parameter that takes torch's values in another meaning (BatchNorm's
    momentum, ``param_facts.VALUE_MEANINGS``): (torch name, where (positional index or keyword), value,
    MindSpore value); and those no MindSpore value can be written for (``momentum=None``), as value-type
    items."""
    targets = dict(plan.targets)
    arguments = binding.arguments if binding else {k.arg: k.value for k in call.keywords if k.arg}
    converted: list[tuple[str, str, str, str]] = []
    unwritable: list[str] = []
    for name, node in arguments.items():
        target = targets.get(name)
        if not converts(mindspore_api, target) or isinstance(node, ast.Starred):
            continue
        text = ast.unparse(node)
        new = mindspore_value(mindspore_api, target, text)
        if new is None:
            unwritable.append(f"{name}: {text} (MindSpore means its values otherwise)")
            continue
        if new == text:  # a value the table keeps (param_facts.KEEP_OTHERS)
            continue
        converted.append((name, _where(call, node, name), text, new))
    return converted, unwritable


def _value_types(binding: Binding | None, plan: ArgumentPlan, overload, is_tensor) -> list[str]:
    """Arguments whose literal value has the type of the torch default but not of the MindSpore one
    (``nn.GELU(approximate='tanh')``: MindSpore 2.10's approximate is a bool)."""
    if binding is None:
        return []
    targets = dict(plan.targets)
    torch_defaults = {p["name"]: p.get("default") for p in binding.signature}
    ms_defaults = {p["name"]: p.get("default") for p in overload}
    found = []
    for name, node in binding.arguments.items():
        target = targets.get(name)
        torch_kind, ms_kind = literal_kind(torch_defaults.get(name)), literal_kind(ms_defaults.get(target))
        kinds = {torch_kind, ms_kind}
        if None in kinds or len(kinds) == 1 or kinds == {"int", "float"}:
            continue
        if argument_kind(node, is_tensor) == torch_kind:
            shown = f"{name}: {ast.unparse(node)}"
            found.append(f"{shown} (MindSpore: a {ms_kind}, default {ms_defaults[target]})")
    return found


def _opaque(signature) -> bool:
    """``(*args, **kwargs)``: a wrapper's signature says nothing about the parameters."""
    return all(p.get("kind") in ("var_positional", "var_keyword") for p in signature) and bool(signature)


def _defaults(binding: Binding | None, plan: ArgumentPlan, row: MappingRow | None, ms_overload,
              passed: set[str], skipped: set[str],
              mindspore_api: str) -> dict[str, tuple[str | None, str, str]]:
    """Parameters the call leaves out whose defaults differ: name → (MindSpore name, torch default,
    MindSpore default); ``skipped``: MindSpore parameters stated otherwise (companions). A default that
    means the same once converted to MindSpore's meaning (BatchNorm's momentum 0.1 and 0.9) does not
    differ."""
    found: dict[str, tuple[str | None, str, str]] = {}
    targets = dict(plan.targets)
    if row is not None:
        for diff in row.default_differences:
            known = diff.torch_default is not None and diff.mindspore_default is not None
            if known and diff.param not in passed:
                found[diff.param] = (targets.get(diff.param), diff.torch_default or "",
                                     diff.mindspore_default or "")
    if binding is not None and binding.complete:
        for name, torch_default, ms_default in default_differences(binding.signature, ms_overload, targets):
            if name not in passed:
                found.setdefault(name, (targets.get(name), torch_default, ms_default))
    return {name: fact for name, fact in found.items()
            if fact[0] not in skipped and not _same_meaning(mindspore_api, *fact)}


def _same_meaning(mindspore_api: str, target: str | None, torch_default: str, ms_default: str) -> bool:
    value = mindspore_value(mindspore_api, target, torch_default)
    return value is not None and value != torch_default and same_default(value, ms_default)


def _torch_defaults_to_pass(defaults: dict[str, tuple[str | None, str, str]],
                            mindspore_api: str) -> list[tuple[str, str]]:
    """(MindSpore name, value): left-out defaults the quick-fix passes explicitly, where the torch default
    is a literal of the type MindSpore's default has (``has_bias=True``, ``start_dim=0``), in MindSpore's
    meaning of the parameter (``param_facts.mindspore_value``)."""
    found = []
    for target, torch_default, ms_default in defaults.values():
        kinds = {literal_kind(torch_default), literal_kind(ms_default)}
        if ms_default == REQUIRED:  # MindSpore requires it: torch's default, of whatever literal type
            kinds = {literal_kind(torch_default)}
        value = mindspore_value(mindspore_api, target, torch_default)
        if target and value and None not in kinds and (len(kinds) == 1 or kinds == {"int", "float"}):
            found.append((target, value))
    return found


def _default_item(name: str, target: str | None, torch_default: str, ms_default: str) -> str:
    """``start_dim: 0 vs 1``, ``bias→has_bias: True vs False``."""
    shown = name if target in (None, name) else f"{name}→{target}"
    return f"{shown}: {torch_default} vs {'—' if ms_default == REQUIRED else ms_default}"


def _harmless(name: str, value: ast.expr | None) -> bool:
    if name not in _HARMLESS or value is None:
        return False
    allowed = _HARMLESS[name]
    return allowed is None or ast.unparse(value) in allowed


def _row_beyond_call(row: MappingRow, torch_signatures) -> MappingRow:
    """The row's facts a call's own facts do not cover: the parameter renames, unsupported parameters and
    defaults are checked per call; MindSpore-only parameters that torch has too are not MindSpore-only."""
    torch_names = {p["name"] for signature in torch_signatures for p in signature}
    only = tuple(n for n in row.mindspore_only_params if n not in torch_names)
    return replace(row, param_renames={}, input_renames={}, torch_only_params=(), default_differences=(),
                   mindspore_only_params=only)


def _plan_args(plan: ArgumentPlan, added=(), retyped=(), values=(), forms=(), result="",
               absent=(), packed: int | None = None) -> CallPlan:
    """The quick-fix's argument plan for this call (``model/resolution.ArgPlan``; the resolution adds the
    keywords dropped and the argument that blocks the rewrite, ``analysis/resolution.py``)."""
    return CallPlan(renames=tuple(plan.renames), to_keyword=tuple(plan.to_keyword),
                    missing=tuple(plan.missing),
                    added=tuple(added), retyped=tuple(retyped), meanings=tuple(values), forms=tuple(forms),
                    result_form=result, absent=tuple(absent), packed=packed)


def _absent_positions(call: ast.Call, positional: list[str | None], plan: ArgumentPlan,
                      mindspore_api: str, is_class: bool) -> tuple[tuple[int, str], ...]:
    """(index, torch name) of the arguments by position that ``mindspore_api`` has no parameter for and
    that can be dropped (:func:`_droppable`: ``nn.ReLU(True)``'s inplace); for a class, also the last one
    when it is one of :data:`OUT_OF_PLACE` (``nn.SiLU(True)``: the arguments before it keep their places)."""
    moved = {index for index, _name in plan.to_keyword}
    last = len(call.args) - 1
    return tuple((i, name) for i, name in enumerate(positional)
                 if i < len(call.args) and i not in moved
                 and (name in plan.missing or (is_class and name in OUT_OF_PLACE and i == last))
                 and _droppable(name, call.args[i], mindspore_api))


def _droppable(name: str, value: ast.expr, mindspore_api: str) -> bool:
    """Whether an argument for ``name``, a parameter ``mindspore_api`` lacks, can be dropped wherever it is
    passed: placement or layout (:data:`_HARMLESS`), or a value meaning what its absence means
    (``param_facts.ABSENT_MEANS``)."""
    return _harmless(name, value) or means_absent(mindspore_api, name, ast.unparse(value))


def _items(values) -> str:
    values = list(values)
    text = ", ".join(values[:_MAX_ITEMS])
    return text + (", …" if len(values) > _MAX_ITEMS else "")
