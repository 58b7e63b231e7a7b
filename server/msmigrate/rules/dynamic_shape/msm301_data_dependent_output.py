"""MSM301: an operation whose output length is decided by the data.

``torch.masked_select``, ``nonzero``, ``argwhere``, ``unique``, ``unique_consecutive``, one-argument
``torch.where`` (and the same tensor methods): reported at the call.
The sites of the seven dynamic-shape rules are found in one walk per file (``_scope.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._scope import DOC, findings

RULE = Rule("MSM301", C.DYNAMIC_SHAPE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM301.title": (
        "Operation whose output shape depends on the data",
        "输出形状取决于数据的操作",
    ),
    "rule.MSM301.explanation": (
        "masked_select, nonzero, argwhere, unique, unique_consecutive and torch.where with one argument "
        "return as many elements as the data selects. In graph mode MindSpore compiles shapes ahead of "
        "time, so such a result makes every later shape dynamic: slower or unsupported. Keep a fixed "
        "maximum size and a mask instead (for example torch.where(mask, x, 0) followed by a masked sum).",
        "masked_select、nonzero、argwhere、unique、unique_consecutive 以及单参数的 torch.where "
        "返回的元素个数由数据决定。"
        "MindSpore 图模式在编译时确定形状，这类结果会使后续所有形状变为动态，导致性能下降或不被支持。"
        "请改为固定最大长度并配合掩码（例如先 torch.where(mask, x, 0) 再做带掩码的求和）。",
    ),
    "finding.MSM301": (
        "{api} returns a data-dependent shape (dynamic shape in graph mode); use a fixed size and a mask",
        "{api} 返回的形状取决于数据（图模式下为动态 shape）；请使用固定大小并配合掩码",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM301": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    return torch.masked_select(x, x > 0)\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    return torch.where(x > 0, x, 0)\n",
        [(4, 12)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
