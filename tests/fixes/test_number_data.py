"""The data forms ``rules/number_data.py`` proves to be Python numbers (``torch.Tensor(data)``: MSM535,
``torch.FloatTensor(data)``: MSM201), fixed with safe fixes only and run under MindSpore 2.10 against torch
2.13: the same float32 arrays, bit for bit, with no torch left. The negative controls are neighbours that
stay unsafe: fixed anyway they give another result (an int past 64 bits, which torch rounds and MindSpore
refuses; a tensor given where a list was not annotated, which torch's tensor shares)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both, same_arrays

EXACT = '''\
from typing import List, Tuple

import torch

SCALE = 2.0


def sinusoidal_embedding(n_channels: int, dim: int):
    return torch.FloatTensor([[p / (10000 ** (2 * (i // 2) / dim)) for i in range(dim)]
                              for p in range(n_channels)])


def normalizer(pixel_mean: List[float] = [123.675, 116.28, 103.53],
               pixel_std: Tuple[float, ...] = (58.395, 57.12, 57.375)):
    return torch.Tensor(pixel_mean).view(-1, 1, 1), torch.Tensor(pixel_std)


def scalars(x: float, k: int):
    half = 0.5
    return (torch.Tensor([x * SCALE, half, -x]), torch.FloatTensor([k / 3, 16777217.0]),
            torch.FloatTensor([[i * half, j - 0.25] for i in range(k) for j in range(2)]),
            torch.FloatTensor([i * 0.5 for i in range(k - k)]),
            torch.Tensor([[p ** 2 / 7 for p in range(0)] for _ in range(3)]))


def run():
    return (sinusoidal_embedding(5, 6), *normalizer(), *normalizer([1.5, 2], (3, 4.25)),
            *scalars(8388608.5, 3))
'''
EXACT_FIXED = '''\
def sinusoidal_embedding(n_channels: int, dim: int):
    return mindspore.tensor([[p / (10000 ** (2 * (i // 2) / dim)) for i in range(dim)]
                              for p in range(n_channels)], dtype=mindspore.float32)


def normalizer(pixel_mean: List[float] = [123.675, 116.28, 103.53],
               pixel_std: Tuple[float, ...] = (58.395, 57.12, 57.375)):
    return mindspore.tensor(pixel_mean, dtype=mindspore.float32).view(-1, 1, 1), \
mindspore.tensor(pixel_std, dtype=mindspore.float32)
'''

LEFT = '''\
import torch


def big(k: int):
    try:
        return torch.FloatTensor([2 ** i for i in range(k, k + 2)])
    except TypeError:
        return torch.zeros(2)


def shared(values):
    t = torch.Tensor(values)
    values += 1
    return t


def run():
    return big(70), shared(torch.zeros(2))
'''


def test_the_data_forms_are_fixed_with_safe_fixes_only(tmp_path: Path) -> None:
    got = fixed(tmp_path, EXACT, unsafe=False)
    assert "torch" not in got
    assert EXACT_FIXED.replace("\\\n", "") in got


def test_the_neighbours_get_no_safe_fix(tmp_path: Path) -> None:
    got = fixed(tmp_path, LEFT, unsafe=False)
    assert "torch.FloatTensor([2 ** i" in got and "torch.Tensor(values)" in got


@pytest.mark.slow
@needs_frameworks
def test_the_data_forms_compute_as_torch(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, EXACT, "run()", unsafe=False)
    assert [a.shape for a in outputs["torch"]] == [
        (5, 6), (3, 1, 1), (3,), (2, 1, 1), (2,), (3,), (2,), (6, 2), (0,), (3, 0)]
    assert {a.dtype.name for a in outputs["torch"]} == {"float32"}
    assert_same(outputs, 0.0)


@pytest.mark.slow
@needs_frameworks
def test_the_neighbours_fixed_anyway_compute_otherwise(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, LEFT, "run()", unsafe=True)
    # 2 ** 70 is rounded by torch, refused by MindSpore; torch.Tensor(values) is the tensor values itself
    assert same_arrays(outputs) == [False, False]
    np.testing.assert_array_equal(outputs["torch"][0], np.array([2.0 ** 70, 2.0 ** 71], np.float32))
