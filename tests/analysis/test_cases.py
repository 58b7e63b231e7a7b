"""The case table: every recognised form, with exact findings (see analysis_cases.py)."""

from __future__ import annotations

import pytest
from analysis_cases import CASES
from analysis_support import brief


def test_the_table_is_large_and_ids_are_unique():
    ids = [case_id for case_id, _code, _expected in CASES]
    assert len(ids) >= 150
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(("code", "expected"), [(c, e) for _i, c, e in CASES], ids=[i for i, _c, _e in CASES])
def test_case(analyze, code, expected):
    result = analyze(code)
    assert result.error_key is None
    assert brief(result) == expected
