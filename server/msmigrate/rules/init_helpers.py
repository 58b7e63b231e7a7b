"""MSM518: the helpers of ``torch.nn.init`` (``calculate_gain``, ``_calculate_fan_in_and_fan_out``);
MSM519: a hand-written truncated normal. Both compute numbers MindSpore code can compute without them
(fixes: ``fixes/init_helper_fixes.py``, which also extends MSM503 to slices of parameters and to tensors
made in the call)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.blocks import block_of
from msmigrate.fixes.init_helper_fixes import (
    FAN,
    GAIN,
    gain_value,
    init_helper_fix,
    truncated_normal_fix,
    truncated_normal_steps,
)
from msmigrate.fixes.instance_calls import parents
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.support import IDIOM_TAKE_OVER, reference_range, report, tree_index

_DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore.common.initializer.html"
INIT_HELPER = Rule("MSM518", C.FRAMEWORK_PATTERN, S.INFORMATION, _DOCS, fixable=True)
TRUNCATED_NORMAL = Rule("MSM519", C.FRAMEWORK_PATTERN, S.INFORMATION, _DOCS, fixable=True)
RULES = [INIT_HELPER, TRUNCATED_NORMAL]

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM518.title": ("Helpers of torch.nn.init", "torch.nn.init 的辅助函数"),
    "rule.MSM518.explanation": (
        "nn.init.calculate_gain and nn.init._calculate_fan_in_and_fan_out compute numbers: the gain of a "
        "nonlinearity (relu: sqrt(2), tanh: 5/3, selu: 3/4, leaky_relu: sqrt(2 / (1 + slope²)), linear, "
        "convolutions and sigmoid: 1) and the fan-in and fan-out of a weight (its shape's products). "
        "MindSpore has no public counterpart; the quick-fix writes the number or the product of the shape.",
        "nn.init.calculate_gain 和 nn.init._calculate_fan_in_and_fan_out 计算的是数值：非线性函数的增益"
        "（relu：sqrt(2)，tanh：5/3，selu：3/4，leaky_relu：sqrt(2 / (1 + slope²))，linear、卷积和 "
        "sigmoid：1）以及权重的 fan-in 和 fan-out（其形状的乘积）。MindSpore 没有公开的对应接口；"
        "快速修复直接写出该数值或形状的乘积。",
    ),
    "rule.MSM519.title": ("Hand-written truncated normal", "手写的截断正态分布初始化"),
    "rule.MSM519.explanation": (
        "Model code often fills a tensor with a truncated normal by hand: uniform_, erfinv_, mul_(std * "
        "sqrt(2)), add_(mean), clamp_(a, b). MindSpore's initializer TruncatedNormal(sigma, mean, a, b) "
        "draws the same distribution; the quick-fix writes tensor.assign_value(initializer(TruncatedNormal("
        "...), tensor.shape, tensor.dtype).init_data()) in place of the five steps.",
        "模型代码常手工生成截断正态分布：uniform_、erfinv_、mul_(std * sqrt(2))、add_(mean)、"
        "clamp_(a, b)。MindSpore 的初始化器 TruncatedNormal(sigma, mean, a, b) 生成相同的分布；"
        "快速修复用 tensor.assign_value(initializer(TruncatedNormal(...), tensor.shape, "
        "tensor.dtype).init_data()) 代替这五步。",
    ),
    "finding.MSM518.gain": (
        "nn.init.calculate_gain is a number: write the gain of the nonlinearity",
        "nn.init.calculate_gain 是一个数值：请直接写出该非线性函数的增益",
    ),
    "finding.MSM518.fan": (
        "nn.init._calculate_fan_in_and_fan_out is computed from the weight's shape",
        "nn.init._calculate_fan_in_and_fan_out 由权重的形状计算",
    ),
    "finding.MSM519": (
        "A hand-written truncated normal: MindSpore's TruncatedNormal initializer draws the same "
        "distribution",
        "手写的截断正态分布：MindSpore 的 TruncatedNormal 初始化器生成相同的分布",
    ),
    "fix.init_helper.gain": ("Write the gain: {value}", "写出增益：{value}"),
    "fix.init_helper.fan": ("Compute fan-in and fan-out from the shape", "由形状计算 fan-in 与 fan-out"),
    "fix.init_helper.truncated_normal": (
        "Use the TruncatedNormal initializer",
        "改用 TruncatedNormal 初始化器",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM518": (
        "import torch.nn as nn\n\ngain = nn.init.calculate_gain('relu')\n",
        "import math\n\ngain = math.sqrt(2.0)\n",
        [(3, 8)],
    ),
    "MSM519": (
        "import math\n\nimport torch\n\n\ndef fill(t, mean, std, a, b):\n    t.uniform_(-0.9, 0.9)\n"
        "    t.erfinv_()\n"
        "    t.mul_(std * math.sqrt(2.))\n    t.add_(mean)\n    t.clamp_(min=a, max=b)\n    return t\n",
        "import math\n\nimport torch\n\n\ndef fill(t, mean, std):\n    t.uniform_(-0.9, 0.9)\n    return t\n",
        [(7, 7)],
    ),
}

_TAKE_OVER = IDIOM_TAKE_OVER


def check(ctx) -> Iterable[Finding]:
    found: list[Finding | None] = []
    up: dict[int, ast.AST] | None = None
    hand_written = "erfinv_" in ctx.source  # once per file: the source may be megabytes
    for call in tree_index(ctx).nodes(ast.Call):
        ctx.cancel.check()
        written = ctx.qualified_name(call.func)
        api = ctx.kb.canonical(written) if written else None
        span = reference_range(ctx, call.func)
        if api == GAIN:
            found.append(report(ctx, INIT_HELPER, span, "finding.MSM518.gain", {}, apis=[api, written],
                                convertible=_TAKE_OVER, fixable=gain_value(call) is not None, torch_api=api))
        elif api == FAN or written == FAN:
            fixable = len(call.args) == 1 and not call.keywords
            found.append(report(ctx, INIT_HELPER, span, "finding.MSM518.fan", {}, apis=[FAN, written],
                                convertible=_TAKE_OVER, fixable=fixable, torch_api=FAN))
        elif hand_written and isinstance(call.func, ast.Attribute) and \
                call.func.attr == "uniform_":
            up = up if up is not None else parents(ctx.tree)
            statement = up.get(id(call))
            block = block_of(ctx.tree, statement) if isinstance(statement, ast.Expr) else None
            steps = truncated_normal_steps(block[block.index(statement):]) if block else None
            if steps is not None and steps[1][0] is statement:
                found.append(report(ctx, TRUNCATED_NORMAL, span, "finding.MSM519", {}, convertible=_TAKE_OVER,
                                    fixable=True, torch_api="torch.nn.init.trunc_normal_"))
    return [f for f in found if f is not None]


CHECKERS = [check]
FIXERS = {"MSM518": init_helper_fix, "MSM519": truncated_normal_fix}
