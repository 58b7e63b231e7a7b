"""MSM534 (``rules/framework/msm534_module_children.py``): ``module._modules`` read → ``module._cells``; a
store into it is reported without a fix. The forms are pytorchcv 0.0.74's (``common/arch.py`` Concurrent,
``mixnet.py`` MixConv) and open_clip's ``utils.py`` (a child replaced by name); the MindSpore facts are
checked in a MindSpore process below."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from graph_probe import needs_mindspore

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.framework import msm534_module_children as module

EXAMPLE, COUNTER_EXAMPLE, POSITIONS = module.EXAMPLES[module.RULE.id]


def findings(source: str) -> list:
    kb = get_knowledge_base("2.6", derived=False)
    result = analyze_source(source, "example.py", kb, AnalysisOptions(use_jedi=False))
    return [finding for finding in result.findings if finding.rule == module.RULE.id]


def fix(source: str) -> tuple[str, list[str]]:
    from msmigrate.fixes.api import fix_all

    kb = get_knowledge_base("2.6", derived=False)
    fixed, applied = fix_all(source, "example.py", kb, AnalysisOptions(use_jedi=False),
                             accept=lambda finding, fix: finding.rule == module.RULE.id)
    return fixed, [fix.rule for fix in applied if fix.rule != "imports"]


def test_the_example_is_found_at_its_positions_and_the_counter_example_is_not():
    assert [(finding.line, finding.column) for finding in findings(EXAMPLE)] == POSITIONS
    assert findings(COUNTER_EXAMPLE) == []


FIXED = EXAMPLE.replace("self._modules.values()", "self._cells.values()")


def test_the_fix_writes_the_example_exactly_with_its_declared_safety():
    from msmigrate.fixes.safety import is_safe
    from msmigrate.model.resolution import Safety

    kb = get_knowledge_base("2.6", derived=False)
    fixed, rules = fix(EXAMPLE)
    assert rules == [module.RULE.id] * len(POSITIONS)
    assert fixed == FIXED
    safe = module.FIX_SAFETY is Safety.SAFE
    assert [is_safe(finding, kb) for finding in findings(EXAMPLE)] == [safe] * len(POSITIONS)


# pytorchcv 0.0.74 mixnet.py MixConv.forward (a zip over the children), and a child looked up by name on a
# parameter (open_clip utils.py replace_linear): reads, fixed
READS = """\
import torch
import torch.nn as nn


class MixConv(nn.Module):
    def forward(self, x):
        xx = torch.split(x, self.splitted_in_channels, dim=self.axis)
        out = [conv_i(x_i) for x_i, conv_i in zip(xx, self._modules.values())]
        return torch.cat(tuple(out), dim=self.axis)


def first_child(model, name):
    return model._modules[name], len(model._modules)
"""


def test_reads_on_self_and_on_an_unknown_receiver_are_fixed():
    assert [(f.line, f.column, f.message_key, f.fixable) for f in findings(READS)] == [
        (8, 60, "finding.MSM534", True), (13, 18, "finding.MSM534", True), (13, 44, "finding.MSM534", True)]
    fixed, rules = fix(READS)
    assert rules == ["MSM534"] * 3
    assert "zip(xx, self._cells.values())" in fixed
    assert "return model._cells[name], len(model._cells)" in fixed
    assert "_modules" not in fixed


# open_clip 3.3.0 utils.py replace_linear: the child replaced by name (a store), and a delete
STORES = """\
import torch.nn as nn


def replace(model: nn.Module, name: str, layer: nn.Module) -> None:
    model._modules[name] = layer
    del model._modules["old"]
"""


def test_stores_are_reported_without_a_fix():
    assert [(f.line, f.column, f.message_key, f.fixable) for f in findings(STORES)] == [
        (5, 11, "finding.MSM534.store", False), (6, 15, "finding.MSM534.store", False)]
    fixed, rules = fix(STORES)
    assert (fixed, rules) == (STORES, [])


def test_a_tensor_attribute_of_that_name_and_a_file_without_torch_are_not_reported():
    tensor = "import torch\nx = torch.ones(2)\ny = x._modules\n"
    assert findings(tensor) == []
    assert findings("class A:\n    def f(self):\n        return self._modules\n") == []


_MINDSPORE_FACTS = textwrap.dedent("""
    import sys
    import numpy as np
    import mindspore
    from mindspore import nn

    mindspore.set_context(mode=mindspore.GRAPH_MODE if sys.argv[1] == "graph" else mindspore.PYNATIVE_MODE)

    class Concurrent(nn.Cell):
        def __init__(self):
            super().__init__()
            self.b = nn.Dense(2, 3)
            self.a = nn.Dense(2, 3, has_bias=False)

        def construct(self, x):
            return mindspore.ops.cat([m(x) for m in self._cells.values()], 1)

    net = Concurrent()
    seq = nn.SequentialCell([nn.ReLU(), nn.Dense(2, 2)])
    out = net(mindspore.Tensor(np.ones((1, 2), np.float32)))
    print(list(net._cells), list(seq._cells), tuple(out.shape), hasattr(net, "_modules"))
""")


@needs_mindspore
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_mindspore_keeps_the_direct_children_in_cells_in_the_order_set(mode, tmp_path):
    """What the fix relies on, under MindSpore 2.10: ``_cells`` holds the children under their attribute
    names in the order set (a SequentialCell's under "0", "1"), iterating it runs in both modes, and a Cell
    has no ``_modules``."""
    script = tmp_path / "facts.py"
    script.write_text(_MINDSPORE_FACTS, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), mode], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "['b', 'a'] ['0', '1'] (1, 6) False"
