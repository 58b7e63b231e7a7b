"""MSM303: ``topk`` with a ``k`` computed from the data.

Reported at ``k`` when it depends on tensor values (``Flow.data_dependent``).
The sites of the seven dynamic-shape rules are found in one walk per file (``_scope.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._scope import DOC, findings

RULE = Rule("MSM303", C.DYNAMIC_SHAPE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM303.title": ("top-k with a non-constant k", "k 不是常量的 top-k"),
    "rule.MSM303.explanation": (
        "When k is computed from tensor values, the output shape changes from step to step. Take the "
        "top-k of a fixed maximum k and mask out the entries beyond the wanted count.",
        "当 k 由张量的值计算得到时，输出形状会随步骤变化。"
        "请按固定的最大 k 取 top-k，再用掩码去掉多余的部分。",
    ),
    "finding.MSM303": (
        "topk with k={k} computed from tensor values gives a dynamic shape; use a fixed maximum k and a mask",
        "topk 的 k={k} 由张量值计算得到，会产生动态 shape；请使用固定的最大 k 并配合掩码",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM303": (
        "import torch\n\ndef best(x: torch.Tensor):\n    k = int((x > 0.5).sum())\n"
        "    return torch.topk(x, k)\n",
        "import torch\n\ndef best(x: torch.Tensor):\n    return torch.topk(x, 5)\n",
        [(5, 26)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
