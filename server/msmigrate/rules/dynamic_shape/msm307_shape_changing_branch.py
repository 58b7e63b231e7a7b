"""MSM307: a branch or loop on tensor values that changes a tensor's shape.

An ``if`` whose branches leave a name with different shapes (one side data-dependent, or both static
and different: ``_shapes.py``), or a ``while`` that grows a tensor by concatenation: reported at the test.
The sites of the seven dynamic-shape rules are found in one walk per file (``_scope.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._scope import DOC, findings

RULE = Rule("MSM307", C.DYNAMIC_SHAPE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM307.title": (
        "Tensor-dependent control flow with branches of different shapes",
        "依赖张量值的控制流，且各分支形状不同",
    ),
    "rule.MSM307.explanation": (
        "The condition depends on tensor values and the branches produce results of different shapes (or "
        "the loop grows a tensor). In graph mode both branches are compiled and must agree on shapes. "
        "Compute both results with the same shape and pick one with select/where, or bound the loop.",
        "条件依赖张量的值，而各分支产生的结果形状不同（或循环不断增大张量）。图模式下两个分支都会被编译，"
        "形状必须一致。"
        "请让两个分支计算出相同形状的结果，再用 select/where 选择，或为循环设置固定上限。",
    ),
    "finding.MSM307": (
        "Condition depends on tensor values and the branches give '{name}' different shapes; compute both "
        "and "
        "use select",
        "条件依赖张量的值，且各分支中 '{name}' 的形状不同；请两路都计算后用 select 选择",
    ),
    "finding.MSM307.loop": (
        "Loop on a tensor condition grows '{name}'; its shape is dynamic in graph mode — bound the loop",
        "依赖张量条件的循环不断增大 '{name}'；图模式下其形状为动态 —— 请为循环设置固定上限",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM307": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    if x.sum() > 0:\n"
        "        y = torch.masked_select(x, x > 0)\n"
        "    else:\n        y = torch.zeros_like(x)\n    return y\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    if x.sum() > 0:\n        y = x * 2\n    else:\n"
        "        y = torch.zeros_like(x)\n    return y\n",
        [(4, 8)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
