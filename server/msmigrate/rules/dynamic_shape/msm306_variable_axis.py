"""MSM306: a reduction or transpose along an axis computed from the data.

The axis arguments of reductions, ``transpose``/``swapaxes``/``movedim``/``permute``/``squeeze``, bound by
the torch signature where the knowledge base has it: reported at the first such axis.
The sites of the seven dynamic-shape rules are found in one walk per file (``_scope.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._scope import DOC, findings

RULE = Rule("MSM306", C.DYNAMIC_SHAPE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM306.title": (
        "Reduction or transpose over axes computed from tensor values",
        "归约或转置的轴由张量值计算得到",
    ),
    "rule.MSM306.explanation": (
        "The axis argument is computed from tensor data, so the output rank or layout is unknown when the "
        "graph is compiled. Use constant axes (Python ints, or attributes set in __init__).",
        "轴参数由张量数据计算得到，编译计算图时无法确定输出的维数或布局。请使用常量轴（Python 整数或在 "
        "__init__ 中设置的属性）。",
    ),
    "finding.MSM306": (
        "{api} with axis {axis} computed from tensor values; use a constant axis",
        "{api} 的轴 {axis} 由张量值计算得到；请使用常量轴",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM306": (
        "import torch\n\ndef reduce(x: torch.Tensor, axis: torch.Tensor):\n"
        "    return torch.sum(x, int(axis))\n",
        "import torch\n\ndef reduce(x: torch.Tensor):\n    return torch.sum(x, -1)\n",
        [(4, 25)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
