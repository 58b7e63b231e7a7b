"""Helpers for the language-server tests: the server is started as editors start it
(``python -m msmigrate serve``) by pytest-lsp."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Union

from lsprotocol import types
from pygls.workspace import TextDocument
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import make_test_lsp_client

CACHE_DIR = tempfile.mkdtemp(prefix="msmigrate-lsp-test-cache-")


def make_client() -> LanguageClient:
    """The pytest-lsp client, also recording every publishDiagnostics (with its version) in order."""
    client = make_test_lsp_client()
    client.published = []  # type: ignore[attr-defined]
    features = client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> Any:
        client.published.append(params)  # type: ignore[attr-defined]
        return original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    client.code_lens_refreshes = 0  # type: ignore[attr-defined]
    client.applied_edits = []  # type: ignore[attr-defined]
    client.progress_hooks = []  # type: ignore[attr-defined]
    original_progress = features[types.PROGRESS]

    def on_progress(params: types.ProgressParams) -> Any:
        result = original_progress(params)
        for hook in client.progress_hooks:  # type: ignore[attr-defined]
            hook(params)
        return result

    features[types.PROGRESS] = on_progress

    # lsprotocol structures every item with a "command" key as a Command, but a CodeAction may carry
    # a command object too; decide the way editors do (a Command's "command" is a string)
    converter = client.protocol._converter

    def command_or_action(item: Any, _: type) -> types.Command | types.CodeAction:
        kind = types.Command if isinstance(item.get("command"), str) else types.CodeAction
        return converter.structure(item, kind)

    converter.register_structure_hook(types.Command | types.CodeAction, command_or_action)
    converter.register_structure_hook(Union[types.Command, types.CodeAction], command_or_action)  # noqa: UP007

    # pygls's client fails on the reply to a request the test gave up on (a ``wait_for`` that timed out
    # cancels its future: the reply then raises InvalidStateError), and pytest-lsp takes any such failure
    # for a broken server: it terminates it and ends the session with an error. Editors drop such a reply.
    protocol = client.protocol
    handle_response = protocol._handle_response

    def drop_replies_to_abandoned(msg_id: Any, result: Any = None, error: Any = None) -> None:
        future = protocol._request_futures.get(msg_id)
        if future is not None and future.cancelled():
            protocol._request_futures.pop(msg_id, None)
            return
        handle_response(msg_id, result, error)

    protocol._handle_response = drop_replies_to_abandoned

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied_edits.append(params)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params: None) -> None:
        client.code_lens_refreshes += 1  # type: ignore[attr-defined]

    return client


# set to a directory: every test session's server logs each message it gets and sends (DEBUG, ``-v``) to
# <dir>/serve-<pid>.log (see docs/lsp-process-end.md); unset, servers keep no log unless a test asks
LOG_DIR_ENV = "MSMIGRATE_TEST_LSP_LOG_DIR"
# ``python -m msmigrate serve`` naming its log after its own process id (the same process: no wrapper)
_SERVE_LOGGED = (
    "import os, runpy, sys; "
    "sys.argv = ['msmigrate', 'serve', '--log-file', os.path.join(sys.argv[1], f'serve-{os.getpid()}.log')]"
    " + sys.argv[2:]; runpy.run_module('msmigrate', run_name='__main__', alter_sys=True)"
)


def serve_command(log_dir: str | Path | None = None) -> list[str]:
    """The command that starts the server as editors do; with ``log_dir`` (or ``$MSMIGRATE_TEST_LSP_LOG_DIR``,
    which wins and adds ``-v``) each session logs to its own ``<dir>/serve-<pid>.log`` (see session_log)."""
    debug_dir = os.environ.get(LOG_DIR_ENV)
    if not debug_dir and log_dir is None:
        return [sys.executable, "-m", "msmigrate", "serve"]
    target = Path(debug_dir or str(log_dir))
    target.mkdir(parents=True, exist_ok=True)
    return [sys.executable, "-c", _SERVE_LOGGED, str(target)] + (["-v"] if debug_dir else [])


def session_log(client: LanguageClient, log_dir: str | Path | None = None) -> Path:
    """The log file of ``client``'s server (started with :func:`serve_command`)."""
    server = getattr(client, "_server", None)
    target = Path(os.environ.get(LOG_DIR_ENV) or str(log_dir))
    return target / f"serve-{server.pid if server is not None else 0}.log"


