"""The worker's comparison: shapes, dtypes, NaN/Inf positions, tolerances and the reported numbers."""

import math

import numpy as np
import pytest

from msmigrate.check.worker_compare import Leaf, compare_arrays, compare_outputs, cosine_similarity, tolerance


def leaf(values, dtype="float32"):
    return Leaf(np.asarray(values, dtype=dtype), dtype)


def test_equal_arrays_pass_with_zero_errors():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    result = compare_arrays(a, a.copy(), 1e-4, 1e-4)
    assert (result.status, result.max_abs_error, result.max_rel_error) == ("pass", 0.0, 0.0)
    assert result.cosine_similarity == pytest.approx(1.0)


def test_value_mismatch_reports_numbers_and_first_index():
    t = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    m = t.copy()
    m[1, 1] = 5.5
    m[1, 2] = 6.25
    result = compare_arrays(t, m, 1e-4, 1e-4)
    assert result.status == "fail" and result.reason == "value_mismatch"
    assert result.first_mismatch_index == [1, 1]
    assert result.max_abs_error == pytest.approx(0.5)
    assert result.max_rel_error == pytest.approx(0.1, rel=1e-5)  # 0.5 / 5
    assert 0.99 < result.cosine_similarity < 1.0


def test_tolerance_is_relative_to_the_torch_value():
    t = np.array([1000.0], np.float32)
    assert compare_arrays(t, np.array([1000.05], np.float32), 1e-4, 1e-4).status == "pass"
    assert compare_arrays(t, np.array([1000.2], np.float32), 1e-4, 1e-4).status == "fail"


def test_nan_positions_must_agree():
    t = np.array([1.0, np.nan, 3.0])
    same = compare_arrays(t, np.array([1.0, np.nan, 3.0]), 1e-4, 1e-4)
    assert same.status == "pass" and same.max_abs_error == 0.0
    moved = compare_arrays(t, np.array([np.nan, 2.0, 3.0]), 1e-4, 1e-4)
    assert (moved.status, moved.reason, moved.first_mismatch_index) == ("fail", "nan_mismatch", [0])


def test_infinities_must_agree_in_position_and_sign():
    t = np.array([np.inf, -np.inf, 0.0])
    assert compare_arrays(t, t.copy(), 1e-4, 1e-4).status == "pass"
    flipped = compare_arrays(t, np.array([np.inf, np.inf, 0.0]), 1e-4, 1e-4)
    assert (flipped.reason, flipped.first_mismatch_index) == ("nan_mismatch", [1])


def test_shape_mismatch_fails_before_values():
    result = compare_outputs([leaf(np.zeros((2, 3)))], [leaf(np.zeros((3, 2)))])
    assert (result.status, result.reason, result.first_mismatch_output) == ("fail", "shape_mismatch", 0)
    assert result.details == ["output 0: [2, 3] vs [3, 2]"]


def test_dtype_mismatch_fails_even_when_values_agree():
    result = compare_outputs([leaf([1, 2], "int64")], [leaf([1, 2], "int32")])
    assert (result.status, result.reason, result.max_abs_error) == ("fail", "dtype_mismatch", 0.0)


def test_output_count_mismatch():
    result = compare_outputs([leaf([1.0])], [leaf([1.0]), leaf([0], "int64")])
    assert (result.status, result.reason) == ("fail", "output_structure")


def test_worst_output_wins_and_index_names_the_output():
    torch_out = [leaf([1.0, 2.0]), leaf([3.0, 4.0])]
    ms_out = [leaf([1.0, 2.0]), leaf([3.0, 4.5])]
    result = compare_outputs(torch_out, ms_out)
    assert (result.first_mismatch_output, result.first_mismatch_index) == (1, [1])
    assert result.max_abs_error == pytest.approx(0.5)


def test_scalar_outputs_compare():
    result = compare_outputs([Leaf(np.asarray(2.0), "python_float")], [Leaf(np.asarray(2.5), "python_float")])
    assert (result.status, result.first_mismatch_index) == ("fail", [])


def test_integer_outputs_must_be_exact():
    assert tolerance("int64") == (0.0, 0.0)
    assert compare_outputs([leaf([1, 2], "int64")], [leaf([1, 3], "int64")]).status == "fail"


def test_per_dtype_tolerances_and_overrides():
    assert tolerance("float32") == (1e-4, 1e-4)
    assert tolerance("float16") == (1e-3, 1e-3)
    assert tolerance("float32", rtol=1e-6) == (1e-6, 1e-4)
    loose = compare_outputs([leaf([1.0])], [leaf([1.01])], rtol=0.1, atol=0.1)
    assert loose.status == "pass" and (loose.rtol, loose.atol) == (0.1, 0.1)


def test_cosine_similarity_values():
    assert cosine_similarity(np.array([1.0, 0.0]), np.array([0.0, 1.0])) == 0.0
    assert cosine_similarity(np.array([1.0, 1.0]), np.array([-1.0, -1.0])) == pytest.approx(-1.0)
    assert cosine_similarity(np.zeros(3), np.zeros(3)) == 1.0
    assert cosine_similarity(np.array([3.0, 4.0]), np.array([4.0, 3.0])) == pytest.approx(24 / 25)
    assert math.isclose(cosine_similarity(np.array([1.0, 2.0]), np.array([2.0, 4.0])), 1.0)


def test_shapes_only_mode_reports_no_numbers():
    result = compare_outputs([leaf([1.0, 2.0])], [leaf([9.0, 9.0])], shapes_only=True)
    assert result.status == "pass" and result.max_abs_error is None


def test_sorted_comparison_ignores_order_only():
    from msmigrate.check.worker_compare import sorted_leaf

    t = sorted_leaf(Leaf(np.array([3.0 + 0j, 1.0 - 1j, 1.0 + 1j], np.complex64), "complex64"))
    m = sorted_leaf(Leaf(np.array([1.0 + 1j, 3.0 + 0j, 1.0 - 1j], np.complex64), "complex64"))
    assert compare_outputs([t], [m]).status == "pass"
    other = sorted_leaf(Leaf(np.array([1.0 + 1j, 3.5 + 0j, 1.0 - 1j], np.complex64), "complex64"))
    assert compare_outputs([t], [other]).first_mismatch_index == [2]
