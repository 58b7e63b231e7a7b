"""MSM514 on torch's FX marks met on the model corpus: ``torch._assert(c, m)`` (torchvision's ViT,
open_clip) is Python's ``assert c, m`` (torch's own definition), ``@torch.jit._overload_method``
(torchvision's DenseNet) declares TorchScript overloads and is removed.
The exact fixed source and a MindSpore run."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
from typing import List

import torch
from torch import _assert, nn


class Block(nn.Module):
    @torch.jit._overload_method  # noqa: F811
    def forward(self, input: List[torch.Tensor]) -> torch.Tensor:  # noqa: F811
        pass

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # noqa: F811
        torch._assert(x.dim() == 4, f"Expected 4 dimensions, got {x.dim()}")
        _assert(x.shape[1] > 0, "no channels")
        return x * 2
'''
FIXED = '''\
from typing import List

import mindspore


class Block(mindspore.nn.Cell):
    def construct(self, input: List[mindspore.Tensor]) -> mindspore.Tensor:  # noqa: F811
        pass

    def construct(self, x: mindspore.Tensor) -> mindspore.Tensor:  # noqa: F811
        assert x.dim() == 4, f"Expected 4 dimensions, got {x.dim()}"
        assert x.shape[1] > 0, "no channels"
        return x * 2
'''


def test_fx_assert_and_overloads(tmp_path: Path) -> None:
    assert fixed(tmp_path / "a", TORCH, unsafe=False) == FIXED  # safe: torch._assert is this assert


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_block_runs_and_asserts(tmp_path: Path) -> None:
    caught = ("def caught(x):\n    try:\n        Block()(x)\n    except AssertionError as e:\n"
              "        return str(e)\n")
    setup = {fw: caught for fw in ("torch", "mindspore")}
    outputs = run_both(tmp_path, TORCH, "[Block()(t(1, 2, 3, 3)), len(caught(t(2, 3)))]", setup=setup)
    assert_same(outputs, 0.0)
