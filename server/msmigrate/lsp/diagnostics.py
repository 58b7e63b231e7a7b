"""Diagnostics: pushed on open/change/save, or pulled (``textDocument/diagnostic``) when the client can.

No debounce: every change schedules the document; one analysis per document runs at a time and the
newest text is taken when it finishes, so a burst of edits costs at most two analyses. Results are
published only when they belong to the document's current version.
"""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types

from msmigrate.analysis.finding import Finding
from msmigrate.lsp.server import Analysis, MsMigrateServer
from msmigrate.rules.registry import get_rule

SOURCE = "msmigrate"
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def doc_url(server: MsMigrateServer, finding: Finding) -> str | None:
    """The MindSpore page of the finding's mapping row, else the rule's documentation."""
    lang = "zh" if server.lang == "zh" else "en"
    if finding.torch_api:
        row = server.kb.row(finding.torch_api)
        if row is not None:
            url = row.urls.get(f"mindspore_{lang}") or row.urls.get("mindspore_en")
            if url:
                return url
    try:
        return get_rule(finding.rule).docs_url_for(lang)
    except KeyError:
        return None


class Renderer:
    """Finding → diagnostic JSON object, with the parts that repeat across versions cached.

    Diagnostics are built as plain JSON objects (what LSP sends) rather than lsprotocol objects: a
    5,000-line file can carry thousands of them on every keystroke.
    """

    def __init__(self, server: MsMigrateServer) -> None:
        self.server = server
        self.generation = -1
        self._messages: dict[Any, str] = {}
        self._urls: dict[tuple[str | None, str], str | None] = {}

    def _reset_if_needed(self) -> None:
        if self.generation != self.server.generation:
            self.generation = self.server.generation
            self._messages.clear()
            self._urls.clear()

    def message(self, finding: Finding) -> str:
        try:
            key: Any = (finding.message_key, tuple(sorted(finding.message_args.items())))
            hash(key)
        except TypeError:  # an unhashable argument: no caching
            return finding.message(self.server.lang)
        text = self._messages.get(key)
        if text is None:
            text = self._messages[key] = finding.message(self.server.lang)
        return text

    def url(self, finding: Finding) -> str | None:
        key = (finding.torch_api, finding.rule)
        if key not in self._urls:
            self._urls[key] = doc_url(self.server, finding)
        return self._urls[key]

    def diagnostic(self, analysis: Analysis, finding: Finding) -> dict[str, Any] | None:
        level = self.server.settings.severity_of(finding.category.value)
        if level == "off":
            return None
        item: dict[str, Any] = {
            "range": analysis.index.range_dict(
                finding.line, finding.column, finding.end_line, finding.end_column
            ),
            "severity": int(SEVERITY.get(level, types.DiagnosticSeverity.Information)),
            "code": finding.rule,
            "source": SOURCE,
            "message": self.message(finding),
            "data": {
                "torch_api": finding.torch_api,
                "mindspore_api": finding.mindspore_api,
                "version": analysis.version,
            },
        }
        url = self.url(finding)
        if url:
            item["codeDescription"] = {"href": url}
        return item

    def diagnostics(self, analysis: Analysis) -> list[dict[str, Any]]:
        self._reset_if_needed()
        items = [self.diagnostic(analysis, f) for f in analysis.result.findings]
        diagnostics = [d for d in items if d is not None]
        error = analysis.result.error(self.server.lang)
        if error:  # the file could not be analysed at all (binary, undecodable, too complex)
            diagnostics.append(
                {
                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                    "severity": int(types.DiagnosticSeverity.Information),
                    "code": analysis.result.error_key,
                    "source": SOURCE,
                    "message": error,
                }
            )
        return diagnostics


def diagnostics_of(server: MsMigrateServer, analysis: Analysis) -> list[dict[str, Any]]:
    renderer = getattr(server, "renderer", None)
    if renderer is None:
        renderer = server.renderer = Renderer(server)  # type: ignore[attr-defined]
    return renderer.diagnostics(analysis)


