"""Quick-fixes for mapped torch APIs (MSM100 consistent, MSM101 with differences).

One fix per finding: write the MindSpore name (see ``fixes/imports.py`` for the spelling and the
import it adds), rename keyword arguments per the row's ``param_renames`` / ``input_renames``, and drop
general-difference keyword arguments where dropping keeps the meaning (``out=None``,
``requires_grad=False``, ``device=…``). Where an argument cannot be carried over (``out=y``,
``requires_grad=True``, a torch-only parameter passed by keyword) the fix has no edits and its title
explains what to do by hand.
"""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize

from msmigrate.fixes.context import FixContext, bound_arguments, plain_reference
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.primitive_calls import is_primitive_call, primitive_call
from msmigrate.i18n import ref as message_ref
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.knowledge.derived import DerivedMapping
from msmigrate.knowledge.device_targets import (
    NO_EFFECT,
    DeviceTarget,
    OutOfPlaceTarget,
    in_place,
    out_of_place_target,
    runnable_targets,
)
from msmigrate.knowledge.model import MappingRow
from msmigrate.knowledge.param_facts import (
    MANUAL_REWRITES,
    class_as_partial,
    means_absent,
    method_as_function,
)
from msmigrate.knowledge.value_forms import (
    CHECKED_FORMS,
    CLASS_INDICES,
    CORRECTED_BY,
    TENSOR,
    TENSOR_PAIR,
    adapted,
    call_forms,
    class_indices_wrapping,
    output_shape_primitive,
    wrapping,
)
from msmigrate.model.finding import Finding, UsageKind

_MINDSPORE_NAME = re.compile(r"^mindspore(\.[A-Za-z_][A-Za-z0-9_]*)+$")

METHOD_USAGES = frozenset(
    {UsageKind.TENSOR_METHOD, UsageKind.TENSOR_ATTRIBUTE, UsageKind.MODULE_METHOD, UsageKind.OPTIMIZER_METHOD}
)
SKIPPED_USAGES = frozenset({UsageKind.IMPORT, UsageKind.PATTERN})

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
}
BLOCKED_KEY: dict[str, str] = {
    "out": "fix.blocked.out",
    "requires_grad": "fix.blocked.requires_grad",
    "layout": "fix.blocked.layout",
}


def _identifier(name: str | None) -> bool:
    return bool(name) and name.isidentifier() and not keyword.iskeyword(name)


def _general_params(kb: KnowledgeBase) -> frozenset[str]:
    try:
        listed = set(kb.general_difference_params)
    except (OSError, ValueError, KeyError):
        listed = set()
    return frozenset(listed | set(DROP_WHEN))


def _mindspore_accepts(kb: KnowledgeBase, mindspore_api: str, param: str) -> bool:
    for signature in kb.mindspore_signatures(mindspore_api):
        for p in signature:
            if p.get("name") == param or p.get("kind") == "var_keyword":
                return True
    return False


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


def _shape_of(kind: str | None) -> str | None:
    return _SHAPE.get(kind or "")


def _same_shape(kb: KnowledgeBase, torch_api: str, mindspore_api: str) -> bool:
    """False when the inventories say the two names are used differently (e.g. class vs function)."""
    entry = kb.mindspore_entry(mindspore_api)
    mindspore_shape = _shape_of(entry.get("kind")) if entry else None
    torch_shape = _shape_of(kb.torch_kind(torch_api))
    return torch_shape is None or mindspore_shape is None or torch_shape == mindspore_shape


def _is_member(api: str) -> bool:
    """Whether ``api`` names a member of a class (``mindspore.nn.Cell.recompute``)."""
    owner = api.rpartition(".")[0]
    return owner.rpartition(".")[2][:1].isupper()


def _droppable(param: str, value: ast.expr) -> bool:
    allowed = DROP_WHEN.get(param, ("None",))
    return allowed is None or ast.unparse(value) in allowed


def _separators(ctx: FixContext, call: ast.Call) -> tuple[list[tuple[int, int]], tuple[int, int]] | None:
    """Positions of the call's top-level commas and of its closing parenthesis (Finding coords)."""
    segment = ctx.text(call)
    line0, col0, end_line, end_col = ctx.node_range(call)
    func_end = ctx.node_range(call.func)[2:]
    commas: list[tuple[int, int]] = []
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(segment).readline):
            row, col = tok.start
            pos = (line0 + row - 1, col0 + col if row == 1 else col + 1)
            if pos < func_end or tok.type != tokenize.OP:
                continue
            if tok.string in "([{":
                depth += 1
            elif tok.string in ")]}":
                depth -= 1
            elif tok.string == "," and depth == 1:
                commas.append(pos)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return commas, (end_line, end_col - 1)


def _drop_edits(ctx: FixContext, call: ast.Call, dropped: set[int]) -> list[TextEdit] | None:
    """Edits removing the arguments at ``dropped`` (ids of keyword nodes) with their commas."""
    args: list[ast.AST] = sorted([*call.args, *call.keywords], key=lambda n: (n.lineno, n.col_offset))
    found = _separators(ctx, call)
    if found is None:
        return None
    commas, close = found
    if len(commas) < len(args) - 1:
        return None
    edits: list[TextEdit] = []
    i = 0
    while i < len(args):
        if id(args[i]) not in dropped:
            i += 1
            continue
        j = i
        while j + 1 < len(args) and id(args[j + 1]) in dropped:
            j += 1
        whole = _whole_lines(ctx, args[i], commas[j] if j < len(commas) else None, close)
        if whole is not None:
            edits.append(whole)
        elif i > 0:
            start = commas[i - 1]
            end = commas[j] if j < len(commas) else close
        elif j + 1 < len(args):
            start = ctx.node_range(args[0])[:2]
            end = ctx.node_range(args[j + 1])[:2]
        else:
            start, end = ctx.node_range(args[0])[:2], close
        if whole is None:
            edits.append(TextEdit(start[0], start[1], end[0], end[1], ""))
        i = j + 1
    return edits


