"""A bare JSON-RPC client over the server's stdio, for messages pytest-lsp would not send (requests
before ``initialize``, ``exit`` without ``shutdown``, malformed params), and for servers other than this
checkout's (an installed copy: ``command``, ``env``)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from lsp_support import SERVER


class RawSession:
    def __init__(self, command: Sequence[str] | None = None, env: dict[str, str] | None = None,
                 cwd: str | None = None) -> None:
        self.process = subprocess.Popen(
            list(command or [sys.executable, "-m", "msmigrate", "serve"]),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=SERVER.server_env if env is None else env,
            cwd=cwd,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []  # every message the server sent, in order
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                header = stream.readline()
                if not header:
                    return
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
                if header in (b"\r\n", b"\n"):
                    break
            message = json.loads(stream.read(length))
            self.seen.append(message)
            self.messages.put(message)

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def reply(self, request_id: int, timeout: float = 10.0) -> dict[str, Any]:
        """The response to ``request_id`` (other messages are skipped)."""
        while True:
            message = self.messages.get(timeout=timeout)
            if message.get("id") == request_id and "method" not in message:
                return message

    def request(self, request_id: int, method: str, params: Any = None) -> dict[str, Any]:
        self.send({"id": request_id, "method": method, "params": params})
        return self.reply(request_id)

    def notified(self, method: str, predicate: Callable[[Any], bool] = lambda params: True,
                 timeout: float = 20.0) -> Any:
        """The params of the first ``method`` notification that satisfies ``predicate`` (waits for it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in list(self.seen):
                if message.get("method") == method and "id" not in message and predicate(message["params"]):
                    return message["params"]
            time.sleep(0.05)
        raise AssertionError(f"no {method} notification within {timeout} s")

    def initialize(self) -> None:
        assert "result" in self.request(1, "initialize", {"capabilities": {}})
        self.send({"method": "initialized", "params": {}})

    def open(self, uri: str, text: str) -> None:
        self.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}})

    def shutdown(self, request_id: int) -> tuple[int, str]:
        """``shutdown`` (its result must be null), then ``exit``: the exit code and stderr (the process is
        killed if it is still running after that)."""
        try:
            assert self.request(request_id, "shutdown")["result"] is None
            self.send({"method": "exit"})
            return self.finish()
        finally:
            if self.process.poll() is None:
                self.process.kill()

    def finish(self, timeout: float = 10.0) -> tuple[int, str]:
        """Wait for the process; its exit code and stderr."""
        try:
            code = self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        assert self.process.stderr is not None
        return code, self.process.stderr.read().decode("utf-8", "replace")
