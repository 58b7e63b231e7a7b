"""MSM536 (``rules/framework/msm536_negative_pad.py``): a padding amount written negated, where the API
finding writes ``ops.pad`` on CPU; the fix writes ``ops.PadV3``. Met by ``msmigrate compare`` on
g-mlp-pytorch's token shift (docs/heldout-evaluation.md): ``ops.pad`` gave its right result once, then wrong
values. The slow tests run MindSpore 2.10 on CPU against torch."""

from __future__ import annotations

import pytest
from graph_probe import needs_mindspore, run_script

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.fixes.api import fix_all
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.framework import msm536_negative_pad as module

EXAMPLE, COUNTER_EXAMPLE, POSITIONS = module.EXAMPLES[module.RULE.id]


def findings(source: str, device: str = "CPU") -> list:
    kb = get_knowledge_base("2.6")
    result = analyze_source(source, "example.py", kb, AnalysisOptions(use_jedi=False, device=device))
    return [finding for finding in result.findings if finding.rule == module.RULE.id]


def test_the_example_is_found_at_its_positions_and_the_counter_example_is_not():
    assert [(finding.line, finding.column) for finding in findings(EXAMPLE)] == POSITIONS
    assert findings(COUNTER_EXAMPLE) == []
    assert findings(EXAMPLE)[0].message("en") == (
        "F.pad with the amount -n, negative (a crop): mindspore.ops.pad on CPU computes it right on its "
        "first call only (MindSpore 2.10); ops.PadV3 with the amounts as an int64 tensor computes it every "
        "call")


FIXED = ("import mindspore\n\n\ndef shift(t, n):\n"
         "    return mindspore.ops.PadV3()(t, mindspore.tensor((0, 0, n, -n), mindspore.int64), "
         "mindspore.tensor(0, t.dtype))\n")


def test_the_fix_writes_the_example_exactly_with_its_declared_safety():
    from msmigrate.fixes.safety import is_safe
    from msmigrate.model.resolution import Safety

    kb = get_knowledge_base("2.6")
    fixed, applied = fix_all(EXAMPLE, "example.py", kb, AnalysisOptions(use_jedi=False),
                             accept=lambda finding, fix: finding.rule == module.RULE.id)
    assert [fix.rule for fix in applied if fix.rule != "imports"] == [module.RULE.id] * len(POSITIONS)
    assert fixed == FIXED
    assert module.FIX_SAFETY is Safety.SAFE
    assert [is_safe(finding, kb) for finding in findings(EXAMPLE)] == [True] * len(POSITIONS)


VARIANTS = (
    "import torch.nn.functional as F\n\n\nclass S:\n    def f(self, x, n):\n"
    "        a = F.pad(x, [-1, 1], value=0.5)\n"          # 6: a constant, a value: fixed
    "        b = F.pad(self.x, pad=(n, -n))\n"            # 7: keywords, an attribute: fixed
    "        c = F.pad(x, (1, -1), mode='reflect')\n"     # 8: another mode: found, not fixed
    "        d = F.pad(x + 1, (1, -1))\n"                 # 9: the input read twice: found, not fixed
    "        e = F.pad(x, (n, n))\n"                      # 10: nothing written negated: not found
    "        return a, b, c, d, e\n"
)


def test_variants():
    assert [(f.line, f.message_args["value"]) for f in findings(VARIANTS)] == [
        (6, "-1"), (7, "-n"), (8, "-1"), (9, "-1")]
    kb = get_knowledge_base("2.6")
    fixed, _ = fix_all(VARIANTS, "m.py", kb, AnalysisOptions(use_jedi=False),
                       accept=lambda finding, fix: finding.rule == module.RULE.id)
    lines = fixed.splitlines()[fixed.splitlines().index("    def f(self, x, n):") - 4:]
    assert lines[5] == ("        a = mindspore.ops.PadV3()(x, mindspore.tensor([-1, 1], mindspore.int64), "
                        "mindspore.tensor(0.5, x.dtype))")
    assert lines[6] == ("        b = mindspore.ops.PadV3()(self.x, mindspore.tensor((n, -n), "
                        "mindspore.int64), mindspore.tensor(0, self.x.dtype))")
    assert lines[7:9] == ["        c = F.pad(x, (1, -1), mode='reflect')",
                          "        d = F.pad(x + 1, (1, -1))"]


def test_not_found_where_another_target_is_written():
    assert findings(EXAMPLE, "GPU") == []  # mint's pad there, whose negative amounts were not run


PROBE = """
import json
import numpy as np
import torch
import mindspore as ms
from mindspore import nn, ops
rng = np.random.RandomState(0)
out = {}
cases = [((2, 5, 3), (0, 0, 1, -1), 0.0), ((2, 5, 3), (-1, 1), 0.0), ((2, 3, 6, 6), (1, -1, -2, 2), 0.5),
         ((2, 3, 6, 6), (0, 0, 0, 0, 1, -1), 0.0), ((2, 5, 3), (1, 1, 0, 0), 0.0)]
for shape, pads, value in cases:
    x = rng.randn(*shape).astype(np.float32)
    ref = torch.nn.functional.pad(torch.tensor(x), pads, value=value).numpy()
    t = ms.Tensor(x)
    pad = [float(np.abs(ops.pad(t, pads, value=value).asnumpy() - ref).max()) for _ in range(3)]
    v3 = [float(np.abs(ops.PadV3()(t, ms.tensor(pads, ms.int64), ms.tensor(value, t.dtype)).asnumpy()
                       - ref).max()) for _ in range(3)]
    out[str(pads)] = [pad, v3]
class Shift(nn.Cell):
    def construct(self, t, n):
        return ops.PadV3()(t, ms.tensor((0, 0, n, -n), ms.int64), ms.tensor(0, t.dtype))
ms.set_context(mode=ms.GRAPH_MODE)
x = rng.randn(2, 5, 3).astype(np.float32)
ref = torch.nn.functional.pad(torch.tensor(x), (0, 0, 1, -1)).numpy()
out["graph"] = [float(np.abs(Shift()(ms.Tensor(x), 1).asnumpy() - ref).max()) for _ in range(3)]
print("RESULT " + json.dumps(out))
"""


@pytest.mark.slow
@needs_mindspore
def test_ops_pad_crops_wrongly_after_its_first_call_and_pad_v3_does_not(tmp_path):
    errors = run_script(tmp_path, PROBE)
    assert errors.pop("graph") == [0.0, 0.0, 0.0]  # the fix's form compiles and is right in GRAPH_MODE
    pad, v3 = errors.pop("(1, 1, 0, 0)")
    assert pad == v3 == [0.0, 0.0, 0.0]  # amounts that are not negative: both right
    for pads, (pad, v3) in errors.items():
        assert v3 == [0.0, 0.0, 0.0], pads  # PadV3: torch's values every call
        assert max(pad[1:]) > 0.0, pads  # ops.pad: wrong after the first call
