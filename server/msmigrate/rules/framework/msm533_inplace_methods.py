"""MSM533: an in-place Tensor method MindSpore 2.10 has no CPU kernel for, in migrated code.

torch code initializes and masks tensors in place: ``mask = torch.empty(n, n).fill_(-inf).triu_(1)``
(whisper), ``mask.triu_(1)`` (open_clip), ``m.weight.data.fill_(1)`` (pretrainedmodels),
``torch.empty(1, n, d).normal_(std=0.02)`` (torchvision's ViT). ``msmigrate fix`` keeps the method, which
MindSpore's Tensor has, but on CPU it stops with "The kernel InplaceFillScalar unregistered" (``zero_``,
``normal_``, ``uniform_`` alike; MindSpore's Tensor has no ``triu_``). The rule goes by the method's name
(these in-place names are torch's); the fix writes the out-of-place form, which runs on CPU, once the
receiver is MindSpore code (an earlier pass of ``msmigrate fix`` rewrites it):

* the value of a new tensor (the receiver is a call): ``mint.empty(n, n).fill_(v)`` →
  ``ops.full_like(mint.empty(n, n), v)``, ``….triu_(1)`` → ``….triu(1)``; ``mint.empty(1, n, d)
  .normal_(std=s)`` → ``ops.normal((1, n, d), 0.0, s)`` (the sizes of an ``empty``/``zeros``/``ones`` call);
* a statement on a name or attribute: the result written back into it, ``x.assign_value(…)`` (the same
  tensor, as torch's in-place method leaves it; a ``.data`` of torch is the Parameter itself).

Each fix states its own safety (``Fix.safety``): safe where the tensor changed in place is a new one
nothing else holds, so the out-of-place form computes exactly what torch does (``_inplace_safety.py``,
docs/per-form-safety.md); otherwise unsafe, its title saying why at the call (a possible view, the caller's
tensor, another reference, a loop, a write-back).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._inplace_safety import argument_reason, is_new_tensor, statement_is_new
from msmigrate.rules.support import BEFORE_MISSING_API, new_finding, short

_DOC = "https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.full_like.html"
RULE = Rule("MSM533", C.FRAMEWORK_PATTERN, S.HINT, _DOC, fixable=True)  # a fact of CPU only
DEVICE = "CPU"
# method → torch's parameters (name, default) of the arguments the out-of-place form takes
METHODS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "fill_": (("value", None),),
    "zero_": (),
    "triu_": (("diagonal", "0"),),
    "tril_": (("diagonal", "0"),),
    "normal_": (("mean", "0.0"), ("std", "1.0")),
    "uniform_": (("from", "0.0"), ("to", "1.0")),
}
# functional activations taking torch's inplace=: mint's in-place kernels are not on CPU
ACTIVATIONS = frozenset({"relu", "relu6", "silu", "hardswish", "hardsigmoid", "leaky_relu", "elu", "celu",
                         "selu", "hardtanh", "mish", "threshold"})
_NAMES = frozenset(METHODS)
_VIEWS = frozenset({"real", "imag", "T", "mT", "H", "mH"})
_CREATORS = frozenset({"empty", "zeros", "ones"})  # mint/ops constructors whose arguments are the sizes

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM533.title": ("In-place Tensor method without a CPU kernel",
                          "无 CPU 算子的原地 Tensor 方法"),
    "rule.MSM533.explanation": (
        "MindSpore 2.10 has no CPU kernel for the in-place Tensor methods fill_, zero_, normal_ and "
        "uniform_ (the call stops with 'kernel ... unregistered'), and its Tensor has no triu_ or tril_. "
        "The quick-fix writes the out-of-place form, which runs on CPU: the value itself where the receiver "
        "is a new tensor, otherwise the result written back with assign_value, so the tensor changes as "
        "torch's in-place method changes it. The fix is safe where the tensor is a new one nothing else "
        "holds (a constructor's value, arithmetic, the output of a layer that always allocates it, bound "
        "just before the call and read nowhere else); otherwise it is unsafe, as a view or another reference "
        "would keep the old values.",
        "MindSpore 2.10 的原地 Tensor 方法 fill_、zero_、normal_、uniform_ 没有 CPU 算子（调用报错"
        "“kernel ... unregistered”），其 Tensor 也没有 triu_、tril_。快速修复改写为可在 CPU 上运行的非原地"
        "形式：接收者是新张量时直接使用其结果，否则用 assign_value 写回结果，使张量的变化与 torch 的原地方法"
        "相同。张量是没有其他引用的新张量（构造函数的结果、算术结果、总是分配新输出的层的输出，且在调用前"
        "紧邻处绑定、别处不再读取）时该修复是安全的；否则不安全，因为视图或其他引用会保留旧值。",
    ),
    "finding.MSM533": (
        "{method}: MindSpore has no CPU kernel for this in-place method; use {form}",
        "{method}：MindSpore 没有此原地方法的 CPU 算子；请使用 {form}",
    ),
    "finding.MSM533.argument": (
        "{function}(…, inplace=True): MindSpore has no CPU kernel for the in-place form",
        "{function}(…, inplace=True)：MindSpore 没有原地形式的 CPU 算子",
    ),
    "fix.inplace_argument": (
        "Compute it out of place ({input} is a new tensor nothing else holds or reads again)",
        "改为非原地计算（{input} 是没有其他引用、之后也不再被读取的新张量）"),
    "fix.inplace_argument.unsafe.unknown": (
        "Compute it out of place (unsafe: {input} may be a view of, or the same tensor as, one read "
        "elsewhere, which torch's in-place call changes and the out-of-place form does not)",
        "改为非原地计算（不安全：{input} 可能是其他处读取的张量的视图或同一张量，torch 的原地调用会改变"
        "该张量，非原地形式不会）"),
    "fix.inplace_argument.unsafe.parameter": (
        "Compute it out of place (unsafe: {input} is a parameter of the function; torch's in-place call "
        "also changes the caller's tensor, the out-of-place form does not)",
        "改为非原地计算（不安全：{input} 是函数的参数；torch 的原地调用也会改变调用者的张量，非原地形式"
        "不会）"),
    "fix.inplace_argument.unsafe.shared": (
        "Compute it out of place (unsafe: {input} is also used between where it is made and this call, "
        "elsewhere in this statement or in a nested function, and what is taken there sees torch's "
        "in-place change, not the out-of-place form's)",
        "改为非原地计算（不安全：{input} 在其创建处与此调用之间、本语句的其他位置或嵌套函数中也被使用，"
        "在那里取得的引用会看到 torch 原地调用的修改，而非原地形式没有该修改）"),
    "fix.inplace_argument.unsafe.loop": (
        "Compute it out of place (unsafe: the call is in a loop, where a read of {input} on the next pass "
        "may see torch's in-place change, which the out-of-place form does not make)",
        "改为非原地计算（不安全：调用位于循环中，下一轮对 {input} 的读取可能看到 torch 原地调用的修改，"
        "而非原地形式不做该修改）"),
    "fix.inplace_argument.unsafe.later": (
        "Compute it out of place (unsafe: {input} is changed or read again after this call, where torch's "
        "in-place call has changed it and the out-of-place form has not)",
        "改为非原地计算（不安全：{input} 在此调用之后又被修改或读取，此时 torch 的原地调用已改变它，"
        "而非原地形式没有）"),
    "fix.inplace_method": ("Write the out-of-place form {form} ({input} is a new tensor nothing else holds)",
                           "改写为非原地形式 {form}（{input} 是没有其他引用的新张量）"),
    "fix.inplace_method.assign": (
        "Write the out-of-place form {form} back with assign_value ({input} is a new tensor nothing else "
        "holds)",
        "用 assign_value 写回非原地形式 {form}（{input} 是没有其他引用的新张量）"),
    "fix.inplace_method.unsafe.unknown": (
        "Write the out-of-place form {form} (unsafe: {input} may be a view of, or the same tensor as, one "
        "read elsewhere, which torch's in-place method changes and the out-of-place form does not)",
        "改写为非原地形式 {form}（不安全：{input} 可能是其他处读取的张量的视图或同一张量，torch 的原地"
        "方法会改变该张量，非原地形式不会）"),
    "fix.inplace_method.unsafe.statement": (
        "Write the out-of-place form {form} back with assign_value (unsafe: if {input} is a view of another "
        "tensor, torch's in-place method changes that tensor too, while assign_value changes {input} alone)",
        "用 assign_value 写回非原地形式 {form}（不安全：若 {input} 是另一张量的视图，torch 的原地方法也会"
        "改变那个张量，而 assign_value 只改变 {input}）"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM533": (
        "import torch\n\n\ndef causal(n):\n    mask = torch.empty(n, n)\n    mask.triu_(1)\n"
        "    return mask\n",
        "import torch\n\n\ndef causal(n):\n    mask = torch.empty(n, n)\n    return mask.triu(1)\n",
        [(6, 10)],
    ),
}

_FORMS = {"fill_": "ops.full_like(x, value)", "zero_": "ops.zeros_like(x)", "triu_": "x.triu(diagonal)",
          "tril_": "x.tril(diagonal)", "normal_": "ops.normal(shape, mean, std)",
          "uniform_": "ops.uniform(shape, low, high)"}


def detect(ctx) -> Iterable[Finding]:
    if not any(f".{m}(" in ctx.source for m in METHODS) and "inplace=True" not in ctx.source:
        return []
    devices = {u.resolution.device for u in ctx.usages if u.resolution is not None}
    if devices and DEVICE not in devices:  # resolved for another device: these kernels exist there
        return []
    found = []
    # a method whose resolution writes the device's own form (write-back of a target verified there): that
    # finding stands
    known = {(u.line, u.column) for u in ctx.usages
             if u.resolution is not None and u.resolution.replacement is not None}
    for node in ast.walk(ctx.tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ACTIVATIONS and _inplace(node) is not None):
            found.append(new_finding(RULE, ctx.node_range(_inplace(node)), "finding.MSM533.argument",
                                     {"function": ast.unparse(node.func)}, fixable=True))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in METHODS
                and ctx.qualified_name(node.func) is None  # a Tensor method, not nn.init.normal_
                and not any(isinstance(a, ast.Starred) for a in node.args)
                and all(k.arg is not None for k in node.keywords)):
            method = node.func.attr
            span = method_range(ctx, node)
            if span[:2] in known:
                continue
            found.append(new_finding(RULE, span, "finding.MSM533",
                                     {"method": method, "form": _FORMS[method]}, fixable=True))
    return found


def method_range(ctx, call: ast.Call) -> tuple[int, int, int, int]:
    """From the method's name to the end of the call (the receiver keeps its own findings)."""
    _, _, line, column = ctx.node_range(call.func)
    return (line, column - len(call.func.attr), *ctx.node_range(call)[2:])  # type: ignore[attr-defined]


