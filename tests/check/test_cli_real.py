"""`msmigrate check` end to end with a real torch + MindSpore worker on CPU (a few seconds each)."""

import json
import os
import subprocess
import sys

import pytest

from msmigrate.knowledge.base import get_knowledge_base

pytest.importorskip("torch")
pytest.importorskip("mindspore")


def msmigrate(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "msmigrate", "check", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        env=env,
    )


def test_softmax_passes_on_cpu_with_numbers():
    run = msmigrate("torch.nn.functional.softmax", "--json", "--mindspore-version", "2.6")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    (result,) = data["results"]
    assert (result["api"], result["mindspore_api"]) == (
        "torch.nn.functional.softmax",
        "mindspore.mint.nn.functional.softmax",
    )
    assert (result["status"], result["reason"], result["device"]) == ("pass", None, "CPU")
    assert 0.0 <= result["max_abs_error"] <= 1e-6
    assert result["cosine_similarity"] == pytest.approx(1.0, abs=1e-9)
    assert result["torch_shapes"] == result["mindspore_shapes"] == [[2, 3, 4]]
    assert result["torch_dtypes"] == result["mindspore_dtypes"] == ["float32"]
    assert result["torch_version"].startswith("2.") and result["mindspore_version"].startswith("2.")
    assert run.stderr.strip().endswith("1 pass, 0 fail, 0 error, 0 skipped")


def test_deliberately_wrong_pair_fails_with_numbers(tmp_path):
    override = tmp_path / "override.json"
    override.write_text(json.dumps({"torch.exp": "mindspore.ops.log"}), encoding="utf-8")
    run = msmigrate(
        "torch.exp",
        "torch.nn.Linear",
        "--mapping-override",
        str(override),
        "--mindspore-version",
        "2.6",
        "--lang",
        "en",
    )
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    # log of the negative inputs is NaN where exp is finite: the NaN positions differ, and the finite
    # elements differ by far more than the tolerance
    assert lines[0] == "torch.exp → mindspore.ops.log: fail (NaN or Inf positions differ)"
    numbers = lines[1].strip()
    assert numbers.startswith("max abs error ") and ", cosine similarity " in numbers
    max_abs = float(numbers.split(",")[0].removeprefix("max abs error "))
    assert max_abs > 1.0
    assert lines[2].strip() == "tolerance rtol=0.0001, atol=0.0001"
    assert lines[3].strip().startswith("first mismatch at output 0, index (")
    # the second API of the same run (one reused worker) passes: a Linear layer with copied weights
    linear = lines.index("torch.nn.Linear → mindspore.mint.nn.Linear: pass")
    assert lines[linear + 1].strip().startswith("max abs error ")


def test_a_dropout_module_is_also_checked_in_training_mode():
    # inference mode is the identity in both frameworks; in training mode mint.nn.Dropout has no CPU
    # kernel in MindSpore 2.10, while nn.Dropout3d runs (random values: shapes and dtypes compared); the
    # table's own rows (--all with APIs), not what the fix writes on CPU
    run = msmigrate("--all", "torch.nn.Dropout", "--no-write", "--json", "--mindspore-version", "2.6")
    results = {r["api"]: r for r in json.loads(run.stdout)["results"]}
    run = msmigrate("torch.nn.Dropout3d", "--json", "--mindspore-version", "2.6")  # a derived mapping
    results.update({r["api"]: r for r in json.loads(run.stdout)["results"]})
    dropout = results["torch.nn.Dropout"]
    assert (dropout["mindspore_api"], dropout["status"], dropout["reason"]) == (
        "mindspore.mint.nn.Dropout", "error", "unsupported_on_device")
    assert dropout["detail"].startswith("training mode: RuntimeError: The kernel DropoutExt unregistered")
    dropout3d = results["torch.nn.Dropout3d"]
    assert (dropout3d["status"], dropout3d["max_abs_error"]) == ("pass", 0.0)


