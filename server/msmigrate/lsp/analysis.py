"""Analysis of an open document under the editor's settings (a thin call into the analyzer)."""

from __future__ import annotations

import ast
import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from msmigrate.analysis.cancel import NEVER, Cancelled, CancelToken
from msmigrate.analysis.options import ProjectIndex
from msmigrate.data_files import KnowledgeBaseError
from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base
from msmigrate.lsp.config import Settings
from msmigrate.model.finding import FileResult

if TYPE_CHECKING:
    from msmigrate.analysis.incremental import IncrementalAnalyzer

log = logging.getLogger(__name__)

# jedi settles unknown receivers but costs up to its budget on every keystroke; the editor loop keeps
# to the analyzer's own inference (as `msmigrate scan` does by default).
USE_JEDI = False


def analysis_options(settings: Settings, project: ProjectIndex | None = None) -> object:
    """The analyzer options the server uses for a document (``project``: the workspace's nn.Module
    subclasses and built fields, see ``MsMigrateServer.project_index``)."""
    from msmigrate.analysis.options import AnalysisOptions

    project = project or ProjectIndex()
    return AnalysisOptions(disabled_rules=frozenset(settings.disabled_rules), use_jedi=USE_JEDI,
                           module_classes=project.module_classes, project_fields=project.fields,
                           device=settings.device)


def analyze_text(source: str | bytes, path: str, kb: KnowledgeBase, settings: Settings) -> FileResult:
    """Findings of ``source``, without the rules the settings disable. Never raises.

    Severities are applied by the diagnostics layer, so hover still knows findings whose category
    is switched ``off``.
    """
    from msmigrate.analysis.analyzer import analyze_source

    try:
        return analyze_source(source, path, kb, analysis_options(settings))
    except Exception as exc:  # the analyzer promises not to raise; a bug must not stop the server
        log.exception("analysis of %s failed", path)
        return FileResult(path=path, error_key="common.error", error_args={"detail": str(exc)})


# what a first document would otherwise load: the inventories and signature tables (receivers, call
# facts), the derived mappings, the rule modules and the message catalogues
WARM_UP_SOURCE = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, channels=4):
        super().__init__()
        self.fc = nn.Linear(channels, 2, bias=False)

    def forward(self, x):
        y = torch.cat([x, x], dim=1).view(x.size(0), -1)
        return F.relu(self.fc(y)).sum(dim=1).item()
"""


def warm_up(settings: Settings) -> int:
    """Analyse :data:`WARM_UP_SOURCE` under ``settings`` and render its messages, so that what the analyzer
    loads on first use is loaded before the first document arrives (run on the analysis thread at
    ``initialize``). Returns the number of findings (0 when something failed: only time is lost)."""
    try:
        kb = get_knowledge_base(settings.mindspore_version).require()
        result = analyze_text(WARM_UP_SOURCE, "<warm-up>", kb, settings)
        for finding in result.findings:
            finding.message(settings.language)
        return len(result.findings)
    except KnowledgeBaseError:  # said to the user by knowledge_problem after ``initialized``
        return 0
    except Exception:  # a failed warm-up costs the first document the time, nothing more
        log.exception("warm-up failed")
        return 0


def knowledge_problem(version: str) -> KnowledgeBaseError | None:
    """Why the knowledge base of ``version`` cannot be used (missing or damaged), or ``None``."""
    try:
        get_knowledge_base(version).require()
    except KnowledgeBaseError as exc:
        return exc
    return None


def analysed_text(source: str) -> str | None:
    """The text the analyzer works on for a document's ``source`` (no BOM, no lone surrogates)."""
    from msmigrate.analysis.parse import SourceError, decode

    try:
        return decode(source)
    except SourceError:
        return None


class RunningAnalyses:
    """The cancel tokens of the analyses running now (or queued), per document URI, each with the text it
    analyses: a newer version cancels those of older texts (:meth:`supersede`), closing the document or
    shutting down cancels them all. Used from the event loop; the tokens are read by the analysis threads."""

    def __init__(self) -> None:
        self._runs: dict[str, dict[CancelToken, str]] = {}

    def start(self, uri: str, source: str) -> CancelToken:
        token = CancelToken()
        self._runs.setdefault(uri, {})[token] = source
        return token

    def finish(self, uri: str, token: CancelToken) -> None:
        runs = self._runs.get(uri)
        if runs is not None:
            runs.pop(token, None)
            if not runs:
                del self._runs[uri]

    def supersede(self, uri: str, source: str) -> int:
        """Cancel the document's analyses of another text than ``source`` (not a shielded one: see
        ``IncrementalAnalyzer.analyze``); returns how many were not cancelled before and will stop."""
        runs = self._runs.get(uri, {})
        stale = [token for token, text in runs.items() if text != source and not token.cancelled]
        return sum(token.cancel() for token in stale)

    def cancel(self, uri: str) -> int:
        """Cancel every analysis of the document, shielded or not; returns how many were not cancelled
        before."""
        return sum(token.cancel(force=True) for token in list(self._runs.get(uri, {})) if not token.cancelled)

    def cancel_all(self) -> int:
        return sum(self.cancel(uri) for uri in list(self._runs))

    def __len__(self) -> int:
        return sum(len(runs) for runs in self._runs.values())


