"""A file whose analysis takes longer than the per-file time limit is given up on and reported, in the
scanning process and in pool workers; the other files keep their findings, and nothing is cached for it."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import pytest

from msmigrate.analysis.cancel import Cancelled, DeadlineToken
from msmigrate.scan import ScanOptions, scan_paths
from msmigrate.scan.worker import FileTooSlow, bounded_time, within_time

# 2,000 lines of torch calls: well over 10 ms of analysis on any machine
SLOW = "import torch\n" + "".join(f"y{i} = torch.abs(x{i}).view(-1)\n" for i in range(2000))
FAST = "import torch\ny = torch.abs(x)\n"


def _outcome(report) -> dict[str, tuple[str | None, int]]:
    return {f.path: (f.error_key, len(f.findings)) for f in report.files}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_over_the_time_limit_is_reported_as_given_up(tmp_path: Path, make_tree, jobs: int) -> None:
    root = make_tree(tmp_path / "p", {"slow.py": SLOW, "fast.py": FAST})
    report = scan_paths([root], ScanOptions(jobs=jobs, file_time_limit=0.01))
    assert _outcome(report)["slow.py"] == ("scan.error.too_slow", 0)
    slow = next(f for f in report.files if f.path == "slow.py")
    assert slow.error("en") == "Given up: the analysis took longer than the 0.01 s allowed per file."
    assert slow.error("zh") == "已放弃：分析时间超过了每个文件允许的 0.01 秒。"
    # not remembered: with the default limit the file is analysed again and keeps its findings
    again = scan_paths([root], ScanOptions(jobs=jobs))
    assert _outcome(again) == {"fast.py": (None, 1), "slow.py": (None, 4000)}
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_bounded_time_raises_in_the_main_thread_and_restores_the_timer() -> None:
    with pytest.raises(FileTooSlow):
        with bounded_time(0.01):
            while True:
                pass
    with bounded_time(5):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_a_timer_already_in_use_is_left_alone() -> None:
    signal.setitimer(signal.ITIMER_REAL, 100)
    try:
        with bounded_time(0.001):
            total = sum(range(2_000_000))  # longer than 1 ms, not stopped: the caller's timer is kept
        assert total == 1_999_999_000_000
        assert 99 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_a_scan_outside_the_main_thread_is_bounded_by_a_deadline(tmp_path: Path, make_tree) -> None:
    # a language server scans in a thread, where no timer signal can stop the work: the analysis checks
    # a DeadlineToken instead, with the same outcome as in the main thread
    root = make_tree(tmp_path / "p", {"slow.py": SLOW, "fast.py": FAST})
    warm = make_tree(tmp_path / "warm", {"fast.py": FAST})
    scan_paths([warm], ScanOptions(jobs=1))  # the rules and the knowledge base load outside the timed files
    outcome: dict = {}
    options = ScanOptions(jobs=1, file_time_limit=0.1)  # SLOW takes ~0.4 s unloaded, FAST ~2 ms
    worker = threading.Thread(target=lambda: outcome.update(_outcome(scan_paths([root], options))))
    worker.start()
    worker.join(60)
    assert outcome == {"fast.py": (None, 1), "slow.py": ("scan.error.too_slow", 0)}
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_deadline_token_expires_and_says_so() -> None:
    token = DeadlineToken(0.01)
    token.raise_if_cancelled()  # not yet
    time.sleep(0.02)
    with pytest.raises(Cancelled):
        token.raise_if_cancelled()
    assert token.expired
    cancelled = DeadlineToken(60)
    cancelled.cancel()
    with pytest.raises(Cancelled):
        cancelled.raise_if_cancelled()
    assert not cancelled.expired  # cancelled, not out of time: within_time lets it through


def test_within_time_lets_a_cancel_that_is_not_the_deadline_through() -> None:
    raised: list[BaseException] = []

    def run() -> None:
        try:
            within_time(60, "a.py", lambda token: (token.cancel(), token.raise_if_cancelled()))
        except Cancelled as exc:
            raised.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(10)
    assert [type(e) for e in raised] == [Cancelled]
