"""MSM535: ``torch.from_numpy`` and ``torch.Tensor([…])`` where MindSpore's call is exact, fixed with safe
fixes only and run under MindSpore 2.10 against torch: the same values, dtypes and shapes. The negative
controls are the calls MSM535 leaves to the (unsafe) API fix: there the name-for-name rewrite, applied
anyway, gives what torch does not (``t += 1`` reaches torch's array, not MindSpore's; ``torch.Tensor(3)`` is
three elements, ``mindspore.Tensor(3)`` the number 3), so the comparison that passes the exact calls can
fail."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both, same_arrays

EXACT = '''\
import gzip

import numpy as np
import torch
import torch.nn as nn


def alignment(dump):
    array = np.frombuffer(gzip.decompress(dump), dtype=bool).copy()
    mask = torch.from_numpy(array).reshape(2, 3)
    return mask


class Embedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Parameter(torch.zeros(2, 3), requires_grad=False)
        table = np.arange(6, dtype=np.float64).reshape(2, 3) / 4
        self.pos.data.copy_(torch.from_numpy(table).float())

    def forward(self, x):
        return x + self.pos


def run(x):
    levels = np.triu(np.ones((3, 3), np.int64))
    return (alignment(gzip.compress(bytes([1, 0, 1, 1, 0, 0]))), Embedding()(x), torch.from_numpy(levels),
            torch.from_numpy(np.linspace(0, 1, 5) * 3), torch.Tensor([[1, -2], [3, 4.5]]),
            torch.Tensor((123.675, 116.28, 103.53)).view(-1, 1, 1), torch.Tensor([16777217, 7]),
            torch.FloatTensor([2, 3]))
'''
EXACT_FIXED_RUN = (
    "def run(x):\n"
    "    levels = np.triu(np.ones((3, 3), np.int64))\n"
    "    return (alignment(gzip.compress(bytes([1, 0, 1, 1, 0, 0]))), Embedding()(x), "
    "mindspore.from_numpy(levels),\n"
    "            mindspore.from_numpy(np.linspace(0, 1, 5) * 3), "
    "mindspore.tensor([[1, -2], [3, 4.5]], dtype=mindspore.float32),\n"
    "            mindspore.tensor((123.675, 116.28, 103.53), dtype=mindspore.float32).view(-1, 1, 1), "
    "mindspore.tensor([16777217, 7], dtype=mindspore.float32),\n"
    "            mindspore.tensor([2, 3], dtype=mindspore.float32))\n"
)

LEFT = '''\
import numpy as np
import torch


def written():
    array = np.zeros(3, np.float32)
    t = torch.from_numpy(array)
    t += 5.0
    return t, torch.tensor(array)


def sized():
    return torch.tensor(list(torch.Tensor(3).shape))


def run():
    return [*written(), sized()]
'''


def test_the_exact_calls_are_fixed_with_safe_fixes_only(tmp_path: Path) -> None:
    got = fixed(tmp_path, EXACT, unsafe=False)
    assert "torch" not in got.replace("import torch", "")
    assert got.split("\n\n\ndef run")[1] == "(x):" + EXACT_FIXED_RUN.split("def run(x):")[1]
    assert "        self.pos.data.copy_(mindspore.from_numpy(table).float())" in got
    assert "    mask = mindspore.from_numpy(array).reshape(2, 3)" in got


def test_the_calls_left_get_no_safe_fix(tmp_path: Path) -> None:
    assert fixed(tmp_path, LEFT, unsafe=False).count("torch.from_numpy(array)") == 1


@pytest.mark.slow
@needs_frameworks
def test_the_exact_calls_compute_as_torch(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, EXACT, "run(d([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))", unsafe=False)
    assert [a.dtype.name for a in outputs["torch"]] == [
        "bool", "float32", "int64", "float64", "float32", "float32", "float32", "float32"]
    assert_same(outputs, 0.0)


@pytest.mark.slow
@needs_frameworks
def test_the_calls_left_fixed_anyway_compute_otherwise(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, LEFT, "run()", unsafe=True)
    same = same_arrays(outputs)
    # t += 5 writes into torch's array, not into MindSpore's; torch.Tensor(3) has 3 elements, MindSpore's
    # Tensor(3) is the number 3
    assert same == [True, False, False]
