"""The code action "Check equivalence with MindSpore on CPU" end to end, with a real worker on CPU."""

from pathlib import Path

import pytest
from lsp_support import initialize, open_document, published_for, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytest.importorskip("torch")
pytest.importorskip("mindspore")

SOURCE = "import torch.nn.functional as F\n\ny = F.softmax(x, dim=1)\nz = F.softmax(x, dim=7)\n"


async def actions_at(client: LanguageClient, uri: str, line: int, character: int) -> list[types.CodeAction]:
    position = types.Position(line, character)
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(position, position),
        context=types.CodeActionContext(diagnostics=[]),
    )
    return await client.text_document_code_action_async(params) or []


async def test_check_equivalence_code_action_runs_a_worker(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings={"mindsporeVersion": "2.6", "device": "CPU"})
    uri = open_document(client, tmp_path / "model.py", SOURCE)
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")

    actions = await actions_at(client, uri, 2, 7)
    checks = [a for a in actions if a.command and a.command.command == "msmigrate.checkEquivalence"]
    assert [a.title for a in checks] == ["Check equivalence with MindSpore on CPU"]
    assert checks[0].kind == "quickfix.msmigrate.checkEquivalence"
    argument = checks[0].command.arguments[0]
    assert (argument["api"], argument["line"]) == ("torch.nn.functional.softmax", 3)

    reply = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=checks[0].command.command, arguments=checks[0].command.arguments)
    )
    result = reply["result"]
    assert (result["status"], result["mindspore_api"], result["device"]) == (
        "pass",
        "mindspore.mint.nn.functional.softmax",
        "CPU",
    )
    assert result["max_abs_error"] <= 1e-6
    assert result["detail"] == "call-site literals: dim"
    assert reply["summary"].startswith("pass; max abs error ")
    shown = client.messages[-1]
    assert shown.type == types.MessageType.Info
    assert shown.message.startswith(
        "torch.nn.functional.softmax → mindspore.mint.nn.functional.softmax: pass"
    )
    reports = [
        r for token, rs in client.progress_reports.items() if token.startswith("msmigrate-check-") for r in rs
    ]
    assert reports[0].kind == "begin" and reports[0].title == "Checking torch.nn.functional.softmax on CPU"
    assert reports[-1].kind == "end"

    # a literal dim=7 from the call site makes torch itself reject the call: the result says so,
    # and the hover of the API now shows this live result instead of the bundled verified table
    actions = await actions_at(client, uri, 3, 7)
    check = next(a for a in actions if a.command and a.command.command == "msmigrate.checkEquivalence")
    reply = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=check.command.command, arguments=check.command.arguments)
    )
    assert (reply["result"]["status"], reply["result"]["reason"]) == ("error", "torch_error")
    assert "Dimension out of range" in reply["result"]["detail"]
    assert client.messages[-1].type == types.MessageType.Error
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(2, 7))
    )
    assert "could not be verified on CPU with MindSpore 2.10 / torch 2.13" in hover.contents.value


async def test_command_without_api_is_a_clear_error(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path)
    reply = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="msmigrate.checkEquivalence", arguments=[{}])
    )
    assert reply == {"error": "msmigrate.checkEquivalence needs a torch API name"}


async def test_python_path_setting_chooses_the_worker_interpreter(client: LanguageClient, tmp_path: Path):
    # an "interpreter" the system cannot start (no #! line, not a binary); the user confirms it (see
    # tests/lsp/test_lsp_security.py)
    broken = tmp_path / "python3"
    broken.write_text("not a program\n", encoding="utf-8")
    broken.chmod(0o755)
    missing = str(broken)
    client.protocol.fm.features[types.WINDOW_SHOW_MESSAGE_REQUEST] = lambda params: params.actions[0]
    await initialize(client, tmp_path, settings={"mindsporeVersion": "2.6", "pythonPath": missing})
    uri = open_document(client, tmp_path / "m.py", SOURCE)
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    reply = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="msmigrate.checkEquivalence", arguments=["torch.nn.functional.softmax", uri, 3, 5]
        )
    )
    assert (reply["result"]["status"], reply["result"]["reason"]) == ("error", "worker_start")
    assert missing in reply["message"] and "msmigrate.pythonPath" in reply["message"]
    assert client.messages[-1].type == types.MessageType.Error
