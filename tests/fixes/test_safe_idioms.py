"""Idioms of real model code fixed in safe mode where a check verified the written form (issue 24, items 3
and 6): ``x.size(0)`` → ``x.shape[0]`` and ``x.size()`` → ``x.shape`` (checked as the fix writes them,
``knowledge/facts/check_specs.toml``), ``nn.Parameter(t)`` (checked as a value), ``nn.Dropout2d`` (2.6's
``mint.nn.Dropout2d`` has no CPU implementation: "Not implement exception" in training mode, recorded as no
kernel; the 2.4 table's ``nn.Dropout2d`` is written), ``nn.InstanceNorm2d`` (``nn.InstanceNorm2d`` has no CPU
kernel: ``mint.nn.GroupNorm`` with one group per channel, a CPU alternative verified on CPU). Where nothing
runnable is known on the device, the fix explains instead of writing a call that cannot run. Both tables;
the fixed program runs in MindSpore, where torch cannot be imported, with torch's results."""

from __future__ import annotations

import pytest
from program_support import needs_frameworks, run_program

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base

DATA = "[[[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], [[3.0, 1.0, -2.0], [0.0, 4.0, 1.0]]]]"
SOURCE = (
    "import torch\n"
    "import torch.nn as nn\n\n"
    f"x = torch.tensor({DATA})\n"
    "n = x.size(0)\n"
    "shape = x.size()\n"
    "w = nn.Parameter(x * 2.0)\n"
    "drop = nn.Dropout2d(0.2)\n"
    "norm = nn.InstanceNorm2d(2)\n"
    "drop.eval()\n"
    "result = [n, shape, w, drop(x), norm(x)]\n"
)
FIXED = (
    "import mindspore\n\n"
    f"x = mindspore.tensor({DATA})\n"
    "n = x.shape[0]\n"
    "shape = x.shape\n"
    "w = mindspore.Parameter(x * 2.0)\n"
    "drop = mindspore.nn.Dropout2d(0.2)\n"
    "norm = mindspore.mint.nn.GroupNorm(2, affine=False, num_channels=2)\n"
    "drop.set_train(False)\n"
    "result = [n, shape, w, drop(x), norm(x)]\n"
)


@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_safe_fixes_write_the_verified_forms(version: str) -> None:
    kb = get_knowledge_base(version)
    safe, _applied = fix_all(SOURCE, "m.py", kb, accept=lambda finding, _fix: is_safe(finding))
    assert safe == FIXED  # every fix is safe
    findings = analyze_source(SOURCE, "m.py", kb, AnalysisOptions(device="CPU")).findings
    by_api = {f.torch_api: f for f in findings if f.torch_api}
    for api in ("torch.Tensor.size", "torch.nn.Parameter", "torch.nn.Dropout2d", "torch.nn.InstanceNorm2d"):
        assert is_safe(by_api[api]), (api, by_api[api].resolution)
    assert by_api["torch.Tensor.size"].resolution.evidence.check == "pass"


def test_no_target_without_a_kernel_on_the_device_the_fix_explains() -> None:
    """torch.nn.functional.embedding's target (mint's) has no CPU kernel and nothing checked on CPU replaces
    it (layer_norm, once such a case, now has a verified composition): no edit, an explanation; on GPU (no
    record of a failure there) the target is written."""
    source = "import torch.nn.functional as F\ny = F.embedding(i, w)\n"
    kb = get_knowledge_base("2.6")
    on_cpu = analyze_source(source, "m.py", kb, AnalysisOptions(device="CPU")).findings
    [fix] = fixes_for(source, "m.py", on_cpu, kb)
    assert (fix.title_key, fix.edits) == ("fix.no_kernel", [])
    assert fix.title("en").startswith(
        "No automatic fix for torch.nn.functional.embedding on CPU: the checks found that "
        "mindspore.mint.nn.functional.embedding does not run there")
    [finding] = on_cpu
    assert finding.message("en").endswith(
        "On CPU, MindSpore 2.10 cannot run mindspore.mint.nn.functional.embedding (no kernel, or no effect) "
        "and nothing checked there replaces it: not rewritten; rewrite it by hand.")
    assert not is_safe(finding) and finding.resolution.safety.value == "by_hand"
    on_gpu = analyze_source(source, "m.py", kb, AnalysisOptions(device="GPU")).findings
    assert fix_all(source, "m.py", kb, findings=on_gpu, device="GPU")[0] == (
        "import mindspore\ny = mindspore.mint.nn.functional.embedding(i, w)\n")


@needs_frameworks
@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_the_fixed_program_computes_what_torch_does(version: str) -> None:
    outcome = run_program(version, "idioms", "torch.nn.InstanceNorm2d", "nn", SOURCE)
    assert (outcome.status, outcome.detail, outcome.fixed_source) == ("pass", "", FIXED)


@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_a_method_left_as_it_is_on_a_target_without_a_kernel_is_explained(version: str) -> None:
    """``x.new_full(…)`` keeps its name in MindSpore, whose method has no CPU kernel ("new_full method support
    Ascend only"); nothing checked on CPU replaces it: the fix explains instead of leaving a call that cannot
    run there as if it were converted. ``x.uniform_()`` (InplaceUniform, no CPU kernel either) is written in
    its out-of-place form by MSM533."""
    source = "import torch\nx = torch.ones(2, 3)\ng = x.new_full((2, 3), 2.0)\nx.uniform_()\n"
    kb = get_knowledge_base(version)
    findings = analyze_source(source, "m.py", kb, AnalysisOptions(device="CPU")).findings
    fixes = {f.line: fix for f in findings for fix in fixes_for(source, "m.py", [f], kb)}
    assert [(line, fixes[line].title_key) for line in (3, 4)] == [
        (3, "fix.no_kernel"), (4, "fix.inplace_method.unsafe.statement")]  # x could be a view
    assert fixes[3].edits == []
    assert fix_all(source, "m.py", kb, findings=findings, device="CPU")[0].splitlines()[-2:] == [
        "g = x.new_full((2, 3), 2.0)",
        "x.assign_value(mindspore.ops.uniform(x.shape, mindspore.tensor(float(0.0)), "
        "mindspore.tensor(float(1.0))))"]
    assert fixes[3].title("en").startswith(
        "No automatic fix for torch.Tensor.new_full on CPU: the checks found that mindspore.Tensor.new_full "
        "does not run there")
    by_line = {f.line: f for f in findings}
    assert not is_safe(by_line[3]) and by_line[3].resolution.safety.value == "by_hand"


def test_an_import_two_parts_of_a_rewrite_need_is_one_edit() -> None:
    """``x.uniform_()`` on CPU needs ``mindspore`` for ``ops.uniform`` and ``tensor``: the quick-fix an editor
    applies inserts the import once."""
    source = "import torch\nx = torch.ones(2, 3)\nx.uniform_()\n"
    kb = get_knowledge_base("2.6")
    findings = [f for f in analyze_source(source, "m.py", kb, AnalysisOptions(device="CPU")).findings
                if f.line == 3]
    [fix] = [fix for fix in fixes_for(source, "m.py", findings, kb) if fix.rule == "MSM533"]
    assert [e.new_text for e in fix.edits if e.new_text == "import mindspore\n"] == ["import mindspore\n"]
    assert len(fix.edits) == 2
