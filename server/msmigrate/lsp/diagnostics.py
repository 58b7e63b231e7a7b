"""Diagnostics: pushed on open/change/save, or pulled (``textDocument/diagnostic``) when the client can.

No debounce: every change schedules the document; one analysis per document runs at a time, a change
cancels it when it analyses an older text (``MsMigrateServer.supersede``: it stops at its next check,
publishing nothing), and the newest text is analysed next. Results are
published only when they belong to the document's current version. A big document just opened first
gets the diagnostics of its first lines (analysed alone, a provisional result), then all of them.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any

from lsprotocol import types

from msmigrate.lsp.config import DEFAULT_LEVEL
from msmigrate.lsp.positions import LineIndex
from msmigrate.lsp.protocol import send_data
from msmigrate.lsp.server import AnalyzedDocument, MsMigrateServer, release_memory
from msmigrate.model.finding import FileResult, Finding
from msmigrate.rules.loader import get_rule

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
        row = server.kb.mapping(finding.torch_api)
        if row is not None:
            url = row.urls.get(f"mindspore_{lang}") or row.urls.get("mindspore_en")
            if url:
                return url
    try:
        return get_rule(finding.rule).docs_url_for(lang)
    except KeyError:
        return None


_RANGE = '{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},%s'


class Renderer:
    """Finding → diagnostic JSON, with what repeats across versions cached.

    Diagnostics are built as plain JSON objects (what LSP sends) rather than lsprotocol objects: a
    5,000-line file can carry thousands of them on every keystroke. For pushing, each finding's
    diagnostic is also kept as JSON text per document: incremental analysis hands unchanged findings
    on as the same objects, so only new ones are serialised again.
    """

    def __init__(self, server: MsMigrateServer) -> None:
        self.server = server
        self.generation = -1
        self._messages: dict[Any, str] = {}
        self._urls: dict[tuple[str | None, str], str | None] = {}
        self._fragments: dict[str, dict[int, str]] = {}  # uri → id(finding) → diagnostic text
        self._held: dict[str, list[Finding]] = {}  # uri → the findings those ids belong to
        self._rest: dict[tuple[Any, ...], str | None] = {}  # finding kind → diagnostic text after the range
        # uri → id(message_args) → (finding, text after the range, start and end character)
        self._rests_by_args: dict[str, dict[int, tuple[Finding, str | None, int, int]]] = {}

    def _reset_if_needed(self) -> None:
        if self.generation != self.server.generation:
            self.generation = self.server.generation
            self._messages.clear()
            self._urls.clear()
            self._fragments.clear()
            self._held.clear()
            self._rest.clear()
            self._rests_by_args.clear()

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

    def diagnostic(self, analysis: AnalyzedDocument, finding: Finding) -> dict[str, Any] | None:
        level = self.server.settings.severity_of(finding.category.value)
        if level == "off":
            return None
        if level == DEFAULT_LEVEL:
            level = finding.severity.value
        item: dict[str, Any] = {
            "range": analysis.index.range_dict(
                finding.line, finding.column, finding.end_line, finding.end_column
            ),
            "severity": int(SEVERITY.get(level, types.DiagnosticSeverity.Information)),
            "code": finding.rule,
            "source": SOURCE,
            "message": self.message(finding),
        }
        url = self.url(finding)
        if url:
            item["codeDescription"] = {"href": url}
        item["data"] = {  # last, with "version" last: see fragment()
            "torch_api": finding.torch_api,
            "mindspore_api": finding.mindspore_api,
            "version": analysis.version,
        }
        return item

    def _error(self, analysis: AnalyzedDocument) -> dict[str, Any] | None:
        """The file could not be analysed at all (binary, undecodable, too complex)."""
        error = analysis.result.error(self.server.lang)
        if not error:
            return None
        return {
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "severity": int(types.DiagnosticSeverity.Information),
            "code": analysis.result.error_key,
            "source": SOURCE,
            "message": error,
        }

    def diagnostics(self, analysis: AnalyzedDocument) -> list[dict[str, Any]]:
        self._reset_if_needed()
        items = [self.diagnostic(analysis, f) for f in analysis.result.findings]
        diagnostics = [d for d in items if d is not None]
        error = self._error(analysis)
        if error is not None:
            diagnostics.append(error)
        return diagnostics

    def rest(self, analysis: AnalyzedDocument, finding: Finding) -> str | None:
        """The diagnostic's JSON text after its range, up to (without) its version number and closing
        braces, shared by all findings of the same kind; ``None`` when its category is switched off."""
        message = self.message(finding)
        key = (finding.rule, finding.category, finding.severity, finding.torch_api, finding.mindspore_api,
               message)
        if key in self._rest:
            return self._rest[key]
        item = self.diagnostic(analysis, finding)
        text = None
        if item is not None:
            del item["range"]
            item["data"]["version"] = 0
            text = json.dumps(item)[1 : -len("0}}")]
        self._rest[key] = text
        return text

    def diagnostics_json(self, analysis: AnalyzedDocument) -> str:
        """The JSON array of the analysis's diagnostics (what :meth:`diagnostics` gives, as text).

        Per document, each finding's text is kept for the next version (incremental analysis hands
        unchanged findings on as the same objects), and the part after the range is kept per
        ``message_args`` object (a finding moved by an edit shares it with the one it came from).
        The previous version's findings are still held while this runs, so an id found in those
        tables is that very object."""
        self._reset_if_needed()
        uri = analysis.uri
        findings = analysis.result.findings
        previous = self._fragments.get(uri, {})
        rests = self._rests_by_args.setdefault(uri, {})
        if len(rests) > 2 * len(findings) + 100:  # drop the kinds no finding has any more
            live = {id(finding.message_args) for finding in findings}
            rests = self._rests_by_args[uri] = {k: v for k, v in rests.items() if k in live}
        current: dict[int, str] = {}
        parts: list[str] = []
        index = analysis.index
        lines = index.lines if index.ascii else None
        for finding in findings:
            key = id(finding)
            text = previous.get(key)
            if text is None:
                args_key = id(finding.message_args)
                known = rests.get(args_key)
                old = known[0] if known is not None else None
                if old is not None and (old.rule, old.column, old.severity) == (
                    finding.rule, finding.column, finding.severity
                ):
                    # moved by an edit: same kind, same columns (its line did not change), new line number
                    rest, start_char, end_char = known[1], known[2], known[3]
                else:
                    rest = self.rest(analysis, finding)
                    if lines is not None and 0 < finding.end_line <= len(lines) and finding.line > 0:
                        start_char = min(max(finding.column - 1, 0), len(lines[finding.line - 1]))
                        end_char = min(max(finding.end_column - 1, 0), len(lines[finding.end_line - 1]))
                    else:
                        start_char = index.character(finding.line, finding.column)[1]
                        end_char = index.character(finding.end_line, finding.end_column)[1]
                    rests[args_key] = (finding, rest, start_char, end_char)  # holds the finding: the id
                if rest is None:
                    text = ""  # its category is switched off
                else:
                    text = _RANGE % (finding.line - 1, start_char, finding.end_line - 1, end_char, rest)
            current[key] = text
            if text:
                parts.append(text)
        self._fragments[uri] = current
        self._held[uri] = findings  # keeps the ids in ``current`` theirs
        version = "null" if analysis.version is None else str(int(analysis.version))
        tail = version + "}}"
        items = [(tail + ",").join(parts) + tail] if parts else []
        error = self._error(analysis)
        if error is not None:
            items.append(json.dumps(error))
        return "[" + ",".join(items) + "]"

    def forget(self, uri: str) -> None:
        self._fragments.pop(uri, None)
        self._held.pop(uri, None)
        self._rests_by_args.pop(uri, None)
        if not self._fragments:  # no document left: the shared tables start again with the next one
            self._messages.clear()
            self._urls.clear()
            self._rest.clear()


def renderer_of(server: MsMigrateServer) -> Renderer:
    return server.session.kept(Renderer) or server.session.keep(Renderer(server))


def diagnostics_of(server: MsMigrateServer, analysis: AnalyzedDocument) -> list[dict[str, Any]]:
    return renderer_of(server).diagnostics(analysis)


def publish(
    server: MsMigrateServer, uri: str, version: int | None, diagnostics: list[dict[str, Any]]
) -> None:
    """Send ``textDocument/publishDiagnostics`` with ready JSON objects (no cattrs round trip)."""
    publish_json(server, uri, version, json.dumps(diagnostics))


def publish_json(server: MsMigrateServer, uri: str, version: int | None, diagnostics: str) -> None:
    """Send ``textDocument/publishDiagnostics`` whose diagnostics array is ready JSON text."""
    version_part = "" if version is None else f',"version":{int(version)}'
    body = (
        f'{{"jsonrpc":"2.0","method":"{types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}",'
        f'"params":{{"uri":{json.dumps(uri)}{version_part},"diagnostics":{diagnostics}}}}}'
    )
    send_json_text(server, body)


def send_json_text(server: MsMigrateServer, body: str) -> None:
    """Write one JSON-RPC message that is already JSON text (ASCII, as ``json.dumps`` makes it), framed
    as pygls frames its own; falls back to pygls's writer when its transport is not the usual one."""
    protocol = server.protocol
    writer = getattr(protocol, "writer", None)
    if writer is None or not getattr(protocol, "_include_headers", True) or not body.isascii():
        send_data(protocol, json.loads(body))
        return
    header = (
        f"Content-Length: {len(body)}\r\n"
        f"Content-Type: {protocol.CONTENT_TYPE}; charset={protocol.CHARSET}\r\n\r\n"
    )
    result = writer.write((header + body).encode("ascii"))
    if inspect.isawaitable(result):
        asyncio.ensure_future(result)


