"""MSM515 (activation checkpointing), MSM516 (single-process data parallelism) and MSM517
(``torch.autograd.Function``): the exact source ``msmigrate fix`` writes, and the rewrite run in MindSpore
against torch — outputs, and the gradients where the idiom is about gradients."""

from __future__ import annotations

from pathlib import Path

import pytest
from idiom_support import Case, assert_fixed, assert_same, fixed, needs_frameworks, run_cases

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import get_knowledge_base

W = "[[0.5, -0.2, 0.1], [0.3, 0.8, -0.6], [0.2, 0.1, 0.4]]"
X = "[[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]]"

CHECKPOINT_TORCH = """import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(3, 3), nn.Linear(3, 3)])

    def forward(self, x):
        for blk in self.blocks:
            x = checkpoint(blk, x, use_reentrant=False).tanh()  # saves memory
        return x.sum()
"""
CHECKPOINT_MINDSPORE = """import mindspore


class Stack(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = mindspore.nn.CellList([mindspore.mint.nn.Linear(3, 3), mindspore.mint.nn.Linear(3, 3)])

    def construct(self, x):
        for blk in self.blocks:
            x = blk(x).tanh()  # saves memory
        return x.sum()
"""
TORCH_STACK = f"""
model = Stack()
for blk in model.blocks:
    blk.weight.data = torch.tensor({W})
    blk.bias.data = torch.zeros(3)
x = torch.tensor({X})
loss = model(x)
loss.backward()
result = [loss, *(p.grad for p in model.parameters())]
"""
MS_STACK = f"""
model = Stack()
for blk in model.blocks:
    blk.weight.set_data(mindspore.Tensor(np.array({W}, np.float32)))
    blk.bias.set_data(mindspore.Tensor(np.zeros(3, np.float32)))
x = mindspore.Tensor(np.array({X}, np.float32))
loss, grads = mindspore.value_and_grad(model, None, model.trainable_params())(x)
result = [loss, *grads]
"""

PARALLEL_TORCH = """import torch
import torch.nn as nn


def build(layer):
    model = layer
    if torch.cuda.device_count() > 1:
        model = nn.DataParallel(model, device_ids=[0, 1])
    wrapped = nn.DataParallel(layer)
    state = wrapped.module.weight
    return model, wrapped, state


def run(model, x):
    return nn.parallel.data_parallel(model, (x,), device_ids=[0]) + nn.parallel.data_parallel(model, x)
"""
PARALLEL_MINDSPORE = """import mindspore


def build(layer):
    model = layer
    if (mindspore.hal.device_count("GPU") if mindspore.hal.is_available("GPU") else 0) > 1:
        pass
    wrapped = layer
    state = wrapped.weight
    return model, wrapped, state


def run(model, x):
    return model(x) + (model(*x) if isinstance(x, tuple) else model(x))
"""

FUNCTION_TORCH = '''import torch
import torch.nn as nn
from torch.autograd import Function


class ScaleGrad(torch.autograd.Function):
    """Identity forward, gradient scaled."""

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return x * 1.0

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * ctx.alpha + x * 0, None


class SwishFn(Function):
    @staticmethod
    def forward(ctx, x):
        result = x * torch.sigmoid(x)
        ctx.save_for_backward(x)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        s = torch.sigmoid(x)
        return grad_output * (s * (1 + x * (1 - s)))


class Swish(nn.Module):
    def forward(self, x):
        return SwishFn.apply(ScaleGrad.apply(x, 3.0))
'''
FUNCTION_MINDSPORE = '''import mindspore


class ScaleGrad(mindspore.nn.Cell):
    """Identity forward, gradient scaled."""

    def construct(self, x, alpha):
        return x * 1.0

    def bprop(self, x, alpha, out, grad_output):
        return grad_output * alpha + x * 0, None


class SwishFn(mindspore.nn.Cell):
    def construct(self, x):
        result = x * mindspore.mint.sigmoid(x)
        return result

    def bprop(self, x, out, grad_output):
        s = mindspore.mint.sigmoid(x)
        return grad_output * (s * (1 + x * (1 - s)))


class Swish(mindspore.nn.Cell):
    def construct(self, x):
        return SwishFn()(ScaleGrad()(x, 3.0))
'''

