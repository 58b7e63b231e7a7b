"""The equivalence worker never imports modules from the project it was started from."""

from __future__ import annotations

from pathlib import Path

import pytest

from msmigrate.check.runner import RunnerConfig, Worker


def test_worker_ignores_modules_planted_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    for name in ("json", "numpy", "torch"):  # what the worker imports first
        code = f"open({str(marker)!r}, 'a').write({name!r})\n"
        (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # editors start the server in the workspace folder
    worker = Worker(RunnerConfig(memory_mb=None))  # returns once the worker greeted
    try:
        assert worker.alive
    finally:
        worker.close()
    assert not marker.exists()
