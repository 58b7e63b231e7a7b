"""In-place APIs whose target has no kernel on the device (knowledge/device_targets.out_of_place_target):
the out-of-place counterpart's target verified there computes the result, ``Tensor.assign_value`` writes it
into the tensor and returns it (MindSpore 2.10: ``x.assign_value(v) is x``, aliases of ``x`` see the new
values; a view's base is not updated, and assign_value does not compile in GRAPH_MODE / @jit code (measured:
"method 'assign_value' is not supported in 'construct'"), which the title says)."""

from __future__ import annotations

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.device_targets import out_of_place_target, same_arguments


def test_counterpart_targets() -> None:
    found = out_of_place_target("torch.Tensor.clamp_", "2.6")
    assert (found.torch_api, found.row.mindspore_api, found.version, found.replaced) == (
        "torch.Tensor.clamp", "mindspore.Tensor.clamp", "2.6", "mindspore.Tensor.clamp_")
    # the counterpart's own table target has no CPU kernel either: its verified replacement (2.4 table)
    found = out_of_place_target("torch.nn.functional.elu_", "2.6")
    assert (found.row.mindspore_api, found.version) == ("mindspore.ops.elu", "2.4")
    # torch's x.bernoulli_() samples with p=0.5, x.bernoulli() with the tensor's values (p required there)
    assert out_of_place_target("torch.Tensor.bernoulli_", "2.6") is None
    # not in place, a target with a CPU kernel, another device without derived checks: nothing
    assert out_of_place_target("torch.Tensor.clamp", "2.6") is None
    assert out_of_place_target("torch.Tensor.abs_", "2.6") is None
    assert out_of_place_target("torch.Tensor.clamp_", "2.6", "GPU") is None


def test_in_place_calls_write_the_out_of_place_result_back(kb26) -> None:
    source = (
        "import torch\nimport torch.nn.functional as F\nx = torch.ones(3)\n"
        "y = x.clamp_(0.0, 1.0)\n"
        "F.relu_(self.h)\n"
        "w = torch.clamp_(x, min=0.5)\n"
        "x.sigmoid_().sum()\n"
    )
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == (
        "import mindspore\nx = mindspore.mint.ones(3)\n"
        "y = x.assign_value(x.clamp(0.0, 1.0))\n"
        "self.h.assign_value(mindspore.ops.relu(self.h))\n"
        "w = x.assign_value(mindspore.mint.clamp(x, min=0.5))\n"
        "x.assign_value(x.sigmoid()).sum()\n"
    )


def test_a_tensor_read_twice_only_when_plain(kb26) -> None:
    """x[0] would be evaluated twice (and x[0].assign_value would not update x): no rewrite, and the finding
    says the target has no kernel there; x.abs() is a temporary nothing else reads: its out-of-place
    counterpart computes the same (analysis/temporaries.py)."""
    source = "import torch\nx = torch.ones(3)\nx[0].clamp_(0, 1)\nx.abs().tanh_()\ntorch.tanh_(x[1:])\n"
    new, _applied = fix_all(source, "m.py", kb26)
    # (the function's derived target ops.tanh_ has no CPU kernel either: the fix explains, with no edit)
    assert new == ("import torch\nimport mindspore\nx = mindspore.mint.ones(3)\nx[0].clamp_(0, 1)\n"
                   "x.abs().tanh()\ntorch.tanh_(x[1:])\n")
    clamp = next(f for f in analyze_source(source, "m.py", kb26).findings
                 if f.torch_api == "torch.Tensor.clamp_")
    assert "on CPU, MindSpore 2.10 has no kernel for mindspore.Tensor.clamp_, and no replacement can be " \
           "written for this call" in clamp.message()


def test_title_and_safety(kb26) -> None:
    source = "import torch\nx = torch.ones(3)\ny = x.clamp_(0.0, 1.0)\n"
    findings = [f for f in analyze_source(source, "m.py", kb26).findings
                if f.torch_api == "torch.Tensor.clamp_"]
    (fix,) = [f for f in fixes_for(source, "m.py", findings, kb26) if f.edits]
    assert fix.title("en") == (
        "Rename .clamp_ to .clamp (mindspore.Tensor.clamp), then write the result into x with "
        "Tensor.assign_value, which returns it (mindspore.Tensor.clamp_ has no CPU kernel in MindSpore "
        "2.10; this out-of-place target was verified on CPU; unlike torch, a view of another tensor does "
        "not update that tensor; PyNative mode only: assign_value does not compile in GRAPH_MODE or @jit "
        "code)")
    assert fix.title("zh") == (
        "将 .clamp_ 改为 .clamp（mindspore.Tensor.clamp），再用 Tensor.assign_value 将结果写回 x 并返回它"
        "（mindspore.Tensor.clamp_ 在 MindSpore 2.10 中没有 CPU 算子实现；该非原地目标已在 CPU 上验证；"
        "与 torch 不同，若它是另一张量的视图，不会更新那个张量；仅适用于 PyNative 模式：assign_value 无法在 "
        "GRAPH_MODE 或 @jit 代码中编译）")
    assert is_safe(findings[0], kb26) is False


def test_scatter_add_gets_the_pairs_renames(kb26) -> None:
    """Tensor.scatter_add's CPU replacement ops.tensor_scatter_elements comes from the 1.10 table without
    renames: param_facts.PAIR_RENAMES gives dim→axis, index→indices, src→updates (with reduction='add');
    the in-place scatter_add_ writes the same result back."""
    source = (
        "import torch\nx = torch.ones(3, 4)\n"
        "y = x.scatter_add(1, idx, src)\n"
        "v = x.scatter_add(dim=1, index=idx, src=src)\n"
        "z = x.scatter_add_(1, idx, src)\n"
    )
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == (
        "import mindspore\nx = mindspore.mint.ones((3, 4))\n"
        "y = mindspore.ops.tensor_scatter_elements(x, axis=1, indices=idx, updates=src, reduction='add')\n"
        "v = mindspore.ops.tensor_scatter_elements(x, axis=1, indices=idx, updates=src, reduction='add')\n"
        "z = x.assign_value(mindspore.ops.tensor_scatter_elements(x, axis=1, indices=idx, updates=src, "
        "reduction='add'))\n"
    )


def test_same_arguments() -> None:
    inplace = [[{"name": "input", "kind": "positional_or_keyword"},
                {"name": "alpha", "kind": "positional_or_keyword", "default": "..."}]]
    out = [[{"name": "input", "kind": "positional_or_keyword"},
            {"name": "alpha", "kind": "positional_or_keyword", "default": "1.0"},
            {"name": "inplace", "kind": "positional_or_keyword", "default": "False"}]]
    assert same_arguments(inplace, out) is True
    assert same_arguments(out, inplace) is False  # a parameter the other lacks
    required = [[{"name": "input", "kind": "positional_or_keyword"},
                 {"name": "alpha", "kind": "positional_or_keyword"}]]
    assert same_arguments(inplace, required) is False  # a default where the other requires the value
    other_default = [[out[0][0], {**out[0][1], "default": "2.0"}]]
    assert same_arguments([[out[0][0], {**out[0][1]}]], other_default) is False
    assert same_arguments([], out) is False
