"""A newer version cancels the running analysis of an older one: the server stops it at its next check
(the server's log says so), publishes nothing of it, and publishes the newest version's diagnostics.
Closing the document and shutting the server down cancel it too."""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

import pytest_lsp
from inprocess import InProcessSession
from lsp_support import (
    SERVER,
    end_session,
    initialize,
    open_document,
    published_for,
    serve_command,
    session_log,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.lsp.analysis import RunningAnalyses

LOG_DIR = Path(tempfile.mkdtemp(prefix="msmigrate-cancel-log-"))  # one log per session (serve-<pid>.log)
CONFIG = ClientServerConfig(
    server_command=serve_command(LOG_DIR),
    client_factory=SERVER.client_factory,
    server_env=SERVER.server_env,
)
VERSION = "2.6"
BLOCK = '''

class Block{n}(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        y = F.relu(self.fc(x))
        return torch.abs(y).view(-1) + torch.zeros(2)
'''
# about 36,000 lines: its full analysis takes well over the time a few notifications need to arrive
BIG = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + "".join(
    BLOCK.replace("{n}", str(n)) for n in range(3300)
)
STOPPED = re.compile(r"analysis of (\S+) cancelled: stopped ([0-9.]+) ms after the request")


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    yield
    await end_session(lsp_client)


def stopped(client: LanguageClient, uri: str) -> list[float]:
    """How long after the request each cancelled analysis of ``uri`` stopped (from the server's log)."""
    log = session_log(client, LOG_DIR)
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    return [float(m[2]) for m in STOPPED.finditer(text) if m[1] == uri]


def append(client: LanguageClient, uri: str, version: int, line: int, text: str) -> None:
    end = types.Position(line, 0)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(end, end), text=text)],
        )
    )


def expected_count(text: str, path: Path) -> int:
    options = AnalysisOptions(use_jedi=False)
    return len(analyze_source(text, str(path), get_knowledge_base(VERSION), options).findings)


async def test_quick_changes_cancel_the_running_analysis(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False, init_options={"settings": {"mindsporeVersion":
                                                                                       VERSION}})
    path = tmp_path / "big.py"
    uri = open_document(client, path, BIG, version=1)
    # the early result (the first lines) comes out while the full analysis of version 1 goes on
    await wait_until(lambda: published_for(client, uri, 1), timeout=60, what="early diagnostics of v1")
    before = len(client.published)  # type: ignore[attr-defined]
    lines = BIG.count("\n")
    text = BIG
    for version, name in ((2, "neg"), (3, "sign"), (4, "exp"), (5, "foo_bar")):
        added = f"z{version} = torch.{name}(x)\n"
        append(client, uri, version, lines, added)
        text += added
        lines += 1
    expected = expected_count(text, path)
    final = await wait_until(
        lambda: (p := published_for(client, uri, 5)) is not None and len(p.diagnostics) == expected and p,
        timeout=60, what="the full diagnostics of version 5",
    )
    assert [str(d.code) for d in final.diagnostics if d.range.start.line == lines - 1] == ["MSM103"]
    after = client.published[before:]  # type: ignore[attr-defined]
    assert {p.version for p in after if p.uri == uri} == {5}  # nothing of versions 1 to 4
    assert len(stopped(client, uri)) >= 1  # the analysis of version 1 was cancelled, not run to its end
    assert all(ms < 5000 for ms in stopped(client, uri))


async def test_closing_cancels_the_running_analysis(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False, init_options={"settings": {"mindsporeVersion":
                                                                                       VERSION}})
    uri = open_document(client, tmp_path / "closed.py", BIG, version=1)
    await wait_until(lambda: published_for(client, uri, 1), timeout=60, what="early diagnostics of v1")
    before = len(client.published)  # type: ignore[attr-defined]
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await wait_until(lambda: stopped(client, uri), timeout=30, what="the cancelled analysis in the log")
    # a round trip: every notification before it has been handled
    await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
    )
    after = [p for p in client.published[before:] if p.uri == uri]  # type: ignore[attr-defined]
    assert [len(p.diagnostics) for p in after] == [0]  # only the clearing of the closed document


async def test_a_pull_waiting_for_an_old_text_gets_the_newest(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False, pull=True,
                     init_options={"settings": {"mindsporeVersion": VERSION}})
    small = open_document(client, tmp_path / "small.py", "import torch\ntorch.abs(x)\n")
    await client.text_document_diagnostic_async(  # after the server's warm-up
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(small))
    )
    path = tmp_path / "pulled.py"
    uri = open_document(client, path, BIG, version=1)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
    pull = asyncio.ensure_future(client.text_document_diagnostic_async(params))
    await asyncio.sleep(0.2)  # the analysis of version 1 runs (it takes well over a second)
    added = "z2 = torch.foo_bar(x)\n"
    append(client, uri, 2, BIG.count("\n"), added)
    report = await asyncio.wait_for(pull, 60)
    assert len(report.items) == expected_count(BIG + added, path)
    assert [str(d.code) for d in report.items if d.range.start.line == BIG.count("\n")] == ["MSM103"]
    assert len(stopped(client, uri)) == 1


def test_running_analyses_cancel_those_of_older_texts():
    running = RunningAnalyses()
    old, current, other = running.start("a", "v1"), running.start("a", "v2"), running.start("b", "v1")
    assert running.supersede("a", "v2") == 1
    assert old.cancelled and not current.cancelled and not other.cancelled
    shielded = running.start("a", "v3")
    shielded.shield()  # a full analysis after a cancelled one: a newer version does not stop it
    assert running.supersede("a", "v4") == 1 and not shielded.cancelled and current.cancelled
    assert running.cancel("a") == 1 and shielded.cancelled  # closing the document stops it all the same
    running.finish("a", old)
    running.finish("a", current)
    running.finish("a", shielded)
    assert len(running) == 1
    assert running.cancel_all() == 1 and other.cancelled


async def test_shutdown_cancels_the_running_analysis(tmp_path: Path):
    session = InProcessSession()
    await session.initialize(tmp_path.as_uri())
    uri = (tmp_path / "big.py").as_uri()
    session.open(uri, BIG)
    await wait_until(lambda: session.published(uri), timeout=60, what="early diagnostics")
    server = session.server
    assert len(server.running) == 1  # the full analysis goes on after its early result
    reply = await session.request("shutdown", None)
    assert "error" not in reply
    await wait_until(lambda: not server._inflight, timeout=30, what="the analysis to stop")
    assert server.document(uri) is not None and uri not in server.analyses  # it stored nothing
    assert len(session.published(uri)) == 1  # the early result only
    assert await server.current(uri) is None  # and no analysis starts after shutdown
    assert len(server.running) == 0
