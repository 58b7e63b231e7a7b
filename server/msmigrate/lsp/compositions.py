"""The helper module of compositions in the editor: fixes that call a composition (``Fix.helpers``) carry,
in their workspace edit, the creation or extension of the project's helper module.

The project is the workspace folder holding the document (its ``[tool.msmigrate] compat-module`` names the
module, ``ms_compat`` by default; fixes/compositions.py). A module that does not exist yet is created with a
``CreateFile`` resource operation, which needs the client capabilities ``workspaceEdit.documentChanges`` and
``workspaceEdit.resourceOperations`` with ``create``. Without them a quick-fix needing a new module is shown
disabled with the reason (or not at all), the fix-all action leaves compositions out, and the fix-all command
writes the module itself (inside the workspace) before applying the edit. An existing module (open in the
editor or on disk) is extended with a plain text edit; one that is not valid Python is never touched, and the
compositions are left out then.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from msmigrate.fixes.compositions import CompatModule
from msmigrate.fixes.model import Fix
from msmigrate.fixes.project_helper import project_compat
from msmigrate.knowledge.compositions.helper_module import BrokenModule, updated_text
from msmigrate.lsp.edits import document_edit
from msmigrate.lsp.positions import LineIndex, line_edits
from msmigrate.lsp.server import MsMigrateServer
from msmigrate.safe_paths import inside_roots

_NOT_READABLE = object()


def compat_for(server: MsMigrateServer, uri: str) -> CompatModule:
    """The helper module of the workspace folder holding ``uri`` (else of the document's folder)."""
    from msmigrate.scan.options import ConfigError, load_project_config

    path = server.path_of(uri)
    try:
        roots = [server.path_of(f.uri) for f in server.workspace.folders.values()] or (
            [server.workspace.root_path] if server.workspace.root_path else [])
    except RuntimeError:  # no workspace yet
        roots = []
    found = inside_roots(path, roots) if roots else None
    root = found[1] if found is not None else Path(path).resolve().parent
    try:
        config = load_project_config(root)
    except ConfigError:
        config = {}
    return project_compat(root, config)


def can_create(server: MsMigrateServer) -> bool:
    """Whether the client applies a ``CreateFile`` operation of a workspace edit."""
    edit = server.client_capabilities.workspace and server.client_capabilities.workspace.workspace_edit
    operations = (edit.resource_operations or []) if edit else []
    return bool(edit and edit.document_changes) and types.ResourceOperationKind.Create in operations


def _module_text(server: MsMigrateServer, compat: CompatModule) -> tuple[str | None, int | None] | object:
    """The module's text and open-document version ((None, None): no module yet; ``_NOT_READABLE``)."""
    uri = compat.path.as_uri()
    document = server.document(uri)
    if document is not None:
        return document.source, document.version
    path = compat.path
    if not path.exists() and not path.is_symlink():
        return None, None
    from msmigrate.analysis.parse import SourceError, decode
    from msmigrate.scan.reading import SkippedFile, read_user_file

    try:
        return decode(read_user_file(path, server.settings.max_file_size)[0]), None
    except (SkippedFile, SourceError, OSError):
        return _NOT_READABLE


def _plan(server: MsMigrateServer, compat: CompatModule, helpers: list[str]
          ) -> tuple[str | None, int | None, str | None] | None:
    """(the module's text, its open-document version, its text once it holds ``helpers``: None when it holds
    them); None when it cannot take them (unreadable, not valid Python)."""
    found = _module_text(server, compat)
    if found is _NOT_READABLE:
        return None
    existing, version = found  # type: ignore[misc]
    try:
        return existing, version, updated_text(existing, helpers)
    except BrokenModule:
        return None


def helpers_of(fixes: list[Fix]) -> list[str]:
    return sorted({name for fix in fixes for name in fix.helpers})


def module_changes(server: MsMigrateServer, compat: CompatModule, helpers: list[str], create: bool
                   ) -> list[types.CreateFile | types.TextDocumentEdit] | None:
    """The operations giving the helper module ``helpers`` ([] when it has them); None when they cannot
    be applied (unreadable or invalid module, or a module to create and ``create`` is False)."""
    if not helpers:
        return []
    plan = _plan(server, compat, helpers)
    if plan is None:
        return None
    existing, version, text = plan
    if text is None:
        return []
    uri = compat.path.as_uri()
    document = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    if existing is None:
        if not create:
            return None
        start = types.Position(line=0, character=0)
        insert = types.TextEdit(range=types.Range(start=start, end=start), new_text=text)
        return [types.CreateFile(uri=uri, options=types.CreateFileOptions(ignore_if_exists=True)),
                types.TextDocumentEdit(text_document=document, edits=[insert])]
    index = LineIndex(existing)
    return [types.TextDocumentEdit(text_document=document,
                                   edits=[index.edit_to_lsp(e) for e in line_edits(existing, text)])]


def workspace_edit(server: MsMigrateServer, uri: str, version: int | None, edits: list[types.TextEdit],
                   fixes: list[Fix], compat: CompatModule) -> types.WorkspaceEdit | None:
    """The document's edits with the helper module's changes the fixes need; None when the client cannot
    apply those."""
    changes = module_changes(server, compat, helpers_of(fixes), can_create(server))
    if changes is None:
        return None
    if not changes:
        return document_edit(server, uri, version, edits)
    if server.client_supports("workspace", "workspace_edit", "document_changes"):
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        document = types.TextDocumentEdit(text_document=identifier, edits=edits)
        return types.WorkspaceEdit(document_changes=[*changes, document])
    module = changes[0]
    assert isinstance(module, types.TextDocumentEdit)  # no CreateFile without documentChanges
    return types.WorkspaceEdit(changes={uri: edits, module.text_document.uri: list(module.edits)})


def usable(server: MsMigrateServer, compat: CompatModule, helpers: list[str]) -> bool:
    """Whether a fix-all edit may include compositions needing ``helpers``."""
    return module_changes(server, compat, helpers, can_create(server)) is not None


def write_module(server: MsMigrateServer, compat: CompatModule, helpers: list[str]) -> bool:
    """Write the helper module with ``helpers`` on disk (the fix-all command, for a client that cannot create
    files); False when it cannot be written."""
    from msmigrate.safe_paths import write_inside

    plan = _plan(server, compat, helpers)
    if plan is None:
        return False
    try:
        if plan[2] is not None:
            write_inside(compat.root, compat.path.relative_to(compat.root).parts, plan[2])
    except (OSError, ValueError):
        return False
    return True
