"""Host code: Python that drives a network from outside it and is never compiled in graph mode, so the
dynamic-shape rules (MSM3xx) have nothing to say about it. A function is host code when it is not a method
of a class, calls a model (a module instance, or a name such as ``model``) and reads tensor values back to
Python (``.item()``, ``.tolist()``, ``.numpy()``): a decoding loop, an evaluation or training loop."""

from __future__ import annotations

import ast
import re

HOST_READS = frozenset({"item", "tolist", "numpy"})
_MODEL_NAME = re.compile(r"^(model|net|network|module|encoder|decoder)$", re.IGNORECASE)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def is_host_scope(ctx, scope: ast.AST) -> bool:
    """Whether ``scope`` (a function of the file, or the module) is host code (see the module doc)."""
    memo = ctx.memo.setdefault("host_scopes", {})
    found = memo.get(id(scope))
    if found is None:
        found = memo[id(scope)] = _host(ctx, scope)
    return found


def _host(ctx, scope: ast.AST) -> bool:
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) or _in_class(ctx, scope):
        return False
    reads = drives = False
    stack = list(scope.body)
    while stack and not (reads and drives):
        node = stack.pop()
        if isinstance(node, ast.Call):
            func = node.func
            reads = reads or getattr(func, "attr", None) in HOST_READS
            drives = drives or _model(ctx, func.value if isinstance(func, ast.Attribute) else func)
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, _NESTED))
    return reads and drives


def _model(ctx, node: ast.expr) -> bool:
    named = isinstance(node, ast.Name) and bool(_MODEL_NAME.match(node.id))
    return named or ctx.receiver_kind(node) == "module"


def _in_class(ctx, function: ast.AST) -> bool:
    """Whether ``function`` is defined in the body of a class (a method: part of what it belongs to)."""
    methods = ctx.memo.get("host_methods")
    if methods is None:
        methods = ctx.memo["host_methods"] = {
            id(item) for cls in ast.walk(ctx.tree) if isinstance(cls, ast.ClassDef) for item in cls.body}
    return id(function) in methods
