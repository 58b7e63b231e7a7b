"""Document versions belong to one open session: going backwards (didChange 5 → 3, a second didOpen with
a lower version, close and reopen while the old text is analysed) must not stop the server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsp_support import initialize, open_document, published_for, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

TEXT = "import torch\ny = torch.abs(x)\n"
OTHER = "import torch\ny = torch.foo_bar(x)\n"
FOO_BAR = types.Range(types.Position(1, 4), types.Position(1, 17))  # torch.foo_bar in OTHER


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def hover(client: LanguageClient, uri: str, line: int, character: int) -> types.Hover | None:
    params = types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, character))
    return await asyncio.wait_for(client.text_document_hover_async(params), 5)


def codes(client: LanguageClient, uri: str, version: int) -> list[str] | None:
    params = published_for(client, uri, version)
    return None if params is None else [str(d.code) for d in params.diagnostics]


async def test_version_going_backwards_in_did_change(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False)
    uri = open_document(client, tmp_path / "back.py", TEXT, version=5)
    await wait_until(lambda: published_for(client, uri, 5), what="version 5")
    change(client, uri, 3, OTHER)
    assert await wait_until(lambda: codes(client, uri, 3), what="version 3") == ["MSM103"]
    result = await hover(client, uri, 1, 6)
    assert result is not None and result.range == FOO_BAR


async def test_reopen_with_lower_version_without_close(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False)
    uri = open_document(client, tmp_path / "reopen.py", TEXT, version=7)
    await wait_until(lambda: published_for(client, uri, 7), what="version 7")
    open_document(client, tmp_path / "reopen.py", OTHER, version=2)
    assert await wait_until(lambda: codes(client, uri, 2), what="version 2") == ["MSM103"]
    result = await hover(client, uri, 1, 6)
    assert result is not None and result.range == FOO_BAR


async def test_close_and_reopen_while_the_old_text_is_analysed(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False)
    big = "import torch\n" + "".join(f"y{i} = torch.abs(x{i})\n" for i in range(3000))
    path = tmp_path / "race.py"
    for round_ in range(3):
        uri = open_document(client, path, big, version=1)
        change(client, uri, 2, big + "z = torch.neg(y0)\n")
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
        client.published.clear()  # type: ignore[attr-defined]
        reopened = open_document(client, path, OTHER, version=1)
        # the old text's diagnostics may still arrive (published before the server read the close, with
        # the same version number): what counts is that the reopened text's come, and come last
        await wait_until(lambda u=reopened: codes(client, u, 1) == ["MSM103"],
                         what=f"reopened, round {round_}")
        await asyncio.sleep(0.3)
        assert codes(client, reopened, 1) == ["MSM103"]
        result = await hover(client, uri, 1, 6)
        assert result is not None and result.range == FOO_BAR
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
