"""Network transports of ``msmigrate serve``: authenticated, one client session per server process.

Loopback is not a boundary (any local process, and any web page through a WebSocket, can reach it), so:

* every connection must present the session token — over TCP in its first message, an ``initialize``
  request with ``initializationOptions.token``; over a WebSocket as ``?token=`` in the URL. A wrong or
  missing token closes the connection (TCP: after an error reply; WebSocket: HTTP 401 at the handshake);
* a WebSocket handshake with an ``Origin`` header is refused (HTTP 403) unless the origin is a VS Code
  webview (``vscode-webview://``) or one allowed with ``--allow-origin``; clients that are not browsers
  send no ``Origin``;
* the server holds one session: a second authenticated connection while one is active is refused (it
  would otherwise take over the first client's replies); when the session ends the server exits, as over
  stdio.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import secrets
import threading
from collections.abc import Awaitable, Callable, Collection
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pygls.io_ import run_async, run_websocket

from msmigrate.i18n import t
from msmigrate.lsp.protocol import set_listener, set_stop_event
from msmigrate.lsp.server import MsMigrateServer

log = logging.getLogger(__name__)

TOKEN_OPTION = "token"  # key of initializationOptions that carries the token over TCP
AUTH_TIMEOUT = 10.0  # seconds a TCP connection has to send its first message
MAX_HEADER = 8192
MAX_FIRST_MESSAGE = 1 << 20  # bytes: an initialize request is far smaller
WEBVIEW_ORIGIN = "vscode-webview://"
UNAUTHORIZED = -32001  # JSON-RPC server error code of a refused connection
_CONTENT_LENGTH = re.compile(rb"content-length:\s*(\d+)\s*", re.IGNORECASE)


def new_token() -> str:
    """A fresh session secret (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_matches(given: Any, token: str) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8"))


def origin_allowed(origin: str | None, allowed: Collection[str]) -> bool:
    """No ``Origin`` (not a browser), a VS Code webview, or an origin allowed explicitly."""
    if origin is None:
        return True
    return origin.startswith(WEBVIEW_ORIGIN) or origin.rstrip("/") in {a.rstrip("/") for a in allowed}


class SessionGate:
    """Admits one session at a time (all on the event loop: no lock needed)."""

    def __init__(self) -> None:
        self.active = False

    def claim(self) -> bool:
        if self.active:
            return False
        self.active = True
        return True


async def _read_first_message(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The first framed JSON-RPC message, or ``None`` when it is malformed, too large or too slow."""
    length = None
    size = 0
    while True:
        line = await reader.readline()
        size += len(line)
        if not line or size > MAX_HEADER:
            return None
        if line in (b"\r\n", b"\n"):
            break
        match = _CONTENT_LENGTH.fullmatch(line)
        if match:
            length = int(match.group(1))
    if length is None or length > MAX_FIRST_MESSAGE:
        return None
    try:
        message = json.loads(await reader.readexactly(length))
    except (ValueError, asyncio.IncompleteReadError):
        return None
    return message if isinstance(message, dict) else None


def _authenticated(message: dict[str, Any] | None, token: str) -> bool:
    if message is None or message.get("method") != "initialize":
        return False
    params = message.get("params")
    options = params.get("initializationOptions") if isinstance(params, dict) else None
    return isinstance(options, dict) and token_matches(options.get(TOKEN_OPTION), token)


def _refuse_tcp(writer: asyncio.StreamWriter, message: dict[str, Any] | None, key: str) -> None:
    """Answer the first request with an error (when it had an id), then close the connection."""
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(request_id, str | int):
        reply = {"jsonrpc": "2.0", "id": request_id, "error": {"code": UNAUTHORIZED, "message": t(key, "en")}}
        body = json.dumps(reply).encode("utf-8")
        writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    writer.close()


def _session_ended(server: MsMigrateServer) -> None:
    log.debug("session ended")
    server.shutdown()


def serve_tcp(
    server: MsMigrateServer, host: str, port: int, token: str, on_listening: Callable[[str, int], None]
) -> None:
    """Listen on TCP until the one session ends (or ``exit`` ends the process)."""
    gate = SessionGate()
    stop_event = threading.Event()
    set_stop_event(server, stop_event)

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            first = await asyncio.wait_for(_read_first_message(reader), AUTH_TIMEOUT)
        except (TimeoutError, ConnectionError):
            first = None
        if not _authenticated(first, token):
            log.warning("refused a TCP connection: missing or wrong token")
            _refuse_tcp(writer, first, "lsp.transport.bad_token")
            return
        if not gate.claim():
            log.warning("refused a TCP connection: a session is active")
            _refuse_tcp(writer, first, "lsp.transport.busy")
            return
        assert first is not None
        first["params"]["initializationOptions"].pop(TOKEN_OPTION, None)  # never kept nor logged
        server.protocol.set_writer(writer)  # type: ignore[arg-type]
        try:
            server.protocol.handle_message(
                json.loads(json.dumps(first), object_hook=server.protocol.structure_message)
            )
            await run_async(stop_event=stop_event, reader=reader, protocol=server.protocol, logger=log,
                            error_handler=server.report_server_error)
        finally:
            _session_ended(server)

    _serve_forever(server, lambda: asyncio.start_server(connection, host, port), host, on_listening)


def serve_ws(
    server: MsMigrateServer,
    host: str,
    port: int,
    token: str,
    allowed_origins: Collection[str],
    on_listening: Callable[[str, int], None],
) -> None:
    """Listen on a WebSocket until the one session ends (or ``exit`` ends the process)."""
    from websockets.asyncio.server import ServerConnection, serve
    from websockets.http11 import Request, Response

    gate = SessionGate()
    stop_event = threading.Event()
    set_stop_event(server, stop_event)

    def check(connection: ServerConnection, request: Request) -> Response | None:
        origin = request.headers.get("Origin")
        if not origin_allowed(origin, allowed_origins):
            log.warning("refused a WebSocket connection from origin %r", origin)
            return connection.respond(403, t("lsp.transport.bad_origin", "en") + "\n")
        given = parse_qs(urlsplit(request.path).query).get(TOKEN_OPTION, [None])[-1]
        if not token_matches(given, token):
            log.warning("refused a WebSocket connection: missing or wrong token")
            return connection.respond(401, t("lsp.transport.bad_token", "en") + "\n")
        return None

    async def connection(websocket: ServerConnection) -> None:
        if not gate.claim():
            log.warning("refused a WebSocket connection: a session is active")
            await websocket.close(1008, t("lsp.transport.busy", "en")[:120])
            return
        try:
            await run_websocket(websocket=websocket, stop_event=stop_event, protocol=server.protocol,
                                logger=log, error_handler=server.report_server_error)
        finally:
            _session_ended(server)

    _serve_forever(server, lambda: serve(connection, host, port, process_request=check), host, on_listening)


def _serve_forever(server: Any, start: Callable[[], Awaitable[Any]], host: str,
                   on_listening: Callable[[str, int], None]) -> None:
    """Start a listener (``start``), announce its port, and serve until pygls's shutdown closes it."""

    async def main() -> None:
        listener = await start()
        set_listener(server, listener)
        on_listening(host, listener.sockets[0].getsockname()[1])
        async with listener:
            await listener.serve_forever()

    try:
        asyncio.run(main())
    except asyncio.CancelledError:
        pass
