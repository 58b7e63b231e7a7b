"""The runner against workers that misbehave (a stand-in interpreter, tests/check/fake_worker.py): no
greeting, malformed replies, signals to ``msmigrate check``; and settings changes in the server."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from msmigrate.check.runner import CheckRunner, RunnerConfig, run_one
from msmigrate.knowledge.check_render import describe

FAKE = Path(__file__).with_name("fake_worker.py")
REQUEST = {"kind": "function", "torch_api": "torch.abs", "mindspore_api": "mindspore.mint.abs"}


def fake_python(tmp_path: Path) -> str:
    script = tmp_path / "fake-python"
    script.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{FAKE}'\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def fake_config(tmp_path: Path, mode: str, line: str = "", **extra) -> RunnerConfig:
    env = {"FAKE_WORKER_MODE": mode, "FAKE_WORKER_LINE": line, "FAKE_WORKER_PID": str(tmp_path / "pid")}
    return RunnerConfig(python=fake_python(tmp_path), env=env, **extra)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by a dead parent) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def wait_for(predicate, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_worker_without_greeting_is_given_up_after_the_check_timeout(tmp_path):
    started = time.monotonic()
    result = run_one(REQUEST, fake_config(tmp_path, "hang", timeout=2))  # startup_timeout stays 300 s
    elapsed = time.monotonic() - started
    assert (result.status, result.reason, result.detail) == ("error", "timeout", "2")
    assert elapsed < 15
    assert not wait_for(lambda: alive(int((tmp_path / "pid").read_text())), 0.0)


@pytest.mark.parametrize(
    ("mode", "line", "detail"),
    [
        ("greeting", "[1, 2]", "unexpected greeting: [1, 2]"),
        ("greeting", '"ready"', 'unexpected greeting: "ready"'),
        ("greeting", '{"ready": 1}', "unexpected greeting: {'ready': 1}"),
        ("reply", "[]", "[]"),
        ("reply", "null", "null"),
        ("reply", '{"status": "great"}', "status 'great'"),
        ("reply", '{"status": ["pass"]}', "status ['pass']"),
        ("reply", '{"status": "pass", "max_abs_error": "0.1"}', "max_abs_error: str"),
        ("reply", '{"status": "pass", "max_abs_error": true}', "max_abs_error: bool"),
        ("reply", '{"status": "fail", "torch_shapes": [[2, "3"]]}', "torch_shapes: list"),
        ("reply", '{"status": "fail", "first_mismatch_index": {"0": 1}}', "first_mismatch_index: dict"),
        ("reply", '{"status": "error", "reason": "because"}', "reason 'because'"),
        ("reply", '{"status": "pass", "detail": 5}', "detail: int"),
        ("reply", '{"status": "pass", "api": null}', "api: NoneType"),
        ("reply", '{"status": "pass", "duration": "1s"}', "duration: str"),
    ],
)
def test_malformed_worker_replies_are_error_results(tmp_path, mode, line, detail):
    with CheckRunner(fake_config(tmp_path, mode, line, timeout=20, startup_timeout=60)) as runner:
        result = runner.run(dict(REQUEST))
        reason = "worker_start" if mode == "greeting" else "bad_reply"
        assert (result.status, result.reason, result.api) == ("error", reason, "torch.abs")
        assert result.detail.split("; reply: ")[0] == detail
        pid = int((tmp_path / "pid").read_text())
        assert wait_for(lambda: not alive(pid))  # a worker that broke the protocol is not reused
    assert describe(result, "zh").splitlines()[0].startswith("torch.abs → mindspore.mint.abs：出错（")


def test_a_well_formed_reply_of_the_fake_worker_is_a_result(tmp_path):
    line = json.dumps({"status": "fail", "reason": "value_mismatch", "max_abs_error": 0.5,
                       "torch_shapes": [[2, 3]], "first_mismatch_index": [0, 1], "detail": None})
    result = run_one(dict(REQUEST), fake_config(tmp_path, "reply", line, timeout=20, startup_timeout=60))
    assert (result.status, result.reason, result.max_abs_error) == ("fail", "value_mismatch", 0.5)
    assert (result.torch_shapes, result.first_mismatch_index) == ([[2, 3]], [0, 1])
    assert (result.torch_version, result.mindspore_version) == (None, None)  # the runner keeps them apart


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_to_msmigrate_check_stops_the_worker(tmp_path, sig):
    python = fake_python(tmp_path)
    env = {**os.environ, "FAKE_WORKER_MODE": "greet-hang", "FAKE_WORKER_PID": str(tmp_path / "pid")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "msmigrate", "check", "torch.abs", "--python", python, "--timeout", "600"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        assert wait_for(lambda: (tmp_path / "pid").exists() and (tmp_path / "pid").read_text() != "", 60)
        worker = int((tmp_path / "pid").read_text())
        time.sleep(0.5)  # the worker has greeted; the CLI waits for its answer to "load"
        assert alive(worker)
        proc.send_signal(sig)
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
    assert code == (128 + signal.SIGTERM if sig == signal.SIGTERM else 1)
    assert wait_for(lambda: not alive(worker), 10)


def test_settings_change_does_not_wait_for_a_running_check(tmp_path):
    from msmigrate.lsp.check_feature import CheckService

    class Settings:
        python_path = fake_python(tmp_path)
        device = "CPU"

    class Server:
        settings = Settings()

    service = CheckService(Server())  # type: ignore[arg-type]
    os.environ.update({"FAKE_WORKER_MODE": "greet-hang", "FAKE_WORKER_PID": str(tmp_path / "pid")})
    try:
        runner = service._runner_for(Settings.python_path, "CPU")
        running = threading.Thread(target=runner.run, args=(dict(REQUEST), 8.0), daemon=True)
        running.start()
        assert wait_for(lambda: (tmp_path / "pid").exists() and (tmp_path / "pid").read_text() != "", 60)
        time.sleep(0.3)
        started = time.monotonic()
        service.reset()
        assert time.monotonic() - started < 0.5
        assert service._runner is None
        os.kill(int((tmp_path / "pid").read_text()), signal.SIGKILL)  # ends the check (worker_crash) …
        running.join(30)
        assert not running.is_alive()
        assert wait_for(lambda: runner._worker is None)  # … and the old runner is closed after it
    finally:
        for name in ("FAKE_WORKER_MODE", "FAKE_WORKER_PID"):
            os.environ.pop(name, None)


def _service(tmp_path, mode: str, line: str = ""):
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.lsp.check_feature import CheckService

    class Settings:
        python_path = fake_python(tmp_path)
        device = "CPU"

    class Server:
        settings = Settings()
        kb = get_knowledge_base("2.6")

    os.environ.update({"FAKE_WORKER_MODE": mode, "FAKE_WORKER_LINE": line})
    return CheckService(Server())  # type: ignore[arg-type]


@pytest.fixture
def _fake_env():
    yield
    for name in ("FAKE_WORKER_MODE", "FAKE_WORKER_LINE", "FAKE_WORKER_PID"):
        os.environ.pop(name, None)


def test_server_check_with_a_broken_worker_is_an_error_result(tmp_path, _fake_env, monkeypatch):
    service = _service(tmp_path, "reply", '{"status": 3}')
    python = service.server.settings.python_path  # the command passes the interpreter the user confirmed
    result = service.run("torch.nn.functional.softmax", None, None, python)
    assert (result.status, result.reason, result.api) == ("error", "bad_reply", "torch.nn.functional.softmax")

    def broken(*args, **kwargs):
        raise RuntimeError("the check machinery broke")

    monkeypatch.setattr("msmigrate.check.service.check_one", broken)
    result = service.run("torch.nn.functional.softmax", None, None, python)  # an error result, not a raise
    assert (result.status, result.reason, result.detail) == (
        "error", "worker_crash", "RuntimeError: the check machinery broke")
    service.reset()


def test_check_command_restores_the_signal_handlers(tmp_path, _fake_env):
    from click.testing import CliRunner

    from msmigrate.cli import main

    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    os.environ.update({"FAKE_WORKER_MODE": "reply", "FAKE_WORKER_LINE": '{"status": "pass"}'})
    result = CliRunner().invoke(main, ["check", "torch.abs", "--python", fake_python(tmp_path),
                                       "--mindspore-version", "2.6"])
    assert result.exit_code == 0 and "torch.abs → mindspore.mint.abs: pass" in result.output
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
