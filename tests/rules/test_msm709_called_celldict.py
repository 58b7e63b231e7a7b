"""MSM709: a called subclass of ``CellDict`` (met by ``msmigrate compare`` on torchvision's DenseNet, whose
``_DenseBlock(nn.ModuleDict)`` has a ``forward`` and became a CellDict subclass). Flagged on the migrated
class, in a file that still names torch too; not on the torch class (the helper module's Cell-based
``ModuleDict`` composition compiles); the last test compiles the MindSpore forms under MindSpore 2.10: a
called CellDict subclass stops with "The object is not callable" (alone and inside a SequentialCell, as in
DenseNet), the Cell the message advises compiles and gives the same result."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph._family import graph_findings

TORCH = """import torch
from torch import nn


class Block(nn.ModuleDict):
    def __init__(self):
        super().__init__()
        self.add_module("a", nn.ReLU())

    def forward(self, x):
        for _, layer in self.items():
            x = layer(x)
        return x


class Heads(nn.ModuleDict):  # not called: a container
    pass
"""

MS_DICT = """import mindspore as ms
from mindspore import nn


class Block(nn.CellDict):
    def __init__(self):
        super().__init__()
        self.insert_child_to_cell("a", nn.ReLU())
        self.insert_child_to_cell("b", nn.Tanh())

    def construct(self, x):
        for _, layer in self.items():
            x = layer(x)
        return x
"""

MS_CELL = MS_DICT.replace("class Block(nn.CellDict):", "class Block(nn.Cell):").replace(
    "    def construct(", "    def items(self):\n        return self._cells.items()\n\n    def construct("
)


def _flagged(findings) -> list[tuple[int, int, str, str]]:  # noqa: ANN001
    return [(f.line, f.column, f.message_args["name"], f.message_args["base"]) for f in findings
            if f.rule == "MSM709"]


def test_a_partly_migrated_file_is_flagged_with_its_message_and_the_torch_class_is_not(analyze) -> None:  # noqa: ANN001
    assert _flagged(analyze(TORCH).findings) == []
    findings = analyze("import torch\n" + MS_DICT).findings
    assert _flagged(findings) == [(6, 7, "Block", "mindspore.nn.CellDict")]
    (finding,) = [f for f in findings if f.rule == "MSM709"]
    assert finding.message("en") == (
        "Block derives from mindspore.nn.CellDict and is called (construct): GRAPH_MODE compiles a CellDict "
        "as a dictionary (\"The object is not callable\"); derive it from nn.Cell with an items() method"
    )
    assert finding.message("zh") == (
        "Block 继承 mindspore.nn.CellDict 并被调用（construct）：GRAPH_MODE 把 CellDict 当作字典编译"
        "（\"The object is not callable\"）；请改为继承 nn.Cell 并提供 items() 方法"
    )


def test_the_migrated_class_is_flagged_and_a_cell_is_not() -> None:
    kb = get_knowledge_base("2.6")
    assert _flagged(graph_findings(MS_DICT, "m.py", kb)) == [(5, 7, "Block", "mindspore.nn.CellDict")]
    assert _flagged(graph_findings(MS_CELL, "m.py", kb)) == []


PROBE = """
import importlib.util, json, sys
import numpy as np
import mindspore as ms
from mindspore import nn
out = {}
x = ms.Tensor(np.array([[-1.0, 2.0]], np.float32))
for i, path in enumerate(sys.argv[1:]):
    spec = importlib.util.spec_from_file_location(f"case{i}", path)
    module = sys.modules[f"case{i}"] = importlib.util.module_from_spec(spec)  # GRAPH_MODE reads it
    spec.loader.exec_module(module)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    row = {"pynative": module.Block()(x).asnumpy().tolist()}
    ms.set_context(mode=ms.GRAPH_MODE)
    for name, make in (("alone", module.Block), ("sequential", lambda: nn.SequentialCell(module.Block()))):
        try:
            row[name] = make()(x).asnumpy().tolist()
        except Exception as exc:
            row[name] = str(exc).strip().splitlines()[0]
    out[path] = row
print("RESULT " + json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")
def test_a_called_celldict_does_not_compile_and_the_advised_cell_does(tmp_path) -> None:  # noqa: ANN001
    (tmp_path / "celldict.py").write_text(MS_DICT, encoding="utf-8")
    (tmp_path / "cell.py").write_text(MS_CELL, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "celldict.py"), str(tmp_path / "cell.py")],
        capture_output=True, text=True, timeout=900, cwd=tmp_path,
    )
    line = next((line for line in run.stdout.splitlines() if line.startswith("RESULT ")), None)
    assert line is not None, run.stderr[-2000:]
    results = json.loads(line.removeprefix("RESULT "))
    expected = [[0.0, 0.9640275835990906]]  # tanh(relu([-1, 2]))
    failure = "The object is not callable. Please check code."
    assert results[str(tmp_path / "celldict.py")] == {"pynative": expected, "alone": failure,
                                                      "sequential": failure}
    assert results[str(tmp_path / "cell.py")] == {"pynative": expected, "alone": expected,
                                                  "sequential": expected}
