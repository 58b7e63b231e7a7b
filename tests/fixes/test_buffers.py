"""MSM532: a persistent buffer becomes a Parameter that is not trained (the corpus's segment-anything and
whisper keep tables in buffers, which a converted checkpoint must restore): the exact rewritten source, and a
MindSpore run (torch blocked) that loads torch's state dict, buffer included, with load_param_into_net and
computes torch's output."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.project import FixOptions, fix_paths
from msmigrate.knowledge.base import get_knowledge_base

ROOT = Path(__file__).resolve().parents[2]
TORCH = '''\
import torch
import torch.nn as nn


class PositionEncoding(nn.Module):
    def __init__(self, n, scale=None):
        super().__init__()
        if scale is None or scale <= 0.0:
            scale = 1.0
        self.register_buffer(
            "gaussian",
            scale * torch.randn((2, n)),
        )
        self.register_buffer("mask", torch.ones(2), persistent=False)
        self.register_buffer("steps", torch.arange(3))
        self.proj = nn.Linear(2 * n, 3)

    def forward(self, x):
        y = (x * self.mask) @ self.gaussian
        return self.proj(torch.cat([y.sin(), y.cos()], dim=-1))
'''
FIXED = '''\
import mindspore


class PositionEncoding(mindspore.nn.Cell):
    def __init__(self, n, scale=None):
        super().__init__()
        if scale is None or scale <= 0.0:
            scale = 1.0
        self.gaussian = mindspore.Parameter(scale * mindspore.ops.randn((2, n)), requires_grad=False)
        self.register_buffer("mask", mindspore.mint.ones(2), persistent=False)
        self.steps = mindspore.Parameter(mindspore.ops.arange(3), requires_grad=False)
        self.proj = mindspore.mint.nn.Linear(2 * n, 3)

    def construct(self, x):
        y = (x * self.mask) @ self.gaussian
        return self.proj(mindspore.mint.cat([y.sin(), y.cos()], dim=-1))
'''


def test_a_buffer_assigned_again_or_registered_twice_stays_a_buffer() -> None:
    line = "        self.proj = nn.Linear(2 * n, 3)\n"
    again = '        self.steps = self.steps + 1\n        self.register_buffer("gaussian", None)\n'
    source = TORCH.replace(line, line + again)
    result = analyze_source(source, "model.py", get_knowledge_base("2.6"))
    assert [f for f in result.findings if f.rule == "MSM532"] == []


def test_a_persistent_buffer_becomes_a_parameter_that_is_not_trained(tmp_path: Path) -> None:
    result = analyze_source(TORCH, "model.py", get_knowledge_base("2.6"))
    assert [(f.line, f.column, f.message_args) for f in result.findings if f.rule == "MSM532"] == [
        (10, 14, {"name": "gaussian"}), (15, 14, {"name": "steps"})]
    (tmp_path / "model.py").write_text(TORCH, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=True))
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == FIXED


TORCH_RUN = """
import sys
import numpy as np
import torch
sys.path.insert(0, {folder!r})
from model import PositionEncoding
torch.manual_seed(0)
model = PositionEncoding(4)
state = {{k: v.numpy() for k, v in model.state_dict().items()}}
np.savez({state!r}, **state)
x = torch.from_numpy(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2))
result = (model(x).detach(), sorted(state) == ["gaussian", "proj.bias", "proj.weight", "steps"])
"""
MINDSPORE_RUN = """
import sys
import numpy as np
import mindspore
sys.path.insert(0, {folder!r})
from model import PositionEncoding
model = PositionEncoding(4)
with np.load({state!r}) as data:
    values = {{k: mindspore.Parameter(mindspore.Tensor(data[k]), name=k, requires_grad=k != "steps")
              for k in data.files}}
not_loaded, unused = mindspore.load_param_into_net(model, values, strict_load=True)
x = mindspore.Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2))
names = sorted(p.name for p in model.trainable_params())
result = (model(x), not_loaded == [] and unused == [] and names == ["proj.bias", "proj.weight"]
          and model.steps.asnumpy().tolist() == [0, 1, 2])
"""

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


@pytest.mark.slow
@needs_frameworks
def test_the_buffer_loads_with_the_weights_and_computes_torchs_output(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "conversion"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "tests" / "conversion"))
    outputs = {}
    for framework, run in (("torch", TORCH_RUN), ("mindspore", MINDSPORE_RUN)):
        (tmp_path / framework).mkdir()
        (tmp_path / framework / "model.py").write_text(TORCH, encoding="utf-8")
        if framework == "mindspore":
            fix_paths([str(tmp_path / framework)], FixOptions(mindspore_version="2.6", unsafe=True))
        program = run.format(folder=str(tmp_path / framework), state=str(tmp_path / "state.npz"))
        outcome = harness.run_programs(framework, [("model", program)], tmp_path / f"run-{framework}")
        assert outcome["model"]["ok"], outcome["model"]  # torch cannot be imported in the MindSpore run
        with np.load(tmp_path / f"run-{framework}" / "model.npz", allow_pickle=False) as data:
            outputs[framework] = [data[f"arr_{i}"] for i in range(len(data.files))]
    (want, torch_names), (got, loaded) = outputs["torch"], outputs["mindspore"]
    assert bool(torch_names) and bool(loaded)  # the buffer is in the state dict and loads; it is not trained
    assert got.shape == want.shape == (3, 3)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
