"""Quick-fixes for mapped torch APIs (MSM100 consistent, MSM101 with differences).

One fix per finding, writing what the finding's resolution says (``model/resolution.py``, computed by
``analysis/resolution.py``): its target, the way :class:`~msmigrate.model.resolution.Write` names (the
MindSpore name, see ``fixes/imports.py`` for the spelling and the import it adds; a method; a function
taking the method's tensor; a Primitive call; ``functools.partial``; an in-place call's result written back
with ``assign_value``), and its argument plan (renames, arguments by position passed by keyword, keywords
added and dropped, values in MindSpore's meaning and form, the result in torch's form). Where the plan
names an argument that blocks the rewrite (``out=y``, ``requires_grad=True``, a torch-only parameter
passed by keyword) the fix has no edits and its title explains what to do by hand. The fixer never
chooses a target: a call it cannot write gets no fix.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from msmigrate.analysis.resolution import ARGUMENT_WRITES, Resolver
from msmigrate.fixes.argument_edits import append_keywords, drop_edits
from msmigrate.fixes.call_tokens import open_paren as _open_paren
from msmigrate.fixes.context import FixContext, bound_arguments
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.packed_args import packed_edits
from msmigrate.fixes.primitive_calls import primitive_call
from msmigrate.i18n import ref as message_ref
from msmigrate.knowledge.device_targets import NO_EFFECT
from msmigrate.knowledge.model import MappingRow
from msmigrate.knowledge.resolution import MINDSPORE_NAME, row_of
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
from msmigrate.model.resolution import ArgPlan, Resolution, Write

SKIPPED_USAGES = frozenset({UsageKind.IMPORT, UsageKind.PATTERN})


def _explain(finding: Finding, mindspore_api: str, key: str, **args: object) -> Fix:
    return Fix(
        finding.rule, key, [], {"torch_api": finding.torch_api, "mindspore_api": mindspore_api, **args}
    )


def _argument_edits(ctx: FixContext, finding: Finding, call: ast.Call, plan: ArgPlan,
                    mindspore_api: str) -> tuple[list[TextEdit], list[str]] | Fix | None:
    """The edits the resolution's argument plan asks for (``analysis/resolution.py``: renames, arguments
    by position passed by keyword, keywords added and dropped, values in MindSpore's meaning and form), or
    the explaining Fix of the argument that blocks the rewrite."""
    if plan.blocked is not None:
        key, param, value = plan.blocked
        return _explain(finding, mindspore_api, key, param=param, **({"value": value} if value else {}))
    renames = dict(plan.renames)
    edits: list[TextEdit] = []
    changes: list[str] = []
    dropped: set[int] = set()
    for position, name in plan.absent:  # by position, meaning what its absence means
        if position >= len(call.args):
            return None
        dropped.add(id(call.args[position]))
        changes.append(f"−{name}")
    added = [(name, _spelled(ctx, value, call.lineno, edits)) for name, value in plan.added]
    if added:
        appended = append_keywords(ctx, call, [f"{name}={value}" for name, value in added])
        if appended is None:
            return None
        edits.extend(appended)
        changes.extend(f"+{name}={value}" for name, value in added)
    values = dict(plan.meanings)
    # values MindSpore takes in another form: text written around the argument (insertions only,
    # so that fixes inside the argument, torch.tensor(…) → mindspore.tensor(…), still apply)
    wraps: dict[str, tuple[str, str]] = {}
    for where, form in plan.forms:
        node = _argument(call, where)
        if node is None or where in values:
            return None
        tensor = _spelled(ctx, "mindspore.tensor", call.lineno, edits) if form in (TENSOR, TENSOR_PAIR) \
            else "mindspore.tensor"
        wraps[where] = wrapping(form, node, tensor)
        changes.append(adapted(form, ctx.text(node), node, tensor))
    moved = {str(index) for index, _name in plan.to_keyword}
    for position, name in plan.to_keyword:
        if position >= len(call.args) or not name.isidentifier():
            return None
        line, col, end_line, end_col = ctx.node_range(call.args[position])
        index = str(position)
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
    drops = set(plan.drops)
    for kw in call.keywords:
        name = kw.arg
        if name is None:
            continue
        new = renames.get(name)
        if new and new.isidentifier() and new != name and name not in drops:
            line, col = ctx.node_range(kw)[:2]
            edits.append(TextEdit(line, col, line, col + len(name), new))
            changes.append(f"{name}→{new}")
        elif name in drops:
            dropped.add(id(kw))
            changes.append(f"−{name}")
    if dropped:
        removed = drop_edits(ctx, call, dropped)
        if removed is None:
            return None
        edits.extend(removed)
    packed = packed_edits(ctx, call, plan.packed, edits) if plan.packed is not None else (edits, "")
    if packed is None:  # torch's separate sizes written as one tuple
        return None
    return packed[0], changes + ([packed[1]] if packed[1] else [])


def _property_as_call(ctx: FixContext, finding: Finding, ref: ast.expr, mindspore_api: str) -> Fix | None:
    """``x.real`` → ``x.real()`` (the resolution's :attr:`Write.PROPERTY_TO_METHOD`: torch's member is a
    property, MindSpore's a method that needs no argument, and the code does not write through it)."""
    if not isinstance(ref, ast.Attribute):
        return None
    new_name = mindspore_api.rpartition(".")[2]
    line, col, end_line, end_col = ctx.node_range(ref)
    edit = TextEdit(end_line, end_col - len(ref.attr), end_line, end_col, f"{new_name}()")
    return Fix(finding.rule, "fix.property_to_method", [edit],
               {"torch_api": finding.torch_api, "mindspore_api": mindspore_api, "torch_name": ref.attr,
                "mindspore_name": new_name})


def _argument(call: ast.Call, where: str) -> ast.expr | None:
    """The argument of ``call`` at positional index ``where`` (digits), or passed as keyword ``where``."""
    if where.isdigit():
        return call.args[int(where)] if int(where) < len(call.args) else None
    return next((kw.value for kw in call.keywords if kw.arg == where), None)


def _spelled(ctx: FixContext, value: str, line: int, edits: list[TextEdit]) -> str:
    """``value`` as written at ``line``: a MindSpore name (``mindspore.float32``) in the file's spelling,
    its import added to ``edits`` once; any other text as it is."""
    if not MINDSPORE_NAME.match(value):
        return value
    text, imports = ctx.mindspore_reference(value, line)
    edits.extend(edit for edit in imports if edit not in edits)
    return text


def _result_edits(ctx: FixContext, plan: ArgPlan | None, call: ast.Call | None) -> list[TextEdit]:
    """The edits turning the call's MindSpore result into torch's form (``[0]``, ``.long()``,
    ``bool(…)``, ``mindspore.ops.sort(…[0])[0]``), if any (the prefix and suffix first)."""
    form = plan.result_form if plan is not None else ""
    if not form or call is None:
        return []
    line, col, end_line, end_col = ctx.node_range(call)
    imports: list[TextEdit] = []
    function = _spelled(ctx, CHECKED_FORMS[form], line, imports) if form in CHECKED_FORMS else None
    prefix, suffix = wrapping(form, call, function=function)
    edits = [TextEdit(end_line, end_col, end_line, end_col, suffix)]
    return [TextEdit(line, col, line, col, prefix), *edits, *imports] if prefix else edits


def replace_api(ctx: FixContext, finding: Finding) -> Fix | None:
    """Write what the finding's resolution says (``model/resolution.py``): its target, as it says, with its
    argument plan; the title says which target it replaced and why. Never another target."""
    if finding.usage in SKIPPED_USAGES or not finding.torch_api:
        return None
    resolution = resolution_for(ctx, finding)
    if resolution is None or not resolution.target:
        return None
    target = resolution.target
    if resolution.write is Write.EXPLAIN:
        replacement = resolution.replacement
        return _explain(finding, target, resolution.explain, **(
            {"replaced": replacement.replaced, "device": replacement.device} if replacement
            else {"device": resolution.device}))
    fix = _replace(ctx, finding, resolution, row_of(resolution))
    replacement = resolution.replacement
    if fix is None or not fix.edits or replacement is None:
        return fix
    if replacement.kind == "write_back":
        return _written_back(ctx, finding, resolution, fix)
    base = (message_ref(fix.title_key, **fix.title_args),)
    if replacement.kind == "other_table":
        return Fix(fix.rule, "fix.other_table_target", fix.edits,
                   {"base": base, "replaced": replacement.replaced, "table": replacement.version},
                   by_hand=fix.by_hand)
    if replacement.kind != "device":
        return fix
    fields = {"replaced": replacement.replaced, "device": replacement.device, "table": replacement.version}
    if replacement.reason:  # a reviewed fact says why
        fields = {"why": (message_ref(replacement.reason, **fields),)}
    return Fix(fix.rule, _device_title(resolution), fix.edits, {"base": base, **fields}, by_hand=fix.by_hand)


def resolution_for(ctx: FixContext, finding: Finding) -> Resolution | None:
    """The finding's resolution; for a finding made without one (by hand), the resolution the analysis
    would give it, computed once and kept on the finding."""
    if finding.resolution is None and finding.torch_api:
        probe = replace(finding)
        call = ctx.call_of(finding)
        resolver = Resolver(ctx.kb, ctx.device, ctx.tree, ctx.source, refine=False)
        resolver.resolve(probe, ctx.reference_of(finding), call)
        finding.resolution = probe.resolution
    return finding.resolution


def written_target(ctx: FixContext, finding: Finding) -> str | None:
    """The MindSpore name :func:`replace_api` writes for ``finding`` (its resolution's target)."""
    resolution = resolution_for(ctx, finding) if finding.torch_api else None
    return resolution.target if resolution is not None else None


# the title of a replacement whose only recorded failure is the int32 dtype, by the check's note
_SAME_VALUES_TITLES = {"random_int32_indices": "fix.device_target_random_int32"}
# the title of a (verified) replacement of a target that runs on the device without effect
_NO_EFFECT_TITLES = {"fix.device_target": "fix.device_target_no_effect",
                     "fix.device_target_derived": "fix.device_target_derived_no_effect"}


def _device_title(resolution: Resolution) -> str:
    """The title of a fix writing a device replacement (why the mapping's own target is not written)."""
    swap = resolution.replacement
    assert swap is not None
    if swap.reason:
        return "fix.device_target_reason"
    formed = resolution.plan is not None and bool(resolution.plan.result_form)
    if swap.form:
        key = "fix.device_target_checked_form"
    elif not swap.verified and swap.note in CORRECTED_BY:
        key = "fix.device_target_result_form" if formed else "fix.device_target_result_form_unchecked"
    elif swap.derived:
        key = "fix.device_target_derived" if swap.verified else "fix.device_target_derived_int32"
    elif swap.verified:
        key = "fix.device_target"
    else:
        key = _SAME_VALUES_TITLES.get(swap.note, "fix.device_target_int32_indices")
    if swap.failure == NO_EFFECT:
        key = _NO_EFFECT_TITLES.get(key, key)
    return key


def _written_back(ctx: FixContext, finding: Finding, resolution: Resolution, fix: Fix) -> Fix:
    """``x.clamp_(a, b)`` → ``x.assign_value(x.clamp(a, b))``: the resolution's out-of-place target, its
    result written into the tensor (``assign_value`` returns it, as torch's in-place call does)."""
    call = ctx.call_of(finding)
    back = resolution.replacement
    assert call is not None and back is not None
    line, column, end_line, end_column = ctx.node_range(call)
    start, end = (line, column), (end_line, end_column)
    edits = list(fix.edits)
    opening = next((i for i, e in enumerate(edits) if (e.line, e.column) == start), None)
    if opening is None:
        edits.append(TextEdit(*start, *start, f"{back.tensor}.assign_value("))
    else:
        e = edits[opening]
        edits[opening] = TextEdit(e.line, e.column, e.end_line, e.end_column,
                                  f"{back.tensor}.assign_value({e.new_text}")
    closing = next((i for i, e in enumerate(edits)
                    if (e.line, e.column) == end and (e.end_line, e.end_column) == end), None)
    if closing is None:
        edits.append(TextEdit(*end, *end, ")"))
    else:
        e = edits[closing]
        edits[closing] = TextEdit(e.line, e.column, e.end_line, e.end_column, e.new_text + ")")
    base = (message_ref(fix.title_key, **fix.title_args),)
    key = "fix.in_place_new_tensor" if back.new_tensor else "fix.in_place_out_of_place"
    return Fix(fix.rule, key, edits,
               {"base": base, "replaced": back.replaced, "device": back.device, "tensor": back.tensor})


def _replace(ctx: FixContext, finding: Finding, resolution: Resolution, row: MappingRow | None) -> Fix | None:
    """The fix writing the resolution's target as :attr:`Resolution.write` says."""
    mindspore_api = resolution.target or ""
    write = resolution.write
    if write is Write.NONE or write is Write.REWRITE or not MINDSPORE_NAME.match(mindspore_api):
        return None
    ref = ctx.reference_of(finding)
    if ref is None:
        return None
    call = ctx.call_of(finding)
    if write is Write.OUTPUT_SHAPE:
        writer = output_shape_primitive(row.torch_api if row is not None else finding.torch_api,
                                        mindspore_api)
        return _primitive_call(ctx, finding, call, mindspore_api, writer) if call and writer else None
    review = finding.rule == "MSM101" if resolution.plan is not None and resolution.plan.checked else bool(
        row is not None and row.has_differences)
    if write is Write.PRIMITIVE_CALL:
        return primitive_call(ctx, finding, call, row, mindspore_api, review) if call is not None else None
    if write is Write.PROPERTY_TO_METHOD:
        return _property_as_call(ctx, finding, ref, mindspore_api)
    edits: list[TextEdit] = []
    changes: list[str] = []
    if call is not None and write in ARGUMENT_WRITES:
        plan = resolution.plan or ArgPlan(checked=False)
        outcome = _argument_edits(ctx, finding, call, plan, mindspore_api)
        if outcome is None or isinstance(outcome, Fix):
            return outcome
        edits, changes = outcome
        result = _result_edits(ctx, plan, call)
        if result:
            edits.extend(result)
            shown = (result[0].new_text + "…" + result[1].new_text if len(result) > 1
                     else "(…)" + result[0].new_text)
            changes.append(f"→ {shown}")
    args = {"torch_api": finding.torch_api, "mindspore_api": mindspore_api}
    if write is Write.METHOD_TO_FUNCTION:
        return _method_to_function(ctx, finding, ref, call, mindspore_api, edits, changes, review)  # type: ignore[arg-type]
    if write is Write.METHOD:
        if not isinstance(ref, ast.Attribute):
            return None
        new_name = mindspore_api.rpartition(".")[2]
        if new_name != ref.attr:
            line, _, end_line, end_col = ctx.node_range(ref)
            edits.append(TextEdit(end_line, end_col - len(ref.attr), end_line, end_col, new_name))
        elif edits:  # the same name: only the arguments change
            return Fix(finding.rule, "fix.adapt_method", edits,
                       {**args, "torch_name": ref.attr, "changes": ", ".join(changes)})
        if not edits:
            return None
        return Fix(finding.rule, "fix.rename_method", edits,
                   {**args, "torch_name": ref.attr, "mindspore_name": new_name})
    if write is Write.CLASS_AS_PARTIAL:
        return _class_as_partial(ctx, finding, resolution.plan, ref, call, mindspore_api, edits, changes)  # type: ignore[arg-type]
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


def _class_as_partial(ctx: FixContext, finding: Finding, plan: ArgPlan | None, ref: ast.expr, call: ast.Call,
                      mindspore_api: str, edits: list[TextEdit], changes: list[str]) -> Fix | None:
    """``nn.Unfold(2)`` → ``functools.partial(mindspore.ops.unfold, kernel_size=2)``
    (``param_facts.CLASS_AS_PARTIAL``): the constructor's arguments, all passed by keyword by the argument
    edits, are bound to the function; the instance's input comes first where it is called."""
    moved = {index for index, _name in plan.to_keyword} if plan is not None else set()
    if plan is None or not plan.checked or moved != set(range(len(call.args))) or any(
            k.arg is None for k in call.keywords):
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


FIXERS = {"MSM100": replace_api, "MSM101": replace_api}
