"""Tensors nothing else refers to: an in-place call on one changes nothing the code reads again, so its
out-of-place counterpart computes the same (``image.mul(f).clamp_(0, 1)`` is ``image.mul(f).clamp(0, 1)``).

A temporary is the result of arithmetic (``a + b``, ``-a``) or of a tensor method that returns a new tensor.
Methods that return a view of their receiver, or may return the receiver itself (``x.float()`` on a float
tensor, ``x.contiguous()``, ``x.to(…)``), are not temporaries: an in-place call on them changes ``x``.
"""

from __future__ import annotations

import ast

# torch's view operations (docs: "Tensor Views") and methods that may return their receiver or share its
# storage
SHARED_RESULTS: frozenset[str] = frozenset({
    "adjoint", "as_strided", "detach", "detach_", "diagonal", "expand", "expand_as", "movedim", "moveaxis",
    "narrow", "permute", "select", "squeeze", "transpose", "t", "unflatten", "unfold", "unsqueeze", "view",
    "view_as", "view_as_real", "view_as_complex", "unbind", "split", "hsplit", "vsplit", "dsplit",
    "tensor_split", "split_with_sizes", "swapaxes", "swapdims", "chunk", "indices", "values", "crow_indices",
    "col_indices", "ccol_indices", "row_indices", "reshape", "reshape_as", "flatten", "ravel", "contiguous",
    "to", "type", "type_as", "float", "double", "half", "bfloat16", "int", "long", "short", "char", "byte",
    "bool", "cpu", "cuda", "data", "requires_grad_", "share_memory_", "pin_memory", "coalesce",
    "resolve_conj", "resolve_neg", "conj", "align_to", "rename", "refine_names", "nan_to_num_",
    "__getitem__", "mT", "mH", "T", "H", "real", "imag", "grad",
})


def is_temporary(node: ast.expr) -> bool:
    """Whether ``node`` evaluates to a tensor no other name refers to (see the module doc)."""
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        name = node.func.attr
        return not name.endswith("_") and name not in SHARED_RESULTS and not name.startswith("__")
    return False
