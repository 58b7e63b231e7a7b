"""``add_module`` and layers set as attributes of an ``nn.Sequential`` subclass (torchvision's DenseNet):
the helper module's ``add_module`` names the child's parameters by their path (the checkpoint keys a
converted state dict has) and a ``SequentialCell`` runs the child. The exact fixed source and a run
comparing outputs and parameter names with torch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from run_support import fixed, needs_frameworks, run_both

from msmigrate.knowledge.compositions.helper_module import module_text

TORCH = '''\
import torch
import torch.nn as nn


class Block(nn.ModuleDict):
    def __init__(self, width, count):
        super().__init__()
        for i in range(count):
            self.add_module("layer%d" % (i + 1), nn.Linear(width, width))

    def forward(self, x):
        for _, layer in self.items():
            x = torch.tanh(layer(x))
        return x


class Transition(nn.Sequential):
    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.act = nn.Sigmoid()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 4))
        self.features.add_module("block", Block(4, 2))
        self.features.add_module("transition", Transition(4))
        self.features.add_module(name="head", module=nn.Linear(4, 3))

    def forward(self, x):
        return self.features(x)
'''
FIXED = '''\
import ms_compat
import mindspore


class Block(ms_compat.ModuleDict):
    def __init__(self, width, count):
        super().__init__()
        for i in range(count):
            ms_compat.add_module(self, "layer%d" % (i + 1), mindspore.mint.nn.Linear(width, width))

    def construct(self, x):
        for _, layer in self.items():
            x = mindspore.mint.tanh(layer(x))
        return x


class Transition(mindspore.nn.SequentialCell):
    def __init__(self, width):
        super().__init__()
        ms_compat.add_module(self, "linear", mindspore.mint.nn.Linear(width, width))
        ms_compat.add_module(self, "act", mindspore.nn.Sigmoid())


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = mindspore.nn.SequentialCell([mindspore.mint.nn.Linear(4, 4)])
        ms_compat.add_module(self.features, "block", Block(4, 2))
        ms_compat.add_module(self.features, "transition", Transition(4))
        ms_compat.add_module(self.features, name="head", module=mindspore.mint.nn.Linear(4, 3))

    def construct(self, x):
        return self.features(x)
'''
NAMES = {
    "torch": "\n\ndef names(m):\n    return np.array(sorted(n for n, _ in m.named_parameters()))\n",
    "mindspore": "\n\ndef names(m):\n"
                 "    return np.array(sorted(p.name for _, p in m.parameters_and_names()))\n",
}


def test_add_module_and_sequential_attributes_call_the_helper(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED
    module = (tmp_path / "ms_compat.py").read_text(encoding="utf-8")
    assert module == module_text(["add_module", "ModuleDict"])  # ModuleDict: CellDict refuses containers


@pytest.mark.slow
@needs_frameworks
def test_the_parameters_are_named_and_run_as_in_torch(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, TORCH, "[set_all(Net())(t(2, 4)), names(Net())]", setup=NAMES)
    np.testing.assert_allclose(outputs["mindspore"][0], outputs["torch"][0], rtol=1e-5, atol=1e-6)
    assert outputs["torch"][1].tolist() == outputs["mindspore"][1].tolist() == [
        "features.0.bias", "features.0.weight", "features.block.layer1.bias", "features.block.layer1.weight",
        "features.block.layer2.bias", "features.block.layer2.weight", "features.head.bias",
        "features.head.weight", "features.transition.linear.bias", "features.transition.linear.weight"]
