"""MindSpore code written by this project for the "compose from existing APIs" policy.

Each snippet is plain, runnable MindSpore 2.x code built only from mapped operations; the missing-API
advice shows it in hover and ``msmigrate lookup``. ``tests/rules/test_missing_advice.py`` checks that every
snippet parses.
"""

from __future__ import annotations

SNIPPETS: dict[str, str] = {
    "custom_backward": '''\
from mindspore import nn, ops


class StraightThroughClamp(nn.Cell):
    """Forward clamps to [0, 1]; backward passes the incoming gradient unchanged."""

    def construct(self, x):
        return ops.clamp(x, 0.0, 1.0)

    def bprop(self, x, out, dout):
        return (dout,)
''',
    "parameters_to_vector": """\
from mindspore import ops


def parameters_to_vector(params):
    return ops.cat([p.reshape(-1) for p in params])


def vector_to_parameters(vector, params):
    start = 0
    for p in params:
        count = p.size
        p.set_data(vector[start:start + count].reshape(p.shape))
        start += count
""",
    "pad_sequence": '''\
from mindspore import ops


def pad_sequence(sequences, max_len, padding_value=0.0):
    """Stack tensors of shape (L_i, *) into (batch, max_len, *); max_len is a fixed bucket size."""
    padded = []
    for seq in sequences:
        padding = (0, 0) * (seq.ndim - 1) + (0, max_len - seq.shape[0])
        padded.append(ops.pad(seq, padding, value=padding_value))
    return ops.stack(padded)
''',
    "weight_norm": '''\
from mindspore import Parameter, nn, ops


class WeightNormDense(nn.Cell):
    """Dense layer whose weight is g * v / ||v|| per output row (weight_norm with dim=0)."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        dense = nn.Dense(in_channels, out_channels)
        weight = dense.weight.value()
        self.weight_v = Parameter(weight, name="weight_v")
        self.weight_g = Parameter(ops.norm(weight, dim=1, keepdim=True), name="weight_g")
        self.bias = Parameter(dense.bias.value(), name="bias")

    def construct(self, x):
        weight = self.weight_g * self.weight_v / ops.norm(self.weight_v, dim=1, keepdim=True)
        return ops.matmul(x, weight.T) + self.bias
''',
    "kthvalue": '''\
from mindspore import ops


def kthvalue(x, k, dim=-1, keepdim=False):
    """The k-th smallest value (k counts from 1) along dim and its index."""
    values, indices = ops.topk(x, k, dim=dim, largest=False, sorted=True)
    values = ops.narrow(values, dim, k - 1, 1)
    indices = ops.narrow(indices, dim, k - 1, 1)
    if not keepdim:
        values, indices = values.squeeze(dim), indices.squeeze(dim)
    return values, indices
''',
    "rms_norm": """\
import mindspore as ms
from mindspore import Parameter, nn, ops


class RMSNorm(nn.Cell):
    def __init__(self, normalized_shape, eps=1e-6):
        super().__init__()
        self.weight = Parameter(ops.ones(normalized_shape, ms.float32), name="weight")
        self.axes = tuple(range(-len(self.weight.shape), 0))
        self.eps = eps

    def construct(self, x):
        scale = ops.rsqrt(ops.mean(x * x, self.axes, True) + self.eps)
        return x * scale * self.weight
""",
    "pairwise_distance": """\
from mindspore import ops


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return ops.norm(x1 - x2 + eps, ord=p, dim=-1, keepdim=keepdim)
""",
    "embedding_bag": '''\
from mindspore import nn


class EmbeddingBag(nn.Cell):
    """Bags given as a 2-D (batch, bag_size) index tensor; pad ragged bags to one size first."""

    def __init__(self, num_embeddings, embedding_dim, mode="mean"):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings, embedding_dim)
        self.mode = mode

    def construct(self, ids):
        vectors = self.embedding(ids)
        if self.mode == "sum":
            return vectors.sum(1)
        if self.mode == "max":
            return vectors.max(1)
        return vectors.mean(1)
''',
    "poisson_nll_loss": """\
import math

from mindspore import ops


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-8, reduction="mean"):
    if log_input:
        loss = ops.exp(input) - target * input
    else:
        loss = input - target * ops.log(input + eps)
    if full:
        safe = ops.where(target > 1, target, ops.ones_like(target))
        stirling = safe * ops.log(safe) - safe + 0.5 * ops.log(2 * math.pi * safe)
        loss = loss + ops.where(target > 1, stirling, ops.zeros_like(stirling))
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
""",
    "one_cycle_lr": '''\
import math


def one_cycle_lr(max_lr, total_steps, pct_start=0.3, div_factor=25.0, final_div_factor=1e4):
    """The per-step learning rates of a one-cycle cosine schedule."""
    initial_lr = max_lr / div_factor
    min_lr = initial_lr / final_div_factor
    warmup_end = float(pct_start * total_steps) - 1
    last = total_steps - 1

    def anneal(start, end, pct):
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)

    rates = []
    for step in range(total_steps):
        if step <= warmup_end:
            rates.append(anneal(initial_lr, max_lr, step / warmup_end))
        else:
            rates.append(anneal(max_lr, min_lr, (step - warmup_end) / (last - warmup_end)))
    return rates


# optimizer = nn.Momentum(net.trainable_params(), learning_rate=one_cycle_lr(0.1, steps), momentum=0.9)
''',
    "broadcast_all": '''\
import numpy as np
import mindspore
from mindspore import ops


def broadcast_all(*values):
    """Every value as a tensor of the values' broadcast shape (numbers take the first tensor's dtype)."""
    tensors = [v for v in values if isinstance(v, mindspore.Tensor)]
    dtype = tensors[0].dtype if tensors else mindspore.float32
    values = [v if isinstance(v, mindspore.Tensor) else mindspore.tensor(v, dtype) for v in values]
    shape = np.broadcast_shapes(*(tuple(v.shape) for v in values))
    return tuple(ops.broadcast_to(v, shape) for v in values)
''',
}
