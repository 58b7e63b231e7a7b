"""Quick-fixed calls run under the installed MindSpore 2.10 (in a subprocess): the keywords the fixes
write are accepted and the results match torch's (issue 12, item 4)."""

import json
import subprocess
import sys
import textwrap

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions
from msmigrate.fixes.api import fix_all
from msmigrate.knowledge.base import get_knowledge_base

pytest.importorskip("mindspore")

SOURCE = """\
import torch
import torch.nn as nn
import torch.nn.functional as F


def run(x: torch.Tensor, y: torch.Tensor):
    return (torch.max(x, y), torch.max(x, 1)[0], torch.max(x), torch.min(x, dim=0)[0], F.gelu(input=x),
            torch.flatten(x, 1), x.sum(dim=1, keepdim=True), x.max(y), torch.max(x, dim=1, keepdim=True)[0],
            torch.flatten(x))


def dropout():
    return nn.Dropout(0.25)


def convolutions():
    return nn.Conv2d(3, 16, 3, 1, 1), nn.Conv2d(3, 8, 3)
"""

RUNNER = textwrap.dedent("""
    import json, sys
    import numpy as np
    original, fixed = json.loads(sys.stdin.read())
    a = np.arange(-3.0, 9.0, dtype=np.float32).reshape(3, 4) / 2
    b = np.flip(a).copy()
    import torch
    space = {}
    exec(original, space)
    expected = [t.numpy() for t in space["run"](torch.tensor(a), torch.tensor(b))]
    image = np.ones((1, 3, 8, 8), np.float32)
    torch_convs = [(tuple(c(torch.tensor(image)).shape), c.bias is not None) for c in space["convolutions"]()]
    import mindspore
    space = {}
    exec(fixed, space)
    got = [t.asnumpy() for t in space["run"](mindspore.Tensor(a), mindspore.Tensor(b))]
    drop = space["dropout"]()
    ms_convs = [(tuple(c(mindspore.Tensor(image)).shape), c.bias is not None)
                for c in space["convolutions"]()]
    print(json.dumps({"same": [bool(np.allclose(e, g, atol=1e-3)) and e.shape == g.shape
                               for e, g in zip(expected, got)],
                      "convolutions": [torch_convs, ms_convs],
                      "dropout_p": float(drop.p), "keep_prob": float(drop.dropout.keep_prob)}))
""")


@pytest.mark.slow
def test_fixed_calls_run_under_mindspore_and_match_torch():
    fixed, _applied = fix_all(SOURCE, "t.py", get_knowledge_base("2.4"), AnalysisOptions(use_jedi=False))
    assert "mindspore.ops.maximum(x, y)" in fixed and "mindspore.ops.amax(x)" in fixed
    assert "mindspore.ops.gelu(input=x)" in fixed and "mindspore.ops.flatten(x, start_dim=1)" in fixed
    assert "mindspore.ops.max(x, axis=1, keepdims=True)" in fixed and "x.maximum(y)" in fixed
    assert "mindspore.nn.Dropout(p=0.25)" in fixed and "mindspore.ops.flatten(x, start_dim=0)" in fixed
    assert "mindspore.nn.Conv2d(3, 16, 3, 1, padding=1, has_bias=True, pad_mode='pad')" in fixed
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps([SOURCE, fixed]), text=True,
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    convolutions = [[[1, 16, 8, 8], True], [[1, 8, 6, 6], True]]
    assert result == {"same": [True] * 10, "convolutions": [convolutions, convolutions], "dropout_p": 0.25,
                      "keep_prob": 0.75}
