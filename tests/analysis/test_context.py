"""The AnalysisContext that rule checkers receive."""

from __future__ import annotations

import ast

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_text
from msmigrate.analysis.context import AnalysisContext

SOURCE = """import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import numpy as np

class Net(nn.Module):
    def forward(self, x):
        return F.relu(x)

model = Net()
opt = optim.SGD(model.parameters(), lr=0.1)
t = torch.zeros(3)
a = np.zeros(3)
y = t[a > 0]
"""


@pytest.fixture(scope="module")
def ctx(kb) -> AnalysisContext:
    result, context = analyze_text(SOURCE, "ctx.py", kb, AnalysisOptions(use_jedi=False, run_checkers=False))
    assert context is not None and result.error_key is None
    return context


def _find(ctx: AnalysisContext, kind: type, predicate) -> ast.AST:
    return next(node for node in ast.walk(ctx.tree) if isinstance(node, kind) and predicate(node))


def test_qualified_name(ctx):
    relu = _find(ctx, ast.Attribute, lambda n: n.attr == "relu")
    assert ctx.qualified_name(relu) == "torch.nn.functional.relu"
    sgd = _find(ctx, ast.Attribute, lambda n: n.attr == "SGD")
    assert ctx.qualified_name(sgd) == "torch.optim.SGD"
    np_zeros = _find(ctx, ast.Attribute, lambda n: n.attr == "zeros" and n.value.id == "np")
    assert ctx.qualified_name(np_zeros) is None


def test_receiver_kinds(ctx):
    names = {
        node.id: node
        for node in ast.walk(ctx.tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.lineno >= 12
    }
    assert ctx.receiver_kind(names["model"]) == "module"
    assert ctx.is_tensor(names["t"])
    assert not ctx.is_tensor(names["a"])
    assert ctx.receiver_kind(names["a"]) is None
    x_in_forward = _find(ctx, ast.Name, lambda n: n.id == "x" and isinstance(n.ctx, ast.Load))
    assert ctx.is_tensor(x_in_forward)
    subscript = _find(ctx, ast.Subscript, lambda n: True)
    assert ctx.is_tensor(subscript)
    opt_target = _find(ctx, ast.Assign, lambda n: n.targets[0].id == "opt").value
    assert ctx.receiver_kind(opt_target) == "optimizer"
    parameters_call = opt_target.args[0]
    assert ctx.receiver_kind(parameters_call.func.value) == "module"
    assert ctx.qualified_name(parameters_call.func) is None  # a member, not a torch name


def test_node_range_and_call_of(ctx):
    by_api = {f.torch_api: f for f in ctx.usages}
    relu = by_api["torch.nn.functional.relu"]
    call = ctx.call_of(relu)
    assert isinstance(call, ast.Call)
    assert ctx.node_range(call) == (9, 16, 9, 25)
    assert (relu.line, relu.column, relu.end_line, relu.end_column) == (9, 16, 9, 22)
    base = by_api["torch.nn.Module"]
    assert ctx.call_of(base) is None
    params = by_api["torch.nn.Module.parameters"]
    assert ast.unparse(ctx.call_of(params)) == "model.parameters()"


def test_context_fields(ctx, kb):
    assert ctx.path == "ctx.py"
    assert ctx.kb is kb
    assert ctx.source == SOURCE
    assert ctx.lines[6] == "class Net(nn.Module):"
    assert isinstance(ctx.tree, ast.Module)


def test_no_context_for_a_file_without_torch(kb):
    result, context = analyze_text("x = 1\n", "a.py", kb)
    assert context is None and result.findings == []


def test_shared_walk(ctx):
    nodes = ctx.walk()
    assert nodes is ctx.walk()
    assert len(nodes) == sum(1 for _ in ast.walk(ctx.tree))
    calls = ctx.nodes_of(ast.Call)
    assert calls is ctx.nodes_of(ast.Call)
    assert [ast.unparse(c.func) for c in calls][:3] == ["Net", "optim.SGD", "torch.zeros"]
    assert all(isinstance(n, (ast.Name, ast.Attribute)) for n in ctx.nodes_of(ast.Name, ast.Attribute))
