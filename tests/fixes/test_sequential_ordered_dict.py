"""MSM502 keeps an OrderedDict held by a name (pretrainedmodels' DPN: ``blocks = OrderedDict()`` …
``nn.Sequential(blocks)``): ``SequentialCell`` takes an OrderedDict as it is, while ``[blocks]`` fails
("child_cell must be 'Cell'"); also when the name is annotated (torchvision's ViT:
``layers: OrderedDict[str, nn.Module] = OrderedDict()``). The exact fixed source and a run."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
from collections import OrderedDict

import torch.nn as nn


def make():
    blocks = OrderedDict()
    blocks["scale"] = nn.Hardtanh(-0.5, 0.5)
    blocks["act"] = nn.Sigmoid()
    return nn.Sequential(blocks)


def listed(x):
    layers = [nn.Sigmoid()]
    return nn.Sequential(layers[0])(x)


def annotated():
    layers: OrderedDict[str, nn.Module] = OrderedDict()
    layers["act"] = nn.Tanh()
    return nn.Sequential(layers)
'''
FIXED = '''\
from collections import OrderedDict

import mindspore


def make():
    blocks = OrderedDict()
    blocks["scale"] = mindspore.nn.Hardtanh(-0.5, 0.5)
    blocks["act"] = mindspore.nn.Sigmoid()
    return mindspore.nn.SequentialCell(blocks)


def listed(x):
    layers = [mindspore.nn.Sigmoid()]
    return mindspore.nn.SequentialCell([layers[0]])(x)


def annotated():
    layers: OrderedDict[str, mindspore.nn.Cell] = OrderedDict()
    layers["act"] = mindspore.mint.nn.Tanh()
    return mindspore.nn.SequentialCell(layers)
'''


def test_an_ordered_dict_held_by_a_name_is_kept(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_sequence_computes_as_torch(tmp_path: Path) -> None:
    assert_same(run_both(tmp_path, TORCH, "[make()(t(2, 3)), listed(t(2, 3)), annotated()(t(2, 3))]"), 1e-6)
