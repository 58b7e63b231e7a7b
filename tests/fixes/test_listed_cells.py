"""A loop over a list written in its header yields the list's items, so the loop variable is a module when
every item is one (open_clip's ModifiedResNet: ``for block in [self.layer1, ...]:
block.named_parameters()``); ``named_parameters()`` → ``parameters_and_names()`` (the same name paths;
a normalization layer's parameters are named gamma/beta in MindSpore). The exact fixed source and a run."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import fixed, needs_frameworks, run_both

TORCH = '''\
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Linear(3, 3), nn.Tanh())
        self.layer2 = nn.Sequential(nn.Linear(3, 2))
        self.found = []
        for block in [self.layer1, self.layer2]:
            for name, param in block.named_parameters(recurse=True):
                if name.endswith("0.bias"):
                    self.found.append((name, param.shape[0]))
'''
FIXED = '''\
import ms_compat
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = mindspore.nn.SequentialCell([mindspore.mint.nn.Linear(3, 3), mindspore.mint.nn.Tanh()])
        self.layer2 = mindspore.nn.SequentialCell([mindspore.mint.nn.Linear(3, 2)])
        self.found = []
        for block in [self.layer1, self.layer2]:
            for name, param in ms_compat.named_parameters(block, recurse=True):
                if name.endswith("0.bias"):
                    self.found.append((name, param.shape[0]))
'''


def test_the_items_of_a_listed_loop_are_cells(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_parameters_found_by_name_are_those_of_torch(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, TORCH, "np.array([f'{name}:{size}' for name, size in Net().found])")
    assert outputs["torch"][0].tolist() == outputs["mindspore"][0].tolist() == ["0.bias:3", "0.bias:2"]
