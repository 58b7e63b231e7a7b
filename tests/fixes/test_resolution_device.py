"""The device flows from the command line and the editor settings into the analysis, so that each finding's
resolution (the target its fix writes, and whether that is safe) is the device's: ``msmigrate fix --device
GPU`` judges safety by what was checked on GPU, not on CPU; ``msmigrate check API`` checks what the fix
writes on the device (F.gelu on CPU: ``ops.gelu``, not the 2.6 table's ``mint`` target without a CPU
kernel)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.check.service import resolved_target
from msmigrate.cli import main
from msmigrate.fixes.project import FixOptions, fix_paths
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.lookup import lookup
from msmigrate.lsp.analysis import analysis_options
from msmigrate.lsp.config import Settings
from msmigrate.model.resolution import Evidence, Resolution, Safety

GELU = "import torch.nn.functional as F\n\n\ndef act(x):\n    return F.gelu(x)\n"


def _resolution(source: str, version: str, device: str) -> Resolution:
    (finding,) = [f for f in analyze_source(source, "m.py", get_knowledge_base(version),
                                            AnalysisOptions(device=device)).findings if f.resolution]
    assert finding.mindspore_api == finding.resolution.target
    return finding.resolution


def test_safety_is_judged_on_the_device_the_code_runs_on() -> None:
    # 2.4's F.gelu → ops.gelu passed the numeric check on CPU; nothing was checked on GPU, and the mapping
    # has differences (its difference page): safe on CPU, not on GPU
    cpu, gpu = _resolution(GELU, "2.4", "CPU"), _resolution(GELU, "2.4", "GPU")
    assert (cpu.target, cpu.device, cpu.safety, cpu.safety_reason, cpu.evidence) == (
        "mindspore.ops.gelu", "CPU", Safety.SAFE, "verified", Evidence("table", "2.4", "pass", "CPU"))
    assert (gpu.target, gpu.device, gpu.safety, gpu.safety_reason, gpu.evidence) == (
        "mindspore.ops.gelu", "GPU", Safety.UNSAFE, "not_verified", Evidence("table", "2.4", "", "GPU"))


def test_the_target_is_the_devices() -> None:
    # 2.6 maps F.gelu to mint's, which has no CPU kernel in MindSpore 2.10: on CPU the 2.4 table's ops.gelu
    # (verified there) is written; on GPU nothing was recorded against mint's, so it stands
    cpu, gpu = _resolution(GELU, "2.6", "CPU"), _resolution(GELU, "2.6", "GPU")
    assert (cpu.target, cpu.replacement.replaced, cpu.replacement.version, cpu.safety) == (
        "mindspore.ops.gelu", "mindspore.mint.nn.functional.gelu", "2.4", Safety.SAFE)
    assert (gpu.target, gpu.replacement, gpu.safety) == (
        "mindspore.mint.nn.functional.gelu", None, Safety.UNSAFE)


def test_msmigrate_fix_device_gpu_applies_what_is_safe_on_gpu(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(GELU, encoding="utf-8")
    cpu = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.4", write=False, device="CPU"))
    gpu = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.4", write=False, device="GPU"))
    assert "+    return mindspore.ops.gelu(x)" in cpu.files[0].diff
    assert (gpu.files[0].diff, gpu.files[0].unsafe_skipped) == ("", 1)  # before: applied, judged on CPU
    unsafe = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", write=False, device="GPU",
                                                   unsafe=True))
    assert "+    return mindspore.mint.nn.functional.gelu(x)" in unsafe.files[0].diff


def test_the_fix_command_passes_its_device_on(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(GELU, encoding="utf-8")
    args = ["fix", str(tmp_path), "--diff", "--json", "--mindspore-version", "2.4"]
    cpu = json.loads(CliRunner().invoke(main, args).stdout)
    gpu = json.loads(CliRunner().invoke(main, [*args, "--device", "GPU"]).stdout)
    assert (cpu["fixes_by_rule"], cpu["unsafe_skipped"]) == ({"MSM101": 1, "imports": 1}, 0)
    assert (gpu["fixes_by_rule"], gpu["unsafe_skipped"]) == ({}, 1)


def test_the_scan_and_the_editor_pass_their_device_on(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(GELU, encoding="utf-8")
    args = ["scan", str(tmp_path), "--no-cache", "--format", "json", "--mindspore-version", "2.6"]
    for device, target in (("CPU", "mindspore.ops.gelu"), ("GPU", "mindspore.mint.nn.functional.gelu")):
        report = json.loads(CliRunner().invoke(main, [*args, "--device", device]).stdout)
        assert [f["mindspore_api"] for f in report["files"][0]["findings"]] == [target]
    assert analysis_options(Settings(device="GPU")).device == "GPU"
    assert analysis_options(Settings()).device == "CPU"


def test_a_finding_s_safety_is_its_resolution_s() -> None:
    kb = get_knowledge_base("2.4")
    for device, safe in (("CPU", True), ("GPU", False)):
        (finding,) = analyze_source(GELU, "m.py", kb, AnalysisOptions(device=device)).findings
        assert is_safe(finding) is safe


def test_lookup_names_what_the_fix_writes_on_the_device() -> None:
    kb = get_knowledge_base("2.6")
    cpu, gpu = lookup("F.gelu", kb, device="CPU"), lookup("F.gelu", kb, device="GPU")
    assert (cpu.target, gpu.target) == ("mindspore.ops.gelu", "mindspore.mint.nn.functional.gelu")
    assert cpu.render_text().splitlines()[0] == (
        "torch.nn.functional.gelu → mindspore.ops.gelu (MindSpore 2.6)")
    assert cpu.to_json()["resolution"]["target"] == "mindspore.ops.gelu"
    assert cpu.to_json()["mindspore_api"] == "mindspore.mint.nn.functional.gelu"  # the table's row
    assert cpu.to_json()["safety"] == "safe: the pair passed the numeric check on CPU"
    assert gpu.to_json("zh")["safety"] == "不安全：未在 GPU 上验证"


def test_a_resolution_survives_json_and_refuses_damage() -> None:
    kb = get_knowledge_base("2.6")
    source = ("import torch\nimport torch.nn.functional as F\nx = torch.ones(3)\ny = F.gelu(x)\n"
              "x.clamp_(0, 1)\nz = x.roll(1, 0)\nw = torch.aminmax(x)\n")
    resolutions = [f.resolution for f in analyze_source(source, "m.py", kb).findings]
    assert [r.write.value if r else None for r in resolutions] == [
        "name", "name", "method", "method_to_function", "none"]
    for resolution in resolutions:
        data = json.loads(json.dumps(resolution.to_json()))
        assert Resolution.from_json(data) == resolution
    broken = {**resolutions[2].to_json(), "plan": {"renames": [["a"]]}}
    for bad in (broken, {**resolutions[0].to_json(), "safety": "maybe"}, {"target": "x"}, []):
        with pytest.raises(ValueError):
            Resolution.from_json(bad)


def test_the_check_of_an_api_checks_what_the_fix_writes_on_the_device() -> None:
    kb = get_knowledge_base("2.6")
    target, version = resolved_target("torch.nn.functional.gelu", kb, "CPU")
    assert (target.torch_api, target.mindspore_api, version) == (
        "torch.nn.functional.gelu", "mindspore.ops.gelu", "2.4")
    target, version = resolved_target("torch.nn.functional.gelu", kb, "GPU")
    assert (target.mindspore_api, version) == ("mindspore.mint.nn.functional.gelu", "2.6")


def test_msmigrate_check_gelu_on_cpu_passes_for_the_target_the_fix_writes() -> None:
    """Before: "error: kernel not available" for mint's gelu, while lookup said the fix writes ops.gelu."""
    result = CliRunner().invoke(main, ["check", "torch.nn.functional.gelu", "--mindspore-version", "2.6"])
    lines = result.stdout.splitlines()
    assert result.exit_code == 0, result.stdout
    assert lines[0] == "torch.nn.functional.gelu → mindspore.ops.gelu: pass"
    assert lines[-1] == (
        "  Checked what the fix writes on CPU: mindspore.ops.gelu (the 2.6 table maps "
        "torch.nn.functional.gelu "
        "to mindspore.mint.nn.functional.gelu).")
