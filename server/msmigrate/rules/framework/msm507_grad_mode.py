"""MSM507: torch's gradient-mode switches (``no_grad``, ``enable_grad``, ``inference_mode``,
``set_grad_enabled``) as context managers, decorators, statements and values.

MindSpore 2.10 has no public counterpart: in PyNative mode it records nothing for differentiation outside
``value_and_grad``/``grad``. The quick-fix (``fixes/grad_mode_fixes.py``) takes the switch away; where a
gradient may be taken through the code (a method of a ``nn.Module`` subclass, a function calling
``backward()``), it stops the gradient of the values a no-grad block computes with ``ops.stop_gradient``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.grad_mode_fixes import GRAD_MODE_APIS, STOP_GRADIENT, effect, grad_mode_fix, site
from msmigrate.fixes.instance_calls import parents
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.module_classes import module_classes
from msmigrate.rules.support import (
    BEFORE_MISSING_API,
    IDIOM_TAKE_OVER,
    named_nodes,
    reference_range,
    report,
    tree_index,
    usage_at,
)

RULE = Rule(
    "MSM507", C.FRAMEWORK_PATTERN, S.INFORMATION, "https://www.mindspore.cn/tutorials/en/r2.3.1/beginner/autograd.html",
    fixable=True,
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM507.title": (
        "Gradient-mode switch (no_grad, enable_grad, inference_mode, set_grad_enabled)",
        "梯度模式切换（no_grad、enable_grad、inference_mode、set_grad_enabled）",
    ),
    "rule.MSM507.explanation": (
        "MindSpore builds gradients only where value_and_grad or grad is applied, so evaluation code needs "
        "no torch.no_grad(): the quick-fix removes the with-block (keeping its body), the decorator or the "
        "call, and writes contextlib.nullcontext where the switch is used as a value. In a method of a "
        "network or a function that calls backward(), where a gradient may pass through the code, the "
        "values a no-grad block computes are wrapped in ops.stop_gradient so that they still carry no "
        "gradient; a block doing more than assigning and returning values is left to review.",
        "MindSpore 只在使用 value_and_grad 或 grad 的地方计算梯度，因此评估代码不需要 torch.no_grad()："
        "快速修复会删除 with 块（保留其内容）、装饰器或调用；该切换被当作值使用时改写为 "
        "contextlib.nullcontext。在网络的方法或调用 backward() 的函数中，梯度可能经过这段代码，"
        "此时 no-grad 块计算的值会用 ops.stop_gradient 包裹，使其仍不带梯度；"
        "块中除赋值和返回之外还有其他语句时，需要人工检查。",
    ),
    "finding.MSM507": (
        "{api} is not needed in MindSpore; gradients are only computed by value_and_grad",
        "MindSpore 不需要 {api}；梯度只由 value_and_grad 计算",
    ),
    "finding.MSM507.stop": (
        "{api} turns gradients off where a gradient may be taken through the code (a method of a network, "
        "a function calling backward()): MindSpore has no such switch, so wrap the values computed under it "
        "in mindspore.ops.stop_gradient",
        "{api} 在梯度可能经过的代码中（网络的方法、调用 backward() 的函数）关闭梯度：MindSpore 没有这种开关，"
        "请用 mindspore.ops.stop_gradient 包裹在其作用下计算的值",
    ),
    "finding.MSM507.unknown": (
        "{api}({argument}) where a gradient may be taken through the code (a method of a network, a function "
        "calling backward()): MindSpore has no such switch; whether gradients stop depends on {argument} at "
        "run time: where it is False, wrap the values computed under it in mindspore.ops.stop_gradient",
        "在梯度可能经过的代码中（网络的方法、调用 backward() 的函数）使用 {api}({argument})：MindSpore "
        "没有这种开关；是否关闭梯度取决于运行时的 {argument}：其为 False 时，请用 "
        "mindspore.ops.stop_gradient 包裹在其作用下计算的值",
    ),
    "fix.grad_mode.with": (
        "Remove the {api} block, keeping its body",
        "删除 {api} 块，保留其内容",
    ),
    "fix.grad_mode.with.stop": (
        "Remove the {api} block and wrap the values it computes in ops.stop_gradient",
        "删除 {api} 块，并用 ops.stop_gradient 包裹其计算的值",
    ),
    "fix.grad_mode.with.review": (
        "Remove the {api} block (to review: a gradient may pass through it here; stop it with "
        "ops.stop_gradient where needed)",
        "删除 {api} 块（需检查：此处梯度可能经过该块，必要时用 ops.stop_gradient 阻断）",
    ),
    "fix.grad_mode.item": ("Remove {api} from the with statement", "从 with 语句中删除 {api}"),
    "fix.grad_mode.item.review": (
        "Remove {api} from the with statement (to review: a gradient may pass through the block here; stop "
        "it with ops.stop_gradient where needed)",
        "从 with 语句中删除 {api}（需检查：此处梯度可能经过该块，必要时用 ops.stop_gradient 阻断）",
    ),
    "fix.grad_mode.decorator": ("Remove the @{api} decorator", "删除 @{api} 装饰器"),
    "fix.grad_mode.decorator.stop": (
        "Remove the @{api} decorator and wrap the returned values in ops.stop_gradient",
        "删除 @{api} 装饰器，并用 ops.stop_gradient 包裹返回值",
    ),
    "fix.grad_mode.decorator.review": (
        "Remove the @{api} decorator and wrap the returned values in ops.stop_gradient (to review: the "
        "function also changes state, which may carry gradients now)",
        "删除 @{api} 装饰器，并用 ops.stop_gradient 包裹返回值（需检查：该函数还修改了状态，"
        "这些状态现在可能带有梯度）",
    ),
    "fix.grad_mode.statement": ("Remove the {api} call", "删除 {api} 调用"),
    "fix.grad_mode.statement.review": (
        "Remove the {api} call (to review: gradients of the code after it are no longer switched off)",
        "删除 {api} 调用（需检查：其后代码的梯度不再被关闭）",
    ),
    "fix.grad_mode.value": (
        "Use contextlib.nullcontext instead of {api}",
        "用 contextlib.nullcontext 代替 {api}",
    ),
    "fix.grad_mode.value.review": (
        "Use contextlib.nullcontext instead of {api} (to review: a gradient may pass through the code it "
        "guards here; stop it with ops.stop_gradient where needed)",
        "用 contextlib.nullcontext 代替 {api}（需检查：此处梯度可能经过其保护的代码，"
        "必要时用 ops.stop_gradient 阻断）",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM507": (
        "import torch\nwith torch.no_grad():\n    y = model(x)\n",
        "import torch\nwith open('log.txt') as fh:\n    y = torch.ones(2)\n",
        [(2, 6)],
    ),
}

_TAKE_OVER = IDIOM_TAKE_OVER
_BACKWARD = frozenset({"backward", "value_and_grad"})


def detect(ctx) -> Iterable[Finding]:
    names = [*named_nodes(ctx, ast.Attribute), *named_nodes(ctx, ast.Name)]
    inner = {id(n.value) for n in names if isinstance(n, ast.Attribute)}
    sites = []
    for node in names:
        if type(node.ctx) is ast.Load and id(node) not in inner:
            written = ctx.qualified_name(node)
            api = ctx.kb.canonical(written) if written else None
            if api in GRAD_MODE_APIS:
                sites.append((node, written, api))
    if not sites:
        return []
    up = parents(ctx.tree)
    modules = network_classes(ctx, tree_index(ctx).nodes(ast.ClassDef))
    found: list[Finding] = []
    for node, written, api in sites:
        ctx.cancel.raise_if_cancelled()
        scope = "grad" if _gradient_may_pass(node, up, modules) else "plain"
        key, args = "finding.MSM507", {"api": api, "scope": scope}
        kind, holder, call = site(node, up)
        stops = effect(api, call)
        target: str | None = STOP_GRADIENT if stops != "keep" else None
        if scope == "grad" and stops != "keep" and _computes_values(kind, holder):
            if stops == "stop":
                key = "finding.MSM507.stop"
            elif call is not None and (call.args or call.keywords):
                key = "finding.MSM507.unknown"
                args["argument"] = ast.unparse(call.args[0] if call.args else call.keywords[0].value)
        span = reference_range(ctx, node)
        finding = report(ctx, RULE, span, key, args, apis=[api, written], convertible=_TAKE_OVER,
                         fixable=True, torch_api=api)
        if finding is not None:
            found.append(finding)
        reported = finding if finding is not None else usage_at(ctx, span, [api, written])
        if reported is not None:
            # what stops the gradient (the fix wraps values in it); nothing for a switch that turns them on
            reported.mindspore_api = target if key != "finding.MSM507" or reported.mindspore_api else None
    return found


def _computes_values(kind: str, holder: ast.AST | None) -> bool:
    """Whether the block a switch governs (a with body, a decorated function) assigns or returns values
    (what ops.stop_gradient would wrap); in-place updates alone (weight initialisation) have none."""
    if kind not in ("with", "decorator") or holder is None:
        return False
    if isinstance(holder, ast.FunctionDef | ast.AsyncFunctionDef) and holder.name == "__init__":
        return False
    body = holder.body if isinstance(holder, ast.With | ast.FunctionDef | ast.AsyncFunctionDef) else []
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.Return) and node.value is not None:
                return True
    return False


def network_classes(ctx, classes: list[ast.ClassDef]) -> set[str]:
    """The file's classes that are torch modules or already MindSpore cells (a partly fixed file: the fix
    runs again after other fixes renamed the base), also through other classes of the file."""
    found = module_classes(ctx, classes)
    changed = True
    while changed:
        changed = False
        for node in classes:
            if node.name not in found and any(
                    ast.unparse(base).split(".")[-1] in ("Cell", *found) for base in node.bases):
                found.add(node.name)
                changed = True
    return found


def _gradient_may_pass(node: ast.AST, up: dict[int, ast.AST], modules: set[str]) -> bool:
    """Whether a gradient may be taken through code at ``node``: it is inside a class that is a torch
    module (or a cell), or one of its enclosing functions (at module level: its own top-level statement)
    calls ``backward()`` (or ``value_and_grad``, once another fix rewrote the training step)."""
    current, below = up.get(id(node)), node
    while current is not None:
        if isinstance(current, ast.ClassDef) and current.name in modules:
            return True
        function = isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        if function and _calls_backward(current):
            return True
        if isinstance(current, ast.Module):
            return _calls_backward(below)
        current, below = up.get(id(current)), current
    return False


def _calls_backward(scope: ast.AST) -> bool:
    """Whether ``scope`` calls ``x.backward()`` / ``value_and_grad(...)`` (nested functions included)."""
    for node in ast.walk(scope):
        func = node.func if isinstance(node, ast.Call) else None
        if (isinstance(func, ast.Attribute) and func.attr in _BACKWARD) or (
                isinstance(func, ast.Name) and func.id in _BACKWARD):
            return True
    return False


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (grad_mode_fix,)
FIX_SAFETY = Safety.SAFE  # the same gradients: the mode switch taken away, or written as stop_gradient
