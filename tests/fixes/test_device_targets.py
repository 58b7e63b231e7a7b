"""Device-aware fix targets (knowledge/device_targets.py): a target without a CPU kernel is replaced by
another table's target verified on CPU, else by a derived candidate verified on CPU, else by a table
target whose values agree (int32 indices); the fix title says which."""

from __future__ import annotations

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.device_targets import runnable_target, runnable_targets
from msmigrate.model.finding import Finding


def _target(api: str, device: str = "CPU") -> tuple[str, str, bool, bool, str] | None:
    found = runnable_target(api, "2.6", device)
    if found is None:
        return None
    derived = found.derived is not None
    return (found.row.mindspore_api or "", found.version, derived, found.verified, found.replaced)


def test_replacement_order_and_kinds() -> None:
    # another table's target verified on CPU
    assert _target("torch.nn.functional.conv2d") == (
        "mindspore.ops.conv2d", "2.4", False, True, "mindspore.mint.nn.functional.conv2d")
    # ... also when the finding carries the canonical spelling (torch.conv2d is F.conv2d's canonical name)
    assert _target("torch.conv2d") == _target("torch.nn.functional.conv2d")
    # no other table maps it: a derived candidate verified on CPU
    assert _target("torch.arctan2") == ("mindspore.ops.arctan2", "2.4", True, True, "mindspore.mint.arctan2")
    # only a target whose indices are int32 (same values) runs on CPU
    assert _target("torch.argmin") == ("mindspore.ops.argmin", "2.4", False, False, "mindspore.mint.argmin")
    # a target with a CPU kernel stays; derived checks ran on CPU only, so other devices get nothing new
    assert _target("torch.abs") is None
    assert _target("torch.arctan2", "GPU") is None


def _fix_of(source: str, kb, api: str) -> tuple[str, str, str]:
    findings = [f for f in analyze_source(source, "m.py", kb).findings if f.torch_api == api]
    (fix,) = [f for f in fixes_for(source, "m.py", findings, kb) if f.edits]
    edits = {e.new_text for e in fix.edits if not e.new_text.startswith("import")}
    return edits.pop(), fix.title("en"), fix.title("zh")


def test_fix_titles_say_where_the_target_comes_from(kb26) -> None:
    source = "import torch\nx = torch.ones(2, 3)\ny = torch.arctan2(x, x)\nz = torch.argmin(x, 1)\n"
    assert _fix_of(source, kb26, "torch.arctan2") == (
        "mindspore.ops.arctan2",
        # the row's only difference (torch's out) is not passed: nothing to review for this call
        "Replace torch.arctan2 with mindspore.ops.arctan2 "
        "(mindspore.mint.arctan2 has no CPU kernel in "
        "MindSpore 2.10; this target, a derived mapping, was verified on CPU)",
        "将 torch.arctan2 替换为 mindspore.ops.arctan2（mindspore.mint.arctan2 "
        "在 MindSpore 2.10 中没有 "
        "CPU "
        "算子实现；该目标为推导映射，已在 CPU 上验证）",
    )
    assert _fix_of(source, kb26, "torch.argmin") == (
        "mindspore.ops.argmin",
        "Replace torch.argmin with mindspore.ops.argmin (then review the documented differences) "
        "(mindspore.mint.argmin has no CPU kernel in "
        "MindSpore 2.10; this target, from the 2.4 table, runs on CPU with the same values but returns "
        "int32 indices where torch returns int64)",
        "将 torch.argmin 替换为 mindspore.ops.argmin（替换后请核对文档所列差异）（mindspore.mint.argmin 在 "
        "MindSpore 2.10 中没有 "
        "CPU "
        "算子实现；该目标来自 2.4 映射表，可在 CPU 上运行且数值一致，"
        "但返回 int32 索引，而 torch 返回 int64）",
    )


def test_canonical_spelling_gets_the_device_target(kb26) -> None:
    source = "import torch\nimport torch.nn.functional as F\ny = F.conv2d(torch.ones(1, 3, 8, 8), w)\n"
    new, _applied = fix_all(source, "m.py", kb26)
    # on CPU torch.conv2d (F.conv2d's canonical name) takes the helper module's composition with torch's
    # arguments (ops.conv2d's fifth parameter is pad_mode)
    assert "y = ms_compat.conv2d(mindspore.mint.ones((1, 3, 8, 8)), w)\n" in new


def test_only_verified_replacements_are_safe(kb26) -> None:
    source = "import torch\nx = torch.ones(2, 3)\ny = torch.arctan2(x, x)\nz = torch.argmin(x, 1)\n"
    found = analyze_source(source, "m.py", kb26).findings
    findings: dict[str, Finding] = {f.torch_api or "": f for f in found}
    assert is_safe(findings["torch.arctan2"], kb26) is True
    assert is_safe(findings["torch.argmin"], kb26) is False