def _stopped(what: str, uri: str, cancel: CancelToken) -> None:
    """Log a cancelled analysis, how long it ran on after the cancel request and when it stopped (epoch
    seconds: ``benchmarks/lsp_latency.py`` reads these lines)."""
    waited = cancel.waited_ms()
    log.info("%s of %s cancelled: stopped %.1f ms after the request, at %.4f", what, uri, waited or 0.0,
             time.time())


class OpenDocuments:
    """One :class:`IncrementalAnalyzer` per open document (made anew when the settings change), so an
    edit re-analyses only the statements it touches. Used from the one analysis thread."""

    def __init__(self) -> None:
        self._analyzers: dict[str, tuple[int, IncrementalAnalyzer]] = {}
        # uri → (first lines, callback(source, early result)) for the document's next full analysis
        self.early: dict[str, tuple[int, Callable[[str, FileResult], None]]] = {}

    def analyze(
        self,
        uri: str,
        source: str,
        path: str,
        kb: KnowledgeBase,
        settings: Settings,
        generation: int,
        provisional: bool = False,
        project: ProjectIndex | None = None,
        cancel: CancelToken = NEVER,
    ) -> tuple[FileResult | None, IncrementalAnalyzer | None]:
        """Findings of the document's new text (never raises), and the analyzer that produced them; (None,
        None) when ``cancel`` was cancelled meanwhile. With ``provisional``, a big re-analysis may be
        shortened first (then :meth:`confirm`)."""
        entry = self._entry(uri, path, kb, settings, generation, project)
        entry[1].allow_provisional = provisional
        wanted = self.early.pop(uri, None)
        early = (wanted[0], functools.partial(wanted[1], source)) if wanted is not None else None
        try:
            return entry[1].analyze(source, early, cancel), entry[1]
        except Cancelled:
            if wanted is not None:  # the next text's full analysis hands on its first lines instead
                self.early.setdefault(uri, wanted)
            _stopped("analysis", uri, cancel)
            return None, None
        except Exception as exc:  # IncrementalAnalyzer promises not to raise; a bug must not stop the server
            log.exception("analysis of %s failed", path)
            self._analyzers.pop(uri, None)
            return FileResult(path, error_key="common.error", error_args={"detail": str(exc)}), None

    def _entry(self, uri: str, path: str, kb: KnowledgeBase, settings: Settings, generation: int,
               project: ProjectIndex | None) -> tuple[int, IncrementalAnalyzer]:
        from msmigrate.analysis.incremental import IncrementalAnalyzer

        entry = self._analyzers.get(uri)
        if entry is None or entry[0] != generation or entry[1].kb is not kb or entry[1].path != path:
            analyzer = IncrementalAnalyzer(path, kb, analysis_options(settings, project))
            entry = (generation, analyzer)
            self._analyzers[uri] = entry
        return entry

    def confirm(self, uri: str, source: str, cancel: CancelToken = NEVER) -> FileResult | None:
        """The exact result after a provisional one, if ``source`` is still the analyzed text (None when
        ``cancel`` was cancelled meanwhile)."""
        entry = self._analyzers.get(uri)
        if entry is None or not entry[1].provisional:
            return None
        try:
            return entry[1].confirm(cancel) if entry[1].text == analysed_text(source) else None
        except Cancelled:
            _stopped("confirmation", uri, cancel)
            return None
        except Exception:  # confirm() promises not to raise; a bug must not stop the server
            log.exception("confirming the analysis of %s failed", uri)
            self._analyzers.pop(uri, None)
            return None

    def fresh_pending(self, uri: str) -> bool:
        entry = self._analyzers.get(uri)
        return entry is not None and entry[1].fresh_pending

    def fresh(self, uri: str, source: str, cancel: CancelToken = NEVER) -> FileResult | None:
        """A fresh analysis of the document's last analysed text (see
        :meth:`IncrementalAnalyzer.fresh`): may run beside the analysis thread."""
        entry = self._analyzers.get(uri)
        text = analysed_text(source)
        if entry is None or text is None:
            return None
        try:
            return entry[1].fresh(text, cancel)
        except Cancelled:
            _stopped("fresh analysis", uri, cancel)
            return None
        except Exception:  # fresh() promises not to raise; a bug must not stop the server
            log.exception("fresh analysis of %s failed", uri)
            return None

    def statements_for(self, uri: str, source: str, lines: list[int]) -> ast.Module | None:
        """See :meth:`IncrementalAnalyzer.statements_for` (call it on the analysis thread)."""
        entry = self._analyzers.get(uri)
        if entry is None:
            return None
        try:
            return entry[1].statements_for(analysed_text(source), lines)
        except Exception:  # a bug here only costs the fix context a full parse
            log.exception("statements of %s for quick fixes failed", uri)
            return None

    def prepare(self, uri: str) -> None:
        """Ready the document's incremental state (see :meth:`IncrementalAnalyzer.prepare`): on the
        analysis thread, once its diagnostics are out, so the first edit finds it built."""
        entry = self._analyzers.get(uri)
        if entry is None:
            return
        try:
            entry[1].prepare()
        except Exception:  # prepare() promises not to raise; a bug must not stop the server
            log.exception("preparing the incremental analysis of %s failed", uri)
            self._analyzers.pop(uri, None)

    def forget(self, uri: str) -> None:
        self._analyzers.pop(uri, None)
        self.early.pop(uri, None)