# freed heap is handed back to the OS this long after the last of a run of didClose notifications
RELEASE_AFTER_S = 1.0
# a provisional result (a big edit analysed in short) is confirmed once edits and requests pause this long
CONFIRM_AFTER_S = 0.15
# a document of at least EARLY_FROM_LINES lines, just opened, first gets the diagnostics of its first
# EARLY_LINES lines
EARLY_FROM_LINES = 2000
EARLY_LINES = 400


# a document's incremental state is built this long after its first diagnostics are out (documents
# opened together all get theirs first)
PREPARE_AFTER_S = 0.3


def prepare_later(server: MsMigrateServer, uri: str) -> None:
    """Build the document's incremental state on the analysis thread a little later (a full analysis
    leaves it to be built: see ``IncrementalAnalyzer.prepare``)."""

    def submit() -> None:
        if server.document(uri) is not None:
            try:
                server.analysis_executor.submit(server.documents.prepare, uri)
            except RuntimeError:  # shutting down
                pass

    try:
        asyncio.get_running_loop().call_later(PREPARE_AFTER_S, submit)
    except RuntimeError:  # no loop (unit use): the first edit builds it
        pass


class Publisher:
    """Per-document push loop: analyse the newest text, publish only for the current version; after a
    provisional result, publish the exact one when the edits pause (same version, sent again)."""

    def __init__(self, server: MsMigrateServer) -> None:
        self.server = server
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.pending: set[str] = set()
        self.wakeups: dict[str, asyncio.Event] = {}
        self.release_handle: asyncio.TimerHandle | None = None  # see release_after_closes

    @property
    def pull_mode(self) -> bool:
        return self.server.client_supports("text_document", "diagnostic")

    def schedule(self, uri: str) -> None:
        if self.pull_mode:
            return
        self.pending.add(uri)
        wakeup = self.wakeups.get(uri)
        if wakeup is not None:
            wakeup.set()
        task = self.tasks.get(uri)
        if task is None or task.done():
            self.tasks[uri] = asyncio.get_running_loop().create_task(self._run(uri))

    async def _run(self, uri: str) -> None:
        server = self.server
        self._want_early(uri)
        while True:
            if uri not in self.pending:
                if not await self._confirm_when_quiet(uri):
                    return
                continue
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
            self._publish(analysis)

    def _want_early(self, uri: str) -> None:
        """A big document not analysed yet: its full analysis first hands on the findings of its first
        :data:`EARLY_LINES` lines (``IncrementalAnalyzer.analyze``), published at once."""
        server = self.server
        doc = server.document(uri)
        if doc is None or doc.uri in server.analyses or doc.source.count("\n") < EARLY_FROM_LINES:
            return
        loop = asyncio.get_running_loop()
        generation = server.generation

        def early(source: str, result: FileResult) -> None:  # on the analysis thread
            loop.call_soon_threadsafe(self._publish_early, doc.uri, source, generation, result)

        server.documents.early[doc.uri] = (EARLY_LINES, early)

    def _publish_early(self, uri: str, source: str, generation: int, result: FileResult) -> None:
        server = self.server
        doc = server.document(uri)
        if doc is None or doc.source != source or server.generation != generation or uri in server.analyses:
            return
        index = LineIndex(source, doc.position_codec)
        analysis = AnalyzedDocument(uri, doc.version, generation, source, result, index, "", provisional=True)
        publish(server, uri, doc.version, renderer_of(server).diagnostics(analysis))

    def _publish(self, analysis: AnalyzedDocument) -> None:
        try:
            diagnostics = renderer_of(self.server).diagnostics_json(analysis)
        except Exception as exc:
            self.server.report_failure("diagnostics", exc)
            self._clear_stale(analysis.uri)
            return
        publish_json(self.server, analysis.uri, analysis.version, diagnostics)
        prepare_later(self.server, analysis.uri)

    async def _confirm_when_quiet(self, uri: str) -> bool:
        """After a provisional publish: wait for a pause, then publish the exact result. Returns True
        when an edit came in meanwhile (the loop goes on), False when there is nothing left to do."""
        analysis = self.server.cached(uri)
        if analysis is None or not analysis.provisional:
            return False
        wakeup = self.wakeups[uri] = asyncio.Event()
        loop = asyncio.get_running_loop()
        try:
            while True:  # until neither edits nor requests came for a while
                try:
                    await asyncio.wait_for(wakeup.wait(), CONFIRM_AFTER_S)
                    return True  # edited again: analyse that first
                except TimeoutError:
                    pass
                if loop.time() - self.server.last_request >= CONFIRM_AFTER_S:
                    break
        finally:
            self.wakeups.pop(uri, None)
        if uri in self.pending:
            return True
        try:
            confirmed = await self.server.confirm(uri)
        except Exception as exc:
            self.server.report_failure("diagnostics", exc)
            return False
        if confirmed is not None and confirmed is not analysis and self.server.cached(uri) is confirmed:
            self._publish(confirmed)  # (the same object: the findings did not change, nothing to send)
        return uri in self.pending

    def _clear_stale(self, uri: str) -> None:
        """After a failure: an empty set for the current version beats results of an older one."""
        doc = self.server.document(uri)
        if doc is not None:
            publish(self.server, doc.uri, doc.version, [])

    def release_after_closes(self) -> None:
        """After closes: once no document closed for :data:`RELEASE_AFTER_S` and no diagnostics are being
        computed, collect garbage and hand the freed heap back to the OS (``release_memory``), also while
        other documents stay open."""
        if self.release_handle is not None:
            self.release_handle.cancel()
        try:
            self.release_handle = asyncio.get_running_loop().call_later(RELEASE_AFTER_S, self._release)
        except RuntimeError:  # no loop (unit use)
            release_memory()

    def _release(self) -> None:
        if any(not task.done() for task in self.tasks.values()):  # not in the way of a document's analysis
            self.release_handle = asyncio.get_running_loop().call_later(RELEASE_AFTER_S, self._release)
            return
        self.release_handle = None
        release_memory()

    def clear(self, uri: str) -> None:
        self.pending.discard(uri)
        task = self.tasks.pop(uri, None)
        if task is not None:
            task.cancel()
        renderer_of(self.server).forget(uri)
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


