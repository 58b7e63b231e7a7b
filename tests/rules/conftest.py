"""Shared fixtures of the rule tests: the real 2.6 knowledge base and an ``analyze`` helper.

The rules are tested against the official table alone (``derived=False``): the missing-API rules, their
advice and rewrites concern APIs without a mapping, and most of the APIs these tests use (``x.view``,
``x.size()``, dtypes) now have derived mappings (tested in tests/knowledge/test_derived.py).
"""

from __future__ import annotations

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base
from msmigrate.model.finding import FileResult


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return get_knowledge_base("2.6", derived=False)


@pytest.fixture
def analyze(kb):
    """Analyse a snippet with every rule checker (jedi off, so results do not depend on timing)."""

    def run(
        source: str | bytes, path: str = "snippet.py", version_kb: KnowledgeBase | None = None, **options
    ) -> FileResult:
        options.setdefault("use_jedi", False)
        return analyze_source(source, path, version_kb or kb, AnalysisOptions(**options))

    return run


def triples(result: FileResult, prefix: str = "MSM") -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.rule) for f in result.findings if f.rule.startswith(prefix)]
