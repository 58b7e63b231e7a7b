"""MSM304: a tensor sliced with bounds computed from the data (``x[:n]``, ``n`` from a tensor).

Reported at the first such bound.
The sites of the seven dynamic-shape rules are found in one walk per file (``_scope.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._scope import DOC, findings

RULE = Rule("MSM304", C.DYNAMIC_SHAPE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM304.title": ("Slice with data-dependent bounds", "边界取决于数据的切片"),
    "rule.MSM304.explanation": (
        "x[:n] with n computed from tensor values gives a result whose length changes with the data, so "
        "the shapes after it are dynamic in graph mode. Slice to a fixed maximum and carry a mask, or pad "
        "inputs to a few bucket sizes.",
        "x[:n] 中 n 由张量的值计算得到时，结果长度随数据变化，图模式下其后的形状都变为动态。"
        "请切片到固定的最大长度并携带掩码，或把输入填充到少数几个分桶长度。",
    ),
    "finding.MSM304": (
        "Slice bound {bound} is computed from tensor values; the slice has a dynamic shape",
        "切片边界 {bound} 由张量值计算得到；切片结果为动态 shape",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM304": (
        "import torch\n\ndef head(x: torch.Tensor, n: torch.Tensor):\n    return x[: n.item()]\n",
        "import torch\n\ndef head(x: torch.Tensor):\n    return x[: x.shape[0] // 2]\n",
        [(4, 16)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
