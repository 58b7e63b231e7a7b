"""MSM711 (``rules/graph/msm711_cell_in_construct.py``): a container cell built from cells in compiled code.
Met by ``msmigrate compare`` on g-mlp-pytorch's gMLP (docs/heldout-evaluation.md); the slow test runs each
form in GRAPH_MODE on MindSpore 2.10."""

from __future__ import annotations

import pytest
from graph_probe import needs_mindspore, run_nets

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph import msm711_cell_in_construct as module

EXAMPLE, COUNTER_EXAMPLE, POSITIONS = module.EXAMPLES[module.RULE.id]


def findings(source: str) -> list:
    kb = get_knowledge_base("2.6", derived=False)
    result = analyze_source(source, "example.py", kb, AnalysisOptions(use_jedi=False))
    return [finding for finding in result.findings if finding.rule == module.RULE.id]


def test_the_example_is_found_at_its_positions_and_the_counter_example_is_not():
    assert [(finding.line, finding.column) for finding in findings(EXAMPLE)] == POSITIONS
    assert findings(COUNTER_EXAMPLE) == []
    assert findings(EXAMPLE)[0].message("en") == (
        "nn.Sequential(*self.blocks) in Net.forward: GRAPH_MODE builds no cell from a list of cells in "
        "construct (\"all arguments are required to be constants\"); pass the cells as separate arguments "
        "(SequentialCell(*layers)), apply them in a loop or build it in __init__")


VARIANTS = (
    "import mindspore\nfrom mindspore import nn, mint\n\n\nclass Net(nn.Cell):\n"
    "    def __init__(self):\n        super().__init__()\n"
    "        self.layers = nn.CellList([mint.nn.Linear(4, 4)])\n"      # 8: __init__: not compiled
    "        self.seq = nn.SequentialCell(list(self.layers))\n"        # 9: __init__
    "    def construct(self, x):\n"
    "        x = self.run(x)\n"
    "        return mindspore.nn.SequentialCell(self.layers)(x)\n"     # 12: found
    "    def run(self, x):\n"
    "        y = nn.ReLU()(x)\n"                                       # 14: a layer of numbers: compiles
    "        y = nn.SequentialCell(*self.layers)(y)\n"                 # 15: separate arguments: compiles
    "        return nn.CellList([*self.layers])[0](y)\n"               # 16: found (called from construct)
    "    def helper(self):\n"
    "        return nn.SequentialCell(self.layers)\n"                  # 18: not compiled
)


def test_variants():
    from msmigrate.rules.graph._family import graph_findings  # MindSpore code: what compare reads

    found = [f for f in graph_findings(VARIANTS, "m.py", get_knowledge_base("2.6")) if f.rule == "MSM711"]
    assert [(f.line, f.column, f.message_args["container"], f.message_args["owner"]) for f in found] == [
        (12, 44, "mindspore.nn.SequentialCell", "Net.construct"), (16, 28, "nn.CellList", "Net.run")]


PROBE = """
import json
import numpy as np
import mindspore as ms
from mindspore import nn, mint
ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor(np.ones((2, 4), np.float32))
class Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([mint.nn.Linear(4, 4), mint.nn.Linear(4, 4)])
class Starred(Base):
    def construct(self, x):
        layers = self.layers if not self.training else self.layers
        return nn.SequentialCell([*layers])(x)
class Whole(Base):
    def construct(self, x):
        return nn.SequentialCell(self.layers)(x)
class Separate(Base):
    def construct(self, x):
        layers = self.layers if not self.training else self.layers
        return nn.SequentialCell(*layers)(x)
class Numbers(Base):
    def construct(self, x):
        return mint.nn.Linear(x.shape[1], 4)(nn.ReLU()(x))
class Loop(Base):
    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
"""


@pytest.mark.slow
@needs_mindspore
def test_cells_built_from_cells_do_not_compile_and_the_others_do(tmp_path):
    results = run_nets(tmp_path, PROBE, ["Starred", "Whole", "Separate", "Numbers", "Loop"])
    message = "When creating an instance of 'SequentialCell', all arguments are required to be constants"
    assert message in results["Starred"] and message in results["Whole"]
    assert results["Separate"] is None and results["Numbers"] is None and results["Loop"] is None
