"""Reviewed exceptions to the derived mappings: candidates that are wrong although the names match.

Each entry is ``(torch API, MindSpore API or "*" for every candidate): reason``. The reason is kept in
``derived-<v>.json`` (``excluded``) so a reader of the data sees why a candidate is not offered. Add an
entry only after reading both APIs' documentation; never use this table to add mappings.
"""

from __future__ import annotations

EXCEPTIONS: dict[tuple[str, str], str] = {
    ("torch.Size", "mindspore.ops.Size"): (
        "torch.Size is the tuple type of tensor shapes; mindspore.ops.Size is an operator returning the "
        "number of elements"
    ),
    ("torch.cond", "mindspore.ops.cond"): (
        "torch.cond is data-dependent control flow (pred, true_fn, false_fn, operands); mindspore.ops.cond "
        "computes a matrix or vector norm"
    ),
    ("torch.fill", "mindspore.ops.fill"): (
        "mindspore.ops.fill(type, shape, value) builds a new tensor (deprecated after MindSpore 2.9); "
        "torch.fill(input, value) fills a tensor of the input's shape"
    ),
    ("torch.Node", "mindspore.Node"): (
        "torch.Node is a node of the autograd graph; mindspore.Node is a node of the mindspore.rewrite API"
    ),
    ("torch.Type", "mindspore.Type"): (
        "torch.Type is a TorchScript type; mindspore.Type is the base of MindSpore dtypes"
    ),
    ("torch.TensorType", "mindspore.TensorType"): (
        "torch.TensorType is a TorchScript type; mindspore.TensorType is the dtype of a tensor-typed value"
    ),
    ("torch.Tensor.copy_", "mindspore.Tensor.copy"): (
        "mindspore.Tensor.copy() returns a copy of the tensor; torch's copy_(src) writes src into the tensor"
    ),
    ("torch.Tensor.unfold", "mindspore.Tensor.unfold"): (
        "torch's Tensor.unfold(dimension, size, step) takes sliding windows along one dimension; MindSpore "
        "2.10's Tensor.unfold(kernel_size, dilation, padding, stride) is ops.unfold (im2col)"
    ),
    ("torch.linalg.vander", "mindspore.ops.vander"): (
        "torch.linalg.vander(x, N) writes increasing powers (x**0 first) and takes batches; "
        "mindspore.ops.vander(x, N) is numpy's vander: decreasing powers, a 1-D input only"
    ),
    ("torch.nn.CosineSimilarity", "mindspore.nn.CosineSimilarity"): (
        "torch.nn.CosineSimilarity is a layer computing the cosine similarity of two tensors along dim; "
        "mindspore.nn.CosineSimilarity is a metric (mindspore.train.CosineSimilarity: clear/update/eval)"
    ),
    ("torch.broadcast_tensors", "mindspore.ops.BroadcastTo"): (
        "torch.broadcast_tensors(*tensors) broadcasts tensors against each other; mindspore.ops.BroadcastTo"
        "(shape) is a Primitive broadcasting one tensor to a shape given when it is built"
    ),
    **{(torch_api, "mindspore.ops.rms_norm"): (
        "torch's rms_norm(input, normalized_shape, weight=None, eps=None) takes the normalized shape and an "
        "optional weight (eps None: the dtype's machine epsilon); mindspore.ops.rms_norm(x, gamma, "
        "epsilon=1e-6) takes the weight tensor in place of the shape: no argument-for-argument rewrite"
    ) for torch_api in ("torch.rms_norm", "torch.nn.functional.rms_norm")},
    **{(torch_api, "mindspore.ops.rrelu"): (
        "torch's rrelu defaults to training=False: a leaky ReLU whose slope is (lower + upper) / 2, the same "
        "values every call; mindspore.ops.rrelu always draws a random slope per element (torch's "
        "training=True)"
    ) for torch_api in ("torch.rrelu", "torch.nn.functional.rrelu")},
    ("torch.nn.Module.compile", "mindspore.nn.Cell.compile"): (
        "torch's Module.compile(*args, **kwargs) hands its arguments to torch.compile (backend, mode, ...) "
        "and compiles the module's calls; MindSpore's Cell.compile(*args, **kwargs) takes the network's "
        "inputs and compiles the graph for them (2.10: compile(backend=...) raises 'unexpected keyword "
        "argument'): the same signature by accident"
    ),
    ("torch.poisson", "mindspore.ops.poisson"): (
        "torch.poisson(input) samples with the rates in input; mindspore.ops.poisson(shape, mean, seed) "
        "takes the output shape first: input would be read as a shape"
    ),
}