def _whole_lines(
    ctx: FixContext, first: ast.AST, comma: tuple[int, int] | None, close: tuple[int, int]
) -> TextEdit | None:
    """Delete whole lines when the arguments sit on lines of their own (``    device=d,  # note``)."""
    if comma is None:
        return None
    line, column = ctx.node_range(first)[:2]
    if ctx.lines[line - 1][: column - 1].strip():
        return None
    comma_line, comma_column = comma
    rest = ctx.lines[comma_line - 1][comma_column:]
    if rest.strip() and not rest.lstrip().startswith("#"):
        return None
    if comma_line >= close[0]:
        return None
    return TextEdit(line, 1, comma_line + 1, 1, "")


def _append_keywords(ctx: FixContext, call: ast.Call, keywords: list[str]) -> TextEdit | None:
    """An edit adding ``keywords`` after the call's last argument."""
    found = _separators(ctx, call)
    if found is None:
        return None
    commas, (line, column) = found
    count = len(call.args) + len(call.keywords)
    if count == 0:
        text = ", ".join(keywords)
    elif len(commas) >= count:  # a trailing comma
        text = " " + ", ".join(keywords)
    else:
        text = ", " + ", ".join(keywords)
    return TextEdit(line, column, line, column, text)


def _explain(finding: Finding, mindspore_api: str, key: str, **args: object) -> Fix:
    return Fix(
        finding.rule, key, [], {"torch_api": finding.torch_api, "mindspore_api": mindspore_api, **args}
    )


def _argument_edits(
    ctx: FixContext, finding: Finding, call: ast.Call, row: MappingRow | None, mindspore_api: str
) -> tuple[list[TextEdit], list[str]] | Fix | None:
    """Keyword renames and drops for a call, or an explaining Fix when an argument blocks the fix.

    With the call's argument plan (``message_args["arg_plan"]``, checked against the installed MindSpore
    signature by ``analysis/call_facts.py``) only its renames are made, and the arguments by position that
    would land on another MindSpore parameter are passed by keyword; without one, the row's renames."""
    plan = finding.message_args.get("arg_plan")
    if plan is not None:
        renames = {old: new for old, new in plan[0]}
        missing = set(plan[2])
    else:
        renames = {**(row.input_renames if row else {}), **(row.param_renames if row else {})}
        missing = set()
    general = _general_params(ctx.kb)
    torch_only = (set(row.torch_only_params) if row else set()) | missing
    edits: list[TextEdit] = []
    changes: list[str] = []
    dropped: set[int] = set()
    if plan is not None:
        passed = {kw.arg for kw in call.keywords}
        for index, name in plan[8] if len(plan) > 8 else ():  # by position, meaning what its absence means
            position = int(index)
            if position >= len(call.args):
                return None
            dropped.add(id(call.args[position]))
            changes.append(f"−{name}")
            passed.add(name)
        for name in sorted(missing - passed):  # an argument by position MindSpore has no parameter for
            return _explain(finding, mindspore_api, "fix.blocked.unsupported", param=name)
        for name in plan[4] if len(plan) > 4 else ():  # a value of another type in MindSpore
            return _explain(finding, mindspore_api, "fix.blocked.value_type", param=name)
        added = [(name, _spelled(ctx, value, call.lineno, edits)) for name, value in
                 (plan[3] if len(plan) > 3 else ())]
        if added:
            edit = _append_keywords(ctx, call, [f"{name}={value}" for name, value in added])
            if edit is None:
                return None
            edits.append(edit)
            changes.extend(f"+{name}={value}" for name, value in added)
        values = dict(plan[5]) if len(plan) > 5 else {}
        # values MindSpore takes in another form: text written around the argument (insertions only,
        # so that fixes inside the argument, torch.tensor(…) → mindspore.tensor(…), still apply)
        wraps: dict[str, tuple[str, str]] = {}
        for where, form in plan[6] if len(plan) > 6 else ():
            node = _argument(call, where)
            if node is None or where in values:
                return None
            tensor = _spelled(ctx, "mindspore.tensor", call.lineno, edits) if form in (TENSOR, TENSOR_PAIR) \
                else "mindspore.tensor"
            wraps[where] = wrapping(form, node, tensor)
            changes.append(adapted(form, ctx.text(node), node, tensor))
        moved = {index for index, _name in plan[1]}
        for index, name in plan[1]:
            position = int(index)
            if position >= len(call.args) or not _identifier(name):
                return None
            line, col, end_line, end_col = ctx.node_range(call.args[position])
            if index in values:
                edits.append(TextEdit(line, col, end_line, end_col, f"{name}={values[index]}"))
                changes.append(f"{name}={values[index]}")
            else:
                edits.append(TextEdit(line, col, line, col, f"{name}=" + wraps.get(index, ("", ""))[0]))
                changes.append(f"{name}=")
        for where, (prefix, suffix) in wraps.items():
            line, col, end_line, end_col = ctx.node_range(_argument(call, where))  # type: ignore[arg-type]
            if prefix and where not in moved:
                edits.append(TextEdit(line, col, line, col, prefix))
            edits.append(TextEdit(end_line, end_col, end_line, end_col, suffix))
        for where, value in values.items():  # a value MindSpore means otherwise (BatchNorm's momentum)
            if where in moved:
                continue
            node = _argument(call, where)
            if node is None:
                return None
            edits.append(TextEdit(*ctx.node_range(node), value))
            changes.append(f"{where}→{value}" if not where.isdigit() else value)
    for kw in call.keywords:
        name = kw.arg
        if name is None:
            continue
        new = renames.get(name)
        if _identifier(new) and new != name:
            line, col = ctx.node_range(kw)[:2]
            edits.append(TextEdit(line, col, line, col + len(name), new))
            changes.append(f"{name}→{new}")
        elif name in general and not _mindspore_accepts(ctx.kb, mindspore_api, name):
            if _droppable(name, kw.value):
                dropped.add(id(kw))
                changes.append(f"−{name}")
            else:
                key = BLOCKED_KEY.get(name, "fix.blocked.value")
                return _explain(finding, mindspore_api, key, param=name, value=ast.unparse(kw.value))
        elif (
            name in torch_only and name not in renames and not _mindspore_accepts(ctx.kb, mindspore_api, name)
        ):
            if not means_absent(mindspore_api, name, ast.unparse(kw.value)):
                return _explain(finding, mindspore_api, "fix.blocked.unsupported", param=name)
            dropped.add(id(kw))
            changes.append(f"−{name}")
    if dropped:
        drops = _drop_edits(ctx, call, dropped)
        if drops is None:
            return None
        edits.extend(drops)
    return edits, changes


