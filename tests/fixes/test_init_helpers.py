"""MSM518 (``calculate_gain``, ``_calculate_fan_in_and_fan_out``), MSM519 (a hand-written truncated
normal) and MSM503 on slices of parameters and on tensors made in the call: the exact source ``msmigrate
fix`` writes, and the rewrite run in MindSpore against torch (numbers exactly; the random truncated normal
by its bounds and moments)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from idiom_support import Case, assert_fixed, assert_same, fixed, needs_frameworks, run_cases

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import get_knowledge_base

HELPERS_TORCH = """import math
import torch
import torch.nn as nn
from torch.nn import init


def gains(p):
    return [nn.init.calculate_gain("relu"), init.calculate_gain("tanh"),
            nn.init.calculate_gain("leaky_relu"), nn.init.calculate_gain("leaky_relu", 0.2),
            nn.init.calculate_gain("leaky_relu", param=p), nn.init.calculate_gain("selu"),
            nn.init.calculate_gain("conv2d"), 2 * nn.init.calculate_gain("tanh")]


def fans(w):
    fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(w)
    return fan_in, fan_out


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 3)
        nn.init.constant_(self.proj.weight[:, :2], 0.5)  # the first two columns
        nn.init.zeros_(self.proj.weight[1])
        self.pos = nn.init.constant_(torch.empty(1, 2, 3), 0.25)
        self.cls = nn.init.ones_(torch.zeros((1, 3)))

    def forward(self, x):
        return self.proj(x) + self.pos + self.cls
"""
INIT = "mindspore.common.initializer."  # as the fix writes it (no MindSpore import in the file)
HELPERS_MINDSPORE = f"""import math
import mindspore


def gains(p):
    return [math.sqrt(2.0), 5.0 / 3,
            math.sqrt(2.0 / (1 + 0.01 ** 2)), math.sqrt(2.0 / (1 + 0.2 ** 2)),
            math.sqrt(2.0 / (1 + p ** 2)), 3.0 / 4,
            1, 2 * (5.0 / 3)]


def fans(w):
    fan_in, fan_out = (w.shape[1] * math.prod(w.shape[2:]), w.shape[0] * math.prod(w.shape[2:]))
    return fan_in, fan_out


class Embed(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = mindspore.mint.nn.Linear(4, 3)
        self.proj.weight[:, :2] = {INIT}initializer({INIT}Constant(0.5), self.proj.weight[:, :2].shape, """\
    f"""self.proj.weight.dtype).init_data()  # the first two columns
        self.proj.weight[1] = {INIT}initializer({INIT}Zero(), self.proj.weight[1].shape, """\
    f"""self.proj.weight.dtype).init_data()
        self.pos = {INIT}initializer({INIT}Constant(0.25), (1, 2, 3), mindspore.float32).init_data()
        self.cls = {INIT}initializer({INIT}One(), (1, 3), mindspore.float32).init_data()

    def construct(self, x):
        return self.proj(x) + self.pos + self.cls
"""

TRUNCATED_TORCH = """import math
import torch


def fill_truncated(t, mean, std, low, high):
    lo = (1.0 + math.erf((low - mean) / std / math.sqrt(2.0))) / 2.0
    hi = (1.0 + math.erf((high - mean) / std / math.sqrt(2.0))) / 2.0
    t.uniform_(2 * lo - 1, 2 * hi - 1)
    t.erfinv_()  # the inverse CDF
    t.mul_(std * math.sqrt(2.0))
    t.add_(mean)
    t.clamp_(min=low, max=high)
    return t


def sample(n):
    with torch.no_grad():
        return fill_truncated(torch.zeros(n), 0.5, 0.2, 0.2, 0.9)
"""
TRUNCATED_MINDSPORE = f"""import math
import mindspore


def fill_truncated(t, mean, std, low, high):
    lo = (1.0 + math.erf((low - mean) / std / math.sqrt(2.0))) / 2.0
    hi = (1.0 + math.erf((high - mean) / std / math.sqrt(2.0))) / 2.0
    t.assign_value({INIT}initializer({INIT}TruncatedNormal("""\
    f"""sigma=std, mean=mean, a=low, b=high), t.shape, t.dtype).init_data())
    return t


def sample(n):
    return fill_truncated(mindspore.mint.zeros(n), 0.5, 0.2, 0.2, 0.9)
"""
STATS = "s = sample(20000)\nresult = [s.min() >= 0.2, s.max() <= 0.9, s.mean(), s.std(), s.shape[0]]\n"

CASES = {
    "helpers": Case(
        HELPERS_TORCH, HELPERS_MINDSPORE,
        "torch.manual_seed(0)\nm = Embed()\nm.proj.bias.data.zero_()\nw = m.proj.weight.detach().clone()\n"
        "x = torch.ones(2, 4)\n"
        "result = [*gains(0.3), *fans(torch.zeros(5, 4, 3, 2)), m(x) - x @ w.T, w[:, :2], w[1]]\n",
        "m = Embed()\nm.proj.bias.set_data(mindspore.ops.zeros(3, mindspore.float32))\n"
        "w = mindspore.Tensor(m.proj.weight.asnumpy())\nx = mindspore.ops.ones((2, 4), mindspore.float32)\n"
        "result = [*gains(0.3), *fans(mindspore.ops.zeros((5, 4, 3, 2))), m(x) - x @ w.T, w[:, :2],\n"
        "          w[1]]\n",
    ),
    "truncated_normal": Case(TRUNCATED_TORCH, TRUNCATED_MINDSPORE, STATS, STATS),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_fix_writes_the_mindspore_module(name: str) -> None:
    assert_fixed(CASES[name])


@pytest.mark.parametrize("call", [
    "nn.init.calculate_gain(name)",  # the nonlinearity is not written: no number to write
    "nn.init.calculate_gain('leaky_relu', True)",  # torch refuses a bool slope
    "nn.init.calculate_gain('gelu')",  # torch raises for it
])
def test_gains_that_cannot_be_written_are_reported_without_a_fix(call: str) -> None:
    source = f"import torch.nn as nn\n\n\ndef g(name):\n    return {call}\n"
    [finding] = [f for f in analyze_source(source, "m.py", get_knowledge_base("2.6")).findings
                 if f.rule == "MSM518"]
    assert (finding.message_key, finding.fixable) == ("finding.MSM518.gain", False)
    assert fixed(source, unsafe=True) == source


def test_a_slice_whose_init_value_is_used_is_left() -> None:
    source = "import torch.nn as nn\n\n\ndef g(w):\n    return nn.init.zeros_(w[0])\n"
    assert fixed(source, unsafe=True) == source


@pytest.mark.slow
@needs_frameworks
def test_the_rewritten_modules_compute_what_torch_computes(tmp_path: Path) -> None:
    results = run_cases(CASES, tmp_path)
    expected, actual = results["helpers"]
    assert len(expected) == 13
    assert_same(expected, actual)
    # the output less the projection is pos + cls; the slices were set in place (0.5 columns, a zero row)
    assert (expected[-3] == 1.25).all() and (expected[-1] == 0).all()
    assert expected[-2].tolist() == [[0.5, 0.5], [0.0, 0.0], [0.5, 0.5]]
    expected, actual = results["truncated_normal"]
    assert [bool(a) for a in actual[:2]] == [bool(e) for e in expected[:2]] == [True, True]
    assert int(actual[4]) == int(expected[4]) == 20000
    np.testing.assert_allclose(actual[2:4], expected[2:4], atol=0.01)  # mean and std of 20,000 draws