def confirm_for_pull(server: MsMigrateServer, analysis: AnalyzedDocument) -> None:
    """A pulling client got a provisional result: once requests pause, analyse exactly and, when the
    findings change, ask the client to pull again (``workspace/diagnostic/refresh``)."""
    pending = server.session.pull_confirmations
    if analysis.uri in pending:
        return
    pending.add(analysis.uri)

    async def confirm() -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                await asyncio.sleep(CONFIRM_AFTER_S)
                if loop.time() - server.last_request >= CONFIRM_AFTER_S:
                    break
            confirmed = await server.confirm(analysis.uri)
            if confirmed is not None and confirmed is not analysis and \
                    server.client_supports("workspace", "diagnostics", "refresh_support"):
                server.workspace_diagnostic_refresh(None)
        except Exception as exc:
            server.report_failure("diagnostics", exc)
        finally:
            pending.discard(analysis.uri)

    asyncio.get_running_loop().create_task(confirm())


def register(server: MsMigrateServer) -> None:
    publisher = server.session.keep(Publisher(server))
    server.on_settings_changed.append(publisher.republish_all)

    def schedule(ls: MsMigrateServer, params: Any) -> None:
        """didOpen, didChange, didSave: (re)analyse the document and publish its diagnostics; a running
        analysis of an older text of it stops (nothing of it is published)."""
        server.supersede(params.text_document.uri)
        publisher.schedule(params.text_document.uri)

    for method, where in (
        (types.TEXT_DOCUMENT_DID_OPEN, "didOpen"),
        (types.TEXT_DOCUMENT_DID_CHANGE, "didChange"),
        (types.TEXT_DOCUMENT_DID_SAVE, "didSave"),
    ):
        server.feature(method)(server.guarded(where)(schedule))

    @server.feature(types.SHUTDOWN)
    @server.guarded("shutdown")
    def shutdown(ls: MsMigrateServer, params: Any) -> None:
        """No analysis starts any more, and those under way stop at their next check; features stop
        their own work (``server.on_shutdown``: a comparison's workers are killed)."""
        server.stop_work()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @server.guarded("didClose")
    def did_close(ls: MsMigrateServer, params: types.DidCloseTextDocumentParams) -> None:
        server.forget(params.text_document.uri)
        publisher.clear(params.text_document.uri)
        publisher.release_after_closes()

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
        if analysis.provisional:
            confirm_for_pull(server, analysis)
        else:
            prepare_later(server, analysis.uri)
        if params.previous_result_id == analysis.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=analysis.result_id)
        # plain JSON objects, sent as they are (see Renderer)
        return {"kind": "full", "resultId": analysis.result_id, "items": diagnostics_of(server, analysis)}
