"""The answers for the most frequent missing APIs of real code (recipe entries of
knowledge/facts/missing_advice.toml): the finding says the note, in English and Chinese; a type reference
is renamed; lookup shows the note; and (slow) every fact the notes state about MindSpore 2.10 holds in the
installed MindSpore, checked against torch."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from msmigrate.i18n import t
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.lookup import lookup
from msmigrate.knowledge.missing_advice import CATALOGUE, Policy, advice_for
from msmigrate.knowledge.missing_advice_frequent import RECIPE_NOTES, rows

SOURCE = """\
import torch
from torch import nn
from torch.overrides import has_torch_function_unary, handle_torch_function


def scale(x: torch.Tensor, shape: torch.Size, dtype: torch.dtype):
    if has_torch_function_unary(x):
        return handle_torch_function(scale, (x,), x)
    y = torch.ones_like(x, memory_format=torch.preserve_format) * torch.pi
    return torch.topk(y, 2).indices, torch.device("cpu").type


class Blocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList()
        self.blocks.append(nn.Linear(2, 2))
        self.register_parameter("bias", None)
"""

# (line, column) → (rule, torch API, the English message), read from the notes written for each API
EXPECTED = {
    (6, 35): ("MSM201", "torch.Size",
              "torch.Size has no MindSpore mapping. A MindSpore shape is a plain tuple (Tensor.shape is a "
              "tuple): torch.Size(x) becomes tuple(x) and a torch.Size annotation becomes tuple[int, ...]."),
    (6, 54): ("MSM201", "torch.dtype", "torch.dtype names a type here; in MindSpore it is mindspore.Type"),
    (7, 8): ("MSM201", "torch.overrides.has_torch_function_unary",
             "torch.overrides.has_torch_function_unary has no MindSpore mapping. Part of torch's "
             "__torch_function__ dispatch for Tensor subclasses, which MindSpore does not have: "
             "has_torch_function…(…) is False for MindSpore tensors, so remove the branch "
             "`if has_torch_function…(…): return handle_torch_function(…)` and keep the code after it."),
    (9, 42): ("MSM201", "torch.preserve_format",
              "torch.preserve_format has no MindSpore mapping. MindSpore tensors have no memory format: "
              "remove the memory_format= argument (the values are the same)."),
    (9, 67): ("MSM201", "torch.pi",
              "torch.pi has no MindSpore mapping. The constant torch.pi is the Python float math.pi: write "
              "math.pi (the same value)."),
    # the receiver is known to be topk's named tuple: the claim names that field (analysis/receivers.py)
    (10, 29): ("MSM200", "torch.return_types.topk.indices",
               "torch.return_types.topk.indices: torch's topk returns a named tuple (values, indices); "
               "MindSpore's returns a plain tuple in the same order: read .indices as [1]."),
    (10, 58): ("MSM201", "torch.device.type",
               "torch.device.type has no MindSpore mapping. The kind of device, as a string: a MindSpore "
               "tensor's device is already a string (x.device is 'CPU'), and the process's device is "
               "mindspore.get_context(\"device_target\") ('CPU', 'GPU' or 'Ascend'; torch's 'cuda' is "
               "'GPU')."),
    (18, 14): ("MSM201", "torch.nn.Module.register_parameter",
               "torch.nn.Module.register_parameter has no MindSpore mapping. Write "
               "cell.insert_param_to_cell(name, param): it adds the mindspore.Parameter to the Cell (None "
               "too, as register_parameter(name, None) does)."),
}


def _missing(result):
    return {(f.line, f.column): f for f in result.findings if f.rule.startswith("MSM20")}


def test_each_group_row_is_in_the_catalogue_with_its_note():
    assert len(rows()) == 52 and len(RECIPE_NOTES) == 32
    for policy, torch_api, replacements, note in rows():
        entry = CATALOGUE[torch_api]
        assert (entry.policy, entry.replacements, entry.note) == (Policy(policy), replacements, note)
        assert f"advice.note.{note}" in RECIPE_NOTES
    assert rows()[0] == (1, "torch.dtype", ("mindspore.Type",), "dtype_class")
    assert rows()[-1] == (1, "torch.device.type", ("mindspore.get_context",), "device_type")


def test_the_finding_says_the_note(analyze):
    found = _missing(analyze(SOURCE, version_kb=get_knowledge_base("2.6")))
    said = {place: (f.rule, f.torch_api, f.message()) for place, f in found.items() if place in EXPECTED}
    assert said == EXPECTED
    # a ModuleList the file builds: its append is CellList.append (analysis/class_members.py), not missing
    assert (17, 21) not in found
    assert found[(7, 8)].message("zh") == (
        "torch.overrides.has_torch_function_unary 没有 MindSpore 映射。属于 torch 为 Tensor 子类提供的 "
        "__torch_function__ 分派机制，MindSpore 没有该机制：对 MindSpore 张量 has_torch_function…(…) 恒为 "
        "False，因此删除分支 `if has_torch_function…(…): return handle_torch_function(…)`，保留其后的代码。")
    assert found[(9, 67)].message("zh") == (
        "torch.pi 没有 MindSpore 映射。torch.pi 就是 Python 浮点数 math.pi：改写为 math.pi（数值相同）。")


def test_a_custom_operator_recipe_says_so(analyze):
    source = "import torch\n\nlib = torch.library.Library('ops', 'IMPL')\nlib.impl('nms', nms, 'CPU')\n"
    finding = next(f for f in analyze(source, version_kb=get_knowledge_base("2.6")).findings
                   if f.torch_api == "torch.library.Library.impl")
    assert (finding.rule, finding.message()) == (
        "MSM203",
        "torch.library.Library.impl has no MindSpore mapping; write a custom operator. It registers a kernel "
        "for an operator; in MindSpore wrap the kernel as mindspore.ops.Custom(func, out_shape, out_dtype, "
        "func_type) and call that operator instead.")


def test_a_dtype_annotation_is_renamed_to_mindspore_type():
    from tests.fixes.idiom_support import fixed

    source = ("from typing import Optional\n\nimport torch\n\n\n"
              "def cast(x, dtype: Optional[torch.dtype] = None):\n"
              "    return x if dtype is None else x.astype(dtype)\n")
    # a type named, renamed: a safe fix (FIX_SAFETY of rules/missing/msm201_equivalent.py), so safe and
    # unsafe fixes agree
    assert fixed(source) == fixed(source, unsafe=True) == (
        "from typing import Optional\n\nimport mindspore\n\n\n"
        "def cast(x, dtype: Optional[mindspore.Type] = None):\n"
        "    return x if dtype is None else x.astype(dtype)\n")


def test_lookup_shows_the_note():
    kb = get_knowledge_base("2.6")
    advice = lookup("torch.is_grad_enabled", kb).to_json("en")["advice"]
    assert advice.split("\n\n")[2] == (
        "MindSpore has no global gradient switch: gradients come only from mindspore.grad or "
        "value\\_and\\_grad over a function. Remove the code that saves and restores the switch "
        "(MSM507 removes torch.set\\_grad\\_enabled).")
    zh = lookup("torch.is_grad_enabled", kb).to_json("zh")["advice"]
    assert t("advice.note.grad_enabled", "zh").replace("_", "\\_") in zh
    advice = advice_for("torch.nn.utils.rnn.PackedSequence", kb)
    assert advice.replacements == ()  # no class to rename an annotation to
    assert advice.note("zh").startswith("MindSpore 的循环网络层直接接收补齐后的批数据和各序列长度")


# every MindSpore fact the notes state, run in the installed MindSpore 2.10 (torch for the values compared)
FACTS = """
import inspect
import math

