"""Decide which Tensor-method calls on receivers of unknown type are reported as possible Tensor APIs.

A candidate (``obj.view(-1)`` with ``obj`` of unknown type) becomes a ``possible_tensor_api`` finding only
when the file imports torch, the method name is not a common method of Python builtins, numpy or pandas
(:data:`COMMON_NON_TENSOR_METHODS`), and the call's arguments fit one of the method's torch signatures.
jedi may settle the receiver's type within a per-file time budget: a ``torch.Tensor`` makes the finding
definite, any other inferred type drops it.
"""

from __future__ import annotations

import ast
import hashlib
import logging
import queue
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from msmigrate.analysis.arguments import bind

log = logging.getLogger(__name__)

# Method names shared with everyday non-tensor objects; on an unknown receiver they are not reported.
COMMON_NON_TENSOR_METHODS: frozenset[str] = frozenset(
    {
        # list / dict / set / str
        "append", "extend", "insert", "remove", "pop", "clear", "index", "count", "sort", "reverse", "copy",
        "keys", "values", "items", "get", "update", "setdefault", "popitem", "add", "discard", "union",
        "split", "rsplit", "join", "strip", "replace", "format", "lower", "upper", "startswith", "endswith",
        "find", "encode", "decode", "partition",
        # numpy ndarray / pandas
        "sum", "mean", "max", "min", "std", "var", "prod", "all", "any", "argmax", "argmin", "cumsum",
        "cumprod", "round", "clip", "abs", "dot", "nonzero", "reshape", "transpose", "flatten", "ravel",
        "squeeze", "repeat", "swapaxes", "diagonal", "trace", "conj", "item", "tolist", "argsort", "resize",
        "take", "put", "fill", "astype", "tobytes", "unique", "median", "mode", "rename", "where", "apply",
        "map", "diff", "sample", "quantile", "isin",
        # files, paths, loggers and other common objects
        "write", "read", "close", "flush", "open", "exists", "log", "info", "debug", "warning", "error",
        "set", "new", "absolute",  # pathlib.Path.absolute
    }
)

_JEDI_CACHE: OrderedDict[tuple[str, str], dict[tuple[int, int], str | None]] = OrderedDict()
_JEDI_CACHE_SIZE = 64
_JEDI_LOCK = threading.RLock()  # re-entrant: a done callback may run in the submitting thread
_JEDI_EXECUTOR: _JediThread | None = None
_JEDI_PENDING: dict[tuple[str, str, int, int], Future] = {}
_MAX_PENDING = 32


def excluded(name: str) -> bool:
    return name in COMMON_NON_TENSOR_METHODS or (name.startswith("__") and name.endswith("__"))


def arguments_fit(call: ast.Call, signatures: list[list[dict[str, Any]]]) -> bool:
    """Whether the call's positional count and keyword names fit at least one signature (a call that
    unpacks ``*args`` / ``**kwargs`` cannot be told apart: it fits)."""
    if not signatures:
        return True
    if any(type(arg) is ast.Starred for arg in call.args) or any(k.arg is None for k in call.keywords):
        return True
    return bool(bind(call, [[p for p in signature if p.get("name") != "self"] for signature in signatures]))


class JediOracle:
    """Infers receiver types with jedi within a per-file time budget, cached per (path, content hash).

    jedi's first inference into a large package (torch) can take seconds and cannot be interrupted, so
    it runs on one background thread: the analysis waits at most the budget, and a late answer is kept
    in the cache for the next analysis of the same content (the next keystroke's diagnostics).
    """

    def __init__(self, source: str, path: str, budget_s: float) -> None:
        self.source = source
        self.path = path
        self.deadline = time.perf_counter() + budget_s
        self.key = (path, hashlib.sha1(source.encode("utf-8", "surrogatepass")).hexdigest())
        with _JEDI_LOCK:
            cached = _JEDI_CACHE.get(self.key)
            if cached is None:
                cached = _JEDI_CACHE[self.key] = {}
                if len(_JEDI_CACHE) > _JEDI_CACHE_SIZE:
                    _JEDI_CACHE.popitem(last=False)
            else:
                _JEDI_CACHE.move_to_end(self.key)
        self.cache = cached

    def receiver_type(self, line: int, column: int) -> str | None:
        """``"torch.Tensor"`` when jedi infers a tensor at ``line``/``column`` (0-based code points),
        ``""`` when it infers something else, ``None`` when undecided (no answer yet, or none)."""
        position = (line, column)
        if position in self.cache:
            return self.cache[position]
        job_key = (*self.key, line, column)
        with _JEDI_LOCK:
            future = _JEDI_PENDING.get(job_key)
            if future is None:
                if len(_JEDI_PENDING) >= _MAX_PENDING:
                    return None  # jedi is far behind: do not queue more work
                future = _executor().submit(_infer, self.source, self.path, line, column)
                _JEDI_PENDING[job_key] = future
                future.add_done_callback(lambda done: self._store(job_key, position, done))
        remaining = self.deadline - time.perf_counter()
        if remaining <= 0:
            return None  # the answer will be in the cache for the next analysis of this content
        try:
            return future.result(timeout=remaining)
        except FutureTimeout:
            return None
        except Exception:  # pragma: no cover - _infer catches everything
            return None

    def _store(self, job_key: tuple, position: tuple[int, int], future: Future) -> None:
        with _JEDI_LOCK:
            _JEDI_PENDING.pop(job_key, None)
            if not future.cancelled() and future.exception() is None:
                self.cache[position] = future.result()


class _JediThread:
    """One daemon thread running jedi jobs in order. Unlike a ThreadPoolExecutor it does not hold up
    interpreter exit until every queued inference has finished."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._run, name="msmigrate-jedi", daemon=True).start()

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        self._jobs.put((future, fn, args))
        return future

    def _run(self) -> None:
        while True:
            future, fn, args = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # delivered to whoever waits on the future
                future.set_exception(exc)


def _executor() -> _JediThread:
    global _JEDI_EXECUTOR
    if _JEDI_EXECUTOR is None:
        _JEDI_EXECUTOR = _JediThread()
    return _JEDI_EXECUTOR


def _infer(source: str, path: str, line: int, column: int) -> str | None:
    """Runs on the jedi thread: the receiver's type as :meth:`JediOracle.receiver_type` reports it."""
    try:
        import jedi

        names = jedi.Script(source, path=path or None).infer(line, column)
    except Exception as exc:  # jedi failing on odd code must never break analysis
        log.debug("jedi failed at %s:%s:%s: %s", path, line, column, exc)
        return None
    answer: str | None = None
    for name in names:
        full = name.full_name or ""
        if full in TENSOR_TYPE_NAMES:
            return "torch.Tensor"
        if full:
            answer = ""
    return answer


# Full names jedi gives the tensor type (``torch.Tensor`` is defined in ``torch._tensor``).
TENSOR_TYPE_NAMES: frozenset[str] = frozenset(
    {"torch.Tensor", "torch._tensor.Tensor", "torch.nn.parameter.Parameter", "torch.nn.Parameter"}
)
