"""Code lenses "Scan project" and "Fix all" at the top of a file that imports torch, and those of optional
features (``server.code_lens_providers``: the model comparison's on the files it names)."""

from __future__ import annotations

import re

from lsprotocol import types

from msmigrate.i18n import t
from msmigrate.lsp.server import MsMigrateServer

TORCH_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+torch\b|from[ \t]+torch\b)", re.MULTILINE)


def lenses(server: MsMigrateServer, uri: str) -> list[types.CodeLens]:
    if not server.settings.code_lens:
        return []
    doc = server.document(uri)
    if doc is None:
        return []
    extra = [lens for provider in server.code_lens_providers for lens in provider(server, doc)]
    if not TORCH_IMPORT.search(doc.source):
        return extra
    top = types.Range(types.Position(0, 0), types.Position(0, 0))
    lang = server.lang
    return [
        types.CodeLens(
            range=top,
            command=types.Command(title=t("lsp.lens.scan_project", lang), command="msmigrate.scanProject"),
        ),
        types.CodeLens(
            range=top,
            command=types.Command(
                title=t("lsp.lens.fix_all", lang), command="msmigrate.fixAll", arguments=[uri]
            ),
        ),
        *extra,
    ]


def register(server: MsMigrateServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @server.guarded("codeLens", default=list)
    def code_lens(ls: MsMigrateServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        return lenses(server, params.text_document.uri)

    def refresh() -> None:
        if server.client_supports("workspace", "code_lens", "refresh_support"):
            server.workspace_code_lens_refresh(None)

    server.on_settings_changed.append(refresh)
