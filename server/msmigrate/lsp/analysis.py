"""Analysis of an open document under the editor's settings (a thin call into the analyzer)."""

from __future__ import annotations

import logging

from msmigrate.analysis.finding import FileResult
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.lsp.config import Settings

log = logging.getLogger(__name__)

# jedi settles unknown receivers but costs up to its budget on every keystroke; the editor loop keeps
# to the analyzer's own inference (as `msmigrate scan` does by default).
USE_JEDI = False


def analysis_options(settings: Settings) -> object:
    """The analyzer options the server uses for a document."""
    from msmigrate.analysis.options import AnalysisOptions

    return AnalysisOptions(disabled_rules=frozenset(settings.disabled_rules), use_jedi=USE_JEDI)


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
