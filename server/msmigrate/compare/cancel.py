"""Stopping a running comparison from another thread (the editor's cancel button): the flag
:func:`~msmigrate.compare.service.compare_models` checks between its steps, and the kill of the worker
processes it is waiting for."""

from __future__ import annotations

import threading
import weakref

from msmigrate.weights.session import SideWorker


class CompareCancel:
    """Set once; every worker watched, now or later, is killed (with its process group)."""

    def __init__(self) -> None:
        self.event = threading.Event()  # SideWorker checks it once its process has started
        self._workers: weakref.WeakSet[SideWorker] = weakref.WeakSet()
        self._lock = threading.Lock()

    @property
    def cancelled(self) -> bool:
        return self.event.is_set()

    def watch(self, worker: SideWorker) -> SideWorker:
        with self._lock:
            self._workers.add(worker)
        if self.cancelled:
            worker.kill()
        return worker

    def cancel(self) -> None:
        """Mark the comparison cancelled and kill its workers (the step they ran ends with an error the
        comparison replaces by ``compare.error.cancelled``)."""
        self.event.set()
        with self._lock:
            workers = list(self._workers)
        for worker in workers:
            worker.kill()
