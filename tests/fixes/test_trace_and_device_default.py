"""open_clip's ``trace_model``: ``torch.jit.trace_module`` / ``torch.jit.trace`` give the module itself
(MSM514, applied with ``--unsafe-fixes``: the examples are no longer run), and ``torch.device('cpu')`` as a
parameter's default becomes ``'cpu'`` (MSM504) when nothing reads an attribute of the parameter. The exact
fixed source, what is left alone, and a run comparing with torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 2)

    def forward(self, x):
        return torch.tanh(self.linear(x))


def trace_model(model, batch_size=4, device=torch.device('cpu')):
    model.eval()
    example = torch.ones((batch_size, 3), device=device)
    model = torch.jit.trace_module(model, inputs=dict(forward=(example,)))
    return torch.jit.trace(model, (example,))
'''
FIXED = '''\
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.linear = mindspore.mint.nn.Linear(3, 2)

    def construct(self, x):
        return mindspore.mint.tanh(self.linear(x))


def trace_model(model, batch_size=4, device='cpu'):
    model.set_train(False)
    example = mindspore.mint.ones((batch_size, 3))
    model = model
    return model
'''
KEPT = '''\
import torch


def describe(device=torch.device('cpu')):
    return device.type
'''


def test_tracing_gives_the_module_and_the_device_default_its_string(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


def test_tracing_is_an_unsafe_fix_and_a_device_read_keeps_torch_device(tmp_path: Path) -> None:
    assert "torch.jit.trace_module(model, inputs=dict(forward=(example,)))" in fixed(
        tmp_path / "safe", TORCH, unsafe=False)
    assert fixed(tmp_path / "kept", KEPT) == KEPT


@pytest.mark.slow
@needs_frameworks
def test_the_traced_model_computes_as_torch(tmp_path: Path) -> None:
    assert_same(run_both(tmp_path, TORCH, "trace_model(set_all(Net()))(t(4, 3))"), 1e-5)
