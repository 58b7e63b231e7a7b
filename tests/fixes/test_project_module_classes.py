"""``msmigrate fix`` knows the project's module classes across files, as a scan does (torchvision's ViT:
``class MLPBlock(MLP)`` with ``MLP(torch.nn.Sequential)`` in another file, then ``self.modules()``; Swin:
``self.mlp.modules()``): without them the fix saw no module receiver and left ``modules()``, which a Cell
lacks. The exact fixed source and a run."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, needs_frameworks, run_both

from msmigrate.fixes.project import FixOptions, fix_paths

BLOCKS = '''\
import torch.nn as nn


class MLP(nn.Sequential):
    def __init__(self, width):
        super().__init__(nn.Linear(width, width), nn.Tanh(), nn.Linear(width, width))
'''
TORCH = '''\
import torch.nn as nn

from blocks import MLP


class Block(MLP):
    def __init__(self, width):
        super().__init__(width)
        self.count = len(list(self.modules()))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = MLP(3)
        found = list(self.mlp.modules())
        self.linears = sum(isinstance(m, nn.Linear) for m in found)

    def forward(self, x):
        return self.mlp(x)
'''
FIXED = '''
from blocks import MLP
import ms_compat
import mindspore


class Block(MLP):
    def __init__(self, width):
        super().__init__(width)
        self.count = len(list(ms_compat.modules(self)))


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.mlp = MLP(3)
        found = list(ms_compat.modules(self.mlp))
        self.linears = sum(isinstance(m, mindspore.mint.nn.Linear) for m in found)

    def construct(self, x):
        return self.mlp(x)
'''


def test_a_module_class_of_another_file_gets_the_cell_rewrites(tmp_path: Path) -> None:
    (tmp_path / "blocks.py").write_text(BLOCKS, encoding="utf-8")
    (tmp_path / "model.py").write_text(TORCH, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=True))
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_cells_are_those_of_torch(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, TORCH, "[Block(3).count, Net().linears, set_all(Net())(t(2, 3))]",
                       files={"blocks.py": BLOCKS})
    assert [int(a) for a in outputs["mindspore"][:2]] == [int(a) for a in outputs["torch"][:2]] == [4, 2]
    assert_same(outputs, 1e-5)
