"""A worker process of one framework side (torch or MindSpore), on the check runner's machinery.

The process, its greeting, timeouts, memory cap and process-group kill are ``check/runner.Worker``'s;
this adds the side (``MSMIGRATE_WORKER_SIDE``) and turns every failure into a :class:`WeightsError`
carrying a message key of ``messages/weights.py``.
"""

from __future__ import annotations

import threading
from typing import Any

from msmigrate.check.runner import DEFAULT_MEMORY_MB, RunnerConfig, Worker, WorkerGone
from msmigrate.knowledge.check_result import Reason

WORKER_MODULE = "msmigrate.weights.worker"
SIDE_ENV = "MSMIGRATE_WORKER_SIDE"
DEFAULT_TIMEOUT = 600.0  # per request: importing a framework, building a model, reading a large file

_GONE_KEYS = {
    Reason.TIMEOUT: "weights.error.timeout",
    Reason.WORKER_CRASH: "weights.error.worker_crash",
    Reason.WORKER_START: "weights.error.worker_start",
    Reason.BAD_REPLY: "weights.error.bad_reply",
}


class WeightsError(Exception):
    """A failure to report: a message key with its fields."""

    def __init__(self, message_key: str, /, **fields: Any) -> None:
        super().__init__(message_key)
        self.key, self.fields = message_key, fields


class SideWorker:
    """One worker process of ``side`` (``torch`` | ``mindspore``), started on the first request."""

    def __init__(
        self,
        side: str,
        *,
        python: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        memory_mb: int | None = DEFAULT_MEMORY_MB,
        test_kinds: bool = False,
        env: dict[str, str] | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.side = side
        self.timeout = timeout
        self.stop = stop  # set: a worker started now is killed at once (a cancelled comparison)
        self.config = RunnerConfig(
            python=python,
            timeout=timeout,
            startup_timeout=timeout,
            memory_mb=memory_mb,
            env={**(env or {}), SIDE_ENV: side},
            test_kinds=test_kinds,
            module=WORKER_MODULE,
        )
        self._worker: Worker | None = None

    def __enter__(self) -> SideWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """The reply's fields; raises :class:`WeightsError` for an error reply or a lost worker."""
        wait = self.timeout if timeout is None else timeout
        try:
            worker = self._worker
            if worker is None or not worker.alive:
                worker = self._worker = Worker(self.config)
            if self.stop is not None and self.stop.is_set():
                self.kill()
                raise WeightsError("compare.error.cancelled")
            reply = worker.ask(request, wait)  # (a kill from another thread ends it with WorkerGone)
        except WorkerGone as gone:
            self.kill()
            key = _GONE_KEYS.get(gone.reason, "weights.error.worker_crash")
            raise WeightsError(key, side=self.side, seconds=f"{wait:g}", detail=gone.detail) from None
        if reply.get("status") == "error":
            fields = reply.get("fields") if type(reply.get("fields")) is dict else {}
            raise WeightsError(str(reply.get("key") or "weights.error.internal"), **fields)
        if reply.get("status") != "ok":
            self.kill()
            raise WeightsError("weights.error.bad_reply", side=self.side, detail=str(reply)[:200])
        return reply

    def kill(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.kill()

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None
