"""MSM4xx: sparse tensors (MindSpore has only COO and CSR, and few operators accept them)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.support import (
    TAKEN_OVER_API_RULES,
    method_receiver_ok,
    named_nodes,
    reference_range,
    report,
    text,
    tree_index,
)

DOC = "https://www.mindspore.cn/docs/en/r2.3.1/migration_guide/sparsity.html"

SUPPORTED_SPARSE = Rule("MSM401", C.SPARSE, S.INFORMATION, DOC)
UNSUPPORTED_LAYOUT = Rule("MSM402", C.SPARSE, S.WARNING, DOC)
SPARSE_OPERATION = Rule("MSM403", C.SPARSE, S.WARNING, DOC)
SPARSE_GRADIENT = Rule("MSM404", C.SPARSE, S.INFORMATION, DOC)

RULES = [SUPPORTED_SPARSE, UNSUPPORTED_LAYOUT, SPARSE_OPERATION, SPARSE_GRADIENT]

# The family's texts (en, zh): rule titles and explanations, finding messages. The message catalogue
# (i18n.py) reads this literal without importing the module.
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
    "rule.MSM402.title": ("Sparse layout not supported by MindSpore", "MindSpore 不支持的稀疏格式"),
    "rule.MSM402.explanation": (
        "CSC and block-sparse (BSR, BSC) layouts have no MindSpore counterpart. Convert to CSR or COO, or to "
        "dense with gradient accumulation to keep memory in check.",
        "CSC 以及块稀疏（BSR、BSC）格式在 MindSpore 中没有对应实现。请转换为 CSR 或 COO，"
        "或转换为稠密张量并用梯度累积控制显存。",
    ),
    "rule.MSM403.title": ("Operation on sparse tensors", "稀疏张量上的运算"),
    "rule.MSM403.explanation": (
        "torch.sparse operations and sparse-tensor methods have few MindSpore counterparts (for example "
        "mindspore.ops.csr_mm for CSR matrix products). Prefer dense computation when no sparse operator "
        "exists; gradient accumulation simulates a large batch if memory grows.",
        "torch.sparse 运算和稀疏张量方法在 MindSpore 中的对应接口很少（例如 CSR 矩阵乘可用 "
        "mindspore.ops.csr_mm）。"
        "没有稀疏算子时请改用稠密计算；若显存增加，可用梯度累积模拟大批次。",
    ),
    "rule.MSM404.title": ("Sparse gradients requested", "请求稀疏梯度"),
    "rule.MSM404.explanation": (
        "sparse=True makes PyTorch produce sparse gradients for the embedding. MindSpore embeddings produce "
        "dense gradients; drop the argument (and use a dense optimizer instead of SparseAdam).",
        "sparse=True 让 PyTorch 为嵌入层生成稀疏梯度。MindSpore 的嵌入层产生稠密梯度；"
        "请删除该参数（并用稠密优化器替代 SparseAdam）。",
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
    "finding.MSM402": (
        "{api} uses the {layout} sparse layout, which MindSpore does not support; convert to CSR, COO or "
        "dense",
        "{api} 使用 {layout} 稀疏格式，MindSpore 不支持；请转换为 CSR、COO 或稠密张量",
    ),
    "finding.MSM403": (
        "{api} operates on sparse tensors; few MindSpore operators accept them, consider dense computation",
        "{api} 作用于稀疏张量；MindSpore 中支持稀疏的算子很少，请考虑稠密计算",
    ),
    "finding.MSM404": (
        "{api}(sparse=True) requests sparse gradients; MindSpore computes dense gradients, remove the "
        "argument",
        "{api}(sparse=True) 请求稀疏梯度；MindSpore 计算稠密梯度，请删除该参数",
    ),
}

# rule id → (example that triggers the rule, counter-example that does not, the (line, column) of the
# rule's findings in the example)
EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM401": (
        "import torch\nadj = torch.sparse_coo_tensor(indices, values, (4, 4))\n",
        "import torch\nadj = torch.zeros(4, 4)\n",
        [(2, 7)],
    ),
    "MSM402": (
        "import torch\nadj = torch.sparse_csc_tensor(ccol, row, values, (4, 4))\n",
        "import torch\nadj = torch.sparse_csr_tensor(crow, col, values, (4, 4))\n",
        [(2, 7)],
    ),
    "MSM403": (
        "import torch\ny = torch.sparse.mm(adj, x)\n",
        "import torch\ny = torch.mm(adj, x)\n",
        [(2, 5)],
    ),
    "MSM404": (
        "import torch.nn as nn\nemb = nn.Embedding(1000, 64, sparse=True)\n",
        "import torch.nn as nn\nemb = nn.Embedding(1000, 64)\n",
        [(2, 7)],
    ),
}

LAYOUT_OF_CONSTRUCTOR = {
    "torch.sparse_coo_tensor": "COO",
    "torch.sparse_csr_tensor": "CSR",
    "torch.sparse_csc_tensor": "CSC",
    "torch.sparse_bsr_tensor": "BSR",
    "torch.sparse_bsc_tensor": "BSC",
}
LAYOUT_OF_METHOD = {
    "to_sparse": "COO",
    "to_sparse_coo": "COO",
    "to_sparse_csr": "CSR",
    "to_sparse_csc": "CSC",
    "to_sparse_bsr": "BSR",
    "to_sparse_bsc": "BSC",
}
LAYOUTS = {
    "torch.sparse_coo": "COO",
    "torch.sparse_csr": "CSR",
    "torch.sparse_csc": "CSC",
    "torch.sparse_bsr": "BSR",
    "torch.sparse_bsc": "BSC",
}
SUPPORTED_LAYOUTS = frozenset({"COO", "CSR"})
# sparse operations outside torch.sparse
TOP_LEVEL_SPARSE_OPS = frozenset({"torch.smm", "torch.sspaddmm", "torch.hspmm", "torch.spmm"})
# sparse-only tensor methods (distinctive names: reported on tensors and unknown receivers)
SPARSE_METHODS = frozenset(
    {
        "coalesce",
        "to_dense",
        "crow_indices",
        "col_indices",
        "ccol_indices",
        "row_indices",
        "sparse_dim",
        "dense_dim",
        "is_coalesced",
        "sparse_mask",
        "sparse_resize_",
    }
)
# sparse methods with common names (reported only on known tensors)
AMBIGUOUS_SPARSE_METHODS = frozenset({"indices", "values"})
SPARSE_GRADIENT_APIS = frozenset(
    {
        "torch.nn.Embedding",
        "torch.nn.EmbeddingBag",
        "torch.nn.functional.embedding",
        "torch.nn.functional.embedding_bag",
        "torch.nn.Embedding.from_pretrained",
        "torch.nn.EmbeddingBag.from_pretrained",
    }
)


# Every finding of this module needs one of these words in the source (a method name, or ``sparse`` in a
# torch name or keyword): most files have none, and are skipped without a walk.
_TRIGGERS = ("parse", "smm", "spmm", "sspaddmm", "coalesce", "dense", "indices", "values")

_METHODS = frozenset({*LAYOUT_OF_METHOD, *SPARSE_METHODS, *AMBIGUOUS_SPARSE_METHODS})


def check(ctx) -> Iterable[Finding]:
    source = ctx.source
    if not any(word in source for word in _TRIGGERS):
        return []
    found: list[Finding | None] = []
    in_calls: set[int] = set()  # layout names already covered by their call's finding
    index = tree_index(ctx)
    values = ctx.values
    for node in index.nodes(ast.Call):
        func = node.func
        if type(values.get(func)) is not str and not (type(func) is ast.Attribute and func.attr in _METHODS):
            continue  # neither a torch name nor a sparse method: no finding (see _call)
        finding = _call(ctx, node)
        if finding is not False:
            found.append(finding)
            in_calls.update(id(k.value) for k in node.keywords)
    for node in named_nodes(ctx, ast.Attribute):
        if id(node) not in in_calls and isinstance(node.ctx, ast.Load):
            layout = LAYOUTS.get(ctx.qualified_name(node) or "")
            if layout:
                rule = SUPPORTED_SPARSE if layout in SUPPORTED_LAYOUTS else UNSUPPORTED_LAYOUT
                found.append(_report(ctx, rule, node, {"api": ctx.qualified_name(node), "layout": layout}))
    return [f for f in found if f is not None]


CHECKERS = [check]


def _report(ctx, rule: Rule, func: ast.expr, args: dict, key: str = "") -> Finding | None:
    return report(
        ctx,
        rule,
        reference_range(ctx, func),
        key or f"finding.{rule.id}",
        args,
        convertible=TAKEN_OVER_API_RULES,
        torch_api=args.get("api"),
    )


def _layout_keyword(ctx, call: ast.Call) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == "layout":
            return LAYOUTS.get(ctx.qualified_name(keyword.value) or "")
    return None


def _call(ctx, call: ast.Call) -> Finding | None | bool:
    """The finding for one call (``False`` when the call is not about sparse tensors)."""
    name = ctx.qualified_name(call.func)
    func = call.func
    if name in LAYOUT_OF_CONSTRUCTOR or name == "torch.sparse_compressed_tensor":
        layout = LAYOUT_OF_CONSTRUCTOR.get(name) or _layout_keyword(ctx, call) or "CSR"
        rule = SUPPORTED_SPARSE if layout in SUPPORTED_LAYOUTS else UNSUPPORTED_LAYOUT
        key = "finding.MSM401.coo" if name == "torch.sparse_coo_tensor" else ""  # indices transposed
        return _report(ctx, rule, func, {"api": name, "layout": layout}, key)
    if name in TOP_LEVEL_SPARSE_OPS or (name and name.startswith("torch.sparse.") and name.count(".") == 2):
        return _report(ctx, SPARSE_OPERATION, func, {"api": name})
    if name in SPARSE_GRADIENT_APIS or name == "torch.optim.SparseAdam":
        sparse = any(
            k.arg == "sparse" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in call.keywords
        )
        if sparse or name == "torch.optim.SparseAdam":
            return _report(ctx, SPARSE_GRADIENT, func, {"api": name})
        return False
    if isinstance(func, ast.Attribute) and name is None and method_receiver_ok(ctx, func):
        method = func.attr
        if method in LAYOUT_OF_METHOD:
            layout = _layout_keyword(ctx, call) or LAYOUT_OF_METHOD[method]
            rule = SUPPORTED_SPARSE if layout in SUPPORTED_LAYOUTS else UNSUPPORTED_LAYOUT
            return _report(ctx, rule, func, {"api": f"torch.Tensor.{method}", "layout": layout})
        ambiguous = (method in AMBIGUOUS_SPARSE_METHODS and ctx.is_tensor(func.value)
                     and not _nested(ctx, func))
        if method in SPARSE_METHODS or ambiguous:
            return _report(ctx, SPARSE_OPERATION, func, {"api": f"torch.Tensor.{method}"})
    return False


def _nested(ctx, func: ast.Attribute) -> bool:
    """``x.values()`` where the function tests ``x.is_nested``: a nested tensor's values, not a sparse
    tensor's (MindSpore has neither; the API finding says it is missing)."""
    from msmigrate.analysis.usage_claims import CodeIndex

    index = ctx.memo.get("code_index")
    if index is None:
        index = ctx.memo["code_index"] = CodeIndex(ctx.tree)
    scope = index.function_of(func)
    receiver = text(ctx, func.value)
    return any(isinstance(node, ast.Attribute) and node.attr == "is_nested"
               and text(ctx, node.value) == receiver for node in ast.walk(scope))
