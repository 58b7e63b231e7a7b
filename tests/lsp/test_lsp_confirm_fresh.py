"""A pulling client that edited a statement into one that does not parse ends with the diagnostics of a
fresh open of the same text: the server confirms when requests pause and asks the client to pull again."""

from __future__ import annotations

import random
from pathlib import Path

from lsp_support import initialize, open_document, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

EXAMPLES = sorted(Path(__file__).resolve().parents[2].glob("examples/**/*.py"))
TYPED = ["torch.", "torch.abs(", "(", ")", ":", "\n    ", "\n", "def f(:\n", "x = [", "]", "'", '"""', "#",
         ""]


def edited_versions(seed: int) -> list[str]:
    """The texts of tests/analysis/test_incremental_confirm.py's edits for ``seed`` (seed 3 there differs
    from a fresh analysis before the confirmation)."""
    rnd = random.Random(seed)
    text = rnd.choice(EXAMPLES).read_text(encoding="utf-8")
    texts = [text]
    for _ in range(6):
        start = rnd.randint(0, len(text))
        end = min(len(text), start + rnd.randint(0, 10))
        text = text[:start] + rnd.choice(TYPED) + text[end:]
        texts.append(text)
    return texts


async def pull(client: LanguageClient, uri: str) -> list[tuple]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return sorted((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character,
                   str(d.code)) for d in report.items)


async def test_pulled_diagnostics_end_equal_to_a_fresh_open(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, configuration=False, pull=True)
    texts = edited_versions(3)
    uri = open_document(client, tmp_path / "edited" / "model.py", texts[0])
    await pull(client, uri)
    for version, text in enumerate(texts[1:], start=2):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        ))
        edited = await pull(client, uri)
    fresh_uri = open_document(client, tmp_path / "fresh" / "model.py", texts[-1])
    fresh = await pull(client, fresh_uri)
    assert edited != fresh  # the incremental result over the broken statement, answered at once
    await wait_until(lambda: client.diagnostic_refresh_count > 0, what="workspace/diagnostic/refresh")
    assert await pull(client, uri) == fresh
