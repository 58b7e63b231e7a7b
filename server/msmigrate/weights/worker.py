"""The weights and model worker: ``python -m msmigrate.weights.worker``, one framework per process.

``MSMIGRATE_WORKER_SIDE=torch`` reads torch checkpoints (weights-only loading) and runs torch models;
``MSMIGRATE_WORKER_SIDE=mindspore`` builds migrated models, writes MindSpore checkpoints and runs them,
in a process where ``import torch`` fails (a leftover torch import of the migrated code is reported, not
hidden). Requests and replies are JSON lines (``check/worker_protocol.serve``); every failure is a reply
``{"status": "error", "key": <message key>, "fields": {...}}``, rendered by the caller in its language.
"""

from __future__ import annotations

import importlib
import importlib.abc
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from msmigrate.check.worker_shared import exc_text as check_exc_text

SIDE_ENV = "MSMIGRATE_WORKER_SIDE"
TEST_KINDS_ENV = "MSMIGRATE_CHECK_TEST_KINDS"  # the runner's switch for the test-only kinds (sleep)

# request kind -> (side, "module:function"); the function takes the request and returns the reply fields
KINDS: dict[str, tuple[str, str]] = {
    "read": ("any", "msmigrate.weights.worker_read:read"),
    "model": ("mindspore", "msmigrate.weights.worker_model:model_parameters"),
    "write": ("mindspore", "msmigrate.weights.worker_write:write"),
    "torch_run": ("torch", "msmigrate.compare.worker_torch:run"),
    "mindspore_run": ("mindspore", "msmigrate.compare.worker_mindspore:run"),
}


class WorkerError(Exception):
    """A failure the user must read: a message key of ``messages/weights.py`` with its fields."""

    def __init__(self, message_key: str, /, **fields: Any) -> None:
        super().__init__(message_key)
        self.key, self.fields = message_key, fields


def exc_text(exc: BaseException, limit: int = 1500) -> str:
    """``Type: message`` on one line, without MindSpore's C++ call-stack section (up to ``limit``)."""
    return check_exc_text(exc, limit)


def framework(name: str) -> Any:
    """``torch``, ``mindspore`` or ``numpy``, imported; a clear error when it is not installed."""
    try:
        module = importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any import failure is reported the same way
        raise WorkerError("weights.error.missing_framework", name=name, detail=exc_text(exc, 400)) from None
    if name == "mindspore" and not getattr(framework, "_ready", False):
        framework._ready = True  # type: ignore[attr-defined]
        _quiet_mindspore(module)
    return module


def _quiet_mindspore(ms: Any) -> None:
    """CPU, errors at the failing call (not at a later one)."""
    try:
        ms.set_device("CPU")
    except Exception:  # noqa: BLE001 - older MindSpore
        ms.set_context(device_target="CPU")
    try:
        ms.runtime.launch_blocking()
    except AttributeError:
        ms.set_context(pynative_synchronize=True)


class _NoTorch(importlib.abc.MetaPathFinder):
    """Makes ``import torch`` fail the way a MindSpore-only environment does."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname == "torch" or fullname.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def side() -> str:
    return os.environ.get(SIDE_ENV, "torch")


def _function(kind: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    where, target = KINDS[kind]
    if where not in ("any", side()):
        raise WorkerError("weights.error.bad_request", detail=f"{kind} runs in the {where} worker")
    module_name, _, name = target.partition(":")
    return getattr(importlib.import_module(module_name), name)


def handle(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one request (never raises)."""
    started = time.monotonic()
    kind = request.get("kind")
    try:
        if kind == "sleep" and os.environ.get(TEST_KINDS_ENV) == "1":
            time.sleep(float(request.get("seconds", 3600)))
            reply: dict[str, Any] = {"status": "ok"}
        elif kind not in KINDS:
            raise WorkerError("weights.error.bad_request", detail=f"unknown request kind {kind!r}")
        else:
            reply = {"status": "ok", **_function(str(kind))(request)}
    except WorkerError as error:
        reply = {"status": "error", "key": error.key, "fields": error.fields}
    except MemoryError as exc:
        reply = {"status": "error", "key": "weights.error.memory", "fields": {"detail": exc_text(exc)}}
    except Exception as exc:  # noqa: BLE001 - every request gets an answer
        reply = {
            "status": "error",
            "key": "weights.error.internal",
            "fields": {"detail": exc_text(exc) + " | " + traceback.format_exc(limit=4)[-800:]},
        }
    reply["duration"] = round(time.monotonic() - started, 3)
    return reply


def main() -> int:
    sys.modules.setdefault("msmigrate.weights.worker", sys.modules[__name__])  # one WorkerError class
    if side() == "mindspore":
        sys.meta_path.insert(0, _NoTorch())
    from msmigrate.check.worker_protocol import serve

    return serve(handle)


if __name__ == "__main__":
    sys.exit(main())
