"""Diagnostics end to end: exact ranges (UTF-16), codes, severities, versions, settings, bad input."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsp_support import initialize, open_document, published_for, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

SOURCE = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "变量 = torch.abs(x)  # 注释\n"
    's = "😀"; y = torch.neg(s)\n'
    "layer = nn.Linear(3, 4)\n"
    "q = torch.foo_bar(1)\n"
)
V24 = {"settings": {"mindsporeVersion": "2.4"}}


def rng(line: int, start: int, end: int) -> types.Range:
    return types.Range(types.Position(line, start), types.Position(line, end))


def summary(params: types.PublishDiagnosticsParams) -> list[tuple]:
    return [(d.range, d.code, d.severity, d.source) for d in params.diagnostics]


async def test_open_publishes_exact_diagnostics(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, init_options=V24, configuration=False)
    uri = open_document(client, tmp_path / "model.py", SOURCE)
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics for version 1")
    hint, info, warning = (
        types.DiagnosticSeverity.Hint,
        types.DiagnosticSeverity.Information,
        types.DiagnosticSeverity.Warning,
    )
    assert summary(params) == [
        (rng(3, 5, 14), "MSM100", hint, "msmigrate"),
        # the emoji before torch.neg is two UTF-16 code units: code points 13..22 → units 14..23
        (rng(4, 14, 23), "MSM100", hint, "msmigrate"),
        (rng(5, 8, 17), "MSM101", info, "msmigrate"),
        (rng(6, 4, 17), "MSM103", warning, "msmigrate"),
    ]
    first = params.diagnostics[0]
    assert first.message == "torch.abs → mindspore.ops.abs: same behaviour; replacing the name is enough."
    assert (
        first.code_description.href
        == "https://mindspore.cn/docs/en/r2.4.10/api_python/ops/mindspore.ops.abs.html"
    )
    assert first.data == {"torch_api": "torch.abs", "mindspore_api": "mindspore.ops.abs", "version": 1}


async def test_edit_burst_publishes_only_current_versions(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, init_options=V24, configuration=False)
    uri = open_document(client, tmp_path / "burst.py", "import torch\n")
    await wait_until(lambda: published_for(client, uri, 1), what="first diagnostics")
    for version in range(2, 12):  # ten quick incremental edits, each appending one torch.abs line
        line = version - 1
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=rng(line, 0, 0), text=f"y{version:02d} = torch.abs(x)\n"
                    )
                ],
            )
        )
    final = await wait_until(lambda: published_for(client, uri, 11), what="diagnostics for version 11")
    assert [d.range for d in final.diagnostics] == [rng(line, 6, 15) for line in range(1, 11)]
    mine = [p for p in client.published if p.uri == uri]
    versions = [p.version for p in mine]
    assert versions == sorted(versions) and versions[-1] == 11
    for params in mine:  # every publish matches the text of the version it names
        assert len(params.diagnostics) == params.version - 1
    assert client.published[-1].uri == uri and client.published[-1].version == 11


async def test_configuration_pull_and_change_republish(client: LanguageClient, tmp_path: Path):
    await initialize(
        client, tmp_path, settings={"mindsporeVersion": "2.4", "severity": {"consistent": "warning"}}
    )
    uri = open_document(client, tmp_path / "cfg.py", "import torch\ny = torch.abs(x)\n")

    def latest_severities():
        params = published_for(client, uri)
        return params and [d.severity for d in params.diagnostics]

    await wait_until(
        lambda: latest_severities() == [types.DiagnosticSeverity.Warning], what="warning severity"
    )
    count = len(client.published)
    client.set_configuration(
        {"mindsporeVersion": "2.4", "severity": {"consistent": "off"}}, section="msmigrate"
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(lambda: len(client.published) > count and latest_severities() == [], what="republish")
    client.set_configuration({"mindsporeVersion": "2.4", "language": "zh"}, section="msmigrate")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    params = await wait_until(
        lambda: (
            (p := published_for(client, uri)) and p.diagnostics and "一致" in p.diagnostics[0].message and p
        ),
        what="Chinese messages",
    )
    assert params.diagnostics[0].message == "torch.abs → mindspore.ops.abs：功能一致，替换接口名即可。"
    assert params.diagnostics[0].code_description.href.startswith("https://mindspore.cn/docs/zh-CN/r2.4.10/")


async def test_disabled_rules_setting(client: LanguageClient, tmp_path: Path):
    await initialize(
        client,
        tmp_path,
        init_options={"mindsporeVersion": "2.4", "disabledRules": ["msm103"]},
        configuration=False,
    )
    uri = open_document(client, tmp_path / "d.py", SOURCE)
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    assert [d.code for d in params.diagnostics] == ["MSM100", "MSM100", "MSM101"]


async def test_pull_diagnostics_when_client_supports_them(client: LanguageClient, tmp_path: Path):
    result = await initialize(client, tmp_path, init_options=V24, configuration=False, pull=True)
    assert result.capabilities.diagnostic_provider is not None
    uri = open_document(client, tmp_path / "pull.py", SOURCE)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert report.kind == "full"
    assert [d.code for d in report.items] == ["MSM100", "MSM100", "MSM101", "MSM103"]
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id
        )
    )
    assert again.kind == "unchanged" and again.result_id == report.result_id
    assert published_for(client, uri) is None  # a pulling client gets no pushed diagnostics


async def test_broken_and_binary_documents_do_not_stop_the_server(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, init_options=V24, configuration=False)
    broken = open_document(client, tmp_path / "broken.py", "import torch\ny = torch.abs(\nclass :\n  def (")
    binary = open_document(
        client, tmp_path / "bin.py", "import torch\x00\x0c\x1b\u2028\ufffd\ny = torch.abs(x)\n\x00"
    )
    await wait_until(lambda: published_for(client, broken, 1), what="diagnostics of the broken file")
    await wait_until(lambda: published_for(client, binary, 1), what="diagnostics of the binary-ish file")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=broken), position=types.Position(1, 6)
        )
    )
    assert hover is None or "torch.abs" in hover.contents.value
    ok = open_document(client, tmp_path / "ok.py", "import torch\ny = torch.abs(x)\n")
    params = await wait_until(lambda: published_for(client, ok, 1), what="diagnostics after bad input")
    assert [d.code for d in params.diagnostics] == ["MSM100"]
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error]


async def test_windows_style_encoded_uri(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, init_options=V24, configuration=False)
    uri = "file:///C%3A/Users/dev/proj/train.py"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=3, text=SOURCE)
        )
    )
    params = await wait_until(lambda: published_for(client, uri, 3), what="diagnostics for an encoded URI")
    assert len(params.diagnostics) == 4


async def test_cancelled_request_does_not_cancel_the_analysis(client: LanguageClient, tmp_path: Path):
    """A pull request that starts the analysis and is then cancelled (as editors do while typing) must not
    take the analysis down with it: a hover waiting for the same analysis still gets its answer."""
    await initialize(client, tmp_path, init_options=V24, configuration=False, pull=True)
    text = "import torch\n" + "".join(f"y{n} = torch.abs(x) + torch.neg(x)\n" for n in range(5000))
    uri = open_document(client, tmp_path / "long.py", text)
    document = types.TextDocumentIdentifier(uri=uri)
    client.protocol.send_request(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DocumentDiagnosticParams(text_document=document),
        msg_id="pull-1",
    )
    await asyncio.sleep(0.1)  # the pull request has started the analysis (string ids, as LSP4IJ sends)
    hover = asyncio.ensure_future(
        client.text_document_hover_async(
            types.HoverParams(text_document=document, position=types.Position(1, 8))
        )
    )
    await asyncio.sleep(0.05)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="pull-1"))
    result = await asyncio.wait_for(hover, 60)
    assert "torch.abs" in result.contents.value
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=document)
    )
    assert len(report.items) == 10000


async def test_settings_pushed_in_did_change_configuration(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, init_options=V24, configuration=False)
    uri = open_document(
        client, tmp_path / "push.py", "import torch\ny = torch.abs(x)\nq = torch.foo_bar(1)\n"
    )
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    assert [d.code for d in params.diagnostics] == ["MSM100", "MSM103"]
    count = len(client.published)
    pushed = {
        "msmigrate": {
            "mindsporeVersion": "2.4",
            "severity": {"consistent": "off", "unknown_torch_name": "error"},
        }
    }
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=pushed))
    params = await wait_until(
        lambda: len(client.published) > count and published_for(client, uri), what="republish"
    )
    assert [(d.code, d.severity) for d in params.diagnostics] == [("MSM103", types.DiagnosticSeverity.Error)]


MODEL_BLOCK = '''

class Block{n}(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = F.relu(self.fc(x))
        return torch.abs(y).view(-1)
'''


async def test_incremental_edits_publish_what_a_fresh_analysis_finds(client: LanguageClient, tmp_path: Path):
    """Edits that type, add and remove lines, and break and fix a statement: after each, the
    published diagnostics equal a from-scratch analysis of that version's text (the server keeps
    the other statements' findings and re-analyses only what an edit touches)."""
    from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
    from msmigrate.knowledge.base import get_knowledge_base

    kb = get_knowledge_base("2.4")
    text = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + "".join(
        MODEL_BLOCK.replace("{n}", str(n)) for n in range(4)
    )
    await initialize(client, tmp_path, init_options=V24, configuration=False)
    uri = open_document(client, tmp_path / "blocks.py", text)
    await wait_until(lambda: published_for(client, uri, 1), what="first diagnostics")
    abs_line = [i for i, line in enumerate(text.split("\n")) if "torch.abs(y)" in line][1]
    edits = [  # (range, new text) in the document as it is at that moment
        (rng(abs_line, 21, 24), "neg"),  # torch.abs → torch.neg
        (rng(8, 0, 0), "        self.act = nn.ReLU()\n"),  # a new line: later findings move down
        (rng(abs_line + 1, 26, 36), ""),  # "return torch.neg(y": a statement that does not parse
        (rng(abs_line + 1, 26, 26), ").view(-1)"),  # fixed again
        (rng(8, 0, 28), ""),  # empty the added line
    ]
    document = text
    for version, (where, new_text) in enumerate(edits, start=2):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangePartial(range=where, text=new_text)],
            )
        )
        lines = document.split("\n")
        start, end = where.start, where.end
        head = "\n".join(lines[: start.line] + [lines[start.line][: start.character]])
        tail = "\n".join([lines[end.line][end.character :]] + lines[end.line + 1 :])
        document = head + new_text + tail
        params = await wait_until(lambda v=version: published_for(client, uri, v), what=f"version {version}")
        expected = analyze_source(document, "blocks.py", kb, AnalysisOptions(use_jedi=False))
        published = [
            (d.range.start.line + 1, d.range.start.character + 1, d.code) for d in params.diagnostics
        ]
        assert published == [(f.line, f.column, f.rule) for f in expected.findings], f"version {version}"
    assert "torch.neg(y).view(-1)" in document and "self.act" not in document
    broken = [p for p in client.published if p.uri == uri and p.version == 4][0]
    assert "MSM101" in [d.code for d in broken.diagnostics]  # the rest of the file kept its findings