def _inplace(call: ast.Call) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg == "inplace" and isinstance(k.value, ast.Constant)
                 and k.value.value is True), None)


def _read_later(ctx: FixContext, name: str, call: ast.Call) -> bool:
    """Whether ``name`` is read after ``call`` in the function holding it (or the module)."""
    scope: ast.AST = ctx.tree
    current = ctx.parents.get(id(call))
    while current is not None:
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            scope = current
            break
        current = ctx.parents.get(id(current))
    end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               and (n.lineno, n.col_offset) > end for n in ast.walk(scope))


def inplace_argument_fix(ctx: FixContext, call: ast.Call) -> Fix | None:
    """``f(x, inplace=True)`` whose value is used and whose input is not read again → ``f(x)``; safe when
    ``x`` is a new tensor nothing else holds (``_inplace_safety.argument_reason``)."""
    keyword = _inplace(call)
    if keyword is None or isinstance(ctx.parents.get(id(call)), ast.Expr) or not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Name):
        if _read_later(ctx, first.id, call):
            return None
    elif not isinstance(first, ast.Call):  # an attribute or a slice: other code may hold the same tensor
        return None
    before = [*call.args, *(k for k in call.keywords if k is not keyword)]
    before = [n for n in before if ctx.node_range(n)[2:] <= ctx.node_range(keyword)[:2]]
    if not before:
        return None
    start = ctx.node_range(before[-1])[2:]
    end = ctx.node_range(keyword)[2:]
    reason = argument_reason(ctx, call, first)
    key = "fix.inplace_argument" if reason is None else f"fix.inplace_argument.unsafe.{reason}"
    return Fix(RULE.id, key, [TextEdit(*start, *end, "")], {"input": short(ctx, first)},
               safety=Safety.SAFE if reason is None else Safety.UNSAFE)


