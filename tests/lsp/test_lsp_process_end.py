"""``msmigrate serve`` ends promptly, with LSP's exit code, however its session ends: ``shutdown`` then
``exit`` while a cancelled analysis of a big document still runs and the client keeps the server's input
open (what pytest-lsp and editors do, and where sessions used to hang), ``exit`` without ``shutdown``
(code 1), and the end of its input with or without ``shutdown`` first (0 / 1)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest
from inprocess import InProcessSession
from lsp_support import initialize, open_document, published_for, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient
from raw_lsp import RawSession
from test_lsp_cancel import BIG, VERSION, append

from msmigrate.check import runner

# seconds the process may take to end once its session has ended (it ends at once; this is room for load)
PROMPT = 5.0
SETTINGS = {"settings": {"mindsporeVersion": VERSION}}


async def shutdown_then_exit(client: LanguageClient) -> float:
    """pytest-lsp's shutdown_session (shutdown, exit, then wait for the process with its input open); how
    long the process took to end after ``exit`` (the shutdown round trip is not timed: load slows it)."""
    await asyncio.wait_for(client.shutdown_async(None), 60)
    started = time.monotonic()
    client.exit(None)
    await asyncio.wait_for(client._server.wait(), 30)  # type: ignore[union-attr]
    return time.monotonic() - started


async def test_shutdown_and_exit_after_cancelled_work_end_the_process(client: LanguageClient, tmp_path: Path):
    """The sequence of the cancellation tests, ended while the analysis of the newest text still runs: a
    pull the client gave up on ($/cancelRequest), quick changes cancelling the running analysis, then
    pytest-lsp's shutdown_session (shutdown, exit, the input left open until the process ends)."""
    await initialize(client, tmp_path, configuration=False, pull=True, init_options=SETTINGS)
    uri = open_document(client, tmp_path / "big.py", BIG, version=1)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
    pull = asyncio.ensure_future(client.protocol.send_request_async(types.TEXT_DOCUMENT_DIAGNOSTIC, params,
                                                                    msg_id="pull-1"))
    await asyncio.sleep(0.2)  # the analysis of version 1 runs
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="pull-1"))
    lines = BIG.count("\n")
    for version in (2, 3, 4):
        append(client, uri, version, lines, f"z{version} = torch.neg(x)\n")
        lines += 1
    await asyncio.sleep(0.2)  # version 4's analysis is under way
    took = await shutdown_then_exit(client)
    assert client._server.returncode == 0  # type: ignore[union-attr]
    assert took < PROMPT, f"the server took {took:.1f} s to end after exit"
    assert pull.done()  # answered (cancelled), not left waiting
    with contextlib.suppress(Exception):
        pull.result()  # the cancelled pull's error reply, or its report when the cancel came too late


async def test_shutdown_and_exit_after_published_diagnostics(client: LanguageClient, tmp_path: Path):
    """The first cancellation test's end: the newest version's diagnostics are out, the incremental state
    of the 36,000-line document is being built when the session ends."""
    await initialize(client, tmp_path, configuration=False, init_options=SETTINGS)
    uri = open_document(client, tmp_path / "big.py", BIG, version=1)
    await wait_until(lambda: published_for(client, uri, 1), timeout=60, what="early diagnostics of v1")
    append(client, uri, 2, BIG.count("\n"), "z2 = torch.foo_bar(x)\n")
    await wait_until(lambda: published_for(client, uri, 2), timeout=120, what="diagnostics of v2")
    took = await shutdown_then_exit(client)
    assert client._server.returncode == 0  # type: ignore[union-attr]
    assert took < PROMPT, f"the server took {took:.1f} s to end after exit"


def big_session(tmp_path: Path) -> RawSession:
    """A bare session whose server is analysing a 36,000-line document (its early result is out)."""
    raw = RawSession()
    raw.initialize()
    uri = (tmp_path / "big.py").as_uri()
    raw.open(uri, BIG)
    raw.notified("textDocument/publishDiagnostics", lambda params: params["uri"] == uri, timeout=60)
    return raw


def ended(raw: RawSession) -> tuple[int, float]:
    """The exit code, and how long after now the process ended (killed after 30 s)."""
    started = time.monotonic()
    code, stderr = raw.finish(timeout=30)
    assert "Traceback" not in stderr
    return code, time.monotonic() - started


@pytest.mark.parametrize(("shutdown", "code"), [(True, 0), (False, 1)])
def test_exit_ends_the_process_promptly(tmp_path: Path, shutdown: bool, code: int):
    raw = big_session(tmp_path)
    if shutdown:
        assert raw.request(50, "shutdown")["result"] is None
    raw.send({"method": "exit"})  # the input stays open
    exit_code, took = ended(raw)
    assert (exit_code, took < PROMPT) == (code, True), f"code {exit_code} after {took:.1f} s"


@pytest.mark.parametrize(("shutdown", "code"), [(True, 0), (False, 1)])
def test_the_end_of_the_input_ends_the_process(tmp_path: Path, shutdown: bool, code: int):
    raw = big_session(tmp_path)
    if shutdown:
        assert raw.request(50, "shutdown")["result"] is None
    assert raw.process.stdin is not None
    raw.process.stdin.close()  # no exit: the editor went away
    exit_code, took = ended(raw)
    assert (exit_code, took < PROMPT) == (code, True), f"code {exit_code} after {took:.1f} s"


async def test_shutdown_while_a_notification_handler_waits(tmp_path: Path):
    """``initialized`` waits for the client's workspace/configuration reply when shutdown comes: pygls's
    shutdown failed on cancelling it (an InternalError reply, the server not shut down: exit code 1)."""
    session = InProcessSession()
    await session.request("initialize", {"capabilities": {"workspace": {"configuration": True}},
                                         "rootUri": tmp_path.as_uri()})
    session.send("initialized", {})
    await wait_until(lambda: any(m.get("method") == "workspace/configuration" for m in session.out.messages),
                     timeout=10, what="the configuration request")
    assert await session.request("shutdown", None) == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert session.server.protocol._shutdown


def test_release_at_exit_removes_the_check_workers_folder():
    """``end_process`` ends the process without exit handlers: it runs the check runner's itself."""
    folder = Path(runner._neutral_folder())
    assert folder.is_dir()
    runner.release_at_exit()
    assert not folder.exists()
    assert Path(runner._neutral_folder()) != folder  # a later check makes a new one
