from pathlib import Path

from lsp_support import initialize, open_document, published_for, wait_until
from pytest_lsp import LanguageClient


async def test_start_without_initialization_options(client: LanguageClient, tmp_path: Path):
    result = await initialize(client, tmp_path, configuration=False)
    assert result.server_info.name == "msmigrate"
    uri = open_document(client, tmp_path / "a.py", "import torch\ny = torch.abs(x)\n")
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    print(params)