def test_all_rows_of_a_category_write_a_verified_table(tmp_path):
    out = tmp_path / "verified.json"
    env = {**os.environ, "MSMIGRATE_CHECK_DATE": "2030-01-02"}
    run = msmigrate(
        "--all", "--category", "default_values", "--mindspore-version", "2.6", "--output", str(out), env=env
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    kb = get_knowledge_base("2.6")
    expected = {row.torch_api for row in kb.rows() if row.category.value == "default_values"}
    assert set(data["results"]) == expected
    assert (data["date"], data["device"], data["mapping_table"]) == ("2030-01-02", "CPU", "2.6")
    assert sum(data["counts"].values()) == len(expected)
    assert data["results"]["torch.amax"]["status"] == "pass"  # dim given explicitly: the defaults differ
    progress = [line for line in run.stderr.splitlines() if line.startswith("[")]
    assert len(progress) == len(expected) and progress[-1].startswith(f"[{len(expected)}/{len(expected)}] ")


def test_optimizers_run_two_training_steps_and_a_step_without_effect_fails():
    # 2.6 mint.optim.Adam runs on CPU but leaves the weights as they were; mint.optim.AdamW has no CPU kernel
    # (the table's own rows: --all with APIs)
    run = msmigrate("--all", "torch.optim.Adam", "torch.optim.AdamW", "--no-write", "--json",
                    "--mindspore-version", "2.6")
    results = {r["api"]: r for r in json.loads(run.stdout)["results"]}
    adam = results["torch.optim.Adam"]
    assert (adam["mindspore_api"], adam["status"], adam["reason"]) == ("mindspore.mint.optim.Adam", "fail",
                                                                       "no_effect")
    assert adam["detail"] == "2 optimizer steps left the weights unchanged (torch's moved by up to 0.2)"
    assert adam["torch_shapes"] == adam["mindspore_shapes"] == [[3, 2], [2]]
    adamw = results["torch.optim.AdamW"]
    assert (adamw["status"], adamw["reason"]) == ("error", "unsupported_on_device")
    assert adamw["detail"].startswith("RuntimeError: The kernel AdamW unregistered.")
    # 2.4's experimental.optim.Adam gives torch's weights; it is what the fix writes on CPU with the 2.6
    # table too, so that is what `msmigrate check API` checks there
    for table in ("2.4", "2.6"):
        run = msmigrate("torch.optim.Adam", "--json", "--mindspore-version", table)
        assert run.returncode == 0, run.stderr
        (adam,) = json.loads(run.stdout)["results"]
        assert (adam["mindspore_api"], adam["status"]) == ("mindspore.experimental.optim.Adam", "pass")
        assert adam["max_abs_error"] < 1e-5


def test_an_optimizer_that_updates_otherwise_is_a_value_mismatch(tmp_path):
    override = tmp_path / "override.json"
    pair = {"torch.optim.Adam": "mindspore.experimental.optim.SGD"}
    override.write_text(json.dumps(pair), encoding="utf-8")
    run = msmigrate("torch.optim.Adam", "--json", "--mapping-override", str(override), "--mindspore-version",
                    "2.6")
    (result,) = json.loads(run.stdout)["results"]
    assert (result["status"], result["reason"]) == ("fail", "value_mismatch")


def test_all_with_apis_updates_their_rows_only(tmp_path):
    out = tmp_path / "verified.json"
    env = {**os.environ, "MSMIGRATE_CHECK_DATE": "2030-01-02"}
    kept = {"mindspore_api": "mindspore.mint.abs", "status": "pass", "max_abs_error": 0.0}
    out.write_text(json.dumps({"schema_version": 1, "results": {"torch.abs": kept}}), encoding="utf-8")
    run = msmigrate("--all", "torch.optim.AdamW", "--mindspore-version", "2.6", "--output", str(out), env=env)
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["results"] == {
        "torch.abs": kept,
        "torch.optim.AdamW": {"kernel": "AdamW", "mindspore_api": "mindspore.mint.optim.AdamW",
                              "reason": "unsupported_on_device", "status": "error"},
    }
    assert data["counts"] == {"pass": 1, "fail": 0, "error": 1, "skipped": 0}
    assert (data["date"], data["mapping_table"], data["mindspore_version"]) == ("2030-01-02", "2.6", "2.10.0")


def test_a_result_form_is_compared_as_the_fix_writes_it():
    # ops.unique gives (values in first-seen order, indices); sorted first output = torch.unique's values
    run = msmigrate("torch.unique", "--json", "--mindspore-version", "2.4")
    assert run.returncode == 0, run.stderr
    (result,) = json.loads(run.stdout)["results"]
    assert (result["mindspore_api"], result["status"], result["result_form"]) == (
        "mindspore.ops.unique", "pass", "sorted_first_output")
    assert result["max_abs_error"] == 0.0
    assert result["torch_shapes"] == result["mindspore_shapes"] and len(result["mindspore_shapes"]) == 1
    run = msmigrate("torch.unique", "--mindspore-version", "2.4", "--lang", "en")
    assert ("  MindSpore's result compared in torch's form, as the fix writes it: "
            "mindspore.ops.sort(mindspore.ops.unique(…)[0])[0]") in run.stdout.splitlines()


def _results(*args):
    run = msmigrate(*args, "--json")
    return {r["api"]: r for r in json.loads(run.stdout)["results"]}


def test_dtypes_are_checked_by_casting_the_same_values_in_both_frameworks(tmp_path):
    results = _results("torch.int32", "torch.bfloat16", "torch.float8_e4m3fn", "--mindspore-version", "2.6")
    int32 = results["torch.int32"]
    assert (int32["mindspore_api"], int32["status"], int32["max_abs_error"]) == (
        "mindspore.int32", "pass", 0.0)
    # the cast tensor (2.5 truncated to 2 by both) and its itemsize
    assert int32["torch_dtypes"] == int32["mindspore_dtypes"] == ["int32", "python_int"]
    assert int32["torch_shapes"] == int32["mindspore_shapes"] == [[2, 3], []]
    assert results["torch.bfloat16"]["torch_dtypes"] == ["bfloat16", "python_int"]
    assert results["torch.bfloat16"]["status"] == "pass"
    float8 = results["torch.float8_e4m3fn"]
    assert (float8["status"], float8["reason"]) == ("error", "mindspore_error")
    assert float8["detail"].startswith("TypeError: Select CPU operator[Cast] fail! Unsupported data type!")
    # a dtype of another size differs in its itemsize (4 vs 8 bytes) and its dtype
    override = tmp_path / "override.json"
    override.write_text(json.dumps({"torch.int32": "mindspore.int64"}), encoding="utf-8")
    wrong = _results("torch.int32", "--mapping-override", str(override), "--mindspore-version", "2.6")
    wrong = wrong["torch.int32"]
    assert (wrong["status"], wrong["reason"], wrong["first_mismatch_output"]) == ("fail", "value_mismatch", 1)
    assert wrong["mindspore_dtypes"] == ["int64", "python_int"] and wrong["max_abs_error"] == 4.0


def test_properties_and_is_tensor_are_read_and_called_in_both_frameworks(tmp_path):
    results = _results("torch.Tensor.shape", "torch.Tensor.dtype", "torch.Tensor.real", "torch.is_tensor",
                       "--mindspore-version", "2.6")
    shape = results["torch.Tensor.shape"]
    assert (shape["status"], shape["torch_dtypes"], shape["mindspore_dtypes"]) == (
        "pass", ["python_int"] * 3, ["python_int"] * 3)
    dtype = results["torch.Tensor.dtype"]
    assert (dtype["status"], dtype["torch_dtypes"], dtype["mindspore_dtypes"]) == (
        "pass", ["dtype:float32"], ["dtype:float32"])
    real = results["torch.Tensor.real"]  # a MindSpore method: called, as the fix writes x.real()
    assert (real["mindspore_api"], real["status"], real["torch_dtypes"]) == (
        "mindspore.Tensor.real", "pass", ["float32"])
    is_tensor = results["torch.is_tensor"]
    assert (is_tensor["mindspore_api"], is_tensor["status"], is_tensor["mindspore_dtypes"]) == (
        "mindspore.ops.is_tensor", "pass", ["python_bool", "python_bool"])
    # a torch method whose counterpart is a MindSpore property; a property of other values
    override = tmp_path / "override.json"
    pairs = {"torch.Tensor.numel": "mindspore.Tensor.size", "torch.Tensor.shape": "mindspore.Tensor.size"}
    override.write_text(json.dumps(pairs), encoding="utf-8")
    wrong = _results("torch.Tensor.numel", "torch.Tensor.shape", "--mapping-override", str(override),
                     "--mindspore-version", "2.6")
    numel = wrong["torch.Tensor.numel"]
    assert (numel["status"], numel["reason"], numel["detail"]) == (
        "fail", "member_kind", "a method in torch, a property in MindSpore")
    assert (wrong["torch.Tensor.shape"]["status"], wrong["torch.Tensor.shape"]["reason"]) == (
        "fail", "output_structure")