def test_a_target_used_another_way_falls_back_to_another_tables_target(kb26) -> None:
    # the 2.6 table maps the class torch.nn.Flatten to the function mindspore.mint.flatten
    assert kb26.row("torch.nn.Flatten").mindspore_api == "mindspore.mint.flatten"
    source = "import torch\nm = torch.nn.Flatten()\n"
    assert _fix_of(source, kb26, "torch.nn.Flatten") == (
        "mindspore.nn.Flatten",
        "Replace torch.nn.Flatten with mindspore.nn.Flatten (mindspore.mint.flatten is used another way "
        "(a class vs a function); this target is from the 2.4 table)",
        "将 torch.nn.Flatten 替换为 mindspore.nn.Flatten（mindspore.mint.flatten 的用法不同（类与函数之别）；"
        "该目标来自 2.4 映射表）",
    )


def test_cpu_alternatives_replace_targets_no_table_runs_on_cpu(kb26) -> None:
    """No other table's target of these rows runs on CPU: the CPU alternatives (datagen/derive_device.py)
    that passed the derived check are written, with their parameter names and companions."""
    source = (
        "import torch\nimport torch.nn as nn\n"
        "a = torch.roll(x, shifts=1, dims=0)\n"
        "c = torch.clone(x, memory_format=torch.preserve_format)\n"
        "f = torch.linalg.inv(A=x)\n"
        "p = nn.ZeroPad1d(padding=(1, 2))\n"
        "q = nn.ZeroPad3d(1)\n"
    )
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == (
        "import mindspore\n"
        "a = mindspore.numpy.roll(x, shift=1, axis=0)\n"
        "c = mindspore.numpy.copy(x)\n"
        "f = mindspore.ops.inverse(input=x)\n"
        "p = mindspore.nn.ConstantPad1d(padding=(1, 2), value=0)\n"
        "q = mindspore.nn.ConstantPad3d(1, value=0)\n"
    )
    assert _target("torch.clone") == (
        "mindspore.numpy.copy", "2.6", True, True, "mindspore.mint.clone")
    # a candidate whose check failed elsewhere is never offered (ops.inv is the element-wise reciprocal)
    assert [t.row.mindspore_api for t in runnable_targets("torch.linalg.inv", "2.6")] == [
        "mindspore.ops.inverse"]
    # the 2.4 table's target has no CPU kernel either, the same alternative replaces it
    assert runnable_target("torch.roll", "2.4").row.mindspore_api == "mindspore.numpy.roll"


def test_cpu_alternative_with_int32_results_is_offered_unverified(kb26) -> None:
    """mindspore.numpy.full makes int32 where torch.full makes int64 from an int fill value (check note
    int32_default_int): offered after every verified one, not safe, and the title says so."""
    assert _target("torch.full") == ("mindspore.numpy.full", "2.6", True, False, "mindspore.mint.full")
    source = "import torch\ny = torch.full((2, 3), 1.5)\n"
    assert _fix_of(source, kb26, "torch.full") == (
        "mindspore.numpy.full",
        "Replace torch.full with mindspore.numpy.full (mindspore.mint.full has no CPU kernel in MindSpore "
        "2.10; this target, a derived mapping, runs on CPU with the same values but returns int32 where "
        "torch returns int64)",
        "将 torch.full 替换为 mindspore.numpy.full（mindspore.mint.full 在 MindSpore 2.10 中没有 CPU "
        "算子实现；该目标为推导映射，可在 CPU 上运行且数值一致，但返回 int32，而 torch 返回 int64）",
    )
    finding = next(f for f in analyze_source(source, "m.py", kb26).findings if f.torch_api == "torch.full")
    assert is_safe(finding, kb26) is False


def test_a_sampler_returning_int32_indices_is_offered_unverified(kb26) -> None:
    """The 2.4 table's ops.multinomial runs on CPU; its check (random values, compared by shape and dtype)
    fails only on int32 indices (note random_int32_indices): offered, not safe, the title says so."""
    source = "import torch\ns = torch.multinomial(p, 2)\n"
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == "import mindspore\ns = mindspore.ops.multinomial(p, 2, replacement=False)\n"
    assert _fix_of(source, kb26, "torch.multinomial")[1:] == (
        "Replace torch.multinomial with mindspore.ops.multinomial (arguments: +replacement=False; then "
        "review the documented differences) "
        "(mindspore.mint.multinomial has no CPU kernel in MindSpore 2.10; this target, from the 2.4 table, "
        "runs on CPU and samples indices of the same shape, but int32 where torch returns int64)",
        "将 torch.multinomial 替换为 mindspore.ops.multinomial（参数：+replacement=False；"
        "替换后请核对文档所列差异）"
        "（mindspore.mint.multinomial 在 MindSpore 2.10 中没有 CPU 算子实现；该目标来自 2.4 映射表，"
        "可在 CPU 上运行并采样出形状相同的索引，但为 int32，而 torch 返回 int64）",
    )
    found = analyze_source(source, "m.py", kb26).findings
    finding = next(f for f in found if f.torch_api == "torch.multinomial")
    assert is_safe(finding, kb26) is False


