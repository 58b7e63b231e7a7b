"""MSM305: a gather whose index has a data-dependent shape.

``gather``, ``index_select``, ``take``, ``take_along_dim`` with an index from MSM301/MSM302-like code:
reported at the index.
The sites of the seven dynamic-shape rules are found in one walk per file (``_scope.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._scope import DOC, findings

RULE = Rule("MSM305", C.DYNAMIC_SHAPE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM305.title": ("Gather with an index of data-dependent length", "索引长度取决于数据的 gather"),
    "rule.MSM305.explanation": (
        "The index comes from an operation with a data-dependent shape (nonzero, a boolean mask, unique …), "
        "so gather/index_select returns a dynamic shape too. Use a fixed-length index padded to a maximum "
        "and mask the padded positions.",
        "索引来自形状取决于数据的操作（nonzero、布尔掩码、unique 等），因此 gather/index_select "
        "的结果形状同样是动态的。"
        "请使用填充到最大长度的定长索引，并对填充位置做掩码。",
    ),
    "finding.MSM305": (
        "{api} with index {index} of data-dependent length gives a dynamic shape",
        "{api} 的索引 {index} 长度取决于数据，结果为动态 shape",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM305": (
        "import torch\n\ndef rows(x: torch.Tensor):\n    idx = torch.nonzero(x[:, 0]).squeeze(1)\n"
        "    return torch.index_select(x, 0, idx)\n",
        "import torch\n\ndef rows(x: torch.Tensor):\n    idx = torch.arange(4)\n"
        "    return torch.index_select(x, 0, idx)\n",
        [(5, 37)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
