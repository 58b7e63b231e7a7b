"""MSM401: a COO or CSR sparse tensor: MindSpore has COOTensor and CSRTensor, but few operators accept them.

Reported at a constructor (``torch.sparse_coo_tensor``: the indices are transposed in MindSpore), a
``to_sparse*`` method or a layout name (``torch.sparse_coo``, ``torch.sparse_csr``).
The sites of the four sparse rules are found in one walk (``_sites.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.sparse._sites import DOC, findings

RULE = Rule("MSM401", C.SPARSE, S.INFORMATION, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM401.title": ("COO or CSR sparse tensor", "COO 或 CSR 稀疏张量"),
    "rule.MSM401.explanation": (
        "MindSpore has COOTensor and CSRTensor, but only a few operators accept them. Check that every "
        "operation applied to the sparse tensor supports it; otherwise convert to dense, and use gradient "
        "accumulation if the dense batch no longer fits in memory.",
        "MindSpore 提供 COOTensor 和 CSRTensor，但支持稀疏输入的算子很少。"
        "请确认对稀疏张量执行的每个操作都支持稀疏；"
        "否则请转换为稠密张量，若稠密批次放不进显存，可使用梯度累积。",
    ),
    "finding.MSM401": (
        "{api} creates a {layout} sparse tensor; MindSpore supports it, but few operators accept it",
        "{api} 创建 {layout} 稀疏张量；MindSpore 支持该格式，但支持它的算子很少",
    ),
    "finding.MSM401.coo": (
        "{api} creates a COO sparse tensor; mindspore.COOTensor(indices, values, shape) takes the indices "
        "as [N, ndim] where torch takes [ndim, N]: transpose them (indices.T); few operators accept it",
        "{api} 创建 COO 稀疏张量；mindspore.COOTensor(indices, values, shape) 的索引形状为 [N, ndim]，"
        "而 torch 为 [ndim, N]：请转置索引（indices.T）；支持它的算子很少",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM401": (
        "import torch\nadj = torch.sparse_coo_tensor(indices, values, (4, 4))\n",
        "import torch\nadj = torch.zeros(4, 4)\n",
        [(2, 7)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
