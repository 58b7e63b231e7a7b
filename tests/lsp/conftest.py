"""The ``client`` fixture: a pytest-lsp client connected to ``python -m msmigrate serve``."""

import pytest_lsp
from lsp_support import SERVER
from pytest_lsp import LanguageClient


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()
