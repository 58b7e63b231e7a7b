"""MSM506: the training step with ``loss.backward()`` and ``optimizer.step()``.

MindSpore has no ``backward()``: the forward and loss become a function whose gradients
``mindspore.value_and_grad`` computes, and the optimizer is called with them. The finding is on
``backward()`` (with why there is no rewrite when the block does not have the shape the rewrite needs) and
on ``model.parameters()`` given to an optimizer (MindSpore's takes ``trainable_params()``). The fix
(``fixes/training_step_fixes.py``) moves code into a function: unsafe, applied with ``--unsafe-fixes``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.training_step_fixes import WHY_OPTIMIZER, StepPlan, training_step, training_step_rewrite
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._patterns import TAKE_OVER, TUTORIALS, calls, is_optimizer, optimizer_target
from msmigrate.rules.support import attribute_range, report, short

RULE = Rule(
    "MSM506", C.FRAMEWORK_PATTERN, S.INFORMATION, TUTORIALS + "beginner/autograd.html", fixable=True
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM506.title": (
        "backward() and optimizer.step() training step",
        "backward() 与 optimizer.step() 训练步骤",
    ),
    "rule.MSM506.explanation": (
        "MindSpore has no backward() on tensors. Write the forward and loss as a function, get "
        "grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters), then in each step "
        "loss, grads = grad_fn(data, label) and optimizer(grads). zero_grad() is not needed. The quick-fix "
        "rewrites a training step whose loss, zero_grad(), backward() and step() are statements of one block "
        "this way, and passes model.trainable_params() instead of model.parameters() to the optimizer.",
        "MindSpore 的张量没有 backward()。请把前向与损失计算写成函数，通过 grad_fn = "
        "mindspore.value_and_grad(forward_fn, "
        "None, optimizer.parameters) 获得求导函数，每一步执行 loss, grads = grad_fn(data, label) 和 "
        "optimizer(grads)。"
        "不需要 zero_grad()。快速修复会按此方式改写损失、zero_grad()、backward() 和 step() "
        "位于同一代码块中的训练步骤，并把传给优化器的 model.parameters() 改为 model.trainable_params()。",
    ),
    "finding.MSM506": (
        "{call}: compute gradients with mindspore.value_and_grad in a training step",
        "{call}：请在训练步骤中用 mindspore.value_and_grad 计算梯度",
    ),
    "finding.MSM506.params": (
        "{call}: a MindSpore optimizer takes the network's trainable_params()",
        "{call}：MindSpore 优化器接收网络的 trainable_params()",
    ),
    "fix.pattern.training_step": (
        "Rewrite the training step with mindspore.value_and_grad",
        "用 mindspore.value_and_grad 改写训练步骤",
    ),
    "fix.pattern.training_step.loss": (
        "No automatic rewrite: backward() is not called, without arguments, on a loss variable assigned in "
        "the same block",
        "无法自动改写：backward() 不是以无参数形式在同一代码块中赋值的损失变量上调用的",
    ),
    "fix.pattern.training_step.optimizer": (
        "No automatic rewrite: the block of backward() lacks step() after it and one zero_grad() (before "
        "backward() or after step()), both without arguments on the same optimizer",
        "无法自动改写：backward() 所在代码块中缺少其后的 step() 以及一次 zero_grad()"
        "（在 backward() 之前或 step() 之后），两者须为同一优化器且均无参数",
    ),
    "fix.pattern.training_step.statement": (
        "No automatic rewrite: the statements computing the loss cannot move into a function (control "
        "flow, another training step, del, global, yield, await, := or multi-line strings)",
        "无法自动改写：计算损失的语句无法移入函数（含控制流、另一个训练步骤、del、global、yield、await、:= "
        "或多行字符串）",
    ),
    "fix.pattern.training_step.between": (
        "No automatic rewrite: statements between backward() and step() work on the gradients in .grad "
        "(in MindSpore, change the grads that value_and_grad returns, e.g. ops.clip_by_global_norm(grads))",
        "无法自动改写：backward() 与 step() 之间的语句操作 .grad 中的梯度"
        "（MindSpore 中应处理 value_and_grad 返回的 grads，例如 ops.clip_by_global_norm(grads)）",
    ),
    "fix.pattern.training_step.layout": (
        "No automatic rewrite: statements of the training step share lines",
        "无法自动改写：训练步骤的语句共用同一行",
    ),
    "fix.pattern.training_step.names": (
        "No automatic rewrite: forward_fn, grad_fn or grads already name something here",
        "无法自动改写：此处已使用 forward_fn、grad_fn 或 grads 这些名称",
    ),
    "fix.pattern.trainable_params": (
        "Pass trainable_params() to the optimizer",
        "向优化器传入 trainable_params()",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM506": (
        "import torch\n\ndef step(loss: torch.Tensor):\n    loss.backward()\n",
        "import torch\n\ndef step(loss: torch.Tensor):\n    return loss.item()\n",
        [(4, 10)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call, name in calls(ctx):
        if is_optimizer(name):
            found.extend(_optimizer_params(ctx, call, name))
            continue
        func = call.func
        if name is not None or type(func) is not ast.Attribute or func.attr != "backward":
            continue
        receiver = func.value
        kind = ctx.receiver_kind(receiver)
        if kind == "optimizer" or ctx.qualified_name(receiver) is not None:
            continue
        if kind in (None, "tensor") and len(call.args) <= 1:
            found.append(_backward(ctx, call, func))
    return [finding for finding in found if finding is not None]


def _backward(ctx, call: ast.Call, func: ast.Attribute) -> Finding | None:
    plan = training_step(ctx.tree, call, ctx.lines, whole_scope=False)
    if isinstance(plan, StepPlan) and (
        ctx.receiver_kind(plan.optimizer) not in (None, "optimizer")
        or ctx.qualified_name(plan.optimizer) is not None
    ):
        plan = WHY_OPTIMIZER  # zero_grad() and step() of a module or of a torch name
    args = {"call": f"{short(ctx, func.value, 20)}.backward()"}
    fixable = isinstance(plan, StepPlan)
    return report(ctx, RULE, attribute_range(ctx, func), "finding.MSM506",
                  args if fixable else {**args, "why": plan}, apis=["torch.Tensor.backward"],
                  convertible=TAKE_OVER, fixable=fixable, torch_api="torch.Tensor.backward")


def _optimizer_params(ctx, call: ast.Call, optimizer: str) -> list[Finding | None]:
    """``model.parameters()`` given to an optimizer: MindSpore's takes ``model.trainable_params()`` (the
    parameters with ``requires_grad``; ``get_parameters()`` would also train BatchNorm statistics)."""
    params = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "params"), None)
    if (
        not isinstance(params, ast.Call) or params.args or params.keywords
        or not isinstance(params.func, ast.Attribute) or params.func.attr != "parameters"
        or ctx.qualified_name(params.func.value) is not None
        or ctx.receiver_kind(params.func.value) not in (None, "module")
        or optimizer_target(ctx.kb, optimizer) is None
    ):
        return []
    return [report(ctx, RULE, attribute_range(ctx, params.func), "finding.MSM506.params",
                   {"call": f"{short(ctx, params.func.value, 20)}.parameters()"},
                   apis=["torch.nn.Module.parameters"], convertible=TAKE_OVER, fixable=True,
                   torch_api="torch.nn.Module.parameters")]


FIXERS = (training_step_rewrite,)
FIX_SAFETY = Safety.UNSAFE  # it moves code into a function