import numpy as np
import torch
import mindspore
from mindspore import nn, ops
from mindspore.nn.probability.distribution import Distribution, Normal

x = mindspore.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
assert isinstance(mindspore.float32, mindspore.Type) and isinstance(x.dtype, mindspore.Type)  # dtype_class
assert type(x.shape) is tuple and torch.Size([2, 3]) == tuple([2, 3])  # size_tuple
cells = nn.CellList()
cells.append(nn.Dense(2, 2))  # cell_list_append
assert len(cells) == 1


class Net(nn.Cell):
    def construct(self, value):
        return value


net = Net()
handle = net.register_forward_hook(lambda cell, inputs, output: None)  # hook_handle
assert type(handle).__module__ + "." + type(handle).__name__ == "mindspore.common.hook_handle.HookHandle"
assert isinstance(handle.handle_id, int)
handle.remove()
param = mindspore.Parameter(x, name="w")
param.requires_grad = False  # tensor_requires_grad
assert param.requires_grad is False and not hasattr(x, "requires_grad")
assert not hasattr(x, "is_nested") and not hasattr(x, "neg_")  # is_nested; the in-place compositions
net.insert_param_to_cell("bias", None)  # register_parameter
net.insert_param_to_cell("scale", mindspore.Parameter(x, name="scale"))
assert net.bias is None and [p.name for p in net.get_parameters()] == ["scale"]
assert inspect.signature(Distribution.__init__).parameters.keys() >= {"seed", "dtype", "name", "param"}
normal, reference = Normal(mindspore.Tensor([0.5]), mindspore.Tensor([2.0])), torch.distributions.Normal(
    torch.tensor([0.5]), torch.tensor([2.0]))  # normal_distribution: loc, scale → mean, sd
