"""The rule checkers and fixes on awkward input: non-ASCII text, CRLF, broken code, unusual calls."""

from __future__ import annotations

import ast

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source, analyze_text
from msmigrate.analysis.source_text import segment
from msmigrate.fixes.api import fixes_for
from msmigrate.fixes.text import apply_edits
from msmigrate.rules.loader import detectors

AWKWARD = [
    "import torch\ns = '数据'; y = torch.masked_select(x, x > 0) if (x := torch.ones(2)) is not None "
    "else 0\n",
    "import torch\r\nimport torch.nn as nn\r\n\r\nclass Net(nn.Module):\r\n    def forward(self, x):\r\n"
    "        return x.view(-1)\r\n",
    "import torch\nimport torch.nn.functional as F\ny = F.adaptive_max_pool2d(*args, **kwargs)\n",
    "import torch\ny = (lambda t: t)(x).squeeze()\nz = x[::]\nw = x[...]\n",
    "import torch\ndef f(x: torch.Tensor):\n    def g():\n        return x[x > 0]\n    return g\n",
    "import torch\nclass A(torch.nn.Module):\n    async def forward(self, x):\n        return x\n",
    "import torch\nimport torch.nn as nn\nseq = nn.Sequential(\n    nn.ReLU(),\n    nn.Tanh(),\n)\n",
    "import torch\ndef broken(:\n    x.cuda()\ny = torch.unique(x)\n",
    "import torch\nwhile torch.rand(1) > 0.5:\n    pass\nif torch.rand(1).item():\n    pass\n",
    "import torch\nx = torch.zeros(3)\nx.to()\nx.cuda(0)\nx.train(1, 2)\ntorch.optim.SGD(lr=1, **cfg)\n",
]


@pytest.mark.parametrize("source", AWKWARD)
def test_checkers_do_not_raise(kb, source):
    result, ctx = analyze_text(source, "a.py", kb, AnalysisOptions(use_jedi=False, run_checkers=False))
    assert ctx is not None
    for detector in detectors():
        list(detector(ctx))


@pytest.mark.parametrize("source", AWKWARD)
def test_every_offered_fix_parses(kb, source):
    result = analyze_source(source, "a.py", kb, AnalysisOptions(use_jedi=False))
    try:
        ast.parse(source)
    except SyntaxError:
        return  # no fix is offered for a file that does not parse
    for fix in fixes_for(source, "a.py", result.findings, kb):
        if fix.edits:
            ast.parse(apply_edits(source, fix.edits))


def test_non_ascii_and_crlf_positions(analyze):
    result = analyze(AWKWARD[0])
    assert [(f.line, f.column, f.rule) for f in result.findings if f.rule == "MSM301"] == [(2, 15, "MSM301")]
    result = analyze(AWKWARD[1])
    assert [(f.line, f.column, f.rule) for f in result.findings if f.rule[:4] == "MSM5"] == [(5, 9, "MSM501")]


@pytest.mark.parametrize(
    "source",
    [
        "a = '数据' + b(c,\n  d)\n",
        "x = 1\r\ny = f(\r\n  '漢字', z)\r\n",
        "v = [\n 1,\n 2]\n",
        "é = 1; ü = é\n",
    ],
)
def test_segment_matches_ast(source):
    for node in ast.walk(ast.parse(source)):
        if hasattr(node, "lineno") and getattr(node, "end_lineno", None) is not None:
            assert segment(source, node) == (ast.get_source_segment(source, node) or ""), ast.dump(node)
