"""MSM302: a tensor indexed by a boolean mask (``x[x > 0]``): as many elements as the mask selects.

A mask is a comparison of tensors, ``~``/``&``/``|`` of masks, a boolean function or method, or a name
assigned one.
The sites of the seven dynamic-shape rules are found in one walk per file (``_scope.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._scope import DOC, findings

RULE = Rule("MSM302", C.DYNAMIC_SHAPE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM302.title": ("Boolean-mask indexing", "布尔掩码索引"),
    "rule.MSM302.explanation": (
        "x[mask] with a boolean tensor keeps only the selected elements, so the result's shape depends on "
        "the data, exactly like masked_select. In graph mode replace it with a fixed-shape computation: "
        "torch.where(mask, x, fill) or multiply by the mask and reduce.",
        "用布尔张量做 x[mask] 只保留被选中的元素，结果形状取决于数据，与 masked_select 相同。"
        "在图模式下请改为固定形状的计算：torch.where(mask, x, fill)，或乘以掩码后再归约。",
    ),
    "finding.MSM302": (
        "Boolean-mask indexing {expr} has a data-dependent shape; use where(mask, x, fill) instead",
        "布尔掩码索引 {expr} 的形状取决于数据；请改用 where(mask, x, fill)",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM302": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    return x[x > 0]\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    x[x < 0] = 0\n    return x\n",
        [(4, 12)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