def _property_as_call(ctx: FixContext, finding: Finding, ref: ast.expr, mindspore_api: str) -> Fix | None:
    """``x.real`` → ``x.real()`` where the inventories list torch's member as a property and MindSpore's
    as a method that needs no argument; not where the code writes through the property (``x.real[0] = 1``,
    ``x.real.zero_()``: MindSpore's method returns a new tensor)."""
    if finding.usage not in METHOD_USAGES or not isinstance(ref, ast.Attribute) or ctx.call_of(finding):
        return None
    if _shape_of(ctx.kb.torch_kind(finding.torch_api)) != "attribute":
        return None
    entry = ctx.kb.mindspore_entry(mindspore_api)
    signatures = ctx.kb.mindspore_signatures(mindspore_api)
    if not entry or _shape_of(entry.get("kind")) != "method" or not any(
            all("default" in p or p.get("kind") in ("var_positional", "var_keyword") for p in signature)
            for signature in signatures):
        return None
    if not isinstance(ref.ctx, ast.Load) or _written_through(ctx, ref):
        return None
    owner, _, new_name = mindspore_api.rpartition(".")
    if not owner.rpartition(".")[2][:1].isupper():
        return None
    line, col, end_line, end_col = ctx.node_range(ref)
    edit = TextEdit(end_line, end_col - len(ref.attr), end_line, end_col, f"{new_name}()")
    return Fix(finding.rule, "fix.property_to_method", [edit],
               {"torch_api": finding.torch_api, "mindspore_api": mindspore_api, "torch_name": ref.attr,
                "mindspore_name": new_name})


def _written_through(ctx: FixContext, ref: ast.Attribute) -> bool:
    """Whether the statement holding ``ref`` assigns into it or calls an in-place method on it."""
    index = ctx.statement_index(ref.lineno)
    if index is None:
        return True
    for node in ast.walk(ctx.tree.body[index]):
        if isinstance(node, ast.Subscript | ast.Attribute) and node.value is ref:
            if not isinstance(node.ctx, ast.Load):
                return True
            if isinstance(node, ast.Attribute) and in_place(node.attr):  # x.real.zero_()
                return True
        if isinstance(node, ast.AugAssign) and node.target is ref:
            return True
    return False


def _argument(call: ast.Call, where: str) -> ast.expr | None:
    """The argument of ``call`` at positional index ``where`` (digits), or passed as keyword ``where``."""
    if where.isdigit():
        return call.args[int(where)] if int(where) < len(call.args) else None
    return next((kw.value for kw in call.keywords if kw.arg == where), None)


def _spelled(ctx: FixContext, value: str, line: int, edits: list[TextEdit]) -> str:
    """``value`` as written at ``line``: a MindSpore name (``mindspore.float32``) in the file's spelling,
    its import added to ``edits`` once; any other text as it is."""
    if not _MINDSPORE_NAME.match(value):
        return value
    text, imports = ctx.mindspore_reference(value, line)
    edits.extend(edit for edit in imports if edit not in edits)
    return text


def _result_edits(ctx: FixContext, finding: Finding, call: ast.Call | None) -> list[TextEdit]:
    """The edits turning the call's MindSpore result into torch's form (``[0]``, ``.long()``,
    ``bool(…)``, ``mindspore.ops.sort(…[0])[0]``), if any (the prefix and suffix first)."""
    plan = finding.message_args.get("arg_plan")
    form = plan[7] if plan is not None and len(plan) > 7 else ""
    if not form or call is None:
        return []
    line, col, end_line, end_col = ctx.node_range(call)
    imports: list[TextEdit] = []
    function = _spelled(ctx, CHECKED_FORMS[form], line, imports) if form in CHECKED_FORMS else None
    prefix, suffix = wrapping(form, call, function=function)
    edits = [TextEdit(end_line, end_col, end_line, end_col, suffix)]
    return [TextEdit(line, col, line, col, prefix), *edits, *imports] if prefix else edits


