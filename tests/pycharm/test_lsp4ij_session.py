"""The server as PyCharm + LSP4IJ drive it with our template.

The server is started exactly as template.json's programArgs say (macros expanded and split the LSP4IJ
way, the interpreter swapped for this test's Python), the client announces LSP4IJ's capabilities,
sends the template's initializationOptions.json, answers workspace/configuration from its
settings.json, uses string request ids (pygls's client does) and encoded file URIs (clientSettings.json
sets ``uriSupport.encoded``), and the project path has a space and non-ASCII characters so that the
encoded URI differs from the plain path.
"""

from __future__ import annotations

import ast
import asyncio
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsp4ij_support import load, lsp4ij_capabilities, server_argv
from lsprotocol import types
from pygls.workspace import TextDocument
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import make_test_lsp_client

from msmigrate.i18n import t

PROJECT = Path(tempfile.mkdtemp(prefix="msmigrate-pycharm-")) / "my project" / "模型"
CACHE = Path(tempfile.mkdtemp(prefix="msmigrate-pycharm-cache-"))
SOURCE = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return torch.relu(self.fc(x))
"""
# The user picked the 2.6 tables in the Configuration tab (README: "Mapping version").
SETTINGS = {**load("settings.json")["msmigrate"], "mindsporeVersion": "2.6"}


def make_client() -> LanguageClient:
    client = make_test_lsp_client()
    client.applied_edits = []  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied_edits.append(params)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    return client


PROJECT.mkdir(parents=True, exist_ok=True)
SERVER = ClientServerConfig(
    server_command=server_argv(PROJECT, Path.home()),
    client_factory=make_client,
    server_env={**os.environ, "MSMIGRATE_CACHE_DIR": str(CACHE)},
)


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def start(client: LanguageClient, *, pull: bool = False) -> str:
    """initialize + initialized as LSP4IJ sends them, then didOpen of model.py; returns its URI."""
    (PROJECT / "model.py").write_text(SOURCE, encoding="utf-8")
    client.set_configuration(SETTINGS, section="msmigrate")
    await client.initialize_session(
        types.InitializeParams(
            process_id=os.getpid(),
            capabilities=lsp4ij_capabilities(pull_diagnostics=pull),
            client_info=types.ClientInfo(name="PyCharm Community Edition", version="2025.2"),
            root_uri=PROJECT.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=PROJECT.as_uri(), name=PROJECT.name)],
            initialization_options=load("initializationOptions.json"),
        )
    )
    uri = (PROJECT / "model.py").as_uri()
    assert "my%20project/%E6%A8%A1%E5%9E%8B/model.py" in uri
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SOURCE)
        )
    )
    return uri


async def wait_for(predicate: Any, what: str, timeout: float = 30.0) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := predicate()):
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)
    return value


def linear_diagnostic(diagnostics: list[types.Diagnostic]) -> types.Diagnostic:
    (found,) = [d for d in diagnostics if d.range.start.line == 7 and d.code == "MSM101"]
    return found


async def test_diagnostics_hover_and_quick_fix(client: LanguageClient) -> None:
    uri = await start(client)
    diagnostics = await wait_for(lambda: client.diagnostics.get(uri), "publishDiagnostics")

    linear = linear_diagnostic(list(diagnostics))
    assert linear.range == types.Range(types.Position(7, 18), types.Position(7, 27))
    assert linear.source == "msmigrate"
    # the template's "default" level: the finding's own severity (only MindSpore-only parameters: a hint)
    assert linear.severity == types.DiagnosticSeverity.Hint
    assert linear.message.startswith("torch.nn.Linear → mindspore.mint.nn.Linear")
    # the nn.Module base of a class with forward is part of MSM501 (one finding per class)
    assert {(d.range.start.line, d.code) for d in diagnostics} >= {(9, "MSM501"), (7, "MSM101")}
    assert (4, "MSM201") not in {(d.range.start.line, d.code) for d in diagnostics}

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(7, 22))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "mindspore.mint.nn.Linear" in hover.contents.value

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=linear.range,
            context=types.CodeActionContext(
                diagnostics=[linear], trigger_kind=types.CodeActionTriggerKind.Invoked
            ),
        )
    )
    quick_fixes = [
        a
        for a in actions or []
        if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix
    ]
    assert quick_fixes, actions
    fix = quick_fixes[0]
    if fix.edit is None:  # LSP4IJ resolves the edit lazily (resolveSupport: ["edit"])
        fix = await client.code_action_resolve_async(fix)
    assert fix.edit is not None
    fixed = apply(SOURCE, edits_for(fix.edit, uri))
    ast.parse(fixed)
    assert fixed.splitlines()[2] == "import mindspore"
    assert fixed.splitlines()[8] == "        self.fc = mindspore.mint.nn.Linear(4, 2)"


async def test_settings_change_is_pulled_and_applied(client: LanguageClient) -> None:
    uri = await start(client)
    first = await wait_for(lambda: client.diagnostics.get(uri), "publishDiagnostics")
    assert linear_diagnostic(list(first)).message.startswith("torch.nn.Linear →")

    # The user switches the language in the Configuration tab: LSP4IJ sends didChangeConfiguration
    # with the new settings and answers the server's next workspace/configuration request.
    client.diagnostics.pop(uri)
    client.set_configuration({**SETTINGS, "language": "zh"}, section="msmigrate")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"msmigrate": {**SETTINGS, "language": "zh"}})
    )
    again = await wait_for(lambda: client.diagnostics.get(uri), "diagnostics after the settings change")
    message = linear_diagnostic(list(again)).message
    assert message != linear_diagnostic(list(first)).message
    assert any("\u4e00" <= ch <= "\u9fff" for ch in message), message


async def test_code_lens_scan_project_shows_the_report_with_progress(client: LanguageClient) -> None:
    uri = await start(client)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    commands = {lens.command.command: lens.command for lens in lenses or [] if lens.command}
    assert set(commands) == {"msmigrate.scanProject", "msmigrate.fixAll"}
    assert all(lens.range.start == types.Position(0, 0) for lens in lenses or [])

    scan = commands["msmigrate.scanProject"]
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=scan.command, arguments=scan.arguments)
    )
    report = result["report"]
    assert [f["path"] for f in report["files"]] == ["model.py"]
    html = PROJECT / ".msmigrate" / "report.html"
    assert Path(result["htmlReport"]) == html
    assert html.read_text(encoding="utf-8").lstrip().startswith("<!")

    # window/showDocument: LSP4IJ opens the report (external: in the browser).
    (shown,) = client.shown_documents
    assert shown.uri == html.as_uri() and shown.external is True

    # $/progress on a server-created token: begin, reports, end (LSP4IJ shows a background task).
    ((token, values),) = client.progress_reports.items()
    assert isinstance(token, str)
    begin, *reports, end = values
    assert isinstance(begin, types.WorkDoneProgressBegin) and begin.cancellable
    assert reports and reports[-1].percentage == 100
    assert isinstance(end, types.WorkDoneProgressEnd)


async def test_code_lens_fix_all_applies_a_workspace_edit(client: LanguageClient) -> None:
    uri = await start(client)
    await wait_for(lambda: client.diagnostics.get(uri), "publishDiagnostics")
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    (fix_all,) = [
        lens.command for lens in lenses or [] if lens.command and lens.command.command == "msmigrate.fixAll"
    ]
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=fix_all.command, arguments=fix_all.arguments)
    )
    (applied,) = client.applied_edits  # type: ignore[attr-defined]
    assert result["accepted"] is True and result["applied"] >= 1
    fixed = apply(SOURCE, edits_for(applied.edit, uri))
    ast.parse(fixed)
    # torch is no longer used once every use is rewritten: its imports go
    expected = SOURCE.replace("import torch\nimport torch.nn as nn\n", "import mindspore\n")
    expected = expected.replace("nn.Linear(4, 2)", "mindspore.mint.nn.Linear(4, 2)")
    expected = expected.replace("def forward(", "def construct(")
    # the derived mappings (nn.Module → nn.Cell, torch.relu → ops.relu) are rewritten too
    expected = expected.replace("class Net(nn.Module):", "class Net(mindspore.nn.Cell):")
    assert fixed == expected.replace("torch.relu(", "mindspore.ops.relu(")


async def test_pull_diagnostics_of_newer_lsp4ij(client: LanguageClient) -> None:
    uri = await start(client, pull=True)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert linear_diagnostic(list(report.items)).range.start == types.Position(7, 18)
    assert uri not in client.diagnostics  # nothing pushed in pull mode


COMPARE_TABLE = """
[[tool.msmigrate.compare]]
name = "net"
torch = "model.py:Net()"
mindspore = "model_ms.py:Net()"
inputs = [{shape = [2, 4]}]
"""


async def test_code_lens_compare_opens_the_markdown_report(client: LanguageClient) -> None:
    # LSP4IJ has no command palette: the lens on a model file a [[tool.msmigrate.compare]] table names is
    # the trigger, and the result is the Markdown page the server asks the IDE to open. The migrated
    # model's file is missing here, so nothing is imported and no framework is needed.
    from msmigrate.compare.markdown import text

    config = PROJECT / "pyproject.toml"
    config.write_text(COMPARE_TABLE, encoding="utf-8")
    asked: list[types.ShowMessageRequestParams] = []

    def on_request(params: types.ShowMessageRequestParams) -> types.MessageActionItem:
        asked.append(params)
        return types.MessageActionItem(title="Run it")

    client.protocol.fm.features[types.WINDOW_SHOW_MESSAGE_REQUEST] = on_request
    try:
        uri = await start(client)
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        (compare,) = [lens.command for lens in lenses or [] if lens.command.command.endswith("compareModels")]
        assert compare.title == "Compare with the PyTorch original: net"
        assert list(compare.arguments) == [{"name": "net", "config": str(config)}]
        result = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=compare.command, arguments=compare.arguments)
        )
    finally:
        config.unlink()
    missing = t("weights.error.model_missing", "en", path=str(PROJECT / "model_ms.py"))
    markdown = PROJECT / ".msmigrate" / "compare-net.md"
    assert (result["markdownReport"], result["shown"], result["report"]["status"]) == (
        str(markdown), True, "error")
    assert result["summary"] == f"Compare net: the comparison did not complete: {missing}"
    (question,) = asked
    assert str(PROJECT / "model.py") in question.message and str(PROJECT / "model_ms.py") in question.message
    # the verdict as a notification, the page opened in the IDE's editor (not externally)
    last = client.messages[-1]
    assert (last.type, last.message) == (types.MessageType.Error, result["summary"])
    (shown,) = client.shown_documents
    assert shown.uri == markdown.as_uri() and "my%20project/%E6%A8%A1%E5%9E%8B/" in shown.uri
    assert shown.external is False
    page = markdown.read_text(encoding="utf-8").splitlines()
    assert page[0] == "# Compare net: the comparison did not complete"
    assert f"**Error:** {text(missing)}" in page
    # progress on a server-created token (a background task in the IDE), ended with the summary
    ((token, values),) = client.progress_reports.items()
    assert token.startswith("msmigrate-compare-") and values[0].cancellable
    assert values[-1].message == result["summary"]


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    if edit.document_changes:
        return [
            e for change in edit.document_changes if change.text_document.uri == uri for e in change.edits
        ]
    return list((edit.changes or {}).get(uri, []))


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions, last first) the way the IDE does."""
    document = TextDocument("file:///applied.py", text)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        document.apply_change(types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text))
    return document.source


@pytest.fixture(autouse=True)
def fresh_report_folder() -> None:
    report = PROJECT / ".msmigrate"
    if report.is_dir():
        for item in report.iterdir():
            item.unlink()
