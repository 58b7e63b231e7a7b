"""LSP's line model (lines end at \\r\\n, \\r, \\n only) for the server's copy of a document, and text
with lone surrogates."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import initialize, open_document, published_for, wait_until
from lsprotocol import types
from pygls.workspace import PositionCodec
from pytest_lsp import LanguageClient

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.suppress import suppressions
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.lsp.documents import LspTextDocument, lsp_lines

ODD = "\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # str.splitlines breaks at each of these; LSP at none


def edit(doc: LspTextDocument, start: tuple[int, int], end: tuple[int, int], text: str) -> str:
    doc.apply_change(types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(*start), types.Position(*end)), text=text
    ))
    return doc.source


def test_lines_are_split_like_lsp():
    assert lsp_lines(f"a{ODD}b\r\nc\rd\n") == [f"a{ODD}b\r\n", "c\r", "d\n"]
    assert LspTextDocument("file:///x.py", "a\x0cb\nc").lines == ("a\x0cb\n", "c")


@pytest.mark.parametrize("char", list(ODD))
def test_incremental_change_after_a_character_splitlines_breaks_at(char: str):
    doc = LspTextDocument("file:///x.py", f"# {char} note\ny = 1\n")
    # line 1 is "y = 1": replace the "1"
    assert edit(doc, (1, 4), (1, 5), "2") == f"# {char} note\ny = 2\n"
    # a position after the character on line 0 (its column counts it as one unit)
    assert edit(doc, (0, 3), (0, 3), "!") == f"# {char}! note\ny = 2\n"


def test_incremental_change_clamps_and_counts_utf16():
    doc = LspTextDocument("file:///x.py", "a = '😀'\r\nb\rc")
    assert edit(doc, (0, 6), (0, 6), "x") == "a = '😀x'\r\nb\rc"  # the emoji is two UTF-16 units
    assert edit(doc, (1, 99), (1, 99), "!") == "a = '😀x'\r\nb!\rc"  # past the end of the line: its end
    assert edit(doc, (9, 0), (9, 0), "\nd") == "a = '😀x'\r\nb!\rc\nd"  # past the last line: the end
    assert edit(doc, (0, 0), (2, 0), "") == "c\nd"  # across \r\n and \r


def test_utf8_position_encoding():
    codec = PositionCodec(types.PositionEncodingKind.Utf8)
    doc = LspTextDocument("file:///x.py", "变 = 1\n", position_codec=codec)
    assert edit(doc, (0, 3), (0, 3), "量") == "变量 = 1\n"


def test_suppression_comment_lines_follow_the_tokenizer_lines():
    broken = "x = (\n# a\x0cb\u2028c\ny = 1  # msmigrate: ignore\n"
    assert suppressions(broken) == {3: frozenset({"*"})}


def test_lone_surrogates_are_analysed():
    kb = get_knowledge_base("2.6")
    result = analyze_source('import torch\ns = "\ud800"; y = torch.abs(s)\n', "s.py", kb)
    assert result.error_key is None
    assert [(f.rule, f.line, f.column, f.end_column) for f in result.findings] == [("MSM100", 2, 14, 23)]


async def test_positions_after_odd_characters_and_surrogates(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False)
    text = f"import torch\n# {ODD}\nx = torch.abs(1)\n"
    uri = open_document(client, tmp_path / "odd.py", text)
    await wait_until(lambda: published_for(client, uri, 1), what="version 1")
    # insert a lone surrogate in a string on line 1, then "torch.neg" on line 2: LSP lines, UTF-16 units
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[
            types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(1, 2), types.Position(1, 2)), text='"\ud800" '
            ),
            types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(2, 4), types.Position(2, 13)), text="torch.neg"
            ),
        ],
    ))
    params = await wait_until(lambda: published_for(client, uri, 2), what="version 2")
    assert [(d.code, d.range) for d in params.diagnostics] == [
        ("MSM100", types.Range(types.Position(2, 4), types.Position(2, 13)))
    ]
    assert params.diagnostics[0].data["torch_api"] == "torch.neg"
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(2, 6))
    )
    assert hover is not None and hover.range == types.Range(types.Position(2, 4), types.Position(2, 13))
