"""Compositions in the editor: the quick-fix of a missing API with a verified composition creates the
project's helper module (a CreateFile resource operation) or extends it, the hover says a composition exists,
and a client that cannot create files gets a disabled action, while the fix-all command writes the module."""

from __future__ import annotations

from pathlib import Path

from lsp_support import apply_text_edits, edits_of, initialize, open_document, published_for, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

from msmigrate.knowledge.compositions.helper_module import module_text, updated_text

SOURCE = ("import torch\nimport torch.nn.functional as F\n\n\n"
          "def encode(q, k, v):\n    return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n")
QUICK_FIXED = ("import torch\nimport torch.nn.functional as F\nimport ms_compat\n\n\n"
               "def encode(q, k, v):\n"
               "    return ms_compat.scaled_dot_product_attention(q, k, v, is_causal=True)\n")
TITLE = "Call scaled_dot_product_attention of ms_compat (a composition checked against torch)"
V26 = {"mindsporeVersion": "2.6"}


async def _quick_fix(client: LanguageClient, uri: str) -> types.CodeAction:
    params = await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    (diagnostic,) = [d for d in params.diagnostics if d.code == "MSM202"]
    assert diagnostic.range == types.Range(types.Position(5, 11), types.Position(5, 41))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix])))
    (action,) = [a for a in actions if a.title == TITLE or a.title.startswith(TITLE + ":")]
    return action


async def test_the_quick_fix_creates_the_helper_module(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V26, resource_operations=("create", "rename", "delete"))
    uri = open_document(client, tmp_path / "model.py", SOURCE)
    action = await _quick_fix(client, uri)
    assert action.disabled is None and action.is_preferred
    create, module, document = action.edit.document_changes
    helper_uri = (tmp_path / "ms_compat.py").as_uri()
    assert isinstance(create, types.CreateFile) and create.uri == helper_uri
    assert create.options.ignore_if_exists is True
    assert module.text_document.uri == helper_uri and module.text_document.version is None
    assert apply_text_edits("", module.edits) == module_text(["scaled_dot_product_attention"])
    assert document.text_document.uri == uri and document.text_document.version == 1
    assert apply_text_edits(SOURCE, edits_of(action.edit, uri)) == QUICK_FIXED

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(5, 20)))
    text = hover.contents.value.replace("\\", "")
    assert ("the quick-fix writes ms_compat.scaled_dot_product_attention(...) and adds the helper to the "
            "project's helper module (checked against torch on CPU in 11 cases") in text


async def test_an_existing_module_is_extended_without_creating_it(client: LanguageClient, tmp_path: Path):
    mine = "import mindspore\n\n\ndef mine():\n    return 1\n"
    (tmp_path / "ms_compat.py").write_text(mine, encoding="utf-8")
    await initialize(client, tmp_path, settings=V26)  # no resource operations needed
    uri = open_document(client, tmp_path / "model.py", SOURCE)
    action = await _quick_fix(client, uri)
    module, document = action.edit.document_changes
    assert module.text_document.uri == (tmp_path / "ms_compat.py").as_uri()
    assert apply_text_edits(mine, module.edits) == updated_text(mine, ["scaled_dot_product_attention"])
    assert apply_text_edits(SOURCE, document.edits) == QUICK_FIXED


async def test_a_client_that_cannot_create_files(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V26)
    uri = open_document(client, tmp_path / "model.py", SOURCE)
    action = await _quick_fix(client, uri)
    assert action.edit is None
    assert action.disabled.reason == (
        f"{TITLE}: the editor cannot create ms_compat.py from a quick-fix; run the \"Fix all\" command or "
        "msmigrate fix")
    # the fix-all command writes the helper module itself, then applies the document's edit
    reply = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="msmigrate.fixAll", arguments=[uri]))
    assert reply["accepted"] is True and reply["applied"] >= 2
    (params,) = client.applied_edits
    assert [c.text_document.uri for c in params.edit.document_changes] == [uri]
    fixed = apply_text_edits(SOURCE, edits_of(params.edit, uri))
    assert fixed == ("import ms_compat\n\n\ndef encode(q, k, v):\n"
                     "    return ms_compat.scaled_dot_product_attention(q, k, v, is_causal=True)\n")
    written = (tmp_path / "ms_compat.py").read_text(encoding="utf-8")
    assert written == module_text(["scaled_dot_product_attention"])
