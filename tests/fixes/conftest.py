"""Shared fixtures of the fix tests: the knowledge bases of the 2.4 and 2.6 tables."""

from __future__ import annotations

import pytest

from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base


@pytest.fixture(scope="module")
def kb24() -> KnowledgeBase:
    return get_knowledge_base("2.4")


@pytest.fixture(scope="module")
def kb26() -> KnowledgeBase:
    return get_knowledge_base("2.6")
