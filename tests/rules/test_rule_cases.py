"""Every rule has an example that triggers it at an exact place and a counter-example that does not."""

from __future__ import annotations

import pytest

from msmigrate.rules.examples import CASES
from msmigrate.rules.registry import all_rules

# rule → the (line, column) of its finding in the example of rules/examples.py
EXPECTED: dict[str, list[tuple[int, int]]] = {
    "MSM100": [(2, 5)],
    "MSM101": [(2, 9)],
    "MSM102": [(4, 14)],
    "MSM103": [(2, 9)],
    "MSM200": [(2, 13)],
    "MSM201": [(2, 5)],
    "MSM202": [(2, 8)],
    "MSM203": [(2, 7)],
    "MSM204": [(2, 7)],
    "MSM301": [(4, 12)],
    "MSM302": [(4, 12)],
    "MSM303": [(5, 26)],
    "MSM304": [(4, 16)],
    "MSM305": [(5, 37)],
    "MSM306": [(4, 25)],
    "MSM307": [(4, 8)],
    "MSM401": [(2, 7)],
    "MSM402": [(2, 7)],
    "MSM403": [(2, 5)],
    "MSM404": [(2, 7)],
    "MSM501": [(4, 9)],
    "MSM502": [(2, 8)],
    "MSM503": [(2, 1)],
    "MSM504": [(4, 14)],
    "MSM505": [(3, 7)],
    "MSM506": [(4, 10)],
    "MSM507": [(2, 6)],
    "MSM508": [(2, 31)],
    "MSM509": [(2, 10)],
    "MSM510": [(2, 1)],
    "MSM511": [(2, 10)],
    "MSM512": [(2, 1)],
    "MSM600": [(2, 9)],
}


def test_every_rule_has_cases():
    ids = [rule.id for rule in all_rules()]
    assert sorted(CASES) == ids
    assert sorted(EXPECTED) == ids


@pytest.mark.parametrize("rule", sorted(CASES))
def test_positive_example(analyze, rule):
    positive, _ = CASES[rule]
    found = [(f.line, f.column) for f in analyze(positive).findings if f.rule == rule]
    assert found == EXPECTED[rule]


@pytest.mark.parametrize("rule", sorted(CASES))
def test_negative_example(analyze, rule):
    _, negative = CASES[rule]
    assert [f for f in analyze(negative).findings if f.rule == rule] == []


@pytest.mark.parametrize("rule", sorted(CASES))
def test_examples_are_valid_python(rule):
    import ast

    for code in CASES[rule]:
        ast.parse(code)
