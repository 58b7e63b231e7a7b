"""Seeded fuzzing (bounded): random edits of real files with odd line breaks, lone surrogates, versions
out of order, close/reopen races and malformed params. No traceback, every request answered within 2 s,
and each edited document ends with the diagnostics a fresh open of its final text gets.
``benchmarks/lsp_fuzz.py`` is the long version."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_support import REQUEST_LIMIT_S, Fuzzer, corpus
from lsp_support import initialize
from lsprotocol import types
from pytest_lsp import LanguageClient


@pytest.mark.parametrize("seed", [14, 2026])
async def test_fuzzed_edits(
    client: LanguageClient, tmp_path: Path, capfd: pytest.CaptureFixture[str], seed: int
) -> None:
    await initialize(client, tmp_path, configuration=False)
    # files under 20 KB: a full analysis stays well under the 2 s limit on a busy 2-core machine
    fuzzer = Fuzzer(client, tmp_path, seed, corpus(torch_files=20, seed=seed, max_chars=20_000))
    figures = await fuzzer.run(steps=75)
    assert figures.edits >= 100 and figures.malformed > 0 and figures.reopened > 0
    assert figures.errors == []
    assert figures.slow == [], f"requests over {REQUEST_LIMIT_S} s"
    assert figures.mismatches == []
    failures = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    assert failures == []
    assert "Traceback" not in capfd.readouterr().err
