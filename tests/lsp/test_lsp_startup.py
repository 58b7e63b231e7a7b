"""What the server does ahead of the editor: the analyzer's tables are loaded at ``initialize`` (not by the
first document), and a document's incremental state is built after its first diagnostics are out."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from inprocess import InProcessSession

from msmigrate.lsp import settings_sync
from msmigrate.lsp.analysis import WARM_UP_SOURCE, warm_up
from msmigrate.lsp.config import Settings
from msmigrate.lsp.diagnostics import EARLY_FROM_LINES, EARLY_LINES

MODEL = "import torch\n\n\ndef f(x):\n    return torch.abs(x)\n\n\ny = f(torch.zeros(2))\n"


def test_the_warm_up_snippet_reaches_the_call_facts_and_the_rules():
    assert warm_up(Settings()) == 9
    assert "torch.cat([x, x], dim=1)" in WARM_UP_SOURCE  # a call the call facts check (signatures)


async def test_initialize_warms_the_analyzer_up_on_the_analysis_thread(tmp_path: Path, monkeypatch):
    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(settings_sync, "warm_up", lambda settings: seen.append(
        (threading.current_thread().name, settings.mindspore_version)))
    session = InProcessSession()
    await session.request("initialize", {
        "capabilities": {}, "rootUri": tmp_path.as_uri(),
        "initializationOptions": {"settings": {"mindsporeVersion": "2.4"}},
    })
    session.server.analysis_executor.shutdown(wait=True)
    assert seen == [("msmigrate-analysis_0", "2.4")]


async def test_the_incremental_state_is_built_after_the_first_diagnostics(tmp_path: Path):
    session = InProcessSession()
    await session.initialize(tmp_path.as_uri())
    uri = (tmp_path / "m.py").as_uri()
    session.open(uri, MODEL)
    for _ in range(500):
        if session.published(uri):
            break
        await asyncio.sleep(0.01)
    analyzer = session.server.documents._analyzers[uri][1]  # noqa: SLF001
    assert [d["code"] for d in session.published(uri)[0]["diagnostics"]] == ["MSM100", "MSM100"]
    assert analyzer._state is None and analyzer.text == MODEL  # noqa: SLF001 - published before it is built
    for _ in range(300):
        if analyzer._state is not None:  # noqa: SLF001
            break
        await asyncio.sleep(0.01)
    assert analyzer._state is not None and len(analyzer._state.chunks) == 3  # noqa: SLF001
    session.server.analysis_executor.shutdown(wait=True)
    session.server.confirm_executor.shutdown(wait=True)


BLOCK = '''

class Block{n}(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return torch.abs(F.relu(self.fc(x))).view(-1)
'''


async def test_a_big_document_gets_its_first_lines_diagnostics_first(tmp_path: Path):
    header = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    blocks = EARLY_FROM_LINES // 9 + 1  # 9 lines each
    text = header + "".join(BLOCK.replace("{n}", str(n)) for n in range(blocks))
    session = InProcessSession()
    await session.initialize(tmp_path.as_uri())
    uri = (tmp_path / "big.py").as_uri()
    session.open(uri, text)
    for _ in range(3000):
        if len(session.published(uri)) == 2:
            break
        await asyncio.sleep(0.01)
    early, full = session.published(uri)
    assert early["version"] == full["version"] == 1
    lines = {d["range"]["start"]["line"] for d in early["diagnostics"]}
    # the blocks that end within the first EARLY_LINES lines (block n ends on line 12 + 9n), 6 findings each
    assert len(early["diagnostics"]) == 6 * ((EARLY_LINES - 12) // 9 + 1) and max(lines) < EARLY_LINES
    first_part = [d for d in full["diagnostics"] if d["range"]["start"]["line"] <= max(lines)]
    assert early["diagnostics"] == first_part
    assert len(full["diagnostics"]) == 6 * blocks
    session.server.analysis_executor.shutdown(wait=True)
    session.server.confirm_executor.shutdown(wait=True)


async def test_a_small_document_gets_all_its_diagnostics_at_once(tmp_path: Path):
    session = InProcessSession()
    await session.initialize(tmp_path.as_uri())
    uri = (tmp_path / "small.py").as_uri()
    lines = [f"x{n} = torch.abs(torch.zeros(2))\n" for n in range(EARLY_FROM_LINES - 2)]
    text = "import torch\n" + "".join(lines)
    session.open(uri, text)
    for _ in range(3000):
        if session.published(uri):
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)
    assert [len(p["diagnostics"]) for p in session.published(uri)] == [2 * (EARLY_FROM_LINES - 2)]
    session.server.analysis_executor.shutdown(wait=True)
    session.server.confirm_executor.shutdown(wait=True)
