"""What a module's top-level import statements bind, and the dotted name an expression is through them
(``np.log`` → ``numpy.log`` after ``import numpy as np``), for any package: the rules that look at NumPy,
MindSpore or the graph compiler's names read them here (the analysis' own resolution,
``AnalysisContext.qualified_name``, follows torch's names through every scope)."""

from __future__ import annotations

import ast

from msmigrate.analysis.source_text import dotted_name


def module_imports(tree: ast.Module, everywhere: bool = False) -> dict[str, str]:
    """Module-level import aliases: local name → dotted module or object name (``import a.b`` binds ``a``,
    ``import a.b as x`` binds ``x`` → ``a.b``, ``from a import b as y`` binds ``y`` → ``a.b``; relative
    imports are left out, a later import of a name replaces an earlier one). ``everywhere``: the imports
    of every scope (functions, classes, blocks), in ``ast.walk`` order."""
    names: dict[str, str] = {}
    for node in ast.walk(tree) if everywhere else tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def imported_name(node: ast.expr, imports: dict[str, str]) -> str | None:
    """The dotted name ``node`` (a name or attribute chain) is through ``imports`` (None: its first name is
    not imported)."""
    dotted = dotted_name(node)
    if dotted is None:
        return None
    root, _, rest = dotted.partition(".")
    base = imports.get(root)
    return None if base is None else (f"{base}.{rest}" if rest else base)


def names_of(imports: dict[str, str], target: str) -> frozenset[str]:
    """The local names bound to ``target`` itself (``np`` for ``numpy`` after ``import numpy as np``)."""
    return frozenset(name for name, imported in imports.items() if imported == target)


def package_imports(tree: ast.Module, package: str, everywhere: bool = False) -> dict[str, str]:
    """The names :func:`module_imports` binds to ``package`` or to something in it (``nn`` → ``torch.nn``)."""
    return {name: imported for name, imported in module_imports(tree, everywhere).items()
            if imported.split(".")[0] == package}


def package_name(tree: ast.Module, package: str) -> str | None:
    """The first name the module-level imports bind to ``package`` itself (``th`` after ``import torch as
    th``; ``torch`` after ``import torch.nn``), or None."""
    return next((name for name, imported in module_imports(tree).items() if imported == package), None)
