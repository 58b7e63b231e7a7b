"""The numeric check of the compositions (check/compositions.py, check/worker_composition.py): one request per
case, the helper run from the helper module text the fix writes, a composition passing only when all its cases
pass; ``msmigrate check --compositions`` writes the verified file."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from msmigrate.check.composition_cases import Case, composition_cases
from msmigrate.check.compositions import case_request, check_compositions, render_composition_checks
from msmigrate.knowledge.check_result import CheckResult, CheckStatus
from msmigrate.knowledge.compositions.catalogue import Composition, composition_for

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


def test_a_case_becomes_one_request_with_tensor_references() -> None:
    composition = composition_for("torch.Tensor.unfold")
    tensor = {"tensor": {"shape": [3, 7], "dtype": "float32"}}
    request = case_request(composition, Case("middle", (tensor, 1, 3, 2), {"step": (1,)}))
    assert request == {
        "kind": "composition", "torch_api": "torch.Tensor.unfold", "helper": "unfold", "method": True,
        "is_class": False, "case": "middle", "device": "CPU", "seed": 0,
        "args": [{"ref": "t0"}, 1, 3, 2], "kwargs": {"step": {"tuple": [1]}}, "init_args": [],
        "init_kwargs": {},
        "tensors": {"t0": {"shape": [3, 7], "dtype": "float32"}}, "read": [], "compare": "values",
        "rtol": 1e-5, "atol": 1e-6,
    }
    rms = case_request(composition_for("torch.nn.RMSNorm"), composition_cases()["torch.nn.RMSNorm"][0])
    assert (rms["is_class"], rms["init_args"], rms["method"]) == (True, [4], False)


def _result(status: CheckStatus, reason: str | None = None) -> CheckResult:
    return CheckResult("torch.isin", "ms_compat.isin", status, reason, torch_version="2.13.0",
                       mindspore_version="2.10.0", max_abs_error=0.0)


def test_a_composition_passes_only_when_every_case_passes() -> None:
    results = {"torch.isin": [("tensors", _result(CheckStatus.PASS)),
                              ("invert", _result(CheckStatus.FAIL, "value_mismatch"))],
               "torch.bucketize": [("left", _result(CheckStatus.PASS))]}
    data = json.loads(render_composition_checks(results, "CPU", "2026-11-23"))
    assert data["counts"] == {"pass": 1, "fail": 1}
    assert data["compositions"]["torch.isin"] == {
        "helper": "isin", "status": "fail",
        "cases": {"tensors": {"mindspore_api": "ms_compat.isin", "status": "pass", "max_abs_error": 0.0},
                  "invert": {"mindspore_api": "ms_compat.isin", "status": "fail", "reason": "value_mismatch",
                             "max_abs_error": 0.0}}}
    assert data["compositions"]["torch.bucketize"]["status"] == "pass"
    # a check of some compositions keeps the others of the file
    passing = {"torch.isin": [("tensors", _result(CheckStatus.PASS))]}
    again = json.loads(render_composition_checks(passing, "CPU", "2026-11-23", data))
    assert sorted(again["compositions"]) == ["torch.bucketize", "torch.isin"]
    assert again["counts"] == {"pass": 2, "fail": 0}


@pytest.mark.slow
@needs_frameworks
def test_the_worker_compares_the_helper_with_torch_and_a_wrong_helper_fails() -> None:
    found = check_compositions([composition_for("torch.isin"), Composition("torch.bucketize", "isin")])
    assert [(name, r.status.value) for name, r in found["torch.isin"]] == [
        (case.name, "pass") for case in composition_cases()["torch.isin"]]
    wrong = found["torch.bucketize"]  # isin given bucketize's cases: other values, another dtype
    assert all(not result.passed for _, result in wrong)
    assert [(name, result.reason) for name, result in wrong] == [
        ("left", "value_mismatch"), ("right_int32", "mindspore_error"), ("random", "value_mismatch")]
    assert wrong[0][1].torch_dtypes == ["int64"] and wrong[0][1].mindspore_dtypes == ["bool"]


@pytest.mark.slow
@needs_frameworks
def test_msmigrate_check_compositions_writes_the_verified_file(tmp_path: Path) -> None:
    output = tmp_path / "verified.json"
    run = subprocess.run([sys.executable, "-m", "msmigrate", "check", "--compositions", "torch.isin",
                          "F.scaled_dot_product_attention", "--output", str(output), "--json"],
                         capture_output=True, text=True, encoding="utf-8", timeout=600,
                         env={**__import__("os").environ, "MSMIGRATE_CHECK_DATE": "2026-11-23"})
    assert run.returncode == 0, run.stderr
    printed = json.loads(run.stdout)
    assert sorted(printed) == ["torch.isin", "torch.nn.functional.scaled_dot_product_attention"]
    assert sorted(printed["torch.nn.functional.scaled_dot_product_attention"]) == sorted(
        c.name for c in composition_cases()["torch.nn.functional.scaled_dot_product_attention"])
    data = json.loads(output.read_text(encoding="utf-8"))
    assert (data["date"], data["counts"]) == ("2026-11-23", {"pass": 2, "fail": 0})
    assert run.stderr.strip().endswith(f"Checked 2 compositions (2 passed); wrote {output}")
    unknown = subprocess.run([sys.executable, "-m", "msmigrate", "check", "--compositions", "torch.abs"],
                             capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert unknown.returncode == 2
    assert "torch.abs has no composition (compositions: torch.nn.functional.scaled_dot_product_attention," \
        in unknown.stderr
