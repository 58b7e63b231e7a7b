"""Every rule has an example that triggers it at the exact places its module lists (``EXAMPLES``) and a
counter-example that does not."""

from __future__ import annotations

import pytest

from msmigrate.rules.examples import CASES, positions
from msmigrate.rules.loader import all_rules


def test_every_rule_has_cases():
    ids = [rule.id for rule in all_rules()]
    assert sorted(CASES) == ids
    assert sorted(positions()) == ids
    assert all(positions().values())  # every example names where its findings are


@pytest.mark.parametrize("rule", sorted(CASES))
def test_positive_example(analyze, rule):
    positive, _ = CASES[rule]
    found = [(f.line, f.column) for f in analyze(positive).findings if f.rule == rule]
    assert found == positions()[rule]


@pytest.mark.parametrize("rule", sorted(CASES))
def test_negative_example(analyze, rule):
    _, negative = CASES[rule]
    assert [f for f in analyze(negative).findings if f.rule == rule] == []


@pytest.mark.parametrize("rule", sorted(CASES))
def test_examples_are_valid_python(rule):
    import ast

    for code in CASES[rule]:
        ast.parse(code)