def replace_api(ctx: FixContext, finding: Finding) -> Fix | None:
    """Rewrite one mapped torch reference (and its call's keyword arguments) to MindSpore."""
    if finding.usage in SKIPPED_USAGES or not finding.torch_api:
        return None
    row = ctx.kb.mapping(finding.torch_api)
    mindspore_api = finding.mindspore_api or (row.mindspore_api if row else None)
    out = out_of_place_target(finding.torch_api, ctx.kb.version, ctx.device)
    if row is not None and mindspore_api == row.mindspore_api and out is None:
        swaps = runnable_targets(finding.torch_api, ctx.kb.version, ctx.device)
        if swaps:
            return _device_fix(ctx, finding, swaps)
    if out is not None and mindspore_api == out.replaced:
        fix = _out_of_place_fix(ctx, finding, out)
        if fix is not None:
            return fix
    fix = _replace(ctx, finding, row, mindspore_api)
    if fix is None and mindspore_api and not _same_shape(ctx.kb, finding.torch_api, mindspore_api):
        fix = _same_shape_candidate(ctx, finding, mindspore_api)
    return fix


def written_target(ctx: FixContext, finding: Finding) -> str | None:
    """The MindSpore name :func:`replace_api` writes for ``finding`` (the device-aware target included)."""
    if not finding.torch_api:
        return None
    row = ctx.kb.mapping(finding.torch_api)
    mindspore_api = finding.mindspore_api or (row.mindspore_api if row else None)
    out = out_of_place_target(finding.torch_api, ctx.kb.version, ctx.device)
    if row is not None and mindspore_api == row.mindspore_api and out is None:
        swaps = runnable_targets(finding.torch_api, ctx.kb.version, ctx.device)
        if swaps:  # the first replacement (the call itself may be outside a partial context)
            return swaps[0].row.mindspore_api
    if out is not None and mindspore_api == out.replaced:
        return out.row.mindspore_api
    return mindspore_api


# the title of a replacement whose only recorded failure is the int32 dtype, by the check's note
_SAME_VALUES_TITLES = {"random_int32_indices": "fix.device_target_random_int32"}
# the title of a (verified) replacement of a target that runs on the device without effect
_NO_EFFECT_TITLES = {"fix.device_target": "fix.device_target_no_effect",
                     "fix.device_target_derived": "fix.device_target_derived_no_effect"}


def _device_fix(ctx: FixContext, finding: Finding, swaps: tuple[DeviceTarget, ...]) -> Fix | None:
    """The fix writing the first replacement target (without a kernel for the table's target on the
    device) that this call can be rewritten to; else the first one's explanation."""
    first: Fix | None = None
    for swap in swaps:
        planned = _planned_for(ctx, finding, swap.row, swap.table, swap.derived)
        plan = planned.message_args.get("arg_plan")
        if swap.form and (plan is None or len(plan) <= 7 or plan[7] != swap.form):
            # checked with its result in torch's form, which this call does not get written
            first = first or _explain(finding, swap.row.mindspore_api or "",
                                      "fix.device_target_form_not_written", replaced=swap.replaced,
                                      device=swap.device)
            continue
        fix = _replace(ctx, planned, swap.row, swap.row.mindspore_api)
        if fix is None or not fix.edits:
            first = first or fix
            continue
        base = (message_ref(fix.title_key, **fix.title_args),)
        if swap.reason is not None:
            why = (message_ref(swap.reason, replaced=swap.replaced, device=swap.device, table=swap.table),)
            return Fix(fix.rule, "fix.device_target_reason", fix.edits, {"base": base, "why": why},
                       by_hand=fix.by_hand)
        if swap.form:
            key = "fix.device_target_checked_form"
        elif not swap.verified and swap.note in CORRECTED_BY:
            formed = plan is not None and len(plan) > 7 and bool(plan[7])
            key = "fix.device_target_result_form" if formed else "fix.device_target_result_form_unchecked"
        elif swap.derived is not None:
            key = "fix.device_target_derived" if swap.verified else "fix.device_target_derived_int32"
        elif swap.verified:
            key = "fix.device_target"
        else:
            key = _SAME_VALUES_TITLES.get(swap.note or "", "fix.device_target_int32_indices")
        if swap.failure == NO_EFFECT:
            key = _NO_EFFECT_TITLES.get(key, key)
        return Fix(fix.rule, key, fix.edits,
                   {"base": base, "replaced": swap.replaced, "device": swap.device, "table": swap.table},
                   by_hand=fix.by_hand)
    return first


