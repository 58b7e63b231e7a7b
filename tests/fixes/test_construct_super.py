"""MSM501 renames ``super().forward(...)`` with ``def forward`` (whisper's ``LayerNorm(nn.LayerNorm)`` calls
``super().forward(x.float())``; MindSpore's Cell has no ``forward``). The exact fixed source and a run."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import torch.nn as nn


class Scaled(nn.Sigmoid):
    def forward(self, x):
        return super().forward(x) * 2


class Twice(nn.Tanh):
    def forward(self, x):
        return super(Twice, self).forward(x) + 1
'''
FIXED = '''\
import mindspore


class Scaled(mindspore.nn.Sigmoid):
    def construct(self, x):
        return super().construct(x) * 2


class Twice(mindspore.mint.nn.Tanh):
    def construct(self, x):
        return super(Twice, self).construct(x) + 1
'''


def test_super_forward_becomes_construct(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_subclasses_compute_as_torch(tmp_path: Path) -> None:
    assert_same(run_both(tmp_path, TORCH, "[Scaled()(t(2, 3)), Twice()(t(2, 3))]"), 1e-6)
