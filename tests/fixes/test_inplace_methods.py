"""MSM533: in-place Tensor methods MindSpore 2.10 has no CPU kernel for (``fill_``, ``zero_``, ``normal_``,
``uniform_``; no ``triu_`` at all), met on whisper, open_clip, pretrainedmodels and torchvision's ViT: the
out-of-place form, the value itself for a new tensor, else written back with ``assign_value``. The exact
fixed source, and the fixed model run against torch on CPU."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import math

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.pos = nn.Parameter(torch.empty(1, n, d).normal_(std=0.02))
        self.noise = torch.empty(1, d).uniform_(-1, 1)
        self.bn = nn.BatchNorm1d(d)
        self.bn.weight.data.fill_(2)
        self.bn.bias.data.zero_()
        self.scale = nn.Parameter(torch.zeros((1, 1, d)).fill_(0.5))
        mask = torch.empty(n, n)
        mask.fill_(float("-inf"))
        mask.triu_(1)
        self.register_buffer("mask", mask, persistent=False)
        self.causal = torch.empty(n, n).fill_(-math.inf).tril_(-1)

    def forward(self, x):
        spread = (self.noise.abs() <= 1).all() & (self.pos.abs() < 1).all()
        return self.mask + self.causal, self.bn(x), x * self.scale, spread
'''
FIXED = '''\
import math

import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self, n, d):
        super().__init__()
        self.pos = mindspore.Parameter(mindspore.ops.normal((1, n, d), 0.0, 0.02))
        self.noise = mindspore.ops.uniform((1, d), mindspore.tensor(float(-1)), mindspore.tensor(float(1)))
        self.bn = mindspore.nn.BatchNorm1d(d)
        self.bn.gamma.assign_value(mindspore.ops.full_like(self.bn.gamma, 2))
        self.bn.beta.assign_value(mindspore.ops.zeros_like(self.bn.beta))
        self.scale = mindspore.Parameter(mindspore.ops.full_like(mindspore.mint.zeros((1, 1, d)), 0.5))
        mask = mindspore.mint.empty(n, n)
        mask.assign_value(mindspore.ops.full_like(mask, float("-inf")))
        mask.assign_value(mask.triu(1))
        self.register_buffer("mask", mask, persistent=False)
        self.causal = mindspore.ops.full_like(mindspore.mint.empty(n, n), -math.inf).tril(-1)

    def construct(self, x):
        spread = (self.noise.abs() <= 1).all() & (self.pos.abs() < 1).all()
        return self.mask + self.causal, self.bn(x), x * self.scale, spread
'''


def test_in_place_methods_become_out_of_place_forms(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_model_computes_as_torch_on_cpu(tmp_path: Path) -> None:
    setup = {"torch": "def evaluated(m):\n    return m.eval()\n",
             "mindspore": "def evaluated(m):\n    m.set_train(False)\n    return m\n"}
    outputs = run_both(tmp_path, TORCH, "evaluated(Net(3, 4))(t(2, 4))", setup=setup)
    assert_same(outputs, 1e-6)


ACTIVATION = '''\
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 4)

    def forward(self, x):
        y = F.relu(self.fc1(x), inplace=True)
        features = x * 2
        out = F.silu(features, inplace=True)
        return y + out + x
'''
KEPT = "        kept = F.relu(x, inplace=True)\n        return kept + x\n"


def test_inplace_activations_whose_input_is_not_read_again(tmp_path: Path) -> None:
    # torchvision's GoogLeNet and DenseNet: the in-place form has no CPU kernel; the value is what is used
    got = fixed(tmp_path / "a", ACTIVATION)
    assert got.splitlines()[-4:] == [
        "        y = mindspore.mint.nn.functional.relu(self.fc1(x))",
        "        features = x * 2",
        "        out = mindspore.mint.nn.functional.silu(features)",
        "        return y + out + x",
    ]
    # x is read again: torch changed it in place, so the argument stays (reported)
    kept = fixed(tmp_path / "b", ACTIVATION.replace("        return y + out + x\n", KEPT))
    assert "        kept = mindspore.mint.nn.functional.relu(x, inplace=True)" in kept


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_activations_compute_as_torch_on_cpu(tmp_path: Path) -> None:
    setup = {
        "torch": "import torch\n\n\ndef run(x):\n    m = Net()\n    with torch.no_grad():\n"
                 "        m.fc1.weight.copy_(torch.eye(4) * 0.5)\n        m.fc1.bias.fill_(0.1)\n"
                 "        return m(x)\n",
        "mindspore": "import numpy\n\n\ndef run(x):\n    m = Net()\n"
                     "    m.fc1.weight.set_data(mindspore.tensor(numpy.eye(4, dtype=numpy.float32) * 0.5))\n"
                     "    m.fc1.bias.set_data(mindspore.tensor(numpy.full(4, 0.1, numpy.float32)))\n"
                     "    return m(x)\n",
    }
    assert_same(run_both(tmp_path, ACTIVATION, "run(t(3, 4))", setup=setup), 1e-6)


def test_a_new_tensor_made_float_keeps_its_sizes(tmp_path: Path) -> None:
    # vit-pytorch's CCT: the drop-path mask
    source = ("import torch\n\n\ndef keep(shape, p):\n"
              "    return torch.zeros(shape).float().uniform_(0, 1) < p\n")
    assert fixed(tmp_path, source).splitlines()[-1] == (
        "    return mindspore.ops.uniform(shape, mindspore.tensor(float(0)), mindspore.tensor(float(1))) < p")
