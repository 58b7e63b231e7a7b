"""MSM521: parameters read or tied by their torch name on cells whose MindSpore class names them
otherwise (weight tying through an Embedding's ``weight``, which is ``embedding_table`` in MindSpore): the
exact source ``msmigrate fix`` writes, and the rewrite run in MindSpore against torch (outputs and the
gradient of the tied weight, which collects both uses)."""

from __future__ import annotations

from pathlib import Path

import pytest
from idiom_support import Case, assert_fixed, assert_same, fixed, needs_frameworks, run_cases

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import get_knowledge_base

LM_TORCH = """import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(5, 3)
        self.norm = nn.LayerNorm((3,))
        self.head = nn.Linear(3, 5, bias=False)
        self.head.weight = self.embed.weight  # weight tying

    def forward(self, idx):
        h = self.norm(self.embed(idx)) * self.norm.weight.mean()
        return self.head(h)
"""
LM_MINDSPORE = """import mindspore


class LM(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.embed = mindspore.nn.Embedding(5, 3)
        self.norm = mindspore.nn.LayerNorm((3,), epsilon=1e-05)
        self.head = mindspore.mint.nn.Linear(3, 5, bias=False)
        self.head.weight = self.embed.embedding_table  # weight tying

    def construct(self, idx):
        h = self.norm(self.embed(idx)) * self.norm.gamma.mean()
        return self.head(h)
"""
E = "np.arange(15, dtype=np.float32).reshape(5, 3) / 10 - 0.7"
# MindSpore 2.10's Cell has register_buffer(name, tensor, persistent=True): the call stays as it is (the
# mapping is derived: tables 2.4 and 2.6), and the state dict leaves a non-persistent buffer out, as torch's
BUFFERS_TORCH = """import torch
import torch.nn as nn


class Pos(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.arange(6.0).reshape(2, 3), persistent=False)
        self.register_buffer("scale", torch.ones(3) * 2)

    def forward(self, x):
        return x * self.scale + self.table
"""
BUFFERS_MINDSPORE = """import mindspore


class Pos(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.register_buffer("table", mindspore.ops.arange(6.0).reshape(2, 3), persistent=False)
        self.register_buffer("scale", mindspore.mint.ones(3) * 2)

    def construct(self, x):
        return x * self.scale + self.table
"""
STATE = ("keys = list(m.state_dict())\n"
         "result = [m(x), keys == ['scale'], len(list(m.named_buffers())), len(list(m.parameters()))]\n")
CASES = {
    "weight_tying": Case(
        LM_TORCH, LM_MINDSPORE,
        f"m = LM()\nm.embed.weight.data = torch.from_numpy({E})\nm.norm.weight.data.fill_(1.5)\n"
        "idx = torch.tensor([1, 3, 3])\nloss = (m(idx) ** 2).sum()\nloss.backward()\n"
        "result = [m(idx), loss, m.embed.weight.grad, m.head.weight is m.embed.weight]\n",
        f"m = LM()\nm.embed.embedding_table.set_data(mindspore.Tensor({E}))\n"
        "m.norm.gamma.set_data(mindspore.ops.full((3,), 1.5, dtype=mindspore.float32))\n"
        "idx = mindspore.Tensor(np.array([1, 3, 3]), mindspore.int32)\n"
        "grad_fn = mindspore.value_and_grad(lambda i: (m(i) ** 2).sum(), None, [m.embed.embedding_table])\n"
        "loss, grads = grad_fn(idx)\n"
        "result = [m(idx), loss, grads[0], m.head.weight is m.embed.embedding_table]\n",
    ),
    "buffers": Case(
        BUFFERS_TORCH, BUFFERS_MINDSPORE,
        "m = Pos()\nx = torch.ones(2, 3)\n" + STATE,
        "m = Pos()\nx = mindspore.ops.ones((2, 3), mindspore.float32)\n" + STATE.replace("m.parameters()",
                                                                                         "m.get_parameters()"),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_fix_writes_the_mindspore_module(name: str) -> None:
    assert_fixed(CASES[name])


def test_the_rename_waits_for_the_class() -> None:
    # while the Embedding is torch's, its parameter keeps torch's name; the finding says what comes
    source = "import torch.nn as nn\n\nembed = nn.Embedding(5, 3)\ntable = embed.weight\n"
    [finding] = [f for f in analyze_source(source, "m.py", get_knowledge_base("2.6")).findings
                 if f.rule == "MSM521"]
    assert (finding.line, finding.column, finding.fixable) == (4, 15, False)
    assert finding.message() == ("weight of embed: once embed is a mindspore.nn.Embedding, this parameter "
                                 "is called embedding_table")
    assert fixed(source, unsafe=True).endswith("table = embed.embedding_table\n")


@pytest.mark.slow
@needs_frameworks
def test_the_rewritten_module_computes_what_torch_computes(tmp_path: Path) -> None:
    results = run_cases(CASES, tmp_path)
    expected, actual = results["weight_tying"]
    assert len(expected) == 4 and bool(expected[3]) and bool(actual[3])  # one shared parameter
    assert_same(expected, actual)
    expected, actual = results["buffers"]
    assert [int(v) for v in expected[1:]] == [int(v) for v in actual[1:]] == [1, 2, 0]
    assert_same(expected, actual)
