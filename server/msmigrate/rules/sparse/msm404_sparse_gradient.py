"""MSM404: sparse gradients requested (``sparse=True`` of an embedding, ``torch.optim.SparseAdam``).

MindSpore's embeddings produce dense gradients: the argument is dropped, a dense optimizer used.
The sites of the four sparse rules are found in one walk (``_sites.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.sparse._sites import DOC, findings

RULE = Rule("MSM404", C.SPARSE, S.INFORMATION, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM404.title": ("Sparse gradients requested", "请求稀疏梯度"),
    "rule.MSM404.explanation": (
        "sparse=True makes PyTorch produce sparse gradients for the embedding. MindSpore embeddings produce "
        "dense gradients; drop the argument (and use a dense optimizer instead of SparseAdam).",
        "sparse=True 让 PyTorch 为嵌入层生成稀疏梯度。MindSpore 的嵌入层产生稠密梯度；"
        "请删除该参数（并用稠密优化器替代 SparseAdam）。",
    ),
    "finding.MSM404": (
        "{api}(sparse=True) requests sparse gradients; MindSpore computes dense gradients, remove the "
        "argument",
        "{api}(sparse=True) 请求稀疏梯度；MindSpore 计算稠密梯度，请删除该参数",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM404": (
        "import torch.nn as nn\nemb = nn.Embedding(1000, 64, sparse=True)\n",
        "import torch.nn as nn\nemb = nn.Embedding(1000, 64)\n",
        [(2, 7)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