SERVER = ClientServerConfig(
    server_command=serve_command(),
    client_factory=make_client,
    server_env={**os.environ, "MSMIGRATE_CACHE_DIR": CACHE_DIR, "PYTHONIOENCODING": "utf-8"},
)


def capabilities(
    *,
    configuration: bool = True,
    pull: bool = False,
    progress: bool = True,
    show_document: bool = True,
    document_changes: bool = True,
    disabled_support: bool = True,
    resolve_edit: bool = False,
    markdown: bool = True,
    resource_operations: tuple[str, ...] = (),
) -> types.ClientCapabilities:
    """Client capabilities close to what VS Code / LSP4IJ announce, with switches for the tests."""
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(
                dynamic_registration=False
            ),
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=document_changes,
                resource_operations=[types.ResourceOperationKind(k) for k in resource_operations] or None,
            ),
            apply_edit=True,
            workspace_folders=True,
            code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                version_support=True, code_description_support=True, data_support=True
            ),
            diagnostic=types.DiagnosticClientCapabilities() if pull else None,
            hover=types.HoverClientCapabilities(
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
                if markdown
                else [types.MarkupKind.PlainText]
            ),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(
                        value_set=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]
                    )
                ),
                disabled_support=disabled_support,
                data_support=True,
                is_preferred_support=True,
                resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"])
                if resolve_edit
                else None,
            ),
            code_lens=types.CodeLensClientCapabilities(),
        ),
        window=types.WindowClientCapabilities(
            work_done_progress=progress,
            show_document=types.ShowDocumentClientCapabilities(support=True) if show_document else None,
        ),
    )


async def initialize(
    client: LanguageClient,
    root: Path,
    *,
    init_options: Any = None,
    settings: dict[str, Any] | None = None,
    **caps: Any,
) -> types.InitializeResult:
    """Initialise a session on workspace ``root``; ``settings`` is what workspace/configuration returns."""
    if settings is not None:
        client.set_configuration(settings, section="msmigrate")
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(**caps),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=init_options,
        )
    )


async def wait_until(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
    """Poll ``predicate`` until it is truthy (returns its value) or fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)
        )
    )
    return uri


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) to ``text`` the way a client does, via pygls's document."""
    document = TextDocument("file:///applied.py", text)
    ordered = sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
    for edit in ordered:
        document.apply_change(types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text))
    return document.source


def edits_of(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    if edit.document_changes:  # text edits only (a CreateFile has no text_document)
        texts = [c for c in edit.document_changes if isinstance(c, types.TextDocumentEdit)]
        return [e for change in texts if change.text_document.uri == uri for e in change.edits]
    return list((edit.changes or {}).get(uri, []))


def published_for(
    client: LanguageClient, uri: str, version: int | None = None
) -> types.PublishDiagnosticsParams | None:
    """The latest publishDiagnostics for ``uri`` (for ``version`` when given)."""
    for params in reversed(client.published):  # type: ignore[attr-defined]
        if params.uri == uri and (version is None or params.version == version):
            return params
    return None


async def end_session(client: LanguageClient, timeout: float = 30.0) -> None:
    """``shutdown`` then ``exit``, as an editor does (pytest-lsp keeps the server's input open until the
    process ends). A server still running after ``timeout`` seconds is killed, as editors do, with a warning
    in the test summary, so that one stuck session cannot stall the whole run: a guard that should not fire
    any more (servers used to wait for their analysis thread and free their whole heap before ending after
    ``exit``: over 30 s for two sessions of one full run under load; see docs/lsp-process-end.md)."""
    import warnings

    server = getattr(client, "_server", None)
    if server is not None and server.returncode is not None:
        return  # the test ended the session itself
    try:
        await asyncio.wait_for(client.shutdown_session(), timeout)
    except TimeoutError:
        server = getattr(client, "_server", None)
        if server is not None and server.returncode is None:
            server.kill()
        warnings.warn(f"the language server did not end within {timeout:.0f} s of shutdown/exit; killed",
                      RuntimeWarning, stacklevel=2)
