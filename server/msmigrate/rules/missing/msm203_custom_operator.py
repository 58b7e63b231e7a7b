"""MSM203: an unmapped torch API that needs a custom operator (refines MSM200 findings).

The missing-API guide's advice for the API says it cannot be written efficiently with MindSpore's APIs:
``mindspore.ops.Custom`` it is. No quick-fix.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.missing._refine import DOC, refine

RULE = Rule("MSM203", C.MISSING, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM203.title": (
        "Missing API that needs a custom operator",
        "缺失接口：需要自定义算子",
    ),
    "rule.MSM203.explanation": (
        "The computation cannot be expressed efficiently with existing MindSpore APIs. Write it as a custom "
        "operator with mindspore.ops.Custom; the AOT route can also call an existing third-party kernel (for "
        "example a PyTorch ATen operator) for quick validation. Porting to CPU and GPU is straightforward; "
        "Ascend needs its own operator development, so prefer wrapping official operators there.",
        "该计算无法用 MindSpore 现有接口高效表达。请用 mindspore.ops.Custom 编写自定义算子；其 AOT "
        "方式也可以调用"
        "现有的第三方算子（例如 PyTorch 的 ATen 算子）做快速验证。迁移到 CPU 和 GPU 较为直接；Ascend "
        "需要单独进行"
        "算子开发，门槛较高，建议优先用官方算子组合实现。",
    ),
    "finding.MSM203": (
        "{torch_api} has no MindSpore mapping; implement it as a custom operator (mindspore.ops.Custom)",
        "{torch_api} 没有 MindSpore 映射；请用自定义算子（mindspore.ops.Custom）实现",
    ),
    "finding.MSM203.recipe": (
        "{torch_api} has no MindSpore mapping; write a custom operator. {recipe:messages}",
        "{torch_api} 没有 MindSpore 映射；请开发自定义算子。{recipe:messages}",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM203": (
        "import torch\nout = torch.segment_reduce(data, 'sum', lengths=lengths)\n",
        "import torch\nout = torch.cumsum(data, 0)\n",
        [(2, 7)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return refine(ctx, RULE.id)


FIXERS = ()
