"""The worker process: hangs, crashes, missing frameworks and bad interpreters come back as results."""

import sys
import time

import pytest

from msmigrate.check.runner import CheckRunner, RunnerConfig, run_one
from msmigrate.knowledge.check_render import describe

TEST_CONFIG = dict(test_kinds=True, startup_timeout=60)


def _abs_request(device: str = "CPU", **extra) -> dict:
    """A check of ``torch.abs`` against ``mindspore.mint.abs``."""
    return {
        "kind": "function",
        "torch_api": "torch.abs",
        "mindspore_api": "mindspore.mint.abs",
        "device": device,
        **extra,
    }


def _config_with_broken_torch(tmp_path, error: str) -> RunnerConfig:
    """A runner whose worker finds a ``torch`` package that raises ``ImportError(error)``."""
    fake = tmp_path / "torch"
    fake.mkdir()
    (fake / "__init__.py").write_text(f"raise ImportError({error!r})\n", encoding="utf-8")
    return RunnerConfig(timeout=30, startup_timeout=60, env={"PYTHONPATH": str(tmp_path)})


def test_hanging_worker_is_reported_within_the_timeout():
    started = time.monotonic()
    result = run_one(
        {"kind": "sleep", "seconds": 600, "torch_api": "torch.abs"}, RunnerConfig(timeout=3, **TEST_CONFIG)
    )
    elapsed = time.monotonic() - started
    assert (result.status, result.reason, result.api) == ("error", "timeout", "torch.abs")
    assert elapsed < 20
    assert describe(result, "en").splitlines()[1] == "  No answer within 3 s: the worker was stopped."


def test_crashing_worker_is_reported_and_replaced():
    with CheckRunner(RunnerConfig(timeout=30, **TEST_CONFIG)) as runner:
        crashed = runner.run({"kind": "crash", "code": 3, "torch_api": "torch.abs"})
        assert (crashed.status, crashed.reason) == ("error", "worker_crash")
        assert crashed.detail.startswith("exit code 3")
        segv = runner.run({"kind": "crash", "how": "segv", "torch_api": "torch.abs"})
        assert (segv.reason, segv.detail.split(";")[0]) == ("worker_crash", "signal SIGSEGV")
        after = runner.run({"kind": "sleep", "seconds": 0, "torch_api": "torch.abs"})
        assert (after.status, after.reason) == ("skipped", "spec_skip")  # a fresh worker answered


def test_test_kinds_are_refused_unless_enabled(tmp_path):
    config = _config_with_broken_torch(tmp_path, "no torch here")
    result = run_one({"kind": "crash", "code": 3, "torch_api": "torch.abs"}, config)
    assert result.reason == "missing_framework"  # treated as a normal request: loads the frameworks


def test_missing_framework_gives_the_install_command(tmp_path):
    config = _config_with_broken_torch(tmp_path, "No module named torch")
    result = run_one(_abs_request(), config)
    assert (result.status, result.reason, result.api) == ("error", "missing_framework", "torch.abs")
    assert result.detail == "torch: ImportError: No module named torch"
    text = describe(result, "en", python=sys.executable)
    assert "pip install 'msmigrate[check]'" in text and "pip install torch==2.13.0 mindspore==2.10.0" in text
    assert "请在运行检查进程的解释器" in describe(result, "zh", python=sys.executable)


def test_bad_interpreter_is_an_error_result(tmp_path):
    result = run_one(
        {"kind": "function", "torch_api": "torch.abs"},
        RunnerConfig(python=str(tmp_path / "no-python"), timeout=5),
    )
    assert (result.status, result.reason) == ("error", "worker_start")
    assert str(tmp_path / "no-python") in result.detail


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the cap uses prlimit (Linux)")
def test_memory_cap_turns_a_huge_input_into_an_error():
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    request = _abs_request(
        tensors={"t0": {"shape": [2, 1024, 1024, 1024], "dtype": "float32"}},  # 8 GiB
        torch={"args": [{"ref": "t0"}]},
        mindspore={"args": [{"ref": "t0"}]},
    )
    result = run_one(request, RunnerConfig(timeout=120, startup_timeout=120, memory_mb=6144))
    assert (result.status, result.reason) == ("error", "memory_limit")
    assert result.mindspore_version.startswith("2.")


def test_unavailable_device_names_the_available_ones():
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    result = run_one(_abs_request("Ascend"), RunnerConfig(timeout=120, startup_timeout=120))
    assert (result.status, result.reason, result.detail) == (
        "error",
        "device_unavailable",
        "Ascend; available: CPU",
    )
    assert describe(result, "en").splitlines()[1] == (
        "  Device Ascend; available: CPU. "
        "Choose an available device in the msmigrate.device setting or with --device."
    )


def test_first_tensor_operation_of_a_fresh_worker_passes():
    """The first check of a fresh worker passes with no warm-up before it: the check extra gives NumPy 1.x,
    under which MindSpore 2.10's first Tensor operation of a process works (see test_numpy_support.py)."""
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    from msmigrate.check.service import check_apis
    from msmigrate.knowledge.base import get_knowledge_base

    (result,) = check_apis(["torch.Tensor.H"], get_knowledge_base("2.4"),
                           RunnerConfig(timeout=120, startup_timeout=300))
    assert (result.api, result.mindspore_api, result.status, result.reason) == (
        "torch.Tensor.H", "mindspore.Tensor.H", "pass", None)
    assert result.max_abs_error == 0.0
