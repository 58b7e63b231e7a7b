"""The pygls 2 language server ``msmigrate``: state shared by the feature modules.

Feature modules (``lsp/diagnostics.py``, ``hover.py``, ``code_actions.py``, ``commands.py``,
``code_lens.py``, ``settings_sync.py``) and optional ones (e.g. the equivalence check) each export
``register(server)``; ``lsp/features.py`` lists them and makes the server with all of them registered.
Handlers are thin: analysis, fixes, lookup and scanning live in the core library. The server never
imports torch or mindspore.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import gc
import inspect
import logging
import sys
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from msmigrate import __version__
from msmigrate.analysis.cancel import NEVER, CancelToken
from msmigrate.analysis.options import ProjectIndex
from msmigrate.data_files import KnowledgeBaseError
from msmigrate.i18n import t
from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base
from msmigrate.lsp.analysis import OpenDocuments, RunningAnalyses
from msmigrate.lsp.config import Settings
from msmigrate.lsp.documents import LspWorkspace
from msmigrate.lsp.positions import LineIndex
from msmigrate.lsp.protocol import GuardedProtocol
from msmigrate.lsp.session import Session
from msmigrate.model.finding import FileResult

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])

class ServerProtocol(GuardedProtocol):
    """The guarded protocol whose workspace counts lines as LSP does (``lsp/documents.py``)."""

    workspace_like = staticmethod(LspWorkspace.like)


@dataclass
class AnalyzedDocument:
    """One version of one open document with its analysis (``lsp/analysis.py`` runs the analyzer of the
    ``analysis`` package on it)."""

    uri: str
    version: int | None
    generation: int  # settings generation it was computed under
    source: str
    result: FileResult
    index: LineIndex
    result_id: str
    fix_context: Any = None  # FixContext built on first use (False: the text does not parse)
    partial_fix_contexts: dict[tuple[int, ...], Any] = field(default_factory=dict)  # lines → FixContext
    finding_lines: list[int] | None = None  # each finding's line, for bisection (code actions)
    longest_span: int = 0  # the most lines a finding spans
    provisional: bool = False  # shortened analysis of a big edit: ``MsMigrateServer.confirm`` follows


class MsMigrateServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("msmigrate", __version__, protocol_cls=ServerProtocol)
        self.settings = Settings()
        self.session = Session()  # what the feature modules keep between requests
        self.generation = 0  # bumped on every settings change
        self.analyses: dict[str, AnalyzedDocument] = {}
        self._inflight: dict[str, asyncio.Future[AnalyzedDocument]] = {}
        self._result_counter = 0
        self.analysis_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="msmigrate-analysis")
        # fresh analyses confirming a result built over a statement that does not parse (see confirm)
        self.confirm_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="msmigrate-confirm")
        self.documents = OpenDocuments()  # incremental analysis state per open document
        self.running = RunningAnalyses()  # cancel tokens of the analyses under way (see supersede)
        self.shutting_down = False  # after ``shutdown``: no analysis starts
        self._project_index: tuple[int, ProjectIndex] | None = None  # (generation, index)
        self.last_request = 0.0  # loop time of the last request that needed an analysis
        self.on_settings_changed: list[Callable[[], Any]] = []
        self.on_shutdown: list[Callable[[], Any]] = []  # called on ``shutdown`` (lsp/diagnostics.py)
        # extra code actions from optional features: provider(server, analysis, params) -> [CodeAction]
        self.code_action_providers: list[Callable[..., list[types.CodeAction]]] = []
        # extra code lenses from optional features: provider(server, document) -> [CodeLens]
        self.code_lens_providers: list[Callable[..., list[types.CodeLens]]] = []

    def start_io(self, *args: Any, **kwargs: Any) -> None:
        """Serve over stdio; exits with the code ``exit`` chose (1 without ``shutdown`` first)."""
        super().start_io(*args, **kwargs)
        code = getattr(self.protocol, "exit_code", None)
        if code:
            raise SystemExit(code)

    def stop_work(self) -> None:
        """``shutdown`` (or the end of the process): no analysis starts any more, those under way stop at
        their next check, and features stop their own work (``on_shutdown``: a comparison's workers are
        killed). Safe to call again."""
        self.shutting_down = True
        self.running.cancel_all()
        for stop in self.on_shutdown:
            stop()

    # --- settings and knowledge ---------------------------------------------------------------
    @property
    def lang(self) -> str:
        return self.settings.language

    @property
    def kb(self) -> KnowledgeBase:
        return get_knowledge_base(self.settings.mindspore_version)

    def apply_settings(self, settings: Settings) -> bool:
        """Adopt new settings; True when they differ from the current ones."""
        changed = settings != self.settings
        self.settings = settings
        if changed:
            self.generation += 1
            for problem in settings.problems:
                self.log(t("lsp.log.bad_setting", "en", detail=problem), types.MessageType.Warning)
        return changed

    def project_index(self, generation: int | None = None, settings: Settings | None = None) -> ProjectIndex:
        """The workspace's nn.Module subclasses (a line scan of the Python files' class headers, once per
        settings generation, on the analysis thread), so ``from .model import Net`` gives module receivers,
        and the fields its files build (``analysis/project_fields.py``), read when a rule first needs them
        (``DeferredIndex``: the files a pattern finds are parsed, which few documents need), so a field
        built as a list in another file is known. A class or field added later counts from the next settings
        change or restart."""
        generation = self.generation if generation is None else generation
        if self._project_index is not None and self._project_index[0] == generation:
            return self._project_index[1]
        settings = settings or self.settings
        found = ProjectIndex()
        try:
            folders = self.workspace.folders.values()
            roots = [self.path_of(folder.uri) for folder in folders] or (
                [self.workspace.root_path] if self.workspace.root_path else [])
            if roots:
                from msmigrate.analysis.project_fields import DeferredIndex
                from msmigrate.scan.runner import project_index

                include, exclude = settings.include or ("*.py",), settings.exclude
                classes = project_index(roots, include, exclude, fields=False).module_classes
                fields = DeferredIndex(lambda: project_index(roots, include, exclude).fields)
                found = ProjectIndex(classes, fields)
        except Exception:  # no workspace yet, an unreadable folder: no cross-file facts
            log.debug("no project index", exc_info=True)
        self._project_index = (generation, found)
        return found

    # --- client capabilities ------------------------------------------------------------------
    def client_supports(self, *path: str) -> bool:
        """Whether a (possibly nested) client capability is present and truthy."""
        node: Any = self.client_capabilities
        for name in path:
            node = getattr(node, name, None) if node is not None else None
        return bool(node)

    # --- documents ----------------------------------------------------------------------------
    def document(self, uri: str) -> TextDocument | None:
        """The open document (None when it is not open)."""
        try:
            workspace = self.workspace
        except RuntimeError:
            return None
        return workspace.text_documents.get(unquote(uri))  # pygls keys documents by the decoded URI

    @staticmethod
    def path_of(uri: str) -> str:
        """File-system path of a URI (decodes ``file:///C%3A/...``); the URI itself otherwise."""
        try:
            return to_fs_path(uri) or uri
        except Exception:  # a malformed URI is still a usable name
            return uri

    def _analyze(
        self, uri: str, source: str, version: int | None, generation: int, settings: Settings, codec: Any,
        cancel: CancelToken = NEVER,
    ) -> AnalyzedDocument | None:
        """The analysis of one version (on the analysis thread); ``None`` when ``cancel`` stopped it."""
        if cancel.cancelled:  # superseded while queued
            return None
        kb = get_knowledge_base(settings.mindspore_version)
        try:
            kb.require()
        except KnowledgeBaseError as exc:  # the document's one diagnostic says it (and showMessage once)
            result = FileResult(self.path_of(uri), [], exc.key, exc.fields)
            return self._analysis(uri, version, generation, source, result, codec)
        provisional = not self.client_supports("text_document", "diagnostic")  # pushing: confirm follows
        result, analyzer = self.documents.analyze(
            uri, source, self.path_of(uri), kb, settings, generation, provisional,
            self.project_index(generation, settings), cancel,
        )
        if result is None:
            return None
        if analyzer is not None:
            stats = analyzer.stats
            log.debug("%s v%s: %s analysis, %d of %d statements walked again", uri, version, stats.mode,
                      stats.reanalysed_chunks, stats.chunks)
        return self._analysis(uri, version, generation, source, result, codec,
                              analyzer is not None and analyzer.provisional)

    def _analysis(self, uri: str, version: int | None, generation: int, source: str, result: FileResult,
                  codec: Any, provisional: bool = False) -> AnalyzedDocument:
        self._result_counter += 1
        index = LineIndex(source, codec)
        result_id = f"{generation}.{self._result_counter}"
        return AnalyzedDocument(uri, version, generation, source, result, index, result_id,
                                provisional=provisional)

    async def confirm(self, uri: str) -> AnalyzedDocument | None:
        """After a provisional analysis of the document's current version: the exact one (stored as the
        current analysis), or ``None`` when the document changed meanwhile or nothing was pending."""
        analysis = self.cached(uri)
        if analysis is None or not analysis.provisional:
            return None
        loop = asyncio.get_running_loop()
        token = self.running.start(analysis.uri, analysis.source)  # a newer version cancels it
        try:
            if self.documents.fresh_pending(analysis.uri):  # beside the analysis thread: edits need not wait
                result = await loop.run_in_executor(self.confirm_executor, self.documents.fresh, analysis.uri,
                                                    analysis.source, token)
            else:
                result = await loop.run_in_executor(self.analysis_executor, self.documents.confirm,
                                                    analysis.uri, analysis.source, token)
        finally:
            self.running.finish(analysis.uri, token)
        if result is None or self.cached(uri) is not analysis:
            return None
        old = analysis.result
        if result.findings == old.findings and result.syntax_error_line == old.syntax_error_line:
            analysis.provisional = False  # the same findings: keep the object (and its fix context)
            return analysis
        doc = self.document(uri)
        codec = doc.position_codec if doc is not None else None
        confirmed = self._analysis(analysis.uri, analysis.version, analysis.generation, analysis.source,
                                   result, codec)
        self.analyses[analysis.uri] = confirmed
        return confirmed

    def cached(self, uri: str) -> AnalyzedDocument | None:
        """The cached analysis if it matches the document's current text and settings."""
        doc = self.document(uri)
        if doc is None:
            return None
        analysis = self.analyses.get(doc.uri)
        if analysis is None:
            return None
        if analysis.generation != self.generation or analysis.version != doc.version:
            return None
        return analysis if analysis.source == doc.source else None

    async def current(self, uri: str) -> AnalyzedDocument | None:
        """The analysis of the document's latest version (computed in a thread when missing).

        One analysis per document runs at a time; versions superseded while it runs are skipped, and a
        newer version cancels it (:meth:`supersede`): the newest is then analysed. Waiters are shielded:
        a cancelled request (a hover the client gave up on) never cancels the analysis that others (the
        diagnostics loop) are waiting for.
        """
        loop = asyncio.get_running_loop()
        self.last_request = loop.time()
        while True:
            doc = self.document(uri)
            if doc is None or self.shutting_down:
                return None
            uri = doc.uri  # the URI as the client opened it
            hit = self.cached(uri)
            if hit is not None:
                return hit
            inflight = self._inflight.get(uri)
            if inflight is None or inflight.done():
                token = self.running.start(uri, doc.source)
                inflight = loop.run_in_executor(
                    self.analysis_executor,
                    self._analyze,
                    uri,
                    doc.source,
                    doc.version,
                    self.generation,
                    self.settings,
                    doc.position_codec,
                    token,
                )
                self._inflight[uri] = inflight
                inflight.add_done_callback(functools.partial(self._finished, uri, token))
            await asyncio.shield(inflight)  # raises what the analysis raised

    def supersede(self, uri: str) -> int:
        """The document changed (or closed): cancel its analyses of other texts than its current one.
        Returns how many were cancelled."""
        doc = self.document(uri)
        if doc is None:
            return self.running.cancel(uri)
        return self.running.supersede(doc.uri, doc.source)

    def _finished(self, uri: str, token: CancelToken,
                  future: asyncio.Future[AnalyzedDocument | None]) -> None:
        """Store a finished analysis (whoever was waiting for it)."""
        self.running.finish(uri, token)
        if self._inflight.get(uri) is future:
            del self._inflight[uri]
        if future.cancelled() or future.exception() is not None:
            return
        analysis = future.result()
        if analysis is None:  # cancelled: a newer version is analysed instead
            return
        if self.document(uri) is None:  # closed meanwhile: keep nothing of it
            self.documents.forget(uri)
            return
        # analyses of one document run one after the other, each on the text of its start: the one that
        # finished last is the newest. Versions are not compared: they start again when a document is
        # reopened, and a client may send a lower one (``cached`` checks version and text for equality).
        self.analyses[uri] = analysis

    def release_memory_soon(self, delay: float = 0.5) -> None:
        """After a big job (a project scan and its report reply), hand freed heap back to the OS."""
        try:
            asyncio.get_running_loop().call_later(delay, release_memory)
        except RuntimeError:  # no loop (unit use)
            release_memory()

    def forget(self, uri: str) -> None:
        doc = self.document(uri)
        key = doc.uri if doc is not None else uri
        self.analyses.pop(key, None)
        self.running.cancel(key)
        self.documents.forget(key)

    # --- logging and errors -------------------------------------------------------------------
    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        """Send a ``window/logMessage`` (and log locally)."""
        log.log(logging.WARNING if kind <= types.MessageType.Warning else logging.INFO, message)
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # no client connected (unit use) or the stream is closed
            pass

    def report_failure(self, where: str, exc: BaseException) -> None:
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=8))
        self.log(t("lsp.log.handler_failed", "en", where=where, detail=detail), types.MessageType.Error)

    def guarded(self, where: str, default: Any = None) -> Callable[[F], F]:
        """Decorator: a failing handler logs the error and returns ``default`` instead of raising."""

        def decorate(func: F) -> F:
            if inspect.iscoroutinefunction(func):

                @functools.wraps(func)
                async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                    try:
                        return await func(*args, **kwargs)
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:
                        self.report_failure(where, exc)
                        return default() if callable(default) else default

                return async_wrapper  # type: ignore[return-value]

            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return func(*args, **kwargs)
                except Exception as exc:
                    self.report_failure(where, exc)
                    return default() if callable(default) else default

            return wrapper  # type: ignore[return-value]

        return decorate


def release_memory() -> None:
    """Collect garbage and, on glibc, return free heap pages to the OS (``malloc_trim``)."""
    gc.collect()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):  # not glibc (musl, …)
            pass