def _out_of_place_fix(ctx: FixContext, finding: Finding, found: OutOfPlaceTarget) -> Fix | None:
    """``x.clamp_(a, b)`` → ``x.assign_value(x.clamp(a, b))`` where the in-place API's target has no kernel
    on the device and its out-of-place counterpart's target was verified there: ``assign_value`` writes
    the result into the tensor and returns it, as torch's in-place call does. Only for a tensor written as
    a name or an attribute (evaluated twice); None where the call cannot be rewritten."""
    from dataclasses import replace

    call = ctx.call_of(finding)
    ref = ctx.reference_of(finding)
    if call is None or ref is None:
        return None
    if finding.usage is UsageKind.TENSOR_METHOD:
        tensor = ref.value if isinstance(ref, ast.Attribute) and call.func is ref else None
    else:
        inputs = [k.value for k in call.keywords if k.arg == "input"]
        tensor = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else next(
            iter(inputs), None)
    if tensor is None or not plain_reference(tensor) or _through_tensor_attribute(ctx, tensor):
        return None
    counterpart = replace(finding, torch_api=found.torch_api, mindspore_api=found.row.mindspore_api)
    planned = _planned_for(ctx, counterpart, found.row, found.table, found.derived)
    own = found.replaced == found.row.mindspore_api  # the API's own target returns a new tensor
    if own and not _positions_named(planned, call, finding.usage is UsageKind.TENSOR_METHOD):
        return None
    fix = _replace(ctx, planned, found.row, found.row.mindspore_api, wrapped=True)
    if fix is None or not fix.edits:
        return fix
    line, column, end_line, end_column = ctx.node_range(call)
    start, end = (line, column), (end_line, end_column)
    receiver = ctx.text(tensor)
    edits = list(fix.edits)
    opening = next((i for i, e in enumerate(edits) if (e.line, e.column) == start), None)
    if opening is None:
        edits.append(TextEdit(*start, *start, f"{receiver}.assign_value("))
    else:
        e = edits[opening]
        edits[opening] = TextEdit(e.line, e.column, e.end_line, e.end_column,
                                  f"{receiver}.assign_value({e.new_text}")
    closing = next((i for i, e in enumerate(edits)
                    if (e.line, e.column) == end and (e.end_line, e.end_column) == end), None)
    if closing is None:
        edits.append(TextEdit(*end, *end, ")"))
    else:
        e = edits[closing]
        edits[closing] = TextEdit(e.line, e.column, e.end_line, e.end_column, e.new_text + ")")
    base = (message_ref(fix.title_key, **fix.title_args),)
    key = "fix.in_place_new_tensor" if own else "fix.in_place_out_of_place"
    return Fix(fix.rule, key, edits,
               {"base": base, "replaced": found.replaced, "device": found.device, "tensor": receiver})


def _through_tensor_attribute(ctx: FixContext, node: ast.expr) -> bool:
    """Whether ``node`` reads a torch Tensor attribute (``x.imag``, ``p.grad``): a view of another tensor
    in torch, in MindSpore a method or missing, so ``x.imag.assign_value`` would not write into ``x``."""
    while isinstance(node, ast.Attribute):
        if _shape_of(ctx.kb.torch_kind(f"torch.Tensor.{node.attr}")) == "attribute":
            return True
        node = node.value
    return False


def _positions_named(planned: Finding, call: ast.Call, method: bool) -> bool:
    """Whether the plan passes every argument given by position (the tensor of a function call aside) by
    keyword: an in-place API's own target was checked with its arguments placed for it (x.scatter_'s dim
    goes last in ops.tensor_scatter_elements), which a call that the plan cannot name may not get."""
    plan = planned.message_args.get("arg_plan")
    named = {int(i) for i, _name in plan[1]} if plan else set()
    return all(i in named for i in range(0 if method else 1, len(call.args)))


def _planned_for(ctx: FixContext, finding: Finding, row: MappingRow, table: str,
                 derived: DerivedMapping | None = None) -> Finding:
    """The finding with the argument plan of this call for the replacement target ``row`` (of table
    ``table``, or a ``derived`` candidate; the plan the analysis made is for the selected table's target),
    or with none (the row's renames apply)."""
    from dataclasses import replace

    from msmigrate.analysis.call_facts import call_verdict
    from msmigrate.analysis.categorize import categorize, derived_verdict
    from msmigrate.knowledge.base import get_knowledge_base

    args = {k: v for k, v in finding.message_args.items() if k != "arg_plan"}
    call = ctx.call_of(finding)
    if call is not None and finding.torch_api:
        kb = get_knowledge_base(table)
        if derived is not None:
            verdict = derived_verdict(finding.torch_api, derived, kb)
        else:
            verdict = categorize(finding.torch_api, kb)
            if row.torch_api != verdict.torch_api and row.mindspore_api:  # another torch API's row
                verdict = replace(verdict, mindspore_api=row.mindspore_api)
        found = call_verdict(verdict, call, kb, row=row)
        if found is not None and "arg_plan" in found.message_args:
            args["arg_plan"] = found.message_args["arg_plan"]
    return replace(finding, message_args=args)


