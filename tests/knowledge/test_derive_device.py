"""CPU alternatives (datagen/derive_device.py): other MindSpore APIs for the table rows (and derived
mappings) whose target has no CPU kernel, kept in ``derived-<v>.json`` (``cpu_alternatives``), checked
with the derived candidates and never the offered mapping."""

from __future__ import annotations

import json
from pathlib import Path

from msmigrate.check.derived import render_derived_checks
from msmigrate.datagen.derive_device import device_names
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.check_result import CheckResult
from msmigrate.knowledge.derived import load_derived
from msmigrate.paths import data_dir


def test_device_names_add_numpy_ops_and_reviewed_other_names() -> None:
    assert device_names("torch.roll") == ["mindspore.ops.roll", "mindspore.numpy.roll"]
    assert device_names("torch.nn.functional.relu_") == ["mindspore.ops.relu_"]
    assert device_names("torch.clone") == [
        "mindspore.numpy.copy", "mindspore.ops.deepcopy", "mindspore.ops.clone", "mindspore.numpy.clone"]
    assert device_names("torch.nn.ZeroPad1d") == ["mindspore.nn.ConstantPad1d"]
    # a method: the functions of the same name, which take the tensor first
    assert device_names("torch.Tensor.roll") == ["mindspore.ops.roll", "mindspore.numpy.roll"]


def test_committed_alternatives_are_for_rows_without_a_cpu_kernel_only() -> None:
    data = json.loads((data_dir() / "derived-2.6.json").read_text(encoding="utf-8"))
    roll = data["cpu_alternatives"]["torch.roll"]
    assert roll["replaces"] == "mindspore.mint.roll"
    assert [c["row"]["mindspore_api"] for c in roll["candidates"]] == [
        "mindspore.ops.roll", "mindspore.numpy.roll"]
    assert "torch.abs" not in data["cpu_alternatives"]  # mint.abs runs on CPU
    kb = get_knowledge_base("2.6")
    (numpy_roll,) = [c for c in kb.derived_table.alternatives["torch.roll"] if c.verified]
    assert numpy_roll.mindspore_api == "mindspore.numpy.roll"
    assert kb.derived("torch.roll") is None
    assert kb.mapping("torch.roll").mindspore_api == "mindspore.mint.roll"
    older = json.loads((data_dir() / "derived-1.10.json").read_text(encoding="utf-8"))
    rows = {row.torch_api for row in get_knowledge_base("1.10").rows()}
    # no verification of the 1.10 table's rows: nothing known to be missing (its derived mappings: below)
    assert older["cpu_alternatives"] and not set(older["cpu_alternatives"]) & rows


def test_a_derived_mapping_without_a_cpu_kernel_gets_alternatives_too() -> None:
    """2.6 maps torch.Tensor.unique by name to mindspore.Tensor.unique (derived), whose check found no CPU
    kernel: the functions of the same name, taking the tensor first, are its alternatives; ops.unique passed
    its check with the first output sorted (the result form the fix writes)."""
    data = json.loads((data_dir() / "derived-2.6.json").read_text(encoding="utf-8"))
    unique = data["cpu_alternatives"]["torch.Tensor.unique"]
    assert unique["replaces"] == "mindspore.Tensor.unique"
    assert [c["row"]["mindspore_api"] for c in unique["candidates"]] == [
        "mindspore.ops.unique", "mindspore.numpy.unique"]
    kb = get_knowledge_base("2.6")
    assert kb.row("torch.Tensor.unique") is None
    assert kb.derived("torch.Tensor.unique").mindspore_api == "mindspore.Tensor.unique"
    (ops_unique,) = [c for c in kb.derived_table.alternatives["torch.Tensor.unique"] if c.verified]
    assert (ops_unique.mindspore_api, ops_unique.check_form) == ("mindspore.ops.unique",
                                                                  "sorted_first_output")
    assert "torch.Tensor.abs" not in data["cpu_alternatives"]  # Tensor.abs runs on CPU


def test_alternatives_are_read_with_their_check(tmp_path: Path) -> None:
    row = {"torch_api": "torch.foo", "mindspore_api": "mindspore.numpy.foo", "category": "consistent"}
    candidate = {"row": row, "tables": [], "by_name": True, "signature": "same"}
    alternatives = {"torch.foo": {"replaces": "mindspore.mint.foo", "candidates": [candidate]}}
    document = {"mindspore_version": "2.10.0", "mappings": {}, "cpu_alternatives": alternatives}
    (tmp_path / "derived-2.6.json").write_text(json.dumps(document), encoding="utf-8")
    checks = {"torch.foo -> mindspore.numpy.foo": {"status": "fail", "reason": "dtype_mismatch",
                                                   "note": "int32_default_int"}}
    (tmp_path / "verified-derived-CPU.json").write_text(json.dumps({"results": checks}), encoding="utf-8")
    table = load_derived("2.6", tmp_path)
    (found,) = table.alternatives["torch.foo"]
    assert (found.mindspore_api, found.check, found.check_note, found.verified) == (
        "mindspore.numpy.foo", "fail", "int32_default_int", False)
    assert table.entry("torch.foo") is None and "cpu_alternatives" not in table.header


def _result(api: str, target: str, status: str, reason: str | None = None) -> CheckResult:
    return CheckResult(api=api, mindspore_api=target, status=status, reason=reason, torch_version="2.13.0",
                       mindspore_version="2.10.0")


def test_a_check_of_some_apis_keeps_the_other_results_and_notes_go_by_pair() -> None:
    old = {"torch.a -> mindspore.ops.a": {"mindspore_api": "mindspore.ops.a", "status": "pass"},
           "torch.b -> mindspore.ops.b": {"mindspore_api": "mindspore.ops.b", "status": "error"}}
    kept = {"torch_version": "2.13.0", "mindspore_version": "2.10.0", "results": old}
    results = [_result("torch.b", "mindspore.ops.b", "pass"),
               _result("torch.b", "mindspore.numpy.b", "fail", "dtype_mismatch")]
    notes = {"torch.b": "api_note", "torch.b -> mindspore.numpy.b": "int32_default_int"}
    data = json.loads(render_derived_checks(results, "CPU", "2026-11-23", notes, kept))
    assert data["counts"] == {"pass": 2, "fail": 1, "error": 0, "skipped": 0}
    assert data["results"] == {
        "torch.a -> mindspore.ops.a": {"mindspore_api": "mindspore.ops.a", "status": "pass"},
        "torch.b -> mindspore.numpy.b": {"mindspore_api": "mindspore.numpy.b", "note": "int32_default_int",
                                         "reason": "dtype_mismatch", "status": "fail"},
        "torch.b -> mindspore.ops.b": {"mindspore_api": "mindspore.ops.b", "note": "api_note",
                                       "status": "pass"},
    }


def test_check_targets_include_the_alternatives_and_can_be_limited_to_some_apis() -> None:
    from msmigrate.check.derived import derived_targets

    pairs = [(t.torch_api, t.mindspore_api) for t in derived_targets(apis=["torch.roll"])]
    assert pairs == [("torch.roll", "mindspore.mint.roll"), ("torch.roll", "mindspore.numpy.roll"),
                     ("torch.roll", "mindspore.ops.roll")]
