"""Analysis of an open document under the editor's settings (a thin call into the analyzer)."""

from __future__ import annotations

import logging

from msmigrate.analysis.finding import FileResult
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.lsp.config import Settings

log = logging.getLogger(__name__)


def analyze_text(source: str, path: str, kb: KnowledgeBase, settings: Settings) -> FileResult:
    """Findings of ``source``, without the rules the settings disable. Never raises."""
    from msmigrate.analysis.analyzer import analyze_source

    try:
        result = analyze_source(source, path, kb, None)
    except Exception as exc:  # the analyzer promises not to raise; a bug must not stop the server
        log.exception("analysis of %s failed", path)
        return FileResult(path=path, error_key="common.error", error_args={"detail": str(exc)})
    if settings.disabled_rules:
        disabled = set(settings.disabled_rules)
        result.findings = [f for f in result.findings if f.rule not in disabled]
    return result
