"""Shared code of the sparse-tensor rules MSM401–MSM404 (MindSpore has only COO and CSR, and few operators
accept them): the sparse sites of a file, found in one walk, each under the rule it is reported by."""

from __future__ import annotations

import ast

from msmigrate.model.finding import Finding
from msmigrate.model.rule import Rule
from msmigrate.rules.sites import Site, sites_of
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
SUPPORTED_SPARSE = "MSM401"
UNSUPPORTED_LAYOUT = "MSM402"
SPARSE_OPERATION = "MSM403"
SPARSE_GRADIENT = "MSM404"

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


def findings(ctx, rule: Rule) -> list[Finding]:  # noqa: ANN001 - the analysis context
    """``rule``'s findings: its sites, each taking over the analyzer's API finding there (one diagnostic a
    site) or reported anew (one walk per file)."""
    found = [report(ctx, rule, site.span, site.key, site.args, convertible=TAKEN_OVER_API_RULES,
                    torch_api=site.torch_api) for site in sites_of(ctx, rule, "sparse_sites", _sites)]
    return [f for f in found if f is not None]


def _site(ctx, rule: str, node: ast.expr, args: dict, key: str = "") -> Site:  # noqa: ANN001
    return Site(rule, reference_range(ctx, node), key or f"finding.{rule}", args, torch_api=args.get("api"))


def _sites(ctx) -> list[Site]:  # noqa: ANN001 - the analysis context
    source = ctx.source
    if not any(word in source for word in _TRIGGERS):
        return []
    found: list[Site] = []
    in_calls: set[int] = set()  # layout names already covered by their call's finding
    index = tree_index(ctx)
    values = ctx.values
    for node in index.nodes(ast.Call):
        func = node.func
        if type(values.get(func)) is not str and not (type(func) is ast.Attribute and func.attr in _METHODS):
            continue  # neither a torch name nor a sparse method: no finding (see _call)
        site = _call(ctx, node)
        if site is not None:
            found.append(site)
            in_calls.update(id(k.value) for k in node.keywords)
    for node in named_nodes(ctx, ast.Attribute):
        if id(node) not in in_calls and isinstance(node.ctx, ast.Load):
            layout = LAYOUTS.get(ctx.qualified_name(node) or "")
            if layout:
                rule = SUPPORTED_SPARSE if layout in SUPPORTED_LAYOUTS else UNSUPPORTED_LAYOUT
                found.append(_site(ctx, rule, node, {"api": ctx.qualified_name(node), "layout": layout}))
    return found


def _layout_keyword(ctx, call: ast.Call) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == "layout":
            return LAYOUTS.get(ctx.qualified_name(keyword.value) or "")
    return None


def _call(ctx, call: ast.Call) -> Site | None:  # noqa: ANN001 - the analysis context
    """The site of one call (None when the call is not about sparse tensors)."""
    name = ctx.qualified_name(call.func)
    func = call.func
    if name in LAYOUT_OF_CONSTRUCTOR or name == "torch.sparse_compressed_tensor":
        layout = LAYOUT_OF_CONSTRUCTOR.get(name) or _layout_keyword(ctx, call) or "CSR"
        rule = SUPPORTED_SPARSE if layout in SUPPORTED_LAYOUTS else UNSUPPORTED_LAYOUT
        key = "finding.MSM401.coo" if name == "torch.sparse_coo_tensor" else ""  # indices transposed
        return _site(ctx, rule, func, {"api": name, "layout": layout}, key)
    if name in TOP_LEVEL_SPARSE_OPS or (name and name.startswith("torch.sparse.") and name.count(".") == 2):
        return _site(ctx, SPARSE_OPERATION, func, {"api": name})
    if name in SPARSE_GRADIENT_APIS or name == "torch.optim.SparseAdam":
        sparse = any(
            k.arg == "sparse" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in call.keywords
        )
        if sparse or name == "torch.optim.SparseAdam":
            return _site(ctx, SPARSE_GRADIENT, func, {"api": name})
        return None
    if isinstance(func, ast.Attribute) and name is None and method_receiver_ok(ctx, func):
        method = func.attr
        if method in LAYOUT_OF_METHOD:
            layout = _layout_keyword(ctx, call) or LAYOUT_OF_METHOD[method]
            rule = SUPPORTED_SPARSE if layout in SUPPORTED_LAYOUTS else UNSUPPORTED_LAYOUT
            return _site(ctx, rule, func, {"api": f"torch.Tensor.{method}", "layout": layout})
        ambiguous = (method in AMBIGUOUS_SPARSE_METHODS and ctx.is_tensor(func.value)
                     and not _nested(ctx, func))
        if method in SPARSE_METHODS or ambiguous:
            return _site(ctx, SPARSE_OPERATION, func, {"api": f"torch.Tensor.{method}"})
    return None


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
