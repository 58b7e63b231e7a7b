"""One document's text edits as the workspace edit the client takes (versioned when it supports that)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from msmigrate.lsp.server import MsMigrateServer


def document_edit(
    server: MsMigrateServer, uri: str, version: int | None, edits: list[types.TextEdit]
) -> types.WorkspaceEdit:
    """``edits`` of document ``uri`` at ``version`` (``documentChanges`` when the client takes them)."""
    if server.client_supports("workspace", "workspace_edit", "document_changes"):
        document = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=document, edits=edits)]
        )
    return types.WorkspaceEdit(changes={uri: edits})
