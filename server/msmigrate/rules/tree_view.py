"""The tree of an analysed file with each node's parent, for the detectors (the fixers have
``FixContext.parents``), made once per file (``tree_view``)."""

from __future__ import annotations

import ast
from functools import cached_property
from typing import Any

from msmigrate.fixes.instance_calls import parents

LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class TreeView:
    """The tree of an analysed file with its parents, for a detector (the fixes have ``FixContext``)."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree

    @cached_property
    def parents(self) -> dict[int, ast.AST]:
        return parents(self.tree)


def tree_view(ctx: Any) -> TreeView:  # noqa: ANN401 - an analysis context
    """The file's view, shared by the detectors through ``ctx.memo``."""
    return ctx.memo.setdefault("tree_view", TreeView(ctx.tree))


def in_loop(view: Any, node: ast.AST, function: ast.AST) -> bool:  # noqa: ANN401 - a TreeView, a FixContext
    """Whether ``node`` runs in a loop (a comprehension included) inside ``function``."""
    current = view.parents.get(id(node))
    while current is not None and current is not function:
        if isinstance(current, LOOPS):
            return True
        current = view.parents.get(id(current))
    return False
