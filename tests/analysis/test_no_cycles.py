"""An analysis leaves no reference cycles: the syntax tree and the values of one file are freed by reference
counting as soon as the result is returned, not by a later (slow) run of the cycle collector, which the
analysis pauses."""

from __future__ import annotations

import gc

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import get_knowledge_base

SOURCE = """import torch
from torch import nn

def helper(x):
    return torch.relu(x)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)

    def forward(self, x):
        global calls
        return helper(self.fc(x)).view(-1)

net = Net()
"""


def test_analysis_leaves_no_cyclic_garbage():
    kb = get_knowledge_base("2.6")
    analyze_source(SOURCE, "net.py", kb)  # first use fills the knowledge base's caches
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = analyze_source(SOURCE, "net.py", kb)
        unreachable = gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    assert [(f.line, f.torch_api) for f in result.findings] == [
        (5, "torch.relu"), (7, "torch.nn.Module"), (10, "torch.nn.Linear"), (12, "torch.nn.Module.forward"),
        (14, "torch.Tensor.view"),
    ]
    assert unreachable == 0
