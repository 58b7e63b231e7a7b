"""Shared fixtures of the check tests: the pytest-lsp client of the language-server tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))

import pytest_lsp  # noqa: E402
from lsp_support import SERVER  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()