def _same_shape_candidate(ctx: FixContext, finding: Finding, mindspore_api: str) -> Fix | None:
    """A mapping whose target is used differently (``torch.tensor`` → the class ``mindspore.Tensor``,
    ``torch.nn.Flatten`` → the function ``mindspore.mint.flatten``): the fix writes the other derived
    candidate that is used the same way (the function ``mindspore.tensor``), if one passed or needed no
    check, else the target of another official table used the same way (``mindspore.nn.Flatten``) whose
    check on the device did not fail, newest table first."""
    from msmigrate.check.verified import verified_status
    from msmigrate.knowledge.base import VERSIONS, get_knowledge_base

    api = finding.torch_api or ""
    entry = ctx.kb.derived_table.entry(api) if api else None
    for candidate in entry.candidates if entry else ():
        if candidate.check == "fail" or candidate.mindspore_api == mindspore_api:
            continue
        if _same_shape(ctx.kb, api, candidate.mindspore_api):  # its own argument plan, not the target's
            planned = _planned_for(ctx, finding, candidate.row, ctx.kb.version, candidate)
            return _replace(ctx, planned, candidate.row, candidate.mindspore_api)
    newest_first = sorted((v for v in VERSIONS if v != ctx.kb.version),
                          key=lambda v: tuple(int(p) for p in v.split(".")), reverse=True)
    for table in newest_first:
        row = get_knowledge_base(table).row(api)
        target = row.mindspore_api if row is not None else None
        if not target or target == mindspore_api or not ctx.kb.mindspore_has(target):
            continue
        status = verified_status(row.torch_api, table, ctx.device)
        if (status is None or status.passed) and _same_shape(ctx.kb, api, target):
            fix = _replace(ctx, _planned_for(ctx, finding, row, table), row, target)
            if fix is None or not fix.edits:
                return fix
            base = (message_ref(fix.title_key, **fix.title_args),)
            return Fix(fix.rule, "fix.other_table_target", fix.edits,
                       {"base": base, "replaced": mindspore_api, "table": table}, by_hand=fix.by_hand)
    return None


def _replace(ctx: FixContext, finding: Finding, row: MappingRow | None,
             mindspore_api: str | None, wrapped: bool = False) -> Fix | None:
    """The fix writing ``mindspore_api`` for the finding (``wrapped``: the out-of-place counterpart of an
    in-place call, whose result :func:`_out_of_place_fix` writes back)."""
    if not mindspore_api or not _MINDSPORE_NAME.match(mindspore_api):
        return None
    ref = ctx.reference_of(finding)
    if ref is None:
        return None
    call = ctx.call_of(finding)
    manual = MANUAL_REWRITES.get((finding.torch_api or "", mindspore_api))
    if call is not None and manual is not None:
        return _explain(finding, mindspore_api, manual)
    writer = output_shape_primitive(row.torch_api if row is not None else finding.torch_api, mindspore_api)
    if writer is not None:
        return _primitive_call(ctx, finding, call, mindspore_api, writer) if call is not None else None
    # x.scatter_(…) changes x: a function returning a new tensor stands for it only when the result is
    # written back (``wrapped``)
    as_function = (finding.usage is UsageKind.TENSOR_METHOD and call is not None
                   and isinstance(ref, ast.Attribute) and (wrapped or not in_place(ref.attr))
                   and method_as_function(ctx.kb.torch_kind(finding.torch_api),
                                          ctx.kb.mindspore_kind(mindspore_api)))
    if (call is not None and not as_function and ctx.kb.torch_kind(finding.torch_api) == "function"
            and is_primitive_call(ctx.kb, finding.torch_api or "", mindspore_api)):
        review = finding.rule == "MSM101" if "arg_plan" in finding.message_args else bool(
            row is not None and row.has_differences)
        return primitive_call(ctx, finding, call, row, mindspore_api, review)
    as_partial = (call is not None and call.func is ref and class_as_partial(finding.torch_api, mindspore_api)
                  and _instance_called(ctx, call))
    if not as_function and not as_partial and not _same_shape(ctx.kb, finding.torch_api, mindspore_api):
        # e.g. x.size() vs x.shape, a class vs a function: not a mechanical rewrite; but a torch property
        # that MindSpore offers as a method taking no argument is read by calling it (x.real → x.real())
        return _property_as_call(ctx, finding, ref, mindspore_api)
    edits: list[TextEdit] = []
    changes: list[str] = []
    if call is not None:
        outcome = _argument_edits(ctx, finding, call, row, mindspore_api)
        if outcome is None or isinstance(outcome, Fix):
            return outcome
        edits, changes = outcome
        result = _result_edits(ctx, finding, call)
        if result:
            edits.extend(result)
            shown = (result[0].new_text + "…" + result[1].new_text if len(result) > 1
                     else "(…)" + result[0].new_text)
            changes.append(f"→ {shown}")
    args = {"torch_api": finding.torch_api, "mindspore_api": mindspore_api}
    if "arg_plan" in finding.message_args:
        review = finding.rule == "MSM101"
    else:
        review = row is not None and row.has_differences
    if finding.usage in METHOD_USAGES:
        owner, _, new_name = mindspore_api.rpartition(".")
        if as_function:
            return _method_to_function(ctx, finding, ref, call, mindspore_api, edits, changes, review)
        if not isinstance(ref, ast.Attribute) or not owner.rpartition(".")[2][:1].isupper():
            return None  # MindSpore offers a function here, not a method: no mechanical rewrite
        if new_name != ref.attr:
            line, _, end_line, end_col = ctx.node_range(ref)
            edits.append(TextEdit(end_line, end_col - len(ref.attr), end_line, end_col, new_name))
        elif edits:  # the same name: only the arguments change
            return Fix(finding.rule, "fix.adapt_method", edits,
                       {**args, "torch_name": ref.attr, "changes": ", ".join(changes)})
        if not edits:
            return None
        return Fix(
            finding.rule,
            "fix.rename_method",
            edits,
            {**args, "torch_name": ref.attr, "mindspore_name": new_name},
        )
    if as_partial:
        return _class_as_partial(ctx, finding, ref, call, mindspore_api, edits, changes)  # type: ignore[arg-type]
    if _is_member(mindspore_api) and not _is_member(finding.torch_api):
        return None  # a free function / class would become a method of a MindSpore class
    text, import_edits = ctx.mindspore_reference(mindspore_api, ref.lineno)
    if ctx.text(ref) != text:
        edits.append(TextEdit(*ctx.node_range(ref), text))
        edits.extend(import_edits)
    if not edits:
        return None
    fix = _replace_fix(finding, mindspore_api, edits, changes, review)
    if call is not None and call_forms(mindspore_api) and ctx.kb.torch_kind(finding.torch_api) == "class":
        return _with_call_forms(ctx, fix, call, mindspore_api)
    return fix


