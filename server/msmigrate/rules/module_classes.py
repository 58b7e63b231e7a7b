"""Which classes of a file are torch modules (``nn.Module`` subclasses, also through other classes of the
file or the project): read by the framework rules (MSM501, MSM507) and the graph-mode rules."""

from __future__ import annotations

import ast
import re

from msmigrate.analysis.values import UserClass


def is_module_base(ctx, base: ast.expr) -> bool:
    name = ctx.qualified_name(base)
    if name == "torch.nn.Module":
        return True
    if name and name.startswith("torch.nn.") and ctx.kb.torch_kind(name) == "class":
        return name.rsplit(".", 1)[1][:1].isupper() and "." not in name[len("torch.nn.") :]
    value = ctx.values.get(base)
    return isinstance(value, UserClass) and value.kind == "module"


def forward_name_range(
    ctx, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[int, int, int, int] | None:
    """The range of the name in ``def forward(``."""
    line = ctx.lines[function.lineno - 1] if function.lineno - 1 < len(ctx.lines) else ""
    match = re.search(r"\bdef\s+(" + re.escape(function.name) + r")\b", line)
    if match is None:
        return None
    return (function.lineno, match.start(1) + 1, function.lineno, match.end(1) + 1)


def module_classes(ctx, classes: list[ast.ClassDef]) -> set[str]:
    """Names of the file's classes that are torch modules, also through other classes of the file."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in classes:
            if node.name not in found and any(
                is_module_base(ctx, base) or (isinstance(base, ast.Name) and base.id in found)
                for base in node.bases
            ):
                found.add(node.name)
                changed = True
    return found
