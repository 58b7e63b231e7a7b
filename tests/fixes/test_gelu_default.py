"""nn.GELU on CPU is mindspore.nn.GELU, whose approximate defaults to True (the tanh approximation, up to
4e-4 from torch's exact GELU: met on the corpus's vision transformers, where compare flagged the layer). The
fix passes approximate=False, and torch's 'tanh' as True."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import torch.nn as nn


def build():
    return nn.GELU(), nn.GELU(approximate="tanh")
'''
FIXED = '''\
import mindspore


def build():
    return mindspore.nn.GELU(approximate=False), mindspore.nn.GELU(approximate=True)
'''


def test_the_exact_default_is_passed(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_gelus_compute_torchs(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, TORCH, "[g(d([-4.0, -2.0, -0.5, 0.0, 1.0, 2.0, 3.0])) for g in build()]")
    assert_same(outputs, 1e-6)