def _with_call_forms(ctx: FixContext, fix: Fix, constructor: ast.Call, mindspore_class: str) -> Fix:
    """``fix`` (writing ``mindspore_class`` for the constructor call) with the arguments of the instance's
    calls that MindSpore takes in another form (``value_forms.CALL_FORMS``) adapted where the calls are
    seen (``fixes/instance_calls.py``) and the form is right for the value; the title says what is left
    to do by hand."""
    from msmigrate.fixes.instance_calls import dtype_class, instance_calls, rereadable, scope_of

    calls = instance_calls(ctx.tree, constructor, whole=not ctx.partial, up=ctx.parents)
    parameters = [p["name"] for signature in ctx.kb.mindspore_signatures(f"{mindspore_class}.construct")[:1]
                  for p in signature]
    edits, changes = list(fix.edits), []
    by_hand: dict[str, list[int]] = {}
    for param, form in sorted(call_forms(mindspore_class).items()):
        if form != CLASS_INDICES or param not in parameters:
            continue
        position = parameters.index(param)
        left = by_hand.setdefault(param, [])
        for call in calls or ():
            starred = any(isinstance(arg, ast.Starred) for arg in call.args[:position + 1])
            node = call.args[position] if position < len(call.args) and not starred else None
            text = ctx.text(node) if node is not None else ""
            found = None if node is None else class_indices_wrapping(
                text, node, dtype_class(node, scope_of(call, ctx.parents)), rereadable(node))
            if found is None:
                left.append(call.lineno)
                continue
            prefix, suffix = found
            if not prefix and not suffix:
                continue
            line, col, end_line, end_col = ctx.node_range(node)  # type: ignore[arg-type]
            if prefix:
                edits.append(TextEdit(line, col, line, col, prefix))
            edits.append(TextEdit(end_line, end_col, end_line, end_col, suffix))
            changes.append(f"{line}: {text} → {prefix}{text}{suffix}")
        if calls is not None and not left:
            del by_hand[param]
    if changes:
        fix = Fix(fix.rule, "fix.call_forms", edits,
                  {"base": (message_ref(fix.title_key, **fix.title_args),), "changes": "; ".join(changes)})
    for param, lines in by_hand.items():
        where = (message_ref("fix.call_forms.lines", lines=", ".join(map(str, sorted(set(lines))))),) \
            if calls is not None else (message_ref("fix.call_forms.unseen"),)
        fix = Fix(fix.rule, "fix.call_forms_by_hand.class_indices", fix.edits,
                  {"base": (message_ref(fix.title_key, **fix.title_args),), "mindspore_api": mindspore_class,
                   "param": param, "where": where}, by_hand=True)
    return fix


def _method_to_function(ctx: FixContext, finding: Finding, ref: ast.Attribute, call: ast.Call,
                        mindspore_api: str, edits: list[TextEdit], changes: list[str],
                        review: bool) -> Fix | None:
    """``x.roll(1, 0)`` → ``mindspore.numpy.roll(x, 1, 0)``: the method's tensor becomes the function's
    first argument (the argument edits, planned without that parameter, stay as they are)."""
    paren = _open_paren(ctx, call)
    if paren is None:
        return None
    text, import_edits = ctx.mindspore_reference(mindspore_api, ref.lineno)
    receiver = ctx.text(ref.value)
    after = ctx.lines[paren[0] - 1][paren[1]:].strip()  # the line's text after the parenthesis
    kept = [a for a in [*call.args, *call.keywords] if not _deleted(ctx, a, edits)]
    rest = ("," if not after or after.startswith("#") else ", ") if kept else ""
    line, column = ctx.node_range(ref.value)[:2]
    # text inserted where the call starts (a result form's ``mindspore.ops.sort(``) goes before the function
    start = (line, column) * 2
    before = "".join(e.new_text for e in edits if (e.line, e.column, e.end_line, e.end_column) == start)
    edits = [e for e in edits if (e.line, e.column, e.end_line, e.end_column) != start]
    edits = [TextEdit(line, column, paren[0], paren[1] + 1, f"{before}{text}({receiver}{rest}"), *edits,
             *import_edits]
    return _replace_fix(finding, mindspore_api, edits, changes, review)


def _deleted(ctx: FixContext, node: ast.AST, edits: list[TextEdit]) -> bool:
    """Whether one of ``edits`` deletes ``node`` (an argument the plan drops: ``memory_format=…``)."""
    line, column, end_line, end_column = ctx.node_range(node)
    return any(not e.new_text and (e.line, e.column) <= (line, column)
               and (e.end_line, e.end_column) >= (end_line, end_column) for e in edits)