def publish(
    server: MsMigrateServer, uri: str, version: int | None, diagnostics: list[dict[str, Any]]
) -> None:
    """Send ``textDocument/publishDiagnostics`` with ready JSON objects (no cattrs round trip)."""
    params: dict[str, Any] = {"uri": uri, "diagnostics": diagnostics}
    if version is not None:
        params["version"] = version
    message = {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params}
    server.protocol._send_data(message)  # noqa: SLF001 - pygls's writer; notify() would re-convert


class Publisher:
    """Per-document push loop: analyse the newest text, publish only for the current version."""

    def __init__(self, server: MsMigrateServer) -> None:
        self.server = server
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.pending: set[str] = set()

    @property
    def pull_mode(self) -> bool:
        return self.server.client_supports("text_document", "diagnostic")

    def schedule(self, uri: str) -> None:
        if self.pull_mode:
            return
        self.pending.add(uri)
        task = self.tasks.get(uri)
        if task is None or task.done():
            self.tasks[uri] = asyncio.get_running_loop().create_task(self._run(uri))

    async def _run(self, uri: str) -> None:
        server = self.server
        while uri in self.pending:
            self.pending.discard(uri)
            try:
                analysis = await server.current(uri)
            except Exception as exc:
                server.report_failure("diagnostics", exc)
                self._clear_stale(uri)
                return
            if analysis is None:
                return
            # no await between this check and the publish: the version cannot change in between
            if server.cached(uri) is not analysis:
                self.pending.add(uri)
                continue
            try:
                diagnostics = diagnostics_of(server, analysis)
            except Exception as exc:
                server.report_failure("diagnostics", exc)
                self._clear_stale(uri)
                return
            publish(server, analysis.uri, analysis.version, diagnostics)

    def _clear_stale(self, uri: str) -> None:
        """After a failure: an empty set for the current version beats results of an older one."""
        doc = self.server.document(uri)
        if doc is not None:
            publish(self.server, doc.uri, doc.version, [])

    def clear(self, uri: str) -> None:
        self.pending.discard(uri)
        task = self.tasks.pop(uri, None)
        if task is not None:
            task.cancel()
        if not self.pull_mode:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def republish_all(self) -> None:
        """After a settings change: push again, or ask a pulling client to refresh."""
        if self.pull_mode:
            if self.server.client_supports("workspace", "diagnostics", "refresh_support"):
                self.server.workspace_diagnostic_refresh(None)
            return
        for document in list(self.server.workspace.text_documents.values()):
            self.schedule(document.uri)


def register(server: MsMigrateServer) -> None:
    publisher = Publisher(server)
    server.publisher = publisher  # type: ignore[attr-defined]
    server.on_settings_changed.append(publisher.republish_all)

    def schedule(ls: MsMigrateServer, params: Any) -> None:
        """didOpen, didChange, didSave: (re)analyse the document and publish its diagnostics."""
        publisher.schedule(params.text_document.uri)

    for method, where in (
        (types.TEXT_DOCUMENT_DID_OPEN, "didOpen"),
        (types.TEXT_DOCUMENT_DID_CHANGE, "didChange"),
        (types.TEXT_DOCUMENT_DID_SAVE, "didSave"),
    ):
        server.feature(method)(server.guarded(where)(schedule))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @server.guarded("didClose")
    def did_close(ls: MsMigrateServer, params: types.DidCloseTextDocumentParams) -> None:
        server.forget(params.text_document.uri)
        publisher.clear(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=SOURCE, inter_file_dependencies=False, workspace_diagnostics=False
        ),
    )
    async def pull(ls: MsMigrateServer, params: types.DocumentDiagnosticParams) -> Any:
        try:
            analysis = await server.current(params.text_document.uri)
        except Exception as exc:
            server.report_failure("textDocument/diagnostic", exc)
            analysis = None
        if analysis is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if params.previous_result_id == analysis.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=analysis.result_id)
        # plain JSON objects, sent as they are (see Renderer)
        return {"kind": "full", "resultId": analysis.result_id, "items": diagnostics_of(server, analysis)}
