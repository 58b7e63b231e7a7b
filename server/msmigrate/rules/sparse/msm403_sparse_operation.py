"""MSM403: an operation on sparse tensors (``torch.sparse.*``, ``torch.spmm``…, sparse-only methods).

A method of a common name (``indices``, ``values``) is reported on known tensors only, and not on a
nested tensor's (a function testing ``x.is_nested``).
The sites of the four sparse rules are found in one walk (``_sites.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.sparse._sites import DOC, findings

RULE = Rule("MSM403", C.SPARSE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM403.title": ("Operation on sparse tensors", "稀疏张量上的运算"),
    "rule.MSM403.explanation": (
        "torch.sparse operations and sparse-tensor methods have few MindSpore counterparts (for example "
        "mindspore.ops.csr_mm for CSR matrix products). Prefer dense computation when no sparse operator "
        "exists; gradient accumulation simulates a large batch if memory grows.",
        "torch.sparse 运算和稀疏张量方法在 MindSpore 中的对应接口很少（例如 CSR 矩阵乘可用 "
        "mindspore.ops.csr_mm）。"
        "没有稀疏算子时请改用稠密计算；若显存增加，可用梯度累积模拟大批次。",
    ),
    "finding.MSM403": (
        "{api} operates on sparse tensors; few MindSpore operators accept them, consider dense computation",
        "{api} 作用于稀疏张量；MindSpore 中支持稀疏的算子很少，请考虑稠密计算",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM403": (
        "import torch\ny = torch.sparse.mm(adj, x)\n",
        "import torch\ny = torch.mm(adj, x)\n",
        [(2, 5)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
