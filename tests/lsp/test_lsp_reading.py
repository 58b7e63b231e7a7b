"""``msmigrate.scanFile`` / ``scanProject`` read regular files only, under the ``maxFileSize`` setting: a
FIFO or a device never blocks the server."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from lsp_support import initialize
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


async def execute(client: LanguageClient, command: str, *arguments):
    request = client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments) or None)
    )
    return await asyncio.wait_for(request, 30)


async def test_scan_file_refuses_a_fifo_and_the_server_keeps_answering(client: LanguageClient,
                                                                       tmp_path: Path):
    await initialize(client, tmp_path, settings={"mindsporeVersion": "2.4"}, show_document=False)
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    result = await execute(client, "msmigrate.scanFile", str(fifo))
    assert result == {"error": f"Cannot read {fifo}: Skipped: a named pipe (FIFO), not a regular file."}
    found = await execute(client, "msmigrate.lookup", "torch.abs")
    assert found["torch_api"] == "torch.abs"
    (tmp_path / "a.py").write_text("import torch\ny = torch.abs(x)\n", encoding="utf-8")
    scan = await execute(client, "msmigrate.scanProject")
    files = {f["path"]: (f["error"], len(f["findings"])) for f in scan["report"]["files"]}
    assert files == {"a.py": (None, 1)}  # a folder walk keeps to regular files


async def test_max_file_size_setting(client: LanguageClient, tmp_path: Path):
    settings = {"mindsporeVersion": "2.4", "maxFileSize": "1KB"}  # in effect from initialize on
    await initialize(client, tmp_path, settings=settings, init_options=settings, show_document=False)
    big = tmp_path / "big.py"
    big.write_text("import torch\n" + "y = torch.abs(x)\n" * 100, encoding="utf-8")  # 1713 bytes
    result = await execute(client, "msmigrate.scanFile", str(big))
    assert result == {"error": f"Cannot read {big}: Skipped: the file is 1.7 KB, larger than the 1 KB limit."}
    scan = await execute(client, "msmigrate.scanProject")
    [entry] = scan["report"]["files"]
    assert entry["error"] == "Skipped: the file is 1.7 KB, larger than the 1 KB limit."
