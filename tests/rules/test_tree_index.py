"""The checkers' shared TreeIndex (rules/support.py): exactly the nodes of each indexed type a full walk
finds, in source order, with the scope the data flow uses."""

import ast

import pytest

from msmigrate.rules.support import INDEXED, TreeIndex

SOURCE = '''
import torch, torch.nn as nn
from torch import optim as o
n = torch.zeros(3)[0].item()
if n > 0:
    pass


class Net(nn.Module):
    size: int = len([1])

    @staticmethod
    def step(x, k=torch.ones(2)[1], *, f=lambda v: v.sum()):
        total = 0
        for i in range(3):
            total += x[i].max()(1)
        async def inner():
            async for t in g():
                y = [u * 2 for u in t if u]
                z: int = (w := y[0])
                while w:
                    w -= 1
        return {a: b for a, b in x.items()}.get(f(x).shape[0])
'''


def _walked(tree: ast.AST, kind: type) -> list[ast.AST]:
    found = [node for node in ast.walk(tree) if type(node) is kind]
    return sorted(found, key=lambda node: (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)))


def test_index_holds_every_node_of_each_indexed_type_in_source_order():
    tree = ast.parse(SOURCE)
    index = TreeIndex(tree)
    for kind in INDEXED - {ast.comprehension}:
        assert index.nodes(kind) == _walked(tree, kind), kind.__name__
    comprehensions = index.nodes(ast.comprehension)  # no position: in walk order
    assert len(comprehensions) == 2 and set(comprehensions) == set(_walked(tree, ast.comprehension))
    assert len(index.nodes(ast.Call)) == 12
    assert index.nodes(ast.If, ast.While) == _walked(tree, ast.If) + _walked(tree, ast.While)


def test_scopes_and_assignments():
    tree = ast.parse(SOURCE)
    index = TreeIndex(tree)
    step = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    inner = next(n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef))
    scope = {ast.unparse(call): index.scope_of[id(call)] for call in index.nodes(ast.Call)}
    assert scope["torch.zeros(3)"] is tree and scope["len([1])"] is tree
    assert scope["torch.ones(2)"] is step and scope["v.sum()"] is step  # defaults: the function's scope
    assert scope["g()"] is inner
    assert sorted(index.assigned[id(tree)]) == ["n", "size"]  # a class body is no scope of its own
    assert sorted(index.assigned[id(step)]) == ["total"]
    assert sorted(index.assigned[id(inner)]) == ["w", "y", "z"]


def test_only_indexed_types_are_asked_for():
    index = TreeIndex(ast.parse(SOURCE))
    with pytest.raises(ValueError):
        index.nodes(ast.Name)
