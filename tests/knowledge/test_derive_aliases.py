"""A table row whose MindSpore target the inventory knows under another name (an alias) is not 'gone':
derivation resolves every spelling, so the table's mapping stays the one applied."""

from __future__ import annotations

import pytest

from msmigrate.knowledge.base import VERSIONS, get_knowledge_base


def test_an_aliased_table_target_keeps_the_table_mapping() -> None:
    kb = get_knowledge_base("2.6")
    assert "mindspore.mint.nn.Linear" not in kb.mindspore_inventory  # not a canonical name …
    assert kb.mindspore_canonical("mindspore.mint.nn.Linear") == "mindspore.nn.Linear"  # … an alias
    assert kb.row("torch.nn.Linear").mindspore_api == "mindspore.mint.nn.Linear"
    assert kb.gone_target("torch.nn.Linear") is None
    assert kb.mapping("torch.nn.Linear").mindspore_api == "mindspore.mint.nn.Linear"


@pytest.mark.parametrize("version", VERSIONS)
def test_gone_targets_are_names_mindspore_does_not_have(version: str) -> None:
    kb = get_knowledge_base(version)
    gone = [entry.replaces for entry in kb.derived_table.entries.values() if entry.replaces]
    assert [name for name in gone if kb.mindspore_has(name)] == []
