"""MSM712 (``rules/graph/msm712_map_closure.py``): ``map`` over a lambda that calls a function, in compiled
code. Met by ``msmigrate compare`` on linformer and g-mlp-pytorch (docs/heldout-evaluation.md); the slow test
runs each form in GRAPH_MODE on MindSpore 2.10."""

from __future__ import annotations

import pytest
from graph_probe import needs_mindspore, run_nets

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph import msm712_map_closure as module
from msmigrate.rules.graph._family import graph_findings

EXAMPLE, COUNTER_EXAMPLE, POSITIONS = module.EXAMPLES[module.RULE.id]


def findings(source: str) -> list:
    """Of torch code: what the analysis reports; of MindSpore code: what compare reads (graph_findings)."""
    kb = get_knowledge_base("2.6")
    if "torch" in source:
        result = analyze_source(source, "m.py", kb, AnalysisOptions(use_jedi=False))
        return [f for f in result.findings if f.rule == module.RULE.id]
    return [f for f in graph_findings(source, "m.py", kb) if f.rule == module.RULE.id]


def test_the_example_is_found_at_its_positions_and_the_counter_example_is_not():
    assert [(finding.line, finding.column) for finding in findings(EXAMPLE)] == POSITIONS
    assert findings(COUNTER_EXAMPLE) == []
    assert findings(EXAMPLE)[0].message("en") == (
        "map(lambda …, …) in Net.forward: the lambda calls torch.relu, and GRAPH_MODE's map takes no such "
        "closure (\"The Map operator don't support Closure with free variable yet\"); write a list "
        "comprehension")


VARIANTS = (
    "from mindspore import nn, ops\n\n\ndef mul(t, a):\n    return t * a\n\n\nclass Net(nn.Cell):\n"
    "    def construct(self, x, k):\n"
    "        f = lambda args: ops.einsum('ij->ij', *args)\n"
    "        a, b = map(f, zip((x, x), (1, 2)))\n"                        # 11: a named lambda: found
    "        c, d = map(lambda p: mul(*p), zip((x, x), (1, 2)))\n"        # 12: found
    "        e, g = map(lambda t: t * k + t.sum(), (x, x))\n"             # 13: no call out: compiles
    "        h, i = map(mul, (x, x), (1, 2))\n"                           # 14: a function by name
    "        j = [mul(*p) for p in zip((x, x), (1, 2))]\n"               # 15: a comprehension
    "        return self.go(x)\n"
    "    def go(self, x):\n"
    "        return list(map(lambda t: self.scale(t), (x,)))\n"           # 18: self's method: found
    "    def helper(self, x):\n"
    "        return map(lambda t: mul(t, 2), (x,))\n"                     # 20: not compiled
)


def test_variants():
    assert [(f.line, f.message_args["function"], f.message_args["callee"], f.message_args["owner"])
            for f in findings(VARIANTS)] == [
        (11, "f", "ops.einsum", "Net.construct"), (12, "lambda …", "mul", "Net.construct"),
        (18, "lambda …", "self.scale", "Net.go")]


PROBE = """
import json
import numpy as np
import mindspore as ms
from mindspore import nn, ops
ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor(np.ones((2, 4), np.float32))
def mul(t, a):
    return t * a
class Star(nn.Cell):
    def construct(self, x):
        a, b = map(lambda p: mul(*p), zip((x, x), (1, 2)))
        return a + b
class ModuleFunction(nn.Cell):
    def construct(self, x):
        f = lambda t: ops.relu(t)
        a, b = map(f, (x, x))
        return a + b
class SelfMethod(nn.Cell):
    def construct(self, x):
        a, b = map(lambda t: self.g(t), (x, x))
        return a + b
    def g(self, t):
        return t * 2
class OwnValues(nn.Cell):
    def construct(self, x):
        k = 3
        a, b = map(lambda t: t * k + t.sum(), (x, x))
        return a + b
class ByName(nn.Cell):
    def construct(self, x):
        a, b = map(mul, (x, x), (1, 2))
        return a + b
class Comprehension(nn.Cell):
    def construct(self, x):
        a, b = [mul(*p) for p in zip((x, x), (1, 2))]
        return a + b
"""


@pytest.mark.slow
@needs_mindspore
def test_the_flagged_forms_do_not_compile_and_the_others_do(tmp_path):
    results = run_nets(tmp_path, PROBE, ["Star", "ModuleFunction", "SelfMethod", "OwnValues", "ByName",
                                         "Comprehension"])
    message = "The Map operator don't support Closure with free variable yet"
    for name in ("Star", "ModuleFunction", "SelfMethod"):
        assert message in results[name], name
    for name in ("OwnValues", "ByName", "Comprehension"):
        assert results[name] is None, (name, results[name])
