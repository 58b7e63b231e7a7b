"""Verified-mapping tables: writing, reading, rendering for hover and reports, live results."""

import json

from msmigrate.knowledge.check_result import CheckResult, CheckStatus
from msmigrate.knowledge.verified import (
    record_session_result,
    render_verified_json,
    verified_path,
    verified_status,
    write_verified,
)


def results():
    good = CheckResult(
        "torch.abs",
        "mindspore.mint.abs",
        CheckStatus.PASS,
        max_abs_error=0.0,
        max_rel_error=0.0,
        cosine_similarity=0.9999999999999998,
    )
    bad = CheckResult(
        "torch.exp",
        "mindspore.ops.log",
        CheckStatus.FAIL,
        "value_mismatch",
        max_abs_error=5.902024388313293,
        max_rel_error=3.02,
        cosine_similarity=0.13,
        first_mismatch_index=[0, 0, 0],
        first_mismatch_output=0,
    )
    broken = CheckResult.error("torch.cumsum", "mindspore.mint.cumsum", "unsupported_on_device", "kernel")
    return [bad, good, broken]


def write(tmp_path):
    text = render_verified_json(
        results(), "2.6", "CPU", "2.13.0", "2.10.0", "2026-01-02", {"torch.cumsum": "int32_indices"}
    )
    write_verified(verified_path("2.6", "CPU", tmp_path), text)
    return text


def test_rendering_is_sorted_rounded_and_deterministic(tmp_path):
    text = write(tmp_path)
    assert text == render_verified_json(
        list(reversed(results())),
        "2.6",
        "CPU",
        "2.13.0",
        "2.10.0",
        "2026-01-02",
        {"torch.cumsum": "int32_indices"},
    )
    data = json.loads(text)
    assert list(data["results"]) == ["torch.abs", "torch.cumsum", "torch.exp"]
    assert data["counts"] == {"error": 1, "fail": 1, "pass": 1, "skipped": 0}
    assert data["results"]["torch.exp"] == {
        "cosine_similarity": 0.13,
        "first_mismatch": [0, 0, 0, 0],
        "max_abs_error": 5.90202,
        "max_rel_error": 3.02,
        "mindspore_api": "mindspore.ops.log",
        "reason": "value_mismatch",
        "status": "fail",
    }
    assert data["results"]["torch.abs"]["cosine_similarity"] == 1.0
    assert text.endswith("}\n")


def test_verified_status_renders_in_both_languages(tmp_path):
    write(tmp_path)
    good = verified_status("torch.abs", "2.6", "CPU", folder=tmp_path)
    assert good.passed
    assert good.render("en") == "verified on CPU with MindSpore 2.10 / torch 2.13"
    assert good.render("zh") == "已在 CPU 上用 MindSpore 2.10 / torch 2.13 验证一致"
    bad = verified_status("torch.exp", "2.6", "CPU", folder=tmp_path)
    assert bad.render("en") == (
        "equivalence check failed on CPU with MindSpore 2.10 / torch 2.13: "
        "values differ beyond the tolerance (max abs error 5.9)"
    )
    broken = verified_status("torch.cumsum", "2.6", "CPU", folder=tmp_path)
    assert broken.render("en") == (
        "could not be verified on CPU with MindSpore 2.10 / torch 2.13: "
        "the MindSpore kernel is not available on this device; "
        "values agree; MindSpore returns int32 indices where torch returns int64"
    )


def test_unknown_api_device_or_version_gives_none(tmp_path):
    write(tmp_path)
    assert verified_status("torch.nothing", "2.6", "CPU", folder=tmp_path) is None
    assert verified_status("torch.abs", "2.6", "GPU", folder=tmp_path) is None
    assert verified_status("torch.abs", "banana", "CPU", folder=tmp_path) is None


def test_bundled_tables_answer_hover_questions():
    status = verified_status("torch.nn.functional.softmax", "2.6")
    assert status is not None and status.passed
    assert status.render("en").startswith("verified on CPU with MindSpore 2.")


def test_live_results_take_precedence():
    live = CheckResult(
        "torch.nn.functional.softmax",
        "x.y",
        CheckStatus.FAIL,
        "value_mismatch",
        max_abs_error=1.0,
        torch_version="2.13.0",
        mindspore_version="2.10.0",
        device="Ascend",
    )
    record_session_result(live, "2.6")
    status = verified_status("torch.nn.functional.softmax", "2.6", "Ascend")
    assert status.status == "fail" and status.device == "Ascend"
    assert verified_status("torch.nn.functional.softmax", "2.6", "CPU").passed


def test_a_result_form_is_stored_read_and_said(tmp_path):
    """A check that compared MindSpore's result in torch's form (ops.unique's first output sorted) records
    the form; hover says the result was converted as the fix writes it."""
    formed = CheckResult("torch.unique", "mindspore.ops.unique", CheckStatus.PASS, max_abs_error=0.0,
                         max_rel_error=0.0, cosine_similarity=1.0, result_form="sorted_first_output",
                         torch_version="2.13.0", mindspore_version="2.10.0")
    text = render_verified_json([formed], "2.4", "CPU", "2.13.0", "2.10.0", "2026-11-23")
    assert json.loads(text)["results"]["torch.unique"]["result_form"] == "sorted_first_output"
    write_verified(verified_path("2.4", "CPU", tmp_path), text)
    status = verified_status("torch.unique", "2.4", "CPU", folder=tmp_path)
    assert (status.passed, status.result_form) == (True, "sorted_first_output")
    assert status.render("en") == ("verified on CPU with MindSpore 2.10 / torch 2.13, with MindSpore's "
                                   "result converted to torch's form as the fix writes it")
    assert status.render("zh") == ("已在 CPU 上用 MindSpore 2.10 / torch 2.13 验证一致（MindSpore 的结果"
                                   "按修复的写法转换为 torch 的形式）")