def _primitive_call(ctx: FixContext, finding: Finding, call: ast.Call, mindspore_api: str,
                    writer: str) -> Fix | None:
    """The call written as the Primitive ``mindspore_api`` called with its output shape
    (``fixes/shape_primitives.py``), or None where the call's arguments do not allow it."""
    from msmigrate.fixes.shape_primitives import WRITERS

    signatures = ctx.kb.torch_signatures(finding.torch_api or "")
    bound = bound_arguments(call, [p["name"] for p in signatures[0]]) if len(signatures) == 1 else None
    primitive, import_edits = ctx.mindspore_reference(mindspore_api, call.lineno)
    text = WRITERS[writer](bound, ctx.text, primitive) if bound is not None else None
    if text is None:
        return None
    edits = [TextEdit(*ctx.node_range(call), text), *import_edits]
    return Fix(finding.rule, "fix.output_shape_primitive", edits,
               {"torch_api": finding.torch_api, "mindspore_api": mindspore_api})


def _instance_called(ctx: FixContext, call: ast.Call) -> bool:
    """Whether the instance ``call`` builds is only called, as a function is: the value assigned to a
    name or attribute (``self.unfold = nn.Unfold(2)``) or called at once (``nn.Unfold(2)(x)``); not an
    argument (``nn.Sequential(nn.Unfold(2), …)`` needs a Cell)."""
    index = ctx.statement_index(call.lineno)
    if index is None:
        return False
    for node in ast.walk(ctx.tree.body[index]):
        if isinstance(node, ast.Assign) and node.value is call:
            return all(isinstance(t, ast.Name | ast.Attribute) for t in node.targets)
        if isinstance(node, ast.AnnAssign) and node.value is call:
            return isinstance(node.target, ast.Name | ast.Attribute)
        if isinstance(node, ast.Call) and node.func is call:
            return True
    return False


def _class_as_partial(ctx: FixContext, finding: Finding, ref: ast.expr, call: ast.Call, mindspore_api: str,
                      edits: list[TextEdit], changes: list[str]) -> Fix | None:
    """``nn.Unfold(2)`` → ``functools.partial(mindspore.ops.unfold, kernel_size=2)``
    (``param_facts.CLASS_AS_PARTIAL``): the constructor's arguments, all passed by keyword by the argument
    edits, are bound to the function; the instance's input comes first where it is called."""
    plan = finding.message_args.get("arg_plan")
    moved = {int(index) for index, _name in plan[1]} if plan is not None else set()
    if plan is None or moved != set(range(len(call.args))) or any(k.arg is None for k in call.keywords):
        return None  # an argument by position would be the function's input
    paren = _open_paren(ctx, call)
    partial = ctx.module_reference("functools", "partial", ref.lineno)
    if paren is None or partial is None:
        return None
    text, import_edits = ctx.mindspore_reference(mindspore_api, ref.lineno)
    after = ctx.lines[paren[0] - 1][paren[1]:].strip()  # the line's text after the parenthesis
    kept = [a for a in [*call.args, *call.keywords] if not _deleted(ctx, a, edits)]
    rest = ("," if not after or after.startswith("#") else ", ") if kept else ""
    line, column = ctx.node_range(ref)[:2]
    added = _merged_inserts([*import_edits, *partial[1]])
    edits = [TextEdit(line, column, paren[0], paren[1] + 1, f"{partial[0]}({text}{rest}"), *edits, *added]
    args = {"torch_api": finding.torch_api, "mindspore_api": mindspore_api,
            "changes": ", ".join(changes) or "–"}
    return Fix(finding.rule, "fix.class_as_partial", edits, args)


def _merged_inserts(edits: list[TextEdit]) -> list[TextEdit]:
    """Insertions at one point made one edit (two would overlap), their texts in order."""
    merged: dict[tuple[int, int], TextEdit] = {}
    for e in edits:
        key = (e.line, e.column)
        found = merged.get(key)
        merged[key] = e if found is None else TextEdit(e.line, e.column, e.end_line, e.end_column,
                                                       found.new_text + e.new_text)
    return list(merged.values())


def _replace_fix(finding: Finding, mindspore_api: str, edits: list[TextEdit], changes: list[str],
                 review: bool) -> Fix:
    """The fix replacing the torch API by ``mindspore_api`` (titled with the argument ``changes``, and as
    one to review when the mapping has differences)."""
    args = {"torch_api": finding.torch_api, "mindspore_api": mindspore_api}
    edits = list(dict.fromkeys(edits))  # one import edit where the name and a result form both need it
    if changes:
        key = "fix.replace_api_with_args_review" if review else "fix.replace_api_with_args"
        return Fix(finding.rule, key, edits, {**args, "changes": ", ".join(changes)})
    return Fix(finding.rule, "fix.replace_api_review" if review else "fix.replace_api", edits, args)


def _open_paren(ctx: FixContext, call: ast.Call) -> tuple[int, int] | None:
    """The position of the call's opening parenthesis (Finding coordinates)."""
    line0, col0 = ctx.node_range(call)[:2]
    func_end = ctx.node_range(call.func)[2:]
    try:
        for tok in tokenize.generate_tokens(io.StringIO(ctx.text(call)).readline):
            row, col = tok.start
            pos = (line0 + row - 1, col0 + col if row == 1 else col + 1)
            if pos >= func_end and tok.type == tokenize.OP and tok.string == "(":
                return pos
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return None


FIXERS = {"MSM100": replace_api, "MSM101": replace_api}
