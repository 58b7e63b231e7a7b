"""``nn.ModuleList(<generator>)`` (segment-anything's mask decoder builds its heads so): MindSpore's CellList
takes a list only, so the generator is written ``list(…)`` beside the rename. The exact rewritten source and
a MindSpore run (torch blocked) against torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, needs_frameworks, run_both

from msmigrate.fixes.project import FixOptions, fix_paths

TORCH = '''\
import torch.nn as nn


class Heads(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.heads = nn.ModuleList(nn.Linear(3, 2) for i in range(n))
        self.more = nn.ModuleList((nn.Linear(2, 1) for _ in range(2)))

    def forward(self, x):
        return [more(head(x)) for head, more in zip(self.heads, self.more)]
'''
FIXED = '''\
import mindspore


class Heads(mindspore.nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.heads = mindspore.nn.CellList(list(mindspore.mint.nn.Linear(3, 2) for i in range(n)))
        self.more = mindspore.nn.CellList((list(mindspore.mint.nn.Linear(2, 1) for _ in range(2))))

    def construct(self, x):
        return [more(head(x)) for head, more in zip(self.heads, self.more)]
'''


def test_the_generator_is_listed(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(TORCH, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=True))
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_listed_cells_compute_what_the_modules_compute(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, TORCH, "set_all(Heads(3))(t(4, 3))")
    assert len(outputs["torch"]) == 2  # zip stops at the shorter list
    assert_same(outputs)