def _arguments(call: ast.Call, method: str, ctx: FixContext) -> dict[str, str] | None:
    params = METHODS[method]
    if len(call.args) > len(params) or any(k.arg not in {p for p, _ in params} for k in call.keywords):
        return None
    given = {name: ctx.text(arg) for (name, _), arg in zip(params, call.args, strict=False)}
    given.update({k.arg: ctx.text(k.value) for k in call.keywords if k.arg})
    for name, default in params:
        if name not in given:
            if default is None:
                return None
            given[name] = default
    return given


def _shape(ctx: FixContext, receiver: ast.expr) -> str | None:
    """The shape of ``receiver``: its ``.shape`` when it is a reference, the sizes of a constructor call."""
    if isinstance(receiver, ast.Name | ast.Attribute) and not isinstance(receiver, ast.Call):
        return f"{ctx.text(receiver)}.shape"
    if (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute)
            and receiver.func.attr == "float" and not receiver.args and not receiver.keywords):
        return _shape(ctx, receiver.func.value)  # the same sizes (ops.normal/uniform give float32)
    if (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute)
            and receiver.func.attr in _CREATORS and receiver.args and not receiver.keywords
            and not any(isinstance(a, ast.Starred) for a in receiver.args)):
        if len(receiver.args) == 1:
            return ctx.text(receiver.args[0])
        return "(" + ", ".join(ctx.text(a) for a in receiver.args) + ")"
    return None


