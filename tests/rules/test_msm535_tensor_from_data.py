"""MSM535 (``rules/framework/msm535_tensor_from_data.py``): its example is found where it says, its
counter-example (the array is the caller's) is not; the calls it leaves to the API finding. The MindSpore
runs that prove the rewrite exact: ``tests/fixes/test_tensor_from_data.py``."""

from __future__ import annotations

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.framework import msm535_tensor_from_data as module

EXAMPLE, COUNTER_EXAMPLE, POSITIONS = module.EXAMPLES[module.RULE.id]


def findings(source: str) -> list:
    kb = get_knowledge_base("2.6", derived=False)
    result = analyze_source(source, "example.py", kb, AnalysisOptions(use_jedi=False))
    return [finding for finding in result.findings if finding.rule == module.RULE.id]


def test_the_example_is_found_at_its_positions_and_the_counter_example_is_not():
    assert [(finding.line, finding.column) for finding in findings(EXAMPLE)] == POSITIONS
    assert findings(COUNTER_EXAMPLE) == []


FIXED = ("import numpy as np\nimport mindspore\n\n\ndef mask(n):\n    array = np.triu(np.ones((n, n)))\n"
         "    return mindspore.from_numpy(array), mindspore.tensor([0.5, 2], dtype=mindspore.float32)\n")


def test_the_fix_writes_the_example_exactly_with_its_declared_safety():
    from msmigrate.fixes.api import fix_all
    from msmigrate.fixes.safety import is_safe
    from msmigrate.model.resolution import Safety

    kb = get_knowledge_base("2.6", derived=False)
    fixed, applied = fix_all(EXAMPLE, "example.py", kb, AnalysisOptions(use_jedi=False),
                             accept=lambda finding, fix: finding.rule == module.RULE.id)
    assert [fix.rule for fix in applied if fix.rule != "imports"] == [module.RULE.id] * len(POSITIONS)
    assert fixed == FIXED
    safe = module.FIX_SAFETY is Safety.SAFE
    assert [is_safe(finding, kb) for finding in findings(EXAMPLE)] == [safe] * len(POSITIONS)


LEFT = """\
import numpy as np
import torch


def kept(pos):
    t = torch.from_numpy(pos)
    return t, pos


def reread(n):
    array = np.zeros(n)
    t = torch.from_numpy(array)
    array += 1
    return t


def shared(n, cache):
    array = cache[n]
    return torch.from_numpy(array)


def looped(n):
    out = []
    array = np.zeros(n)
    for _ in range(2):
        out.append(torch.from_numpy(array))
    return out


def sizes(n, pixel_mean):
    return torch.Tensor(n), torch.Tensor(pixel_mean), torch.Tensor([[1, 2], [3]]), torch.Tensor([True])
"""
FOUND = """\
import numpy as np
import torch


def copied(p, pos):
    p.data.copy_(torch.from_numpy(pos).float())


def rebound(dump):
    array = np.frombuffer(dump, dtype=bool).copy()
    mask = torch.from_numpy(array).reshape(2, 2)
    array = None
    return mask, torch.from_numpy(np.zeros(3) + 1), torch.Tensor(((1, -2), (3, 4.5))), torch.FloatTensor([2])
"""


def test_calls_whose_array_or_tensor_may_be_seen_again_are_left_to_the_api_finding():
    assert findings(LEFT) == []


def test_calls_that_cannot_be_told_apart_are_found_with_why():
    assert [(f.line, f.message_key, f.message_args["array"]) for f in findings(FOUND)] == [
        (6, "finding.MSM535.copied", "pos"),
        (11, "finding.MSM535.from_numpy", "array"),
        (13, "finding.MSM535.from_numpy", "np.zeros(3) + 1"),
        (13, "finding.MSM535.tensor", "((1, -2), (3, 4.5))"),
    ]  # torch.FloatTensor([2]) is MSM201's (tests/rules/test_number_data_safety.py)
