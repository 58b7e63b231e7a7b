"""Hover, quick-fixes, fix-all and code lenses end to end."""

from __future__ import annotations

import ast
from pathlib import Path

from lsp_support import apply_text_edits, edits_of, initialize, open_document, published_for, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

SOURCE = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "变量 = torch.abs(x)  # 注释 😀\n"
    's = "😀"; y = torch.zeros(2, 3, out=None, device="cpu")\n'
    "layer = nn.Linear(in_features=3, out_features=4, bias=False)\n"
    "b = torch.zeros(2, out=buf)\n"
)
V24 = {"mindsporeVersion": "2.4"}


def ident(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def hover_at(client: LanguageClient, uri: str, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=ident(uri), position=types.Position(line, character))
    )


async def test_hover_in_english_and_chinese(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V24)
    uri = open_document(client, tmp_path / "h.py", SOURCE)
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    hover = await hover_at(client, uri, 5, 12)  # on nn.Linear
    assert hover.contents.kind == types.MarkupKind.Markdown
    text = hover.contents.value
    assert text.startswith("**torch.nn.Linear → mindspore.nn.Dense (MindSpore 2.4)**")
    assert "| in_features | in_channels | renamed |" in text
    assert "(https://pytorch.org/docs/1.8.1/generated/torch.nn.Linear.html)" in text
    assert "(https://www.mindspore.cn/docs/en/r2.4.10/api_python/nn/mindspore.nn.Dense.html)" in text
    assert hover.range == types.Range(types.Position(5, 8), types.Position(5, 17))
    # after the emoji (two UTF-16 units) on line 4: torch.zeros starts at unit 14
    hover = await hover_at(client, uri, 4, 16)
    assert hover.range == types.Range(types.Position(4, 14), types.Position(4, 25))
    assert "torch.zeros → mindspore.ops.zeros" in hover.contents.value
    assert await hover_at(client, uri, 2, 0) is None  # an empty line

    client.set_configuration({**V24, "language": "zh"}, section="msmigrate")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(
        lambda: (p := published_for(client, uri)) and "一致" in p.diagnostics[0].message, what="zh settings"
    )
    text = (await hover_at(client, uri, 5, 12)).contents.value
    assert text.startswith("**torch.nn.Linear → mindspore.nn.Dense（MindSpore 2.4）**")
    assert "| in_features | in_channels | 改名 |" in text
    assert "(https://www.mindspore.cn/docs/zh-CN/r2.4.10/api_python/nn/mindspore.nn.Dense.html)" in text


async def test_hover_on_missing_api_shows_advice(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings={"mindsporeVersion": "2.6"})
    uri = open_document(client, tmp_path / "m.py", "import torch\n\n\ny = torch.clamp_min(x, 0.5)\n")
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    text = (await hover_at(client, uri, 3, 12)).contents.value
    assert "torch.clamp\\_min has no row in the MindSpore 2.6 mapping table." in text


async def test_hover_on_derived_mapping_says_where_it_comes_from(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings={"mindsporeVersion": "2.6"})
    uri = open_document(
        client, tmp_path / "m.py", "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    pass\n"
    )
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    text = (await hover_at(client, uri, 3, 12)).contents.value.replace("\\", "")
    assert "**torch.nn.Module → mindspore.nn.Cell (MindSpore 2.6)**" in text
    assert (
        "- Not in the MindSpore 2.6 mapping table; derived: in the official mapping of MindSpore 1.10; "
        "counterpart in MindSpore 2.10 with the same parameters." in text
    )
    assert "has no" not in text and "equivalent replacement" not in text


async def code_actions(client: LanguageClient, uri: str, line: int, diagnostics, only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=ident(uri),
            range=types.Range(types.Position(line, 0), types.Position(line, 200)),
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )


async def test_each_quick_fix_applies_and_parses(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V24)
    uri = open_document(client, tmp_path / "q.py", SOURCE)
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    by_line = {d.range.start.line: d for d in params.diagnostics}
    expected = {
        3: "变量 = mindspore.ops.abs(x)  # 注释 😀",
        4: 's = "😀"; y = mindspore.ops.zeros((2, 3))',
        5: "layer = mindspore.nn.Dense(in_channels=3, out_channels=4, has_bias=False)",
    }
    for line, new_line in expected.items():
        actions = await code_actions(client, uri, line, [by_line[line]], only=[types.CodeActionKind.QuickFix])
        fixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
        assert len(fixes) == 1, [a.title for a in actions]
        action = fixes[0]
        assert list(action.diagnostics) == [by_line[line]] and action.is_preferred
        result = apply_text_edits(SOURCE, edits_of(action.edit, uri))
        ast.parse(result)
        lines = result.split("\n")
        assert lines[2] == "import mindspore" and lines[line + 1] == new_line
    # out=buf cannot be dropped: an explanation, shown disabled, with no edit
    actions = await code_actions(client, uri, 6, [by_line[6]], only=[types.CodeActionKind.QuickFix])
    actions = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]  # not the equivalence check
    assert len(actions) == 1 and actions[0].edit is None
    assert actions[0].disabled.reason.startswith("No automatic fix for torch.zeros")


async def test_fix_all_code_action_resolves_to_one_edit(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V24, resolve_edit=True)
    uri = open_document(client, tmp_path / "all.py", SOURCE)
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    actions = await code_actions(client, uri, 0, [], only=["source.fixAll"])
    assert [a.kind for a in actions] == ["source.fixAll.msmigrate"]
    assert actions[0].edit is None and actions[0].command is None
    resolved = await client.code_action_resolve_async(actions[0])
    result = apply_text_edits(SOURCE, edits_of(resolved.edit, uri))
    # nn is no longer used once nn.Linear is rewritten: its import goes (torch stays: torch.zeros(out=buf))
    assert result == (
        "import torch\n"
        "import mindspore\n"
        "\n"
        "变量 = mindspore.ops.abs(x)  # 注释 😀\n"
        's = "😀"; y = mindspore.ops.zeros((2, 3))\n'
        "layer = mindspore.nn.Dense(in_channels=3, out_channels=4, has_bias=False)\n"
        "b = torch.zeros(2, out=buf)\n"
    )
    ast.parse(result)


async def test_fix_all_command_and_code_lenses(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V24)
    uri = open_document(client, tmp_path / "lens.py", SOURCE)
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=ident(uri)))
    assert [(lens.command.command, lens.command.arguments) for lens in lenses] == [
        ("msmigrate.scanProject", None),
        ("msmigrate.fixAll", (uri,)),
    ]
    assert [lens.command.title for lens in lenses] == [
        "Scan project for MindSpore migration",
        "Fix all (MindSpore)",
    ]
    # without resolve support, asking for the kind (as on save) gets the edit at once
    actions = await code_actions(client, uri, 0, [], only=["source.fixAll.msmigrate"])
    assert "layer = mindspore.nn.Dense(" in apply_text_edits(SOURCE, edits_of(actions[0].edit, uri))
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="msmigrate.fixAll", arguments=[uri])
    )
    assert result == {"applied": 4, "accepted": True}  # 3 rewrites + the unused `import torch.nn as nn`
    (applied,) = client.applied_edits
    fixed = apply_text_edits(SOURCE, edits_of(applied.edit, uri))
    assert "layer = mindspore.nn.Dense(in_channels=3, out_channels=4, has_bias=False)" in fixed
    ast.parse(fixed)
    # no torch import: no lens; codeLens off: no lens
    plain = open_document(client, tmp_path / "plain.py", "x = 1\n")
    assert not await client.text_document_code_lens_async(types.CodeLensParams(text_document=ident(plain)))
    refreshes = client.code_lens_refreshes
    client.set_configuration({**V24, "codeLens": False}, section="msmigrate")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(lambda: client.code_lens_refreshes > refreshes, what="codeLens refresh")
    assert not await client.text_document_code_lens_async(types.CodeLensParams(text_document=ident(uri)))
