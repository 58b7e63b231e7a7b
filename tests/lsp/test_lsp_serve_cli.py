"""``msmigrate serve``: loopback-only network transports, and a TCP session."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest
from click.testing import CliRunner

from msmigrate.cli.serve_cmd import _address, _is_loopback, serve

T = TypeVar("T")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("127.0.0.1:2087", ("127.0.0.1", 2087)),
        (":9000", ("127.0.0.1", 9000)),
        ("9000", ("127.0.0.1", 9000)),
        ("[::1]:7000", ("::1", 7000)),
        ("localhost:1", ("localhost", 1)),
    ],
)
def test_address_parsing(value, expected):
    assert _address(value) == expected


def test_loopback_detection():
    assert _is_loopback("127.0.0.1") and _is_loopback("::1") and _is_loopback("localhost")
    assert not _is_loopback("0.0.0.0") and not _is_loopback("192.168.1.4") and not _is_loopback("example.com")


@pytest.mark.parametrize("option", ["--tcp", "--ws"])
def test_non_loopback_host_is_refused(option):
    result = CliRunner().invoke(serve, [option, "0.0.0.0:2087"])
    assert result.exit_code == 2
    assert "refusing to listen on 0.0.0.0 (not loopback); add --allow-remote to allow it" in result.output


def test_bad_port_is_a_usage_error():
    result = CliRunner().invoke(serve, ["--tcp", "127.0.0.1:http"])
    assert result.exit_code == 2 and "is not HOST:PORT" in result.output


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_message(stream) -> dict:
    headers = b""
    while not headers.endswith(b"\r\n\r\n"):
        chunk = stream.read(1)
        if not chunk:
            raise EOFError("server closed the connection")
        headers += chunk
    length = next(
        int(h.split(b":")[1]) for h in headers.split(b"\r\n") if h.lower().startswith(b"content-length")
    )
    return json.loads(stream.read(length))


@contextmanager
def _serving(option: str) -> Iterator[int]:
    """``msmigrate serve <option> 127.0.0.1:<free port>`` running in a subprocess; yields the port."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "msmigrate", "serve", option, f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def _connect(open_connection: Callable[[], T]) -> T:
    """``open_connection()``, retried for up to 20 s while the server starts listening."""
    deadline = time.monotonic() + 20
    while True:
        try:
            return open_connection()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_tcp_session_with_string_request_ids():
    with _serving("--tcp") as port:
        sock = _connect(lambda: socket.create_connection(("127.0.0.1", port), timeout=10))
        with sock, sock.makefile("rb") as stream:
            sock.sendall(
                _message(
                    {
                        "jsonrpc": "2.0",
                        "id": "init-1",
                        "method": "initialize",
                        "params": {"capabilities": {}, "processId": None},
                    }
                )
            )
            reply = _read_message(stream)
            assert reply["id"] == "init-1" and reply["result"]["serverInfo"]["name"] == "msmigrate"
            assert reply["result"]["capabilities"]["hoverProvider"] is True
            sock.sendall(_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
            while (reply := _read_message(stream)).get("id") != 2:
                pass
            assert reply["result"] is None
            sock.sendall(_message({"jsonrpc": "2.0", "method": "exit"}))


def test_websocket_session():
    from websockets.sync.client import connect

    with _serving("--ws") as port:
        websocket = _connect(lambda: connect(f"ws://127.0.0.1:{port}", open_timeout=10))
        with websocket:
            request = {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"capabilities": {}}}
            websocket.send(json.dumps(request))
            reply = json.loads(websocket.recv(timeout=20))
            assert reply["id"] == 7 and reply["result"]["serverInfo"]["name"] == "msmigrate"