def _value(ctx: FixContext, method: str, receiver: ast.expr, given: dict[str, str], at: int
           ) -> tuple[str, list[TextEdit]] | None:
    """The out-of-place form of ``receiver.<method>(…)`` and the imports it needs."""
    text = ctx.text(receiver)
    if method in ("triu_", "tril_"):
        return f"{text}.{method[:-1]}({given['diagonal']})", []
    if method in ("fill_", "zero_"):
        name, edits = ctx.mindspore_reference(
            "mindspore.ops.full_like" if method == "fill_" else "mindspore.ops.zeros_like", at)
        return (f"{name}({text}, {given['value']})" if method == "fill_" else f"{name}({text})"), edits
    shape = _shape(ctx, receiver)
    if shape is None:
        return None
    if method == "normal_":
        name, edits = ctx.mindspore_reference("mindspore.ops.normal", at)
        return f"{name}({shape}, {given['mean']}, {given['std']})", edits
    name, edits = ctx.mindspore_reference("mindspore.ops.uniform", at)
    tensor, more = ctx.mindspore_reference("mindspore.tensor", at)
    low, high = given["from"], given["to"]
    return f"{name}({shape}, {tensor}(float({low})), {tensor}(float({high})))", [*edits, *more]


def inplace_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    if ctx.device != DEVICE:
        return None
    span = (finding.line, finding.column, finding.end_line, finding.end_column)
    calls = (n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute))
    call = next((n for n in calls if method_range(ctx, n) == span), None)
    if call is None:
        keyword = next((k for k in ast.walk(ctx.tree) if isinstance(k, ast.keyword)
                        and ctx.node_range(k) == span), None)
        holder = ctx.parents.get(id(keyword)) if keyword is not None else None
        return inplace_argument_fix(ctx, holder) if isinstance(holder, ast.Call) else None
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in METHODS:
        return None
    method, receiver = call.func.attr, call.func.value
    given = _arguments(call, method, ctx)
    if given is None:
        return None
    statement = ctx.parents.get(id(call))
    if isinstance(statement, ast.Expr):
        if isinstance(receiver, ast.Attribute) and receiver.attr == "data":
            receiver = receiver.value  # torch's .data shares the storage: MindSpore's Parameter itself
        if not isinstance(receiver, ast.Name | ast.Attribute) or (
                isinstance(receiver, ast.Attribute) and receiver.attr in _VIEWS):
            return None  # torch's view of another tensor (x.imag): MindSpore's is a copy
        found = _value(ctx, method, receiver, given, call.lineno)
        if found is None:
            return None
        value, edits = found
        text = f"{ctx.text(receiver)}.assign_value({value})"
        if isinstance(receiver, ast.Name) and statement_is_new(ctx, statement, receiver.id, _NAMES):
            key, safety = "fix.inplace_method.assign", Safety.SAFE  # one object, no view of it
        else:  # a view's base would keep its values
            key, safety = "fix.inplace_method.unsafe.statement", Safety.UNSAFE
    elif isinstance(receiver, ast.Call):  # a new tensor: its value is all that is used
        found = _value(ctx, method, receiver, given, call.lineno)
        if found is None:
            return None
        text, edits = found
        new = is_new_tensor(ctx, receiver)
        key = "fix.inplace_method" if new else "fix.inplace_method.unsafe.unknown"
        safety = Safety.SAFE if new else Safety.UNSAFE
    else:
        return None
    return Fix(RULE.id, key, [TextEdit(*ctx.node_range(call), text), *edits],
               {"form": _FORMS[method], "input": short(ctx, receiver)}, safety=safety)


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (inplace_fix,)
# each fix states its own safety (the form it rewrites: _inplace_safety.py); this is for none that does not
FIX_SAFETY = Safety.UNSAFE
