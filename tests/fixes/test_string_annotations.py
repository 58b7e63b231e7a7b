"""MSM104 on string annotations naming torch (torchvision's ViT: ``"OrderedDict[str, torch.Tensor]"``):
each torch name written as its MindSpore mapping, so the file imports no torch; a name without a mapped
target (``torch.device``) leaves the string as it is. The exact fixed source, and the fixed module imported
and run where torch cannot be imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
from collections import OrderedDict

import torch
import torch.nn as nn


def f(x: "torch.Tensor", state: "OrderedDict[str, torch.Tensor]",
      m: "nn.Module") -> "torch.Tensor":
    copy: "OrderedDict[str, torch.Tensor]" = OrderedDict()
    copy["a"] = torch.abs(x)
    return copy["a"]
'''
FIXED = '''\
from collections import OrderedDict

import mindspore


def f(x: "mindspore.Tensor", state: "OrderedDict[str, mindspore.Tensor]",
      m: "mindspore.nn.Cell") -> "mindspore.Tensor":
    copy: "OrderedDict[str, mindspore.Tensor]" = OrderedDict()
    copy["a"] = mindspore.mint.abs(x)
    return copy["a"]
'''


def test_string_annotations_take_mindspore_names(tmp_path: Path) -> None:
    assert fixed(tmp_path / "a", TORCH) == FIXED
    device = "import torch\n\n\ndef g(d: \"torch.device\") -> None:\n    return None\n"
    assert fixed(tmp_path / "b", device) == device  # torch.device has no mapped target: left, reported


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_module_runs_without_torch(tmp_path: Path) -> None:
    assert_same(run_both(tmp_path, TORCH, "f(t(2, 3), {}, None)"), 0.0)
