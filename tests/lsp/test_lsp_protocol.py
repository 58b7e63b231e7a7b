"""JSON-RPC / LSP lifecycle: malformed params, requests before initialize and after shutdown, a second
initialize, exit codes, odd executeCommand arguments, invalid settings changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_support import initialize, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient
from raw_lsp import RawSession

from msmigrate.lsp.protocol import argument_problem

HOVER = {"textDocument": {"uri": "file:///a.py"}, "position": {"line": 0, "character": 0}}


@pytest.fixture
def raw():
    session = RawSession()
    yield session
    if session.process.poll() is None:
        session.process.kill()
        session.process.wait()


def test_requests_before_initialize_are_refused(raw: RawSession):
    reply = raw.request(0, "textDocument/hover", HOVER)
    assert reply["error"]["code"] == -32002
    assert reply["error"]["message"] == (
        "textDocument/hover: the server is not initialized yet (send initialize first)"
    )
    raw.initialize()
    assert raw.request(2, "textDocument/hover", HOVER) == {"jsonrpc": "2.0", "id": 2, "result": None}


def test_second_initialize_and_requests_after_shutdown_are_refused(raw: RawSession):
    raw.initialize()
    second = raw.request(2, "initialize", {"capabilities": {}})
    assert second["error"] == {
        "code": -32600, "message": "The server is already initialized; a second initialize is rejected"
    }
    assert raw.request(3, "shutdown") == {"jsonrpc": "2.0", "id": 3, "result": None}
    after = raw.request(4, "textDocument/hover", HOVER)
    assert after["error"]["code"] == -32600
    raw.send({"method": "exit"})
    code, stderr = raw.finish()
    assert code == 0 and "Traceback" not in stderr


def test_exit_without_shutdown_exits_with_1(raw: RawSession):
    raw.initialize()
    raw.send({"method": "exit"})
    assert raw.finish()[0] == 1


MALFORMED_HOVERS = [
    ({"textDocument": {"uri": "file:///a.py"}}, "'position'"),
    ({**HOVER, "position": {"line": -5, "character": 0}}, "Position.line should be in range"),
    ({**HOVER, "position": {"line": "x", "character": 0}}, "invalid literal for int()"),
    ([1, 2], "list indices must be integers"),
    (None, "NoneType"),
]
ODD_COMMANDS = [
    ("msmigrate.scanFile", ["\u0000"], "Invalid arguments for msmigrate.scanFile: [0]: NUL character"),
    ("msmigrate.exportReport", [{"format": ["html"]}],
     "Invalid arguments for msmigrate.exportReport: format: list"),
    ("msmigrate.lookup", [{"name": {"a": 1}}], "Invalid arguments for msmigrate.lookup: name: dict"),
    ("msmigrate.fixAll", [[1]], "Invalid arguments for msmigrate.fixAll: [0]: list"),
    ("msmigrate.lookup", "torch.abs", "Invalid arguments for msmigrate.lookup: arguments: not a short list"),
    # positional values are checked against the command's argument class (contract/commands.py)
    ("msmigrate.lookup", [5], "Invalid arguments for msmigrate.lookup: [0]: int"),
    ("msmigrate.checkEquivalence", ["torch.abs", "file:///a.py", "3"],
     "Invalid arguments for msmigrate.checkEquivalence: [2]: str"),
]


def test_malformed_params_and_odd_command_arguments_are_invalid_params(raw: RawSession):
    raw.initialize()
    for number, (params, detail) in enumerate(MALFORMED_HOVERS, start=10):
        reply = raw.request(number, "textDocument/hover", params)
        assert reply["error"]["code"] == -32602
        assert reply["error"]["message"].startswith("Invalid params for textDocument/hover: ")
        assert detail in reply["error"]["message"]
    # a malformed notification is dropped; the server goes on
    raw.send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": 3}}})
    assert raw.request(20, "textDocument/hover", HOVER)["result"] is None
    for number, (command, arguments, message) in enumerate(ODD_COMMANDS, start=30):
        reply = raw.request(number, "workspace/executeCommand", {"command": command, "arguments": arguments})
        assert reply["error"] == {"code": -32602, "message": message}
    lookup = {"command": "msmigrate.lookup", "arguments": ["torch.abs"]}
    good = raw.request(40, "workspace/executeCommand", lookup)
    assert good["result"]["mindspore_api"] == "mindspore.mint.abs"
    assert good["result"]["markdown"].startswith("**torch.abs → mindspore.mint.abs (MindSpore 2.6)**\n\n")
    by_key = {"command": "msmigrate.lookup", "arguments": [{"api": "torch.abs", "unknown": 1}]}
    assert raw.request(42, "workspace/executeCommand", by_key)["result"] == good["result"]
    assert raw.request(41, "shutdown")["result"] is None
    raw.send({"method": "exit"})
    code, stderr = raw.finish()
    assert code == 0 and "Traceback" not in stderr and "failed" not in stderr


def test_argument_table():
    assert argument_problem(None) is None
    assert argument_problem(["file:///x.py"]) is None
    assert argument_problem([{"api": "torch.abs", "uri": "file:///x.py", "line": 3, "column": 4}]) is None
    assert argument_problem([{"api": "torch.abs", "line": True}]) == "line: bool"
    assert argument_problem([{"unknown": [1]}]) is None
    assert argument_problem(["a"] * 9) == "arguments: not a short list"


async def test_invalid_settings_change_is_rejected_whole(client: LanguageClient, tmp_path: Path):
    shown = client.messages  # window/showMessage, recorded by pytest-lsp
    await initialize(client, tmp_path, init_options={"language": "zh"}, configuration=False)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"msmigrate": {"language": "en", "mindsporeVersion": "9.9", "codeLens": "yes"}}
    ))
    await wait_until(lambda: shown, what="the rejection message")
    assert shown[0].type == types.MessageType.Warning
    # still Chinese: the valid "language" of the rejected change was not applied either
    assert shown[0].message == (
        "未应用 msmigrate 设置（保留之前的设置）：mindsporeVersion: '9.9' not in auto, 1.10, 2.3, 2.4, 2.6; "
        "codeLens: 'yes'"
    )
    assert (await wait_until_version(client, "2.6"))["mindspore_version"] == "2.6"  # the default stays
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"msmigrate": {"language": "en", "mindsporeVersion": "2.4"}}
    ))
    lookup = await wait_until_version(client, "2.4")
    assert lookup["mindspore_version"] == "2.4" and len(shown) == 1


async def wait_until_version(client: LanguageClient, version: str) -> dict:
    async def ask() -> dict:
        return await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="msmigrate.lookup", arguments=["torch.abs"])
        )

    for _ in range(100):
        result = await ask()
        if result["mindspore_version"] == version:
            return result
        await asyncio.sleep(0.05)
    raise AssertionError(f"settings never reached MindSpore {version}")
