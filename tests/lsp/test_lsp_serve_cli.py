"""``msmigrate serve``: loopback-only network transports, and a TCP session."""

from __future__ import annotations

import json
import os
import re
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


@dataclass
class Served:
    port: int
    token: str
    process: subprocess.Popen
    banner: str


@contextmanager
def _serving(option: str, *extra: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """``msmigrate serve <option> 127.0.0.1:0 <extra>`` in a subprocess; yields its port and token (read
    from the startup message on stderr)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "msmigrate", "serve", option, "127.0.0.1:0", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    try:
        banner = ""
        assert process.stderr is not None
        deadline = time.monotonic() + 30
        while not banner.endswith(")\n"):  # both startup messages end with a parenthesis
            ready, _, _ = select.select([process.stderr], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"no startup message within 30 s: {banner!r}"
            chunk = os.read(process.stderr.fileno(), 4096).decode()  # unbuffered: select stays truthful
            assert chunk, f"the server ended before listening: {banner}"
            banner += chunk
        port = int(re.search(r"127\.0\.0\.1:(\d+)", banner).group(1))
        found = re.search(r"session token: (\S+)", banner)
        yield Served(port, found.group(1) if found else "", process, banner)
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


def _initialize(request_id: object = "init-1", token: str | None = None) -> bytes:
    params: dict = {"capabilities": {}, "processId": None}
    if token is not None:
        params["initializationOptions"] = {"token": token, "language": "zh"}
    return _message({"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params})


def test_tcp_session_with_string_request_ids():
    with _serving("--tcp") as served:
        port = served.port
        sock = _connect(lambda: socket.create_connection(("127.0.0.1", port), timeout=10))
        with sock, sock.makefile("rb") as stream:
            sock.sendall(_initialize("init-1", served.token))
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

    with _serving("--ws") as served:
        assert f"ws://127.0.0.1:{served.port}/?token={served.token}" in served.banner
        websocket = _connect(lambda: connect(f"ws://127.0.0.1:{served.port}/?token={served.token}",
                                             open_timeout=10))
        with websocket:
            request = {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"capabilities": {}}}
            websocket.send(json.dumps(request))
            reply = json.loads(websocket.recv(timeout=20))
            assert reply["id"] == 7 and reply["result"]["serverInfo"]["name"] == "msmigrate"


def _refused(sock: socket.socket, stream, payload: bytes) -> dict | None:
    """Send ``payload``; the error reply (if any) before the server closes the connection."""
    sock.sendall(payload)
    reply = None
    try:
        reply = _read_message(stream)
        _read_message(stream)
    except EOFError:
        return reply
    raise AssertionError("the connection stayed open")


def test_tcp_requires_the_session_token():
    with _serving("--tcp") as served:
        assert len(served.token) >= 40
        refused = "msmigrate: connection refused: missing or wrong session token"
        for payload in (_initialize(1), _initialize(2, "x" * 43), _initialize(3, served.token[:-1])):
            sock = _connect(lambda: socket.create_connection(("127.0.0.1", served.port), timeout=10))
            with sock, sock.makefile("rb") as stream:
                reply = _refused(sock, stream, payload)
                assert reply["error"]["code"] == -32001 and reply["error"]["message"].startswith(refused)
                assert "result" not in reply
        # a first message that is not initialize (here: executeCommand with the token) is refused too
        request = {"jsonrpc": "2.0", "id": 9, "method": "workspace/executeCommand",
                   "params": {"command": "msmigrate.lookup", "arguments": ["torch.abs"],
                              "initializationOptions": {"token": served.token}}}
        sock = _connect(lambda: socket.create_connection(("127.0.0.1", served.port), timeout=10))
        with sock, sock.makefile("rb") as stream:
            assert _refused(sock, stream, _message(request))["error"]["code"] == -32001
        # garbage instead of a message: closed without a reply
        sock = _connect(lambda: socket.create_connection(("127.0.0.1", served.port), timeout=10))
        with sock, sock.makefile("rb") as stream:
            assert _refused(sock, stream, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n") is None
        assert served.process.poll() is None  # refusals end no session: the server still listens


def test_tcp_holds_one_session_a_second_connection_is_refused():
    """The second client must not take over the first one's session (it used to get its replies)."""
    with _serving("--tcp") as served:
        first = _connect(lambda: socket.create_connection(("127.0.0.1", served.port), timeout=10))
        with first, first.makefile("rb") as stream:
            first.sendall(_initialize("a", served.token))
            assert _read_message(stream)["id"] == "a"
            second = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            with second, second.makefile("rb") as other:
                reply = _refused(second, other, _initialize("b", served.token))
                assert reply["id"] == "b" and reply["error"]["message"].startswith(
                    "msmigrate: connection refused: another session is active")
            lookup = {"jsonrpc": "2.0", "id": 5, "method": "workspace/executeCommand",
                      "params": {"command": "msmigrate.lookup", "arguments": ["torch.abs"]}}
            first.sendall(_message(lookup))
            while (reply := _read_message(stream)).get("id") != 5:
                pass
            assert reply["result"]["mindspore_api"].startswith("mindspore.")
            first.sendall(_message({"jsonrpc": "2.0", "id": 6, "method": "shutdown"}))
            while (reply := _read_message(stream)).get("id") != 6:
                pass
            first.sendall(_message({"jsonrpc": "2.0", "method": "exit"}))
        assert served.process.wait(timeout=20) == 0


def test_token_from_the_environment_is_not_printed():
    token = "client-chosen-token-0123456789"
    with _serving("--tcp", env={"MSMIGRATE_TOKEN": token}) as served:
        assert token not in served.banner and "session token from the client's configuration" in served.banner
        sock = _connect(lambda: socket.create_connection(("127.0.0.1", served.port), timeout=10))
        with sock, sock.makefile("rb") as stream:
            sock.sendall(_initialize(1, token))
            assert _read_message(stream)["result"]["serverInfo"]["name"] == "msmigrate"
    result = CliRunner().invoke(serve, ["--tcp", "127.0.0.1:0"], env={"MSMIGRATE_TOKEN": "short"})
    assert result.exit_code == 2 and "shorter than 16 characters" in result.output


def test_token_from_a_file(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("file-token-0123456789abcdef\nignored\n", encoding="utf-8")
    with _serving("--ws", "--token-file", str(token_file), env={"MSMIGRATE_TOKEN": "env-token-0123456789"}) \
            as served:
        from websockets.exceptions import InvalidStatus
        from websockets.sync.client import connect

        assert "file-token" not in served.banner
        url = f"ws://127.0.0.1:{served.port}/?token="
        with pytest.raises(InvalidStatus):  # the file wins over the environment
            _connect(lambda: connect(url + "env-token-0123456789", open_timeout=10))
        with connect(url + "file-token-0123456789abcdef", open_timeout=10) as websocket:
            websocket.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                       "params": {"capabilities": {}}}))
            assert json.loads(websocket.recv(timeout=20))["id"] == 1
    result = CliRunner().invoke(serve, ["--tcp", ":0", "--token-file", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "cannot read the token file" in result.output


def test_websocket_refuses_foreign_origins_and_missing_tokens():
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with _serving("--ws", "--allow-origin", "http://localhost:3000") as served:
        url = f"ws://127.0.0.1:{served.port}/"
        for address, origin, status in (
            (f"{url}?token={served.token}", "https://evil.example", 403),  # any web page
            (f"{url}?token={served.token}", "http://localhost:8080", 403),
            (f"{url}?token={served.token}", "null", 403),
            (url, None, 401),
            (f"{url}?token=wrong", None, 401),
            (f"{url}?token=wrong", "vscode-webview://abc", 401),
        ):
            with pytest.raises(InvalidStatus) as refused:
                _connect(lambda a=address, o=origin: connect(a, origin=o, open_timeout=10))
            assert refused.value.response.status_code == status, (address, origin)
        with _connect(lambda: connect(f"{url}?token={served.token}", origin="http://localhost:3000",
                                      open_timeout=10)) as websocket:
            request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
            websocket.send(json.dumps(request))
            assert json.loads(websocket.recv(timeout=20))["id"] == 1
            with connect(f"{url}?token={served.token}", origin="vscode-webview://abc",
                         open_timeout=10) as second:  # the handshake passes, the session is taken
                with pytest.raises(Exception, match="another session is active"):
                    second.recv(timeout=10)


@pytest.mark.parametrize("verbose", [False, True])
def test_log_file_has_message_bodies_only_at_debug(tmp_path, verbose):
    log_file = tmp_path / "server.log"
    command = [sys.executable, "-m", "msmigrate", "serve", "--log-file", str(log_file)]
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"capabilities": {}, "rootUri": "file:///tmp/secret-marker"}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
         "params": {"command": "msmigrate.lookup", "arguments": ["torch.abs"]}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    completed = subprocess.run(command + ["-v"] * verbose, input=b"".join(_message(r) for r in requests),
                               capture_output=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert b'"id": 3' in completed.stdout  # the session ran
    log = log_file.read_text(encoding="utf-8")
    assert ("secret-marker" in log) is verbose
    assert ('"mindspore_api"' in log) is verbose
