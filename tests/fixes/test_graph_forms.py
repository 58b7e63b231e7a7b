"""MSM704's fix (torchvision's ShuffleNetV2 failed in GRAPH_MODE on ``x.chunk(2, dim=1)``): the forms that run
in both modes, written in torch code (they mean the same there). The exact rewritten source, and the fixed
model run in PyNative and in GRAPH_MODE against torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import torch


class Shuffle(torch.nn.Module):
    def forward(self, x):
        x1, x2 = x.chunk(2, dim=1)
        y = torch.cat((x2, x1), dim=1).transpose(1, 2)
        z = x.sum(dim=(1, 2)).view(2, 1, 5).expand(-1, 3, -1)
        return y, x.cumsum(dim=-1), x.sort(dim=1, descending=True)[0], x.split(1, dim=2)[0], z
'''
FIXED = '''\
import mindspore


class Shuffle(mindspore.nn.Cell):
    def construct(self, x):
        x1, x2 = x.chunk(2, 1)
        y = mindspore.mint.cat((x2, x1), dim=1).swapaxes(1, 2)
        z = x.sum(dim=(1, 2)).view(2, 1, 5).broadcast_to((-1, 3, -1))
        return y, x.cumsum(-1), x.sort(1, descending=True)[0], x.split(1, 2)[0], z
'''
STD = (
    "import torch\n\n\nclass Spread(torch.nn.Module):\n    def forward(self, x):\n"
    "        return x.std(dim=1)\n"
)


def test_the_forms_that_run_in_both_modes_are_written(tmp_path: Path) -> None:
    assert fixed(tmp_path / "a", TORCH, unsafe=False) == FIXED  # safe: the same call in torch's meaning
    assert "x.std(dim=1)" in fixed(tmp_path / "b", STD)  # no form of std computes the same: left


@pytest.mark.slow
@needs_frameworks
@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_the_fixed_model_runs_in_both_modes(tmp_path: Path, mode: str) -> None:
    setup = {"mindspore": f"mindspore.set_context(mode=mindspore.{mode})\n"}
    outputs = run_both(tmp_path, TORCH, "Shuffle()(t(2, 4, 3, 5))", unsafe=False, setup=setup)
    assert_same(outputs, 1e-6)