value = np.float32(1.25)
assert np.allclose(normal.log_prob(mindspore.Tensor([value])).asnumpy(),
                   reference.log_prob(torch.tensor([value])).numpy(), atol=1e-6)
assert np.allclose(normal.entropy().asnumpy(), reference.entropy().numpy(), atol=1e-6)
assert normal.sample((3,)).shape == (3, 1)
from mindspore.nn.probability.distribution import Categorical, TransformedDistribution

logits = np.array([0.5, -1.0, 2.0], np.float32)  # categorical_distribution: logits → probs=softmax(logits)
ours = Categorical(ops.softmax(mindspore.Tensor(logits), -1))
theirs = torch.distributions.Categorical(logits=torch.tensor(logits))
picks = np.array([0, 2, 1], np.int32)
assert np.allclose(ours.log_prob(mindspore.Tensor(picks)).asnumpy(),
                   theirs.log_prob(torch.tensor(picks)).numpy(), atol=1e-6)
assert np.allclose(ours.entropy().asnumpy(), theirs.entropy().numpy(), atol=1e-6)
assert ours.sample((4,)).dtype == mindspore.int32
transformed = inspect.signature(TransformedDistribution.__init__).parameters
assert list(transformed)[1:3] == ["bijector", "distribution"]
assert {"Exp", "ScalarAffine", "PowerTransform", "Softplus", "GumbelCDF", "Invert"} <= set(
    dir(mindspore.nn.probability.bijector))  # transformed_distribution
assert "bprop" in inspect.signature(ops.Custom.__init__).parameters  # library_autograd
from mindspore.nn.probability.bijector import Exp, ScalarAffine

points = np.array([1.0, -3.0], np.float32)  # affine_transform: loc → shift; exp_transform
affine = ScalarAffine(scale=2.0, shift=0.5)
reference = torch.distributions.AffineTransform(loc=0.5, scale=2.0)
assert np.allclose(affine.forward(mindspore.Tensor(points)).asnumpy(),
                   reference(torch.tensor(points)).numpy())
assert np.allclose(affine.inverse(mindspore.Tensor(points)).asnumpy(),
                   reference.inv(torch.tensor(points)).numpy())
assert np.allclose(Exp().forward(mindspore.Tensor(points)).asnumpy(),
                   torch.distributions.ExpTransform()(torch.tensor(points)).numpy(), rtol=1e-6)
import typing

assert all(getattr(torch.jit.annotations, n) is getattr(typing, n) for n in ("List", "Dict", "Tuple"))
assert (torch.inf, torch.pi) == (math.inf, math.pi) and math.isnan(torch.nan)  # python_constant
assert "seq_length" in inspect.signature(nn.LSTM.construct).parameters  # packed_sequence
assert "seq_length" in inspect.signature(nn.GRU.construct).parameters
both = [mindspore.Tensor(np.ones((2, 1), np.float32)), mindspore.Tensor(np.zeros((2, 2), np.float32))]
assert ops.cat(both, 1).shape == (2, 3)  # float_functional
values = ops.topk(x, 2)  # result_tuple
assert type(values) is tuple and len(values) == 2 and values[1].dtype in (mindspore.int32, mindspore.int64)
assert type(ops.sort(x)) is tuple and type(ops.max(x, 1)) is tuple
assert hasattr(mindspore.COOTensor, "indices") and hasattr(mindspore.COOTensor, "values")
assert torch.typename(torch.nn.Linear(1, 1)) == "torch.nn.modules.linear.Linear"  # typename
assert str(torch.types.Number) == "int | float | bool"  # number_type
assert np.broadcast_shapes((2, 1), (3,)) == tuple(torch.broadcast_shapes((2, 1), (3,)))  # broadcast_shapes
generator = mindspore.Generator()
generator.manual_seed(3)  # generator_seed
assert "generator" in inspect.signature(mindspore.mint.randperm).parameters
assert mindspore.get_context("device_target") == "CPU" and x.device == "CPU"  # device_type
assert not hasattr(mindspore, "is_grad_enabled")  # grad_enabled
print("ok")
"""


@pytest.mark.slow
def test_the_notes_hold_in_mindspore():
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(FACTS)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().endswith("ok")
