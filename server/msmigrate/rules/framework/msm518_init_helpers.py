"""MSM518: the helpers of ``torch.nn.init`` (``calculate_gain``, ``_calculate_fan_in_and_fan_out``) compute
numbers MindSpore code can compute without them.

The fix (``fixes/init_helper_fixes.py``) writes the gain's value or the fans computed from the shape:
safe, the same numbers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.init_helper_fixes import FAN, GAIN, gain_value, init_helper_fix
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import BEFORE_MISSING_API, IDIOM_TAKE_OVER, reference_range, report, tree_index

DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore.common.initializer.html"
RULE = Rule("MSM518", C.FRAMEWORK_PATTERN, S.INFORMATION, DOCS, fixable=True)

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
    "finding.MSM518.gain": (
        "nn.init.calculate_gain is a number: write the gain of the nonlinearity",
        "nn.init.calculate_gain 是一个数值：请直接写出该非线性函数的增益",
    ),
    "finding.MSM518.fan": (
        "nn.init._calculate_fan_in_and_fan_out is computed from the weight's shape",
        "nn.init._calculate_fan_in_and_fan_out 由权重的形状计算",
    ),
    "fix.init_helper.gain": ("Write the gain: {value}", "写出增益：{value}"),
    "fix.init_helper.fan": ("Compute fan-in and fan-out from the shape", "由形状计算 fan-in 与 fan-out"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM518": (
        "import torch.nn as nn\n\ngain = nn.init.calculate_gain('relu')\n",
        "import math\n\ngain = math.sqrt(2.0)\n",
        [(3, 8)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found: list[Finding | None] = []
    for call in tree_index(ctx).nodes(ast.Call):
        ctx.cancel.raise_if_cancelled()
        written = ctx.qualified_name(call.func)
        api = ctx.kb.canonical(written) if written else None
        if api == GAIN:
            found.append(report(ctx, RULE, reference_range(ctx, call.func), "finding.MSM518.gain", {},
                                apis=[api, written], convertible=IDIOM_TAKE_OVER,
                                fixable=gain_value(call) is not None, torch_api=api))
        elif api == FAN or written == FAN:
            fixable = len(call.args) == 1 and not call.keywords
            found.append(report(ctx, RULE, reference_range(ctx, call.func), "finding.MSM518.fan", {},
                                apis=[FAN, written], convertible=IDIOM_TAKE_OVER, fixable=fixable,
                                torch_api=FAN))
    return [f for f in found if f is not None]


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (init_helper_fix,)
FIX_SAFETY = Safety.SAFE  # the same numbers
