"""MSM706: a Parameter's ``.device`` read in code GRAPH_MODE compiles (met by ``msmigrate compare`` on
segment-anything's PromptEncoder). Flagged in torch ``forward`` and MindSpore ``construct`` and what they
call; the last test compiles each MindSpore form under MindSpore 2.10: the flagged ones stop with MindSpore's
message, the others (a tensor's device, a device read in ``__init__``) compile."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap

import pytest

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph._family import graph_findings

TORCH = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.emb = nn.ModuleList([nn.Embedding(2, 3)])
        self.scale = nn.Parameter(torch.ones(3))
        self.register_buffer("table", torch.ones(3))
        self.place = self.fc.weight.device

    def forward(self, x):
{body}
"""
MS = """import mindspore as ms
import mindspore.nn as nn
import numpy as np


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3)
        self.emb = nn.CellList([nn.Embedding(2, 3)])
        self.scale = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="scale")
        self.table = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="table", requires_grad=False)
        self.place = self.fc.weight.device

    def construct(self, x):
{body}
"""

# forward/construct body -> the flagged expression (None: not flagged); the same body in both frameworks
BODIES: dict[str, str | None] = {
    "d = self.fc.weight.device\nreturn self.fc(x), d": "self.fc.weight",
    "return self.fc(x), self.fc.bias.device": "self.fc.bias",
    "return self.fc(x), self._where()": None,  # the helper's body is the flagged one (see below)
    "return self.fc(x), self.scale.device": "self.scale",
    "return self.fc(x), self.table.device": "self.table",
    "return self.fc(x), x.device": None,
    "return self.fc(x), self.place": None,
}
HELPER = "\n    def _where(self):\n        return self.emb[0].{table}.device\n"


def _source(head: str, body: str, table: str) -> str:
    return head.format(body=textwrap.indent(body, " " * 8)) + HELPER.format(table=table)


def _flagged(findings) -> list[tuple[str, str]]:
    return [(f.message_args["expr"], f.message_args["function"]) for f in findings if f.rule == "MSM706"]


@pytest.mark.parametrize("body", list(BODIES))
def test_forward_of_a_torch_module(analyze, body: str) -> None:
    found = _flagged(analyze(_source(TORCH, body, "weight")).findings)
    expected = [] if BODIES[body] is None else [(BODIES[body], "Net.forward")]
    if "_where" in body:
        expected = [("self.emb[0].weight", "Net._where")]
    assert found == expected


@pytest.mark.parametrize("body", list(BODIES))
def test_construct_of_a_mindspore_cell(body: str) -> None:
    found = _flagged(graph_findings(_source(MS, body, "embedding_table"), "m.py", get_knowledge_base("2.6")))
    expected = [] if BODIES[body] is None else [(BODIES[body], "Net.construct")]
    if "_where" in body:
        expected = [("self.emb[0].embedding_table", "Net._where")]
    assert found == expected


def test_message_in_both_languages(analyze) -> None:
    (finding,) = [f for f in analyze(_source(TORCH, "return x, self.scale.device", "weight")).findings
                  if f.rule == "MSM706"]
    assert (finding.line, finding.column) == (15, 19)
    assert finding.message("en") == (
        "self.scale.device in Net.forward: GRAPH_MODE does not read a Parameter's device (\"the 'Parameter' "
        "object's method 'device' is not supported in 'construct'\"); the model runs in PyNative mode only"
    )
    assert finding.message("zh") == (
        "Net.forward 中的 self.scale.device：GRAPH_MODE 无法读取 Parameter 的 device（\"the 'Parameter' "
        "object's method 'device' is not supported in 'construct'\"）；模型只能在 PyNative 模式下运行"
    )


PROBE = """
import importlib.util, json, sys
import numpy as np
import mindspore as ms
out = {}
for i, path in enumerate(sys.argv[1:]):
    spec = importlib.util.spec_from_file_location(f"case{i}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x = ms.Tensor(np.ones((2, 3), np.float32))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    module.Net()(x)  # every form runs in PyNative mode
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        module.Net()(x)
        out[path] = None
    except Exception as exc:
        out[path] = str(exc).strip().splitlines()[0]
print("RESULT " + json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
def test_every_flagged_form_fails_to_compile_and_every_other_compiles(tmp_path) -> None:
    files = {}
    for index, body in enumerate(BODIES):
        path = tmp_path / f"case{index}.py"
        path.write_text(_source(MS, body, "embedding_table"), encoding="utf-8")
        files[str(path)] = body
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *files], capture_output=True, text=True, timeout=900, cwd=tmp_path
    )
    line = next((line for line in run.stdout.splitlines() if line.startswith("RESULT ")), None)
    assert line is not None, run.stderr[-2000:]
    results = json.loads(line.removeprefix("RESULT "))
    for path, body in files.items():
        if BODIES[body] is None and "_where" not in body:
            assert results[path] is None, (body, results[path])
        else:
            assert results[path] is not None and "the 'Parameter' object's method 'device' is not supported" \
                in results[path], (body, results[path])
