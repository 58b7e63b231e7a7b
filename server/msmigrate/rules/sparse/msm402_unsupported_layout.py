"""MSM402: a sparse layout MindSpore does not have (CSC, BSR, BSC).

Reported at a constructor, a ``to_sparse_*`` method or a layout name of such a layout
(``torch.sparse_compressed_tensor`` without a layout is CSR, MSM401).
The sites of the four sparse rules are found in one walk (``_sites.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.sparse._sites import DOC, findings

RULE = Rule("MSM402", C.SPARSE, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM402.title": ("Sparse layout not supported by MindSpore", "MindSpore 不支持的稀疏格式"),
    "rule.MSM402.explanation": (
        "CSC and block-sparse (BSR, BSC) layouts have no MindSpore counterpart. Convert to CSR or COO, or to "
        "dense with gradient accumulation to keep memory in check.",
        "CSC 以及块稀疏（BSR、BSC）格式在 MindSpore 中没有对应实现。请转换为 CSR 或 COO，"
        "或转换为稠密张量并用梯度累积控制显存。",
    ),
    "finding.MSM402": (
        "{api} uses the {layout} sparse layout, which MindSpore does not support; convert to CSR, COO or "
        "dense",
        "{api} 使用 {layout} 稀疏格式，MindSpore 不支持；请转换为 CSR、COO 或稠密张量",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM402": (
        "import torch\nadj = torch.sparse_csc_tensor(ccol, row, values, (4, 4))\n",
        "import torch\nadj = torch.sparse_csr_tensor(crow, col, values, (4, 4))\n",
        [(2, 7)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
