"""MSM521 for a cell known from an enclosing ``isinstance`` (pretrainedmodels' FBResNet:
``elif isinstance(m, nn.BatchNorm2d): m.weight.data.fill_(1)``): the parameter renamed for MindSpore's class
(``gamma``), then MSM533 writes the fill that runs on CPU. The exact fixed source and a MindSpore run."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, bias=False)
        self.bn = nn.BatchNorm2d(4)
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.weight.data.fill_(2)
                m.bias.data.fill_(0.5)
'''
FIXED = '''\
import ms_compat
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = mindspore.nn.Conv2d(3, 4, 3, has_bias=False, pad_mode='pad')
        self.bn = mindspore.nn.BatchNorm2d(4)
        for m in ms_compat.modules(self):
            if isinstance(m, mindspore.nn.BatchNorm2d):
                m.gamma.assign_value(mindspore.ops.full_like(m.gamma, 2))
                m.beta.assign_value(mindspore.ops.full_like(m.beta, 0.5))
'''


def test_a_parameter_of_a_cell_narrowed_by_isinstance(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_initialization_runs_on_cpu(tmp_path: Path) -> None:
    setup = {"torch": "def norm(m):\n    return [m.bn.weight.detach(), m.bn.bias.detach()]\n",
             "mindspore": "def norm(m):\n    return [m.bn.gamma, m.bn.beta]\n"}
    assert_same(run_both(tmp_path, TORCH, "norm(Net())", setup=setup), 0.0)


LISTED = '''\
import torch.nn as nn


class Prompt(nn.Module):
    def __init__(self, d):
        super().__init__()
        point_embeddings = [nn.Embedding(1, d) for i in range(4)]
        self.point_embeddings = nn.ModuleList(point_embeddings)
        self.pair = nn.ModuleList([nn.Embedding(2, d), nn.Linear(d, d)])

    def forward(self, x):
        return x + self.point_embeddings[0].weight + self.point_embeddings[3].weight, self.pair[1].weight
'''


def test_a_parameter_of_a_cell_in_a_list(tmp_path: Path) -> None:
    # segment-anything's prompt encoder: the cells of the list are all Embeddings (in a list of two
    # classes the element's class is not known: left)
    assert fixed(tmp_path, LISTED).splitlines()[-1] == (
        "        return x + self.point_embeddings[0].embedding_table + "
        "self.point_embeddings[3].embedding_table, self.pair[1].weight")


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_list_reads_its_tables(tmp_path: Path) -> None:
    setup = {"torch": "import torch\n\n\ndef run(x):\n    torch.manual_seed(0)\n    m = Prompt(3)\n"
                      "    with torch.no_grad():\n        for p in m.parameters():\n"
                      "            p.fill_(0.25)\n"
                      "        return m(x)[0]\n",
             "mindspore": "def run(x):\n    m = Prompt(3)\n    for p in m.get_parameters():\n"
                          "        p.set_data(mindspore.ops.full_like(p, 0.25))\n    return m(x)[0]\n"}
    assert_same(run_both(tmp_path, LISTED, "run(t(2, 3))", setup=setup), 1e-6)
