"""``nn.ModuleList(<generator>)`` (segment-anything's mask decoder builds its heads so): MindSpore's CellList
takes a list only, so the generator is written ``list(…)`` beside the rename. The exact rewritten source and
a MindSpore run (torch blocked) against torch."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from composition_models import RUNNER, SETUP

from msmigrate.fixes.project import FixOptions, fix_paths

ROOT = Path(__file__).resolve().parents[2]
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


needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


@pytest.mark.slow
@needs_frameworks
def test_the_listed_cells_compute_what_the_modules_compute(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "conversion"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "tests" / "conversion"))
    outputs = {}
    for framework in ("torch", "mindspore"):
        (tmp_path / framework).mkdir()
        (tmp_path / framework / "model.py").write_text(TORCH, encoding="utf-8")
        if framework == "mindspore":
            fix_paths([str(tmp_path / framework)], FixOptions(mindspore_version="2.6", unsafe=True))
        program = RUNNER.format(folder=str(tmp_path / framework), setup=SETUP[framework], module="model",
                                expression="set_all(Heads(3))(t(4, 3))")
        outcome = harness.run_programs(framework, [("model", program)], tmp_path / f"run-{framework}")
        assert outcome["model"]["ok"], outcome["model"]
        with np.load(tmp_path / f"run-{framework}" / "model.npz", allow_pickle=False) as data:
            outputs[framework] = [data[f"arr_{i}"] for i in range(len(data.files))]
    assert len(outputs["torch"]) == len(outputs["mindspore"]) == 2  # zip stops at the shorter list
    for want, got in zip(outputs["torch"], outputs["mindspore"], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
