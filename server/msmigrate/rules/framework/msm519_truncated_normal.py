"""MSM519: a hand-written truncated normal (``t.uniform_(…)``, ``t.erfinv_()``, ``t.mul_(std * …)``,
``t.add_(mean)``, ``t.clamp_(min=a, max=b)``) is ``mindspore.common.initializer.TruncatedNormal``.

The fix (``fixes/init_helper_fixes.py``) writes the initializer with the same mean, deviation and bounds:
safe, the same distribution.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.blocks import block_of
from msmigrate.fixes.init_helper_fixes import truncated_normal_fix, truncated_normal_steps
from msmigrate.fixes.instance_calls import parents
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import BEFORE_MISSING_API, IDIOM_TAKE_OVER, reference_range, report, tree_index

DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore.common.initializer.html"
RULE = Rule("MSM519", C.FRAMEWORK_PATTERN, S.INFORMATION, DOCS, fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
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
    "finding.MSM519": (
        "A hand-written truncated normal: MindSpore's TruncatedNormal initializer draws the same "
        "distribution",
        "手写的截断正态分布：MindSpore 的 TruncatedNormal 初始化器生成相同的分布",
    ),
    "fix.init_helper.truncated_normal": (
        "Use the TruncatedNormal initializer",
        "改用 TruncatedNormal 初始化器",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM519": (
        "import math\n\nimport torch\n\n\ndef fill(t, mean, std, a, b):\n    t.uniform_(-0.9, 0.9)\n"
        "    t.erfinv_()\n"
        "    t.mul_(std * math.sqrt(2.))\n    t.add_(mean)\n    t.clamp_(min=a, max=b)\n    return t\n",
        "import math\n\nimport torch\n\n\ndef fill(t, mean, std):\n    t.uniform_(-0.9, 0.9)\n    return t\n",
        [(7, 7)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found: list[Finding | None] = []
    if "erfinv_" not in ctx.source:  # once per file: the source may be megabytes
        return []
    up: dict[int, ast.AST] | None = None
    for call in tree_index(ctx).nodes(ast.Call):
        ctx.cancel.raise_if_cancelled()
        if isinstance(call.func, ast.Attribute) and call.func.attr == "uniform_":
            up = up if up is not None else parents(ctx.tree)
            statement = up.get(id(call))
            block = block_of(ctx.tree, statement) if isinstance(statement, ast.Expr) else None
            steps = truncated_normal_steps(block[block.index(statement):]) if block else None
            if steps is not None and steps[1][0] is statement:
                found.append(report(ctx, RULE, reference_range(ctx, call.func), "finding.MSM519", {},
                                    convertible=IDIOM_TAKE_OVER, fixable=True,
                                    torch_api="torch.nn.init.trunc_normal_"))
    return [f for f in found if f is not None]


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (truncated_normal_fix,)
FIX_SAFETY = Safety.SAFE  # the same distribution
