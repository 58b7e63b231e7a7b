"""Derived mappings whose target has no CPU kernel in MindSpore 2.10 (``verified-derived-CPU.json``): the CPU
replacements the general machinery offers for them (``datagen/derive_device.py``: a Tensor method gets the
reviewed other names of the torch function it computes; ``knowledge/device_targets.out_of_place_target``: an
in-place API whose verified replacements return a new tensor, or whose own target does, gets the result
written back with ``Tensor.assign_value``)."""

from __future__ import annotations

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.datagen.derive_device import device_names
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.device_targets import out_of_place_target, runnable_target


def test_a_tensor_method_gets_the_other_names_of_its_function() -> None:
    assert device_names("torch.Tensor.clone") == [
        "mindspore.numpy.copy", "mindspore.ops.deepcopy", "mindspore.ops.clone", "mindspore.numpy.clone"]
    assert device_names("torch.clone") == [
        "mindspore.numpy.copy", "mindspore.ops.deepcopy", "mindspore.ops.clone", "mindspore.numpy.clone"]
    assert device_names("torch.Tensor.zero_") == [
        "mindspore.ops.zeros_like", "mindspore.ops.zero_", "mindspore.numpy.zero_"]


def test_tensor_clone_becomes_numpy_copy(kb24, kb26) -> None:
    """Derived mindspore.Tensor.clone has no CPU kernel ("The kernel Clone unregistered"); numpy.copy
    (torch.clone's reviewed other name) passed the check for Tensor.clone: the tensor becomes its first
    argument, torch's memory_format (no MindSpore meaning) is dropped without a dangling comma."""
    source = ("import torch\nx = torch.ones(3)\nz = x.clone()\n"
              "w = x.clone(memory_format=torch.contiguous_format)\nq = x.clone().sum()\n")
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == ("import mindspore\nx = mindspore.mint.ones(3)\nz = mindspore.numpy.copy(x)\n"
                   "w = mindspore.numpy.copy(x)\nq = mindspore.numpy.copy(x).sum()\n")
    new, _applied = fix_all("import torch\nx = torch.ones(3)\nz = x.clone()\n", "m.py", kb24)
    assert new == "import mindspore\nx = mindspore.ops.ones(3)\nz = mindspore.numpy.copy(x)\n"
    target = runnable_target("torch.Tensor.clone", "2.6")
    assert (target.row.mindspore_api, target.replaced, target.verified) == (
        "mindspore.numpy.copy", "mindspore.Tensor.clone", True)


def test_zero_and_fill_write_a_new_tensor_back(kb26) -> None:
    """Tensor.zero_ / torch.zero_ / Tensor.fill_ (InplaceZero, InplaceFillScalar unregistered on CPU): their
    verified replacements ops.zeros_like / ops.full_like return a new tensor, written into the tensor; a
    function before the Primitive ops.ZerosLike (which a method call cannot become); a view is left."""
    source = ("import torch\nx = torch.ones(3)\ny = x.zero_()\nx.fill_(0.5)\ntorch.zero_(x)\n"
              "x.fill_(value=2)\nx[0].zero_()\n")
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == (
        "import mindspore\nx = mindspore.mint.ones(3)\n"
        "y = x.assign_value(mindspore.ops.zeros_like(x))\n"
        "x.assign_value(mindspore.ops.full_like(x, 0.5))\n"
        "x.assign_value(mindspore.ops.zeros_like(x))\n"
        "x.assign_value(mindspore.ops.full_like(x, fill_value=2))\n"
        "x[0].zero_()\n")
    found = out_of_place_target("torch.Tensor.zero_", "2.6")
    assert (found.torch_api, found.row.mindspore_api, found.replaced) == (
        "torch.Tensor.zero_", "mindspore.ops.zeros_like", "mindspore.Tensor.zero_")
    findings = [f for f in analyze_source(source, "m.py", kb26).findings
                if f.torch_api == "torch.Tensor.zero_"]
    fix = next(f for f in fixes_for(source, "m.py", findings[:1], kb26) if f.edits)
    assert fix.title("en") == (
        "Replace torch.Tensor.zero_ with mindspore.ops.zeros_like, then write the result into x "
        "with Tensor.assign_value, which returns it (mindspore.Tensor.zero_ has no CPU kernel in MindSpore "
        "2.10; this out-of-place target was verified on CPU; unlike torch, a view of another tensor does not "
        "update that tensor; PyNative mode only: assign_value does not compile in GRAPH_MODE or @jit code)")
    assert is_safe(findings[0], kb26) is False


def test_scatter_in_place_writes_its_function_target_back(kb24, kb26) -> None:
    """x.scatter_'s target ops.tensor_scatter_elements (2.4 row, 2.6 derived) returns a new tensor: written
    back when every argument is passed by keyword (the check placed dim last, as MindSpore takes it); by
    position (src / value overloads: not named) the call is left."""
    source = "import torch\nx = torch.ones(3)\nx.scatter_(dim=1, index=i, src=s)\ny = x.scatter_(1, i, s)\n"
    for kb, ones in ((kb26, "mindspore.mint.ones"), (kb24, "mindspore.ops.ones")):
        new, _applied = fix_all(source, "m.py", kb)
        assert new == (f"import mindspore\nx = {ones}(3)\n"
                       "x.assign_value(mindspore.ops.tensor_scatter_elements(x, axis=1, indices=i, "
                       "updates=s))\n"
                       "y = x.scatter_(1, i, s)\n")
    findings = [f for f in analyze_source(source, "m.py", kb26).findings
                if f.torch_api == "torch.Tensor.scatter_"]
    fix = next(f for f in fixes_for(source, "m.py", findings[:1], kb26) if f.edits)
    assert fix.title_key == "fix.in_place_new_tensor"
    assert fix.title("en").endswith(
        "then write the result into x with Tensor.assign_value, which returns it "
        "(mindspore.ops.tensor_scatter_elements returns a new tensor where torch changes the tensor in "
        "place; "
        "it was verified on CPU; unlike torch, a view of another tensor does not update that tensor; "
        "PyNative mode only: assign_value does not compile in GRAPH_MODE or @jit code)")
    assert fix.title("zh").endswith(
        "再用 Tensor.assign_value 将结果写回 x 并返回它（mindspore.ops.tensor_scatter_elements 返回新张量，"
        "而 torch 原地修改张量；它已在 CPU 上验证；与 torch 不同，若它是另一张量的视图，不会更新那个张量；"
        "仅适用于 PyNative 模式：assign_value 无法在 GRAPH_MODE 或 @jit 代码中编译）")
    assert is_safe(findings[0], kb26) is False
