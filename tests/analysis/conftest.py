"""Shared fixtures of the analyzer tests: the real 2.4 knowledge base and an ``analyze`` helper.

The analyzer's name resolution is tested against the official table alone (``derived=False``), so the
expected categories stay those of the 2.4 table; derived mappings are tested in
tests/knowledge/test_derived.py.
"""

from __future__ import annotations

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base
from msmigrate.model.finding import FileResult


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return get_knowledge_base("2.4", derived=False)


@pytest.fixture
def analyze(kb):
    """Analyse a snippet without jedi and without the rule modules' checkers (unless asked)."""

    def run(source: str | bytes, path: str = "snippet.py", **options) -> FileResult:
        options.setdefault("use_jedi", False)
        options.setdefault("run_checkers", False)
        return analyze_source(source, path, kb, AnalysisOptions(**options))

    return run
