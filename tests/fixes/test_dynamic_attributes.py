"""MSM520: ``getattr`` on torch modules — the names it can take read from the code, the exact source
``msmigrate fix`` writes, and the rewrite run in MindSpore against torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from idiom_support import Case, assert_fixed, assert_same, fixed, needs_frameworks, run_cases

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import get_knowledge_base

ACTIVATIONS_TORCH = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, act="relu", layer="Tanh"):
        super().__init__()
        assert act in ("relu", "sigmoid")
        self.act = getattr(F, act)
        self.layer = getattr(nn, layer)()
        self.fast = getattr(torch.cpu, "_is_avx2_supported", lambda: False)()

    def forward(self, x):
        return self.layer(self.act(x))


def cast(x, kind="float16"):
    return x.to(getattr(torch, kind))
"""
ACTIVATIONS_MINDSPORE = """import mindspore


class Head(mindspore.nn.Cell):
    def __init__(self, act="relu", layer="Tanh"):
        super().__init__()
        assert act in ("relu", "sigmoid")
        self.act = getattr(mindspore.mint.nn.functional, act)
        self.layer = getattr(mindspore.mint.nn, layer)()
        self.fast = (lambda: False)()

    def construct(self, x):
        return self.layer(self.act(x))


def cast(x, kind="float16"):
    return x.to(getattr(mindspore, kind))
"""
X = "[[-1.5, 0.25, 2.0], [0.5, -0.75, 3.0]]"
CASES = {
    "activations": Case(
        ACTIVATIONS_TORCH, ACTIVATIONS_MINDSPORE,
        # (Head().fast is not compared: torch has the private _is_avx2_supported, the migrated code takes
        # getattr's default, as a feature check on torch answers once torch is gone)
        f"x = torch.tensor({X})\nresult = [Head()(x), Head('sigmoid')(x), cast(x).float()]\n",
        f"x = mindspore.Tensor(np.array({X}, np.float32))\n"
        "result = [Head()(x), Head('sigmoid')(x), cast(x).astype(mindspore.float32)]\n",
    ),
}


def test_the_fix_writes_the_mindspore_module() -> None:
    assert_fixed(CASES["activations"])


@pytest.mark.parametrize(("code", "written"), [
    # every name in one MindSpore module: the module is replaced (LSTM and GRU take the same arguments)
    ("def rnn(kind='LSTM'):\n    assert kind in ['LSTM', 'GRU']\n"
     "    return getattr(nn, kind)(4, 8, batch_first=True)\n",
     "def rnn(kind='LSTM'):\n    assert kind in ['LSTM', 'GRU']\n"
     "    return getattr(mindspore.nn, kind)(4, 8, batch_first=True)\n"),
    # names in several modules: a table of the targets
    ("def layer(kind):\n    if kind in ('ReLU', 'PixelShuffle'):\n        return getattr(nn, kind)\n",
     "def layer(kind):\n    if kind in ('ReLU', 'PixelShuffle'):\n"
     "        return {'ReLU': mindspore.mint.nn.ReLU, 'PixelShuffle': mindspore.nn.PixelShuffle}[kind]\n"),
    # a dict of literals, a loop over literals
    ("def norm(kind):\n    return getattr(nn, {'a': 'ReLU', 'b': 'Tanh'}[kind])()\n",
     "def norm(kind):\n    return getattr(mindspore.mint.nn, {'a': 'ReLU', 'b': 'Tanh'}[kind])()\n"),
    ("def all_layers():\n    return [getattr(nn, n)() for n in ['ReLU', 'Tanh']]\n",
     "def all_layers():\n    return [getattr(mindspore.mint.nn, n)() for n in ['ReLU', 'Tanh']]\n"),
])
def test_the_names_come_from_the_code(code: str, written: str) -> None:
    source = fixed("import torch.nn as nn\n\n\n" + code, unsafe=True)
    assert source == "import mindspore\n\n\n" + written


@pytest.mark.parametrize(("code", "key", "fields"), [
    ("def make(name):\n    return getattr(nn, name)()\n", "finding.MSM520.unknown", {"module": "torch.nn"}),
    # LazyLinear has no counterpart; LSTM's is called with bias=, which MindSpore names has_bias
    ("def make(name='LazyLinear'):\n    assert name in ('LazyLinear', 'LSTM')\n"
     "    return getattr(nn, name)(8, bias=False)\n", "finding.MSM520.missing",
     {"module": "torch.nn", "names": "LazyLinear, LSTM", "missing": "LazyLinear, LSTM"}),
])
def test_names_not_known_or_not_mapped_are_reported_without_a_fix(code: str, key: str, fields: dict) -> None:
    source = "import torch.nn as nn\n\n\n" + code
    [finding] = [f for f in analyze_source(source, "m.py", get_knowledge_base("2.6")).findings
                 if f.rule == "MSM520"]
    assert (finding.message_key, finding.message_args, finding.fixable) == (key, fields, False)
    assert fixed(source, unsafe=True) == source


@pytest.mark.slow
@needs_frameworks
def test_the_rewritten_module_computes_what_torch_computes(tmp_path: Path) -> None:
    [(expected, actual)] = run_cases(CASES, tmp_path).values()
    assert len(expected) == 3
    assert_same(expected, actual)
