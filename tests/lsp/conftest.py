"""The ``client`` fixture: a pytest-lsp client connected to ``python -m msmigrate serve``."""

import pytest_lsp
from lsp_support import SERVER, end_session
from pytest_lsp import LanguageClient


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await end_session(lsp_client)
