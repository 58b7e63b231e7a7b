"""Rule findings whose claim the call decides (issue 23, item 2): autocast turned off for a block, a
learning rate written (or not) through param_groups."""

from __future__ import annotations

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base

AMP = """\
import torch
from torch.amp import autocast


@autocast('cuda', enabled=False)
def f(x):
    with torch.amp.autocast(device_type='cuda', enabled=False):
        y = x * 2
    with torch.autocast(device_type='cuda'):
        return y * 2
"""


def test_autocast_turned_off_names_no_replacement():
    result = analyze_source(AMP, "s.py", get_knowledge_base("2.6"), AnalysisOptions(use_jedi=False))
    found = [(f.line, f.column, f.rule, f.torch_api, f.mindspore_api) for f in result.findings]
    assert found == [
        (5, 2, "MSM509", "torch.amp.autocast", None),
        (7, 10, "MSM509", "torch.amp.autocast", None),
        (9, 10, "MSM509", "torch.autocast", "mindspore.amp.auto_mixed_precision"),
    ]
    assert result.findings[1].message() == (
        "torch.amp.autocast(enabled=False) turns mixed precision off for its block: MindSpore has no region "
        "autocast, so drop the with (or decorator) and keep the block as it is")
    assert result.findings[2].message() == (
        "torch.autocast: use mindspore.amp (auto_mixed_precision, DynamicLossScaler)")
