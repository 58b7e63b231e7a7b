"""The server in this process, driven by JSON-RPC messages without a transport: for tests that look at
its data structures (what it keeps per document)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from msmigrate.lsp.features import create_server
from msmigrate.lsp.server import MsMigrateServer


class Collector:
    """The writer the server sends to: keeps each message."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        body = data.split(b"\r\n\r\n", 1)[-1]
        self.messages.append(json.loads(body))

    def close(self) -> None:
        pass


class InProcessSession:
    def __init__(self) -> None:
        self.server: MsMigrateServer = create_server()
        self.out = Collector()
        self.server.protocol.set_writer(self.out)  # type: ignore[arg-type]
        self.next_id = 0

    def send(self, method: str, params: Any, request: bool = False) -> int | None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        structured = json.loads(json.dumps(message), object_hook=self.server.protocol.structure_message)
        self.server.protocol.handle_message(structured)
        return message.get("id")

    async def request(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        request_id = self.send(method, params, request=True)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            for message in self.out.messages:
                if message.get("id") == request_id and "method" not in message:
                    return message
            await asyncio.sleep(0.01)
        raise AssertionError(f"no reply to {method}")

    async def initialize(self, root_uri: str) -> None:
        await self.request("initialize", {"capabilities": {}, "rootUri": root_uri})
        self.send("initialized", {})

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.send("textDocument/didOpen", {
            "textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}
        })

    def close(self, uri: str) -> None:
        self.send("textDocument/didClose", {"textDocument": {"uri": uri}})

    def published(self, uri: str) -> list[dict[str, Any]]:
        return [m["params"] for m in self.out.messages
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