def test_a_tensor_method_without_a_cpu_kernel_becomes_a_function_taking_the_tensor(kb24) -> None:
    """The 2.4 table's Tensor.roll / Tensor.addcdiv have no CPU kernel; their CPU alternatives are
    functions (checked with the tensor as first argument): the call is rewritten to pass it first."""
    source = (
        "import torch\nx = torch.ones(2, 3)\n"
        "a = x.roll(1, 0)\n"
        "b = x.roll(shifts=1, dims=0)\n"
        "c = x.addcdiv(x, x, value=0.5)\n"
        "d = x.roll(  # one step\n    1,\n)\n"
        "e = x.roll(1).sum()\n"
    )
    new, _applied = fix_all(source, "m.py", kb24)
    assert new == (
        "import mindspore\nx = mindspore.ops.ones((2, 3))\n"
        "a = mindspore.numpy.roll(x, 1, 0)\n"
        "b = mindspore.numpy.roll(x, shift=1, axis=0)\n"
        "c = mindspore.ops.addcdiv(x, x, x, value=0.5)\n"
        "d = mindspore.numpy.roll(x,  # one step\n    1,\n)\n"
        "e = mindspore.numpy.roll(x, 1).sum()\n"
    )
    assert runnable_target("torch.Tensor.roll", "2.4").replaced == "mindspore.Tensor.roll"


def test_an_in_place_method_is_not_rewritten_to_a_function(kb26) -> None:
    """x.scatter_(…) changes x; ops.tensor_scatter_elements (another table's target) returns a new
    tensor: no fix writes it, whatever its check says."""
    source = "import torch\nx = torch.ones(2, 3)\nx.scatter_(1, idx, src)\n"
    new, _applied = fix_all(source, "m.py", kb26)
    assert new.endswith("x.scatter_(1, idx, src)\n")


def test_a_target_whose_only_difference_a_result_form_corrects_is_offered_unverified(kb26) -> None:
    """2.6's mint.bincount has no CPU kernel; the 2.4 table's ops.bincount runs on CPU and its check failed
    only on float counts (note bincount_float_output), which the fix's result form .long() corrects:
    offered last, not safe, titled so; with weights the form does not apply and the title says the
    call's dtype was not checked."""
    (target,) = runnable_targets("torch.bincount", "2.6")
    assert (target.row.mindspore_api, target.version, target.verified, target.note) == (
        "mindspore.ops.bincount", "2.4", False, "bincount_float_output")
    source = "import torch\ny = torch.bincount(idx, minlength=5)\nz = torch.bincount(idx, weights=w)\n"
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == ("import mindspore\ny = mindspore.ops.bincount(idx, minlength=5).long()\n"
                   "z = mindspore.ops.bincount(idx, weights=w)\n")
    findings = [f for f in analyze_source(source, "m.py", kb26).findings if f.torch_api == "torch.bincount"]
    first, second = (f for f in fixes_for(source, "m.py", findings, kb26))
    assert first.title("en") == (
        "Replace torch.bincount with mindspore.ops.bincount (arguments: → (…).long(); then review the "
        "documented differences) "
        "(mindspore.mint.bincount has no CPU kernel in MindSpore 2.10; this target runs on CPU; its check "
        "differed only in the result's type, which this fix converts to torch's)")
    assert first.title("zh") == (
        "将 torch.bincount 替换为 mindspore.ops.bincount（参数：→ (…).long()；替换后请核对文档所列差异）（"
        "mindspore.mint.bincount 在 "
        "MindSpore 2.10 中没有 CPU 算子实现；该目标可在 CPU 上运行；其检查仅结果的类型不同，"
        "本修复已将其转换为 torch 的类型）")
    assert second.title("en") == (
        "Replace torch.bincount with mindspore.ops.bincount (mindspore.mint.bincount has no CPU kernel in "
        "MindSpore 2.10; this target runs on CPU; its check, without the arguments this call passes, "
        "differed only in the result's type; this call's result type was not checked)")
    assert all(is_safe(f, kb26) is False for f in findings)