async def test_big_edit_is_published_fast_then_confirmed(client: LanguageClient, tmp_path: Path):
    """An edit whose exact re-analysis would be long (every function reads the edited name) is first
    published from the edited statement alone, then, once edits pause, exactly (same version)."""
    from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
    from msmigrate.knowledge.base import get_knowledge_base

    body = "".join(f"    y = y + {k}\n" for k in range(16))
    function = "\n\ndef run{n}(x):\n    y = act(x)\n" + body + "    return y\n"
    text = "import torch\nimport torch.nn as nn\nact = nn.ReLU\n" + "".join(
        function.replace("{n}", str(n)) for n in range(60)
    )
    assert text.count("\n") > 1200
    await initialize(client, tmp_path, init_options=V24, configuration=False)
    uri = open_document(client, tmp_path / "many.py", text)
    first = await wait_until(lambda: published_for(client, uri, 1), what="first diagnostics")
    assert len(first.diagnostics) == 61  # act = nn.ReLU, and act(x) in every function
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=rng(2, 6, 13), text="3")],
        )
    )
    edited = text.replace("act = nn.ReLU", "act = 3")

    def publishes() -> list[types.PublishDiagnosticsParams]:
        return [p for p in client.published if p.uri == uri and p.version == 2]

    await wait_until(lambda: len(publishes()) == 2, what="provisional and confirmed diagnostics")
    provisional, confirmed = publishes()
    assert len(provisional.diagnostics) == 60  # the functions' findings, not analysed again yet
    kb = get_knowledge_base("2.4")
    expected = analyze_source(edited, "many.py", kb, AnalysisOptions(use_jedi=False))
    assert expected.findings == [] and list(confirmed.diagnostics) == []