CASES = {
    # checkpoint(blk, x) → blk(x): the same outputs and gradients (mindspore.recompute does not replay
    # the random state); --unsafe-fixes for nn.ModuleList → CellList
    "checkpoint": Case(CHECKPOINT_TORCH, CHECKPOINT_MINDSPORE, TORCH_STACK, MS_STACK, unsafe=True),
    # the wrappers are the module; .module of the wrapper is the module; a tuple of inputs is unpacked.
    # torch's data_parallel needs a CUDA device: the torch side computes what it computes on one device,
    # module(*inputs) (DataParallel without GPUs is the module's own call)
    "data_parallel": Case(
        PARALLEL_TORCH, PARALLEL_MINDSPORE,
        f"layer = torch.nn.Linear(3, 2)\nlayer.weight.data = torch.tensor({W})[:2]\nlayer.bias.data.zero_()\n"
        f"model, wrapped, state = build(layer)\nx = torch.tensor({X})\n"
        "result = [wrapped(x) + model(x), state]\n",
        f"layer = mindspore.mint.nn.Linear(3, 2)\nlayer.weight.set_data(mindspore.Tensor(np.array({W}, "
        "np.float32)[:2]))\nlayer.bias.set_data(mindspore.Tensor(np.zeros(2, np.float32)))\n"
        f"model, wrapped, state = build(layer)\nx = mindspore.Tensor(np.array({X}, np.float32))\n"
        "result = [run(model, x), state]\n",
    ),
    # the custom gradients (3x, and swish's own) are the ones MindSpore applies
    "autograd_function": Case(
        FUNCTION_TORCH, FUNCTION_MINDSPORE,
        f"x = torch.tensor({X}, requires_grad=True)\ny = Swish()(x)\n"
        "y.sum().backward()\nresult = [y, x.grad]\n",
        f"x = mindspore.Tensor(np.array({X}, np.float32))\nmodel = Swish()\n"
        "result = [model(x), mindspore.grad(lambda t: model(t).sum())(x)]\n",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_fix_writes_the_mindspore_module(name: str) -> None:
    assert_fixed(CASES[name])


def test_checkpoint_is_a_direct_call_in_safe_mode() -> None:
    source = "from torch.utils.checkpoint import checkpoint\n\n\ndef run(blk, x, **kw):\n"
    assert fixed(source + "    return checkpoint(blk, x, 2, use_reentrant=True, scale=3)\n") == (
        "\n\ndef run(blk, x, **kw):\n    return blk(x, 2, scale=3)\n")  # its own keywords go, the others stay
    assert fixed(source + "    return checkpoint(lambda t: t, x)\n") == (
        "\n\ndef run(blk, x, **kw):\n    return (lambda t: t)(x)\n")
    kept = source + "    return checkpoint(blk, x, **kw)\n"  # its keywords cannot be told apart
    assert fixed(kept) == kept


@pytest.mark.parametrize("body", [
    # ctx.needs_input_grad, ctx state computed from a local value, a tensor saved that is no input
    "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n\n    @staticmethod\n"
    "    def backward(ctx, g):\n        return g * 2 if ctx.needs_input_grad[0] else None\n",
    "    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.n = y.sum()\n"
    "        return y\n\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g * ctx.n\n",
    "    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.save_for_backward(y)\n"
    "        return y + 1\n\n    @staticmethod\n    def backward(ctx, g):\n        y, = ctx.saved_tensors\n"
    "        return g * y\n",
])
def test_a_function_whose_ctx_cannot_be_recomputed_is_reported_without_a_fix(body: str) -> None:
    source = "import torch\n\n\nclass F(torch.autograd.Function):\n" + body
    [finding] = [f for f in analyze_source(source, "m.py", get_knowledge_base("2.6")).findings
                 if f.rule == "MSM517"]
    assert (finding.line, finding.column, finding.fixable) == (4, 9, False)
    assert fixed(source, unsafe=True) == source


@pytest.mark.slow
@needs_frameworks
def test_the_rewritten_modules_compute_what_torch_computes(tmp_path: Path) -> None:
    for name, (expected, actual) in run_cases(CASES, tmp_path).items():
        assert len(expected) >= 2, name
        assert_same(expected, actual)
