"""Run check requests in a worker subprocess, with a timeout and a memory cap.

A :class:`CheckRunner` keeps one worker process alive for many checks (importing torch and
MindSpore takes seconds) and starts a fresh one after a crash or a timeout. Every problem comes
back as an ``error`` :class:`CheckResult`; nothing here raises to the caller. Replies are validated
(a malformed one is a ``bad_reply`` error and the worker is replaced), the greeting is awaited no longer
than the per-check timeout, and every live worker's process group is killed when this process exits
(:func:`stop_all_workers`, run at exit and, in the CLI, on SIGINT/SIGTERM).
"""

from __future__ import annotations

import atexit
import collections
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msmigrate.knowledge.check_result import CheckResult, CheckStatus, Reason

DEFAULT_TIMEOUT = 60.0
DEFAULT_STARTUP_TIMEOUT = 300.0  # importing torch + MindSpore on a busy machine
DEFAULT_MEMORY_MB = 8192  # virtual address space: MindSpore alone reserves about 2.5 GB
WORKER_MODULE = "msmigrate.check.worker"
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder holding the msmigrate package


@dataclass(slots=True)
class RunnerConfig:
    python: str | None = None  # interpreter of the worker; default: this one
    timeout: float = DEFAULT_TIMEOUT  # per check
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT  # loading the frameworks in a fresh worker
    memory_mb: int | None = DEFAULT_MEMORY_MB  # RLIMIT_AS of the worker; None or 0: no cap
    env: dict[str, str] = field(default_factory=dict)  # extra environment of the worker
    test_kinds: bool = False  # allow the test-only request kinds (sleep, crash)
    module: str = WORKER_MODULE  # the worker run as ``python -m``: its loop is check/worker_protocol.serve

    @property
    def interpreter(self) -> str:
        return self.python or sys.executable


_NEUTRAL: list[str] = []


def _neutral_folder() -> str:
    """An empty private folder (removed at exit) for the worker to start in: ``python -m`` puts the
    current folder first on ``sys.path`` (before Python 3.11 there is no ``PYTHONSAFEPATH``)."""
    import shutil
    import tempfile

    if not _NEUTRAL:
        _NEUTRAL.append(tempfile.mkdtemp(prefix="msmigrate-worker-"))
        atexit.register(shutil.rmtree, _NEUTRAL[0], True)
    return _NEUTRAL[0]


class WorkerGone(Exception):
    """The worker process ended or stopped answering."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


class Worker:
    """One worker subprocess speaking JSON lines."""

    def __init__(self, config: RunnerConfig) -> None:
        self.config = config
        self._stderr: collections.deque[str] = collections.deque(maxlen=60)
        self._lines: queue.Queue[str | None] = queue.Queue()
        env = {**os.environ, **config.env}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_PACKAGE_ROOT), env.get("PYTHONPATH")) if p)
        env.setdefault("GLOG_v", "3")  # MindSpore: errors only
        # Few malloc arenas: each reserves 64 MB of address space per thread otherwise, which would
        # count against the memory cap on machines with many cores.
        env.setdefault("MALLOC_ARENA_MAX", "4")
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONSAFEPATH"] = "1"  # Python ≥ 3.11: the current folder is not put on sys.path
        if config.test_kinds:
            env["MSMIGRATE_CHECK_TEST_KINDS"] = "1"
        else:
            env.pop("MSMIGRATE_CHECK_TEST_KINDS", None)
        try:
            self.proc = subprocess.Popen(
                [config.interpreter, "-m", config.module],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,
                cwd=_neutral_folder(),  # never the project: its json.py or torch.py would be imported
            )
        except OSError as exc:
            raise WorkerGone(Reason.WORKER_START, f"{config.interpreter}: {exc}") from exc
        _LIVE.add(self)
        self._limit_memory()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        # the greeting comes before the frameworks are imported: a worker that does not greet within
        # the check timeout is not a worker (loading torch and MindSpore has startup_timeout)
        try:
            ready = self._next_line(min(config.timeout, config.startup_timeout))
        except WorkerGone as gone:
            if gone.reason is not Reason.BAD_REPLY:
                raise
            raise WorkerGone(Reason.WORKER_START, f"unexpected greeting: {gone.detail}") from None
        if ready.get("ready") is not True:
            self.kill()
            raise WorkerGone(Reason.WORKER_START, f"unexpected greeting: {str(ready)[:200]}")

    def _limit_memory(self) -> None:
        """RLIMIT_AS of the worker, set with ``prlimit`` right after the start.

        Not ``preexec_fn``: the language server runs threads, where ``preexec_fn`` is unsafe. The
        worker allocates nothing before its first request, so the cap is in place in time.
        """
        cap = self.config.memory_mb
        if not cap or not sys.platform.startswith("linux"):
            return
        import resource

        limit = int(cap) * 1024 * 1024
        try:
            resource.prlimit(self.proc.pid, resource.RLIMIT_AS, (limit, limit))
        except (OSError, ValueError):
            pass  # the process already ended, or the cap is above the hard limit: run without it

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if line.strip():
                self._stderr.append(line.rstrip())

    def stderr_tail(self, lines: int = 8) -> str:
        return "\n".join(list(self._stderr)[-lines:])

    def _next_line(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise WorkerGone(Reason.TIMEOUT, f"{timeout:g}") from None
            if line is None:
                raise WorkerGone(Reason.WORKER_CRASH, self._exit_text())
            try:
                value = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                continue  # not a protocol line
            if type(value) is not dict:
                self.kill()
                raise WorkerGone(Reason.BAD_REPLY, line.strip()[:200])
            return value

    def _exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        time.sleep(0.05)  # let the stderr reader catch up
        if code is not None and code < 0:
            try:
                what = f"signal {signal.Signals(-code).name}"
            except ValueError:
                what = f"signal {-code}"
        else:
            what = f"exit code {code}"
        tail = self.stderr_tail()
        return what + (f"; stderr: {tail}" if tail else "")

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        if self.proc.poll() is not None:
            raise WorkerGone(Reason.WORKER_CRASH, self._exit_text())
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise WorkerGone(Reason.WORKER_CRASH, self._exit_text()) from exc
        return self._next_line(timeout)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        _LIVE.discard(self)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the worker leads its own session
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        _LIVE.discard(self)
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()


_LIVE: weakref.WeakSet[Worker] = weakref.WeakSet()


def stop_all_workers() -> None:
    """Kill every live worker of this process (and its process group): at exit, on a signal."""
    for worker in list(_LIVE):
        try:
            if worker.proc.poll() is None:
                os.killpg(worker.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        _LIVE.discard(worker)


atexit.register(stop_all_workers)


def release_at_exit() -> None:
    """What this module's exit handlers do, for a process that ends without them (``os._exit``: see
    ``lsp/process_end.py``): kill the live workers, remove the workers' starting folder."""
    import shutil

    stop_all_workers()
    if _NEUTRAL:
        shutil.rmtree(_NEUTRAL.pop(), True)


