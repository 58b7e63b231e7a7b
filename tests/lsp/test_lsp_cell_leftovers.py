"""The editor shows a torch.nn.Module member left on a MindSpore Cell in a file that no longer names torch
(MSM104, analysis/cell_leftovers.py): the file ``msmigrate fix`` writes from a torch module."""

from __future__ import annotations

from pathlib import Path

from lsp_support import initialize, open_document, published_for, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

FIXED = (
    "import mindspore\n"
    "\n"
    "\n"
    "class Net(mindspore.nn.Cell):\n"
    "    def construct(self, x):\n"
    "        self.zero_grad()\n"
    "        return x\n"
)


async def test_a_member_left_on_a_cell_is_a_diagnostic(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, init_options={"settings": {"mindsporeVersion": "2.6"}},
                     configuration=False)
    uri = open_document(client, tmp_path / "m.py", FIXED)
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics for version 1")
    assert [(d.range, d.code, d.severity, d.message) for d in params.diagnostics] == [(
        types.Range(types.Position(5, 8), types.Position(5, 22)), "MSM104", types.DiagnosticSeverity.Warning,
        "self.zero_grad: mindspore.nn.Cell has no zero_grad; it is torch.nn.Module's, left after Net became "
        "a Cell (an AttributeError when it runs): write it with the Cell's own API or drop it")]
