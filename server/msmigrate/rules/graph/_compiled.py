"""Shared code of the GRAPH_MODE rules MSM701–MSM707: what GRAPH_MODE compiles in a file.

``construct`` of a ``mindspore.nn.Cell`` subclass and ``forward`` of a ``torch.nn.Module`` subclass (it
becomes ``construct``), with the methods of the class they call as ``self.name(...)`` and the file's
functions they call by name, transitively: the graph compiler compiles those too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from msmigrate.analysis.import_names import imported_name
from msmigrate.rules.module_classes import is_module_base

DOC = "https://www.mindspore.cn/tutorials/en/r2.3.1/beginner/accelerate_with_static_graph.html"
JIT_CLASS_DOC = (
    "https://www.mindspore.cn/tutorials/en/r2.3.1/advanced/static_graph_expert_programming.html"
    "#using-jit-class"
)
# the examples' network: a torch module whose forward follows
NET = "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"

_GRAPH_ENTRY = {"construct", "forward"}


def _is_cell_base(ctx, base: ast.expr, imports: dict[str, str], known: set[str]) -> bool:
    if isinstance(base, ast.Name) and base.id in known:
        return True
    name = imported_name(base, imports) or ""
    return (name.startswith("mindspore.") and name.rpartition(".")[2][:1].isupper()) or is_module_base(
        ctx, base
    )


def network_classes(ctx, imports: dict[str, str]) -> list[ast.ClassDef]:
    """Classes of the file deriving from a MindSpore class or a torch module, also through each other."""
    classes = [node for node in ast.walk(ctx.tree) if isinstance(node, ast.ClassDef)]
    known: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in classes:
            if node.name not in known and any(_is_cell_base(ctx, b, imports, known) for b in node.bases):
                known.add(node.name)
                changed = True
    return [node for node in classes if node.name in known]


def own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a function's body, nested functions and lambdas included, nested classes' bodies not."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))


def compiled_functions(
    ctx, imports: dict[str, str]
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``(qualified name, function)`` of every function GRAPH_MODE compiles, entry points first."""
    module_functions = {n.name: n for n in ctx.tree.body if isinstance(n, ast.FunctionDef)}
    found: dict[int, tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for cls in network_classes(ctx, imports):
        methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        pending = [methods[name] for name in ("construct", "forward") if name in methods]
        while pending:
            function = pending.pop(0)
            if id(function) in found:
                continue
            owner = f"{cls.name}.{function.name}" if function in methods.values() else function.name
            found[id(function)] = (owner, function)
            for node in own_nodes(function):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "self"
                    and func.attr in methods
                ):
                    pending.append(methods[func.attr])
                elif isinstance(func, ast.Name) and func.id in module_functions:
                    pending.append(module_functions[func.id])
    return list(found.values())


def compiled_nodes(
    ctx, imports: dict[str, str], kind: type | tuple[type, ...]
) -> Iterator[tuple[str, ast.AST]]:
    """``(owner, node)`` of every node of type ``kind`` in the functions GRAPH_MODE compiles, each node once
    (a function reached from two entry points is walked twice by :func:`compiled_functions`)."""
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        for node in ast.walk(function):
            if isinstance(node, kind) and id(node) not in seen:
                seen.add(id(node))
                yield owner, node