def stop_workers_on_signals() -> Callable[[], None]:
    """Until the returned function is called (main thread only), SIGINT and SIGTERM kill the workers, then
    end this process the usual way (``KeyboardInterrupt``; exit status 128 + signal number)."""

    def on_signal(signum: int, _frame: Any) -> None:
        stop_all_workers()
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return restore


class CheckRunner:
    """Runs requests one after another in a reused worker; restarts it after a crash or timeout."""

    def __init__(self, config: RunnerConfig | None = None) -> None:
        self.config = config or RunnerConfig()
        self._worker: Worker | None = None
        self._lock = threading.Lock()
        self.versions: dict[str, str] = {}

    def __enter__(self) -> CheckRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.close()
                self._worker = None

    def _fresh_worker(self, device: str, load: bool) -> Worker:
        worker = self._worker
        if worker is not None and worker.alive:
            return worker
        worker = Worker(self.config)
        self._worker = worker
        if load:
            answer = worker.ask({"kind": "load", "device": device}, self.config.startup_timeout)
            if answer.get("status") != "pass":
                worker.close()
                self._worker = None
                raise _LoadFailed(answer)
            self.versions = {k: answer[k] for k in ("torch_version", "mindspore_version")
                             if type(answer.get(k)) is str}
        return worker

    def run(self, request: dict[str, Any], timeout: float | None = None) -> CheckResult:
        """Run one request; always returns a result."""
        timeout = self.config.timeout if timeout is None else timeout
        api = request.get("torch_api", "")
        ms_api = request.get("mindspore_api")
        device = request.get("device", "CPU")
        started = time.monotonic()
        with self._lock:
            try:
                worker = self._fresh_worker(device, load=request.get("kind") not in ("sleep", "crash"))
                answer = worker.ask(request, timeout)
            except _LoadFailed as failed:
                answer = {**failed.answer, "api": api, "mindspore_api": ms_api}
            except WorkerGone as gone:
                return self._lost(api, ms_api, device, gone.reason, gone.detail, started)
            answer.setdefault("api", api)
            answer.setdefault("mindspore_api", ms_api)
            answer.setdefault("device", device)
            try:
                result = CheckResult.from_reply(answer)
            except ValueError as exc:  # a worker that does not speak the protocol: replace it
                detail = f"{exc}; reply: {str(answer)[:200]}"
                return self._lost(api, ms_api, device, Reason.BAD_REPLY, detail, started)
        if result.status is CheckStatus.ERROR and result.reason is None:
            result.reason = str(Reason.BAD_REQUEST)
        return result

    def _lost(self, api: str, ms_api: str | None, device: str, reason: Reason, detail: str,
              started: float) -> CheckResult:
        """The error result of a check whose worker is gone or broken (it is killed; the lock is held)."""
        if self._worker is not None:
            self._worker.kill()
            self._worker = None
        result = CheckResult.error(api, ms_api, reason, detail, device=device)
        result.duration = round(time.monotonic() - started, 3)
        result.torch_version = self.versions.get("torch_version")
        result.mindspore_version = self.versions.get("mindspore_version")
        return result


class _LoadFailed(Exception):
    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__(answer.get("detail"))
        self.answer = answer


def run_one(request: dict[str, Any], config: RunnerConfig | None = None) -> CheckResult:
    """Run a single request in a worker of its own."""
    with CheckRunner(config) as runner:
        return runner.run(request)


def run_many(
    requests: Iterable[dict[str, Any]],
    config: RunnerConfig | None = None,
    jobs: int = 1,
    on_result: Callable[[CheckResult], None] | None = None,
) -> list[CheckResult]:
    """Run requests on ``jobs`` reused workers; results come back in request order."""
    items = list(requests)
    results: list[CheckResult | None] = [None] * len(items)
    feed: Iterator[tuple[int, dict[str, Any]]] = iter(enumerate(items))
    feed_lock = threading.Lock()

    def work() -> None:
        with CheckRunner(config) as runner:
            while True:
                with feed_lock:
                    nxt = next(feed, None)
                if nxt is None:
                    return
                index, request = nxt
                result = runner.run(request)
                results[index] = result
                if on_result is not None:
                    on_result(result)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(jobs, len(items) or 1)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [r for r in results if r is not None]
