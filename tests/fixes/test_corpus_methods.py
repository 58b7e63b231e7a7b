"""Tensor methods met on the model corpus (issue 24): receivers of unknown type that the code passes to a
torch function as its tensor (``x.size(2)`` in a pooling function, ``self.weight.size()`` in a Conv2d
subclass), ``torch.permute`` with a list or a name (``mint.permute`` takes a tuple only), method spellings of
torch functions MindSpore's Tensor lacks (``x.relu()``, ``x.log_softmax(1)``), ``x.detach()``
(``ops.stop_gradient``), a NumPy scalar on the left of a tensor operator (whisper's ``sinusoids``) and a
sparse buffer that is not saved (whisper's alignment heads: an attribute holding ``to_coo()``). The
exact fixed source, and the fixed module run against torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.knowledge.base import get_knowledge_base

TORCH = (
    'import numpy as np\n'
    'import torch\n'
    'import torch.nn.functional as F\n'
    'from torch import nn\n'
    '\n'
    '\n'
    'def pool(x, pool_type="avg"):\n'
    '    if pool_type == "max":\n'
    '        return F.max_pool2d(x, kernel_size=(x.size(2), x.size(3)))\n'
    '    return F.avg_pool2d(x, kernel_size=(x.size(2), x.size(3)))\n'
    '\n'
    '\n'
    'class SameConv(nn.Conv2d):\n'
    '    def __init__(self, cin, cout, k):\n'
    '        super().__init__(cin, cout, k)\n'
    '        kh, kw = self.weight.size()[-2:]\n'
    '        self.pad = (kw - 1) // 2, (kh - 1) // 2\n'
    '\n'
    '    def forward(self, x):\n'
    '        x = F.pad(x, [self.pad[0], self.pad[0], self.pad[1], self.pad[1]])\n'
    '        return F.conv2d(x, self.weight, self.bias)\n'
    '\n'
    '\n'
    'class Head(nn.Module):\n'
    '    def __init__(self, dims):\n'
    '        super().__init__()\n'
    '        self.dims = dims\n'
    '        self.conv = SameConv(3, 4, 3)\n'
    '        self.register_buffer("heads", torch.eye(4).to_sparse(), persistent=False)\n'
    '\n'
    '    def forward(self, x):\n'
    '        y = torch.permute(self.conv(x), self.dims)\n'
    '        z = torch.permute(y, [0, 3, 1, 2])\n'
    '        p = pool(z).flatten(1)\n'
    '        return p.relu(), p.log_softmax(1), p.log_softmax(dim=-1), p.softmax(dim=1).detach()\n'
    '\n'
    '\n'
    'def sinusoids(length, channels, max_timescale=10000):\n'
    '    log_timescale_increment = np.log(max_timescale) / (channels // 2 - 1)\n'
    '    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))\n'
    '    scaled_time = torch.arange(length)[:, np.newaxis] * inv_timescales[np.newaxis, :]\n'
    '    return torch.cat([torch.sin(scaled_time), torch.cos(scaled_time)], dim=1)\n'
)
FIXED = (
    'import numpy as np\n'
    'import ms_compat\n'
    'import mindspore\n'
    '\n'
    '\n'
    'def pool(x, pool_type="avg"):\n'
    '    if pool_type == "max":\n'
    '        return mindspore.ops.max_pool2d(x, kernel_size=(x.shape[2], x.shape[3]))\n'
    '    return mindspore.ops.avg_pool2d(x, kernel_size=(x.shape[2], x.shape[3]))\n'
    '\n'
    '\n'
    'class SameConv(ms_compat.Conv2d):\n'
    '    def __init__(self, cin, cout, k):\n'
    '        super().__init__(cin, cout, k)\n'
    '        kh, kw = self.weight.shape[-2:]\n'
    '        self.pad = (kw - 1) // 2, (kh - 1) // 2\n'
    '\n'
    '    def construct(self, x):\n'
    '        x = mindspore.ops.pad(x, [self.pad[0], self.pad[0], self.pad[1], self.pad[1]])\n'
    '        return ms_compat.conv2d(x, self.weight, self.bias)\n'
    '\n'
    '\n'
    'class Head(mindspore.nn.Cell):\n'
    '    def __init__(self, dims):\n'
    '        super().__init__()\n'
    '        self.dims = dims\n'
    '        self.conv = SameConv(3, 4, 3)\n'
    '        self.heads = mindspore.mint.eye(4).to_coo()\n'
    '\n'
    '    def construct(self, x):\n'
    '        y = mindspore.mint.permute(self.conv(x), tuple(self.dims))\n'
    '        z = mindspore.mint.permute(y, tuple([0, 3, 1, 2]))\n'
    '        p = pool(z).flatten(1)\n'
    '        return mindspore.ops.relu(p), mindspore.ops.log_softmax(p, 1), '
    'mindspore.ops.log_softmax(p, axis=-1), mindspore.ops.stop_gradient(p.softmax(axis=1))\n'
    '\n'
    '\n'
    'def sinusoids(length, channels, max_timescale=10000):\n'
    '    log_timescale_increment = np.log(max_timescale) / (channels // 2 - 1)\n'
    '    inv_timescales = mindspore.mint.exp('
    'mindspore.ops.arange(channels // 2) * -log_timescale_increment)\n'
    '    scaled_time = mindspore.ops.arange(length)[:, np.newaxis] * inv_timescales[np.newaxis, :]\n'
    '    return mindspore.mint.cat([mindspore.mint.sin(scaled_time), mindspore.mint.cos(scaled_time)], '
    'dim=1)\n'
)


def test_the_fixed_source(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


def _rules(source: str) -> dict[tuple[int, str], str]:
    findings = analyze_source(source, "m.py", get_knowledge_base("2.6"), AnalysisOptions()).findings
    return {(f.line, f.torch_api): f.rule for f in findings if f.torch_api}


def test_what_counts_as_evidence_of_a_tensor() -> None:
    source = (
        "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n\n\n"
        "def pool(x, y, n):\n"
        "    a = F.avg_pool2d(x, kernel_size=x.size(2))\n"  # x is avg_pool2d's input: a tensor
        "    b = nn.Linear(n.size(0), 2)\n"  # n is an argument of a class: no evidence
        "    c = torch.tensor(y.size(0))\n"  # y is torch.tensor's data: no evidence
        "    return a, b, c, y.size(1)\n"
    )
    rules = _rules(source)
    assert rules[(7, "torch.Tensor.size")] == "MSM101"
    assert rules[(8, "torch.Tensor.size")] == "MSM102"
    assert rules[(9, "torch.Tensor.size")] == "MSM102"
    assert rules[(10, "torch.Tensor.size")] == "MSM102"


def test_an_einops_result_of_a_tensor_is_a_tensor() -> None:
    source = (
        "import torch\nfrom einops import rearrange\nfrom torch import nn\n\n\n"
        "class Pool(nn.Module):\n"
        "    def forward(self, x, mask):\n"
        "        w = rearrange(x, 'b n 1 -> b n')\n"
        "        v = rearrange(mask, 'b n -> n b')\n"
        "        return w.softmax(dim=1), v.softmax(dim=1)\n"
    )
    findings = analyze_source(source, "m.py", get_knowledge_base("2.6"), AnalysisOptions()).findings
    softmax = sorted((f.column, f.rule) for f in findings if f.torch_api == "torch.Tensor.softmax")
    assert [rule for _, rule in softmax] == ["MSM101", "MSM101"]  # forward's parameters are tensors


def test_a_numpy_value_is_reported_only_before_a_tensor() -> None:
    source = (
        "import numpy as np\nimport torch\n\n\n"
        "def f(n, t):\n"
        "    s = np.log(n) / 3\n"
        "    a = s * torch.arange(n)\n"
        "    b = torch.arange(n) * s\n"
        "    c = s * 2.0\n"
        "    d = (s * torch.ones(2)) + torch.ones(2)\n"
        "    e = np.pi * torch.ones(2)\n"
        "    return a, b, c, d, e\n"
    )
    findings = analyze_source(source, "m.py", get_knowledge_base("2.6"), AnalysisOptions()).findings
    assert sorted((f.line, f.column) for f in findings if f.rule == "MSM529") == [(7, 9), (10, 10)]


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_module_computes_as_torch(tmp_path: Path) -> None:
    setup = {
        "torch": "\n\ndef run(x):\n    m = set_all(Head((0, 2, 3, 1))).eval()\n"
                 "    return (*m(x), sinusoids(5, 8))\n",
        "mindspore": "\n\ndef run(x):\n    m = set_all(Head((0, 2, 3, 1)))\n    m.set_train(False)\n"
                     "    return (*m(x), sinusoids(5, 8))\n",
    }
    assert_same(run_both(tmp_path, TORCH, "run(t(2, 3, 6, 6))", setup=setup))