async def test_each_finding_keeps_its_own_severity_by_default(client: LanguageClient, tmp_path: Path):
    """The default ``default`` level publishes the analyzer's per-finding severity: the same mapped API is
    a hint where its difference does not apply and a warning where the call passes a torch-only parameter
    (on Ascend, where the 2.6 table's mint target is written: its row decides)."""
    options = {"settings": {"mindsporeVersion": "2.6", "device": "Ascend"}}
    await initialize(client, tmp_path, init_options=options, configuration=False)
    source = ("import torch.nn.functional as F\na = F.leaky_relu(x, 0.2)\n"
              "b = F.leaky_relu(x, 0.2, inplace=True)\n")
    uri = open_document(client, tmp_path / "own.py", source)
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics for version 1")
    assert [(d.range, d.code, d.severity) for d in params.diagnostics] == [
        # leaky_relu(x, 0.2) passes no inplace: the row's only difference does not apply (consistent)
        (rng(1, 4, 16), "MSM100", types.DiagnosticSeverity.Hint),
        (rng(2, 4, 16), "MSM101", types.DiagnosticSeverity.Warning),
    ]


async def test_module_classes_of_other_workspace_files(client: LanguageClient, tmp_path: Path):
    """The server indexes the workspace's nn.Module subclasses: ``Net()`` imported from another file is a
    module, so ``.half()`` is the module method (a plain unknown receiver gets no Tensor finding)."""
    (tmp_path / "model.py").write_text("import torch.nn as nn\nclass Net(nn.Module):\n    pass\n")
    options = {"settings": {"mindsporeVersion": "2.6"}}
    await initialize(client, tmp_path, init_options=options, configuration=False)
    source = "import torch\nfrom .model import Net\nNet().half()\nthing().half()\n"
    uri = open_document(client, tmp_path / "train.py", source)
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics for version 1")
    assert [(d.range, d.code, d.data["torch_api"]) for d in params.diagnostics] == [
        (rng(2, 6, 10), "MSM201", "torch.nn.Module.half"),
    ]


async def test_fields_other_workspace_files_build(client: LanguageClient, tmp_path: Path):
    """The server indexes the fields the workspace's files build: a namedtuple field another file builds as
    a list, compared with a number in ``forward``, is MSM710's (efficientnet_pytorch: utils.py, model.py)."""
    (tmp_path / "utils.py").write_text(
        "import collections\nArgs = collections.namedtuple('Args', ['stride'])\n"
        "def decode():\n    return Args(stride=[1])\n")
    options = {"settings": {"mindsporeVersion": "2.6"}}
    await initialize(client, tmp_path, init_options=options, configuration=False)
    source = ("import torch.nn as nn\nfrom .utils import decode\nclass Block(nn.Module):\n"
              "    def forward(self, x):\n        if decode().stride == 1:\n            x = x + x\n"
              "        return x\n")
    uri = open_document(client, tmp_path / "model.py", source)
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics for version 1")
    [diagnostic] = [d for d in params.diagnostics if d.code == "MSM710"]
    assert diagnostic.range == rng(4, 11, 31)
    assert diagnostic.message.startswith(
        "decode().stride == 1 in Block.forward compares stride, which utils.py builds as a list, with 1")