def test_a_bool_tensor_result_is_made_a_python_bool(kb26) -> None:
    """numpy.array_equal (CPU alternative of 2.6's mint.equal) returns a bool tensor of shape (); torch.equal
    a Python bool (check note bool_tensor_result): the fix writes bool(…), not safe."""
    (target,) = runnable_targets("torch.equal", "2.6")
    assert (target.row.mindspore_api, target.verified, target.note) == (
        "mindspore.numpy.array_equal", False, "bool_tensor_result")
    source = "import torch\nif torch.equal(x, y):\n    pass\nz = torch.equal(input=x, other=y)\n"
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == ("import mindspore\nif bool(mindspore.numpy.array_equal(x, y)):\n    pass\n"
                   "z = bool(mindspore.numpy.array_equal(a1=x, a2=y))\n")
    findings = [f for f in analyze_source(source, "m.py", kb26).findings if f.torch_api == "torch.equal"]
    assert fixes_for(source, "m.py", findings[:1], kb26)[0].title("en") == (
        "Replace torch.equal with mindspore.numpy.array_equal (arguments: → bool(…); then review the "
        "documented differences) (mindspore.mint.equal "
        "has no CPU kernel in MindSpore 2.10; this target runs on CPU; its check differed only in the "
        "result's type, which this fix converts to torch's)")
    assert is_safe(findings[0], kb26) is False


def test_a_target_checked_with_its_result_in_torchs_form_is_written_with_that_form_only(kb26) -> None:
    """2.6's mint.unique has no CPU kernel; its CPU alternative ops.unique returns (values in first-seen
    order, indices) and passed its check with the first output sorted, as the fix writes it (recorded
    result_form): written so; a call passing return_inverse gets no such form, so no rewrite and the
    finding's fix says why."""
    target = runnable_targets("torch.unique", "2.6")[0]  # the CPU alternative, or the 2.4 row once re-checked
    assert (target.row.mindspore_api, target.verified, target.form) == (
        "mindspore.ops.unique", True, "sorted_first_output")
    source = "import torch\ny = torch.unique(idx)\nz = torch.unique(idx, return_inverse=True)\n"
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == ("import torch\nimport mindspore\ny = mindspore.ops.sort(mindspore.ops.unique(idx)[0])[0]\n"
                   "z = torch.unique(idx, return_inverse=True)\n")
    findings = [f for f in analyze_source(source, "m.py", kb26).findings if f.torch_api == "torch.unique"]
    written, left = fixes_for(source, "m.py", findings, kb26)
    assert written.title("en") == (
        "Replace torch.unique with mindspore.ops.unique (arguments: → mindspore.ops.sort(…[0])[0]; then "
        "review the documented differences) "
        "(mindspore.mint.unique has no CPU kernel in MindSpore 2.10; this target, with its result written "
        "in torch's form as this fix does, was verified on CPU)")
    assert written.title("zh") == (
        "将 torch.unique 替换为 mindspore.ops.unique（参数：→ mindspore.ops.sort(…[0])[0]；"
        "替换后请核对文档所列差异）"
        "（mindspore.mint.unique 在 MindSpore 2.10 中没有 CPU 算子实现；该目标按本修复的写法将结果转换为 "
        "torch 的形式后，已在 CPU 上验证）")
    assert left.edits == []
    assert left.title("en") == (
        "mindspore.mint.unique has no CPU kernel in MindSpore 2.10; mindspore.ops.unique runs there and "
        "matches torch only with its result converted to torch's form (e.g. sorted unique values), which "
        "this call's arguments do not allow (e.g. return_inverse, return_counts, dim): not rewritten, "
        "adapt it by hand")
    assert left.title("zh").startswith("mindspore.mint.unique 在 MindSpore 2.10 中没有 CPU 算子实现；")


def test_a_same_named_method_without_a_cpu_kernel_is_rewritten_to_its_cpu_alternative(kb26) -> None:
    """x.unique() is already spelled the MindSpore way (derived mindspore.Tensor.unique), but that target
    has no CPU kernel: the finding is fixable (its dynamic-shape finding at the same position carries the
    fix), and the fix writes the CPU alternative ops.unique with the tensor first and the first output
    sorted: one edit where the call starts, one import."""
    source = "import torch\nx = torch.ones(4)\ny = x.unique()\nz = x.unique(return_counts=True)\n"
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == ("import mindspore\nx = mindspore.mint.ones(4)\n"
                   "y = mindspore.ops.sort(mindspore.ops.unique(x)[0])[0]\n"
                   "z = x.unique(return_counts=True)\n")
    findings = [f for f in analyze_source(source, "m.py", kb26).findings
                if f.torch_api == "torch.Tensor.unique"]
    (fix, left) = fixes_for(source, "m.py", findings, kb26)
    assert [(e.line, e.column, e.end_line, e.end_column, e.new_text) for e in fix.edits] == [
        (3, 5, 3, 14, "mindspore.ops.sort(mindspore.ops.unique(x"), (3, 15, 3, 15, "[0])[0]"),
        (2, 1, 2, 1, "import mindspore\n")]
    assert left.edits == [] and left.title_key == "fix.device_target_form_not_written"
