"""Fixes that adapt a call's values to the form MindSpore takes or returns (``knowledge/value_forms.py``):
int32 indices, a Tensor for a number, the first of several outputs, int64 counts, the dtype torch infers
from a literal; torch properties MindSpore offers as methods; parameters whose names differ by position
(``param_facts``). Each fixed call below was run against torch by the conversion suite (same values)."""

from __future__ import annotations

import ast

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all
from msmigrate.i18n import t
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.value_forms import (
    FIRST_OUTPUT,
    INT32,
    INT64,
    SORTED_FIRST_OUTPUT,
    TENSOR,
    TENSOR_PAIR,
    adapted,
    inferred_dtype,
    result_form,
)

# tensors the receiver inference knows as such (their own lines are left out of the results)
HEADER = ("import torch\nimport torch.nn.functional as F\n"
          + "".join(f"{name} = torch.zeros(4)  # input\n" for name in ("x", "idx", "src")))


def _body(source: str, kb) -> list[str]:
    new, _applied = fix_all(HEADER + source, "m.py", kb)
    return [line for line in new.splitlines()
            if line and not line.startswith("import ") and not line.endswith("# input")]


def _node(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_adapted_text_of_each_form():
    assert adapted(INT32, "idx", _node("idx")) == "idx.int()"
    assert adapted(INT32, "i + 1", _node("i + 1")) == "(i + 1).int()"
    assert adapted(INT32, "batch['index']", _node("batch['index']")) == "batch['index'].int()"
    assert adapted(TENSOR, "n", _node("n"), "ms.tensor") == "ms.tensor(n)"
    assert adapted(TENSOR_PAIR, "4", _node("4")) == "mindspore.tensor((4, 4))"
    assert adapted(TENSOR_PAIR, "(4, 5)", _node("(4, 5)")) == "mindspore.tensor((4, 5))"
    # an int or a pair (torch takes either): a pair either way
    assert adapted(TENSOR_PAIR, "size", _node("size")) == (
        "mindspore.tensor(size).reshape(-1).broadcast_to((2,))")
    assert adapted(FIRST_OUTPUT, "", _node("f(x)")) == "[0]"
    assert adapted(INT64, "", _node("f(x)")) == ".long()"
    assert adapted(SORTED_FIRST_OUTPUT, "f(x)", _node("f(x)")) == "mindspore.ops.sort(f(x)[0])[0]"


def test_result_form_unless_a_parameter_makes_torchs_result_that_form():
    assert result_form("mindspore.ops.bincount", set()) == INT64
    assert result_form("mindspore.ops.bincount", {"weights"}) is None  # torch's weighted counts are floats
    assert result_form("mindspore.ops.ctc_loss", {"reduction"}) == FIRST_OUTPUT
    assert result_form("mindspore.ops.abs", set()) is None
    assert result_form("mindspore.ops.unique", set()) == SORTED_FIRST_OUTPUT
    for passed in ("sorted", "return_inverse", "return_counts", "dim"):  # torch's result is another one
        assert result_form("mindspore.ops.unique", {passed}) is None


def test_dtype_is_passed_only_where_torch_infers_another_one_from_a_literal():
    full = "mindspore.ops.full"
    assert inferred_dtype(full, {"size": _node("(2,)"), "fill_value": _node("1.5")}) == ("dtype",
                                                                                         "mindspore.float32")
    assert inferred_dtype(full, {"fill_value": _node("-2.0")}) == ("dtype", "mindspore.float32")
    assert inferred_dtype(full, {"fill_value": _node("True")}) == ("dtype", "mindspore.bool_")
    assert inferred_dtype(full, {"fill_value": _node("1j")}) == ("dtype", "mindspore.complex64")
    assert inferred_dtype(full, {"fill_value": _node("float('-inf')")}) == ("dtype", "mindspore.float32")
    assert inferred_dtype(full, {"fill_value": _node("-math.inf")}) == ("dtype", "mindspore.float32")
    assert inferred_dtype(full, {"fill_value": _node("3")}) is None  # int64 either way
    assert inferred_dtype(full, {"fill_value": _node("v")}) == ("dtype", None)  # unknown: not guessed
    assert inferred_dtype(full, {"fill_value": _node("1.5"), "dtype": _node("d")}) is None


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_int32_indices(version):
    source = ("y = x.index_add(1, idx, src)\n"
              "z = torch.index_fill(x, 1, idx + 1, 0.5)\n"
              "w = x.index_fill(1, torch.tensor([0, 2]), -1.0)\n"
              "v = torch.index_add(x, 1, batch['i'], src)\n")
    target = "mindspore.mint.index_add"
    assert _body(source, get_knowledge_base(version)) == [
        "y = x.index_add(1, idx.int(), src)",
        "z = mindspore.ops.index_fill(x, 1, (idx + 1).int(), 0.5)",
        "w = x.index_fill(1, mindspore.tensor([0, 2]).int(), -1.0)",
        f"v = {target}(x, 1, batch['i'].int(), src)",
    ]


def test_int32_target_of_multilabel_margin_loss(kb24):
    assert _body("loss = F.multilabel_margin_loss(x, y)\n", kb24) == [
        "loss = mindspore.ops.multilabel_margin_loss(x, y.int())"]


def test_method_fix_title_says_what_changes(kb24):
    from msmigrate.fixes.api import fixes_by_finding

    source = HEADER + "y = x.index_add(1, idx, src)\n"
    findings = analyze_source(source, "m.py", kb24).findings
    titles = [fix.title("en") for f, fix in fixes_by_finding(source, "m.py", findings, kb24)
              if f.torch_api == "torch.Tensor.index_add"]
    assert titles == ["Adapt the call of .index_add to mindspore.Tensor.index_add (idx.int())"]


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_tensor_arguments(version):
    source = ("a = torch.bartlett_window(8)\n"
              "b = torch.blackman_window(n, periodic=False)\n"
              "c = F.fold(x, (4, 4), 2)\n"
              "d = F.fold(x, output_size=4, kernel_size=2)\n"
              "e = F.fold(x, size, 2)\n")
    assert _body(source, get_knowledge_base(version)) == [
        "a = mindspore.ops.bartlett_window(mindspore.tensor(8))",
        "b = mindspore.ops.blackman_window(mindspore.tensor(n), periodic=False)",
        "c = mindspore.ops.fold(x, mindspore.tensor((4, 4)), 2)",
        "d = mindspore.ops.fold(x, output_size=mindspore.tensor((4, 4)), kernel_size=2)",
        "e = mindspore.ops.fold(x, mindspore.tensor(size).reshape(-1).broadcast_to((2,)), 2)",
    ]


def test_tensor_argument_uses_the_files_mindspore_import(kb24):
    new, _ = fix_all("import torch\nimport mindspore as ms\na = torch.bartlett_window(8)\n", "m.py", kb24)
    assert new == "import mindspore as ms\na = ms.ops.bartlett_window(ms.tensor(8))\n"


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_results_in_torchs_form(version):
    source = ("loss = F.ctc_loss(lp, tg, il, tl)\n"
              "m = F.ctc_loss(lp, tg, il, tl, reduction='sum').item()\n")
    assert _body(source, get_knowledge_base(version)) == [
        "loss = mindspore.ops.ctc_loss(lp, tg, il, tl)[0]",
        "m = mindspore.ops.ctc_loss(lp, tg, il, tl, reduction='sum')[0].item()",
    ]


def test_bincount_counts_are_int64_without_weights(kb24):
    # (the 2.6 table's mint.bincount has no CPU kernel, and no form recorded: not checked on CPU)
    source = ("a = torch.bincount(x)\n"
              "b = torch.bincount(x, w)\n"
              "c = x.bincount()\n"
              "d = x.bincount(weights=w)\n"
              "e = x.bincount(weights=None, minlength=4)\n")
    assert _body(source, kb24) == ["a = mindspore.ops.bincount(x).long()", "b = mindspore.ops.bincount(x, w)",
                                   "c = x.bincount().long()", "d = x.bincount(weights=w)",
                                   "e = x.bincount(weights=None, minlength=4).long()"]


def test_full_gets_torchs_dtype(kb24):
    source = ("a = torch.full((2, 3), 1.5)\n"
              "b = torch.full((2,), True)\n"
              "c = torch.full((2,), 7)\n"
              "d = torch.full((2,), 0.5, dtype=torch.float64)\n")
    assert _body(source, kb24) == [
        "a = mindspore.ops.full((2, 3), 1.5, dtype=mindspore.float32)",
        "b = mindspore.ops.full((2,), True, dtype=mindspore.bool_)",
        "c = mindspore.ops.full((2,), 7)",
        "d = mindspore.ops.full((2,), 0.5, dtype=mindspore.float64)",
    ]


def test_full_with_a_value_of_unknown_type_warns(kb24):
    found = analyze_source(HEADER + "a = torch.full((2,), v)\n", "m.py", kb24).findings
    (finding,) = [f for f in found if f.torch_api == "torch.full"]
    assert finding.rule == "MSM101" and finding.message_args["changes_results"] is True
    assert t(finding.message_key, "en", **finding.message_args) == (
        "torch.full → mindspore.ops.full (torch infers the dtype from the value passed, MindSpore uses "
        "mindspore.int64 unless dtype= is passed: pass the dtype torch gets).")
    assert _body("a = torch.full((2,), v)\n", kb24) == ["a = mindspore.ops.full((2,), v)"]


def test_finding_states_the_forms(kb24):
    found = analyze_source(HEADER + "z = torch.index_fill(x, 1, idx, 0.5)\n", "m.py", kb24).findings
    (finding,) = [f for f in found if f.torch_api == "torch.index_fill"]
    assert finding.rule == "MSM101" and finding.message_args["changes_results"] is True
    assert t(finding.message_key, "en", **finding.message_args) == (
        "torch.index_fill → mindspore.ops.index_fill (MindSpore takes or returns these values in another "
        "form (int32 indices, a Tensor for a number, a tuple of outputs, a list on every rank): idx → "
        "idx.int()). Not in the MindSpore 2.4 mapping table; derived: counterpart in MindSpore 2.10, "
        "parameters differ; MindSpore rejected the CPU check's arguments.")
    assert "idx → idx.int()" in t(finding.message_key, "zh", **finding.message_args)


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_properties_mindspore_offers_as_methods_are_called(version):
    source = ("r = x.real\n"
              "i = x.imag + 1\n"
              "s = x.real.shape\n"
              "x.real[0] = 2\n"  # writes into x through the property: MindSpore's method returns a copy
              "x.imag.zero_()\n")
    assert _body(source, get_knowledge_base(version)) == [
        "r = x.real()", "i = x.imag() + 1", "s = x.real().shape", "x.real[0] = 2", "x.imag.zero_()"]


def test_a_property_that_stays_a_property_is_not_called(kb24):
    assert _body("s = x.shape\nt = x.T\n", kb24) == ["s = x.shape", "t = x.T"]


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_parameters_named_otherwise_by_position(version):
    source = ("a = torch.hsplit(x, 2)\n"
              "b = torch.vsplit(x, [1, 3])\n"
              "c = torch.true_divide(x, y)\n"
              "d = torch.lu_solve(b, lu, piv)\n"
              "e = torch.dot(u, v)\n")
    assert _body(source, get_knowledge_base(version)) == [
        "a = mindspore.ops.hsplit(x, 2)",
        "b = mindspore.ops.vsplit(x, [1, 3])",
        "c = mindspore.ops.true_divide(x, y)",
        "d = mindspore.ops.lu_solve(b, lu, piv)",
        "e = mindspore.ops.tensor_dot(u, v, axes=1)",  # 2.6's mint.dot has no CPU kernel
    ]


def test_split_keyword_becomes_mindspores_name(kb24):
    assert _body("a = torch.hsplit(x, sections=2)\nb = torch.tensor_split(x, indices=[1], dim=0)\n",
                 kb24) == ["a = mindspore.ops.hsplit(x, indices_or_sections=2)",
                           "b = mindspore.ops.tensor_split(x, indices_or_sections=[1], axis=0)"]


def test_forms_with_keywords(kb24):
    source = ("a = x.index_fill(dim=1, index=idx, value=0.5)\n"
              "b = torch.index_add(x, 1, idx, src, alpha=2)\n"
              "c = torch.index_fill(x, dim=1, index=idx, value=1.0)\n")
    assert _body(source, kb24) == ["a = x.index_fill(axis=1, index=idx.int(), value=0.5)",
                                   "b = mindspore.mint.index_add(x, 1, idx.int(), src, alpha=2)",
                                   "c = mindspore.ops.index_fill(x, axis=1, index=idx.int(), value=1.0)"]


def test_a_form_of_an_argument_moved_to_a_keyword_is_one_insertion(kb24):
    """An argument by position that goes to a keyword (``name=``) and takes another form: the keyword and
    the text before the argument are written as one insertion (two at one point would overlap)."""
    from dataclasses import replace

    from msmigrate.fixes.api_fixes import replace_api
    from msmigrate.fixes.context import FixContext
    from msmigrate.fixes.text import apply_edits
    from msmigrate.model.resolution import ArgPlan

    source = HEADER + "w = torch.bartlett_window(n)\n"
    findings = analyze_source(source, "m.py", kb24).findings
    (finding,) = [f for f in findings if f.torch_api == "torch.bartlett_window"]
    plan = ArgPlan(to_keyword=((0, "window_length"),), forms=(("0", TENSOR),))
    moved = replace(finding, resolution=replace(finding.resolution, plan=plan))
    fix = replace_api(FixContext.build(source, "m.py", kb24, findings), moved)
    assert apply_edits(source, fix.edits).splitlines()[-1] == (
        "w = mindspore.ops.bartlett_window(window_length=mindspore.tensor(n))")


def test_unique_values_are_sorted_as_torchs(kb24):
    """The 2.4 table maps torch.unique to ops.unique, which returns (values in first-seen order, indices):
    the fix sorts the first output, in the file's spelling of mindspore; a call passing a parameter
    ops.unique lacks is left (its finding says so)."""
    source = ("import mindspore as ms\n"
              "a = torch.unique(x)\n"
              "b = torch.unique(x + 1).tolist()\n"
              "c = torch.unique(x, return_counts=True)\n")
    assert _body(source, kb24) == ["a = ms.ops.sort(ms.ops.unique(x)[0])[0]",
                                   "b = ms.ops.sort(ms.ops.unique(x + 1)[0])[0].tolist()",
                                   "c = torch.unique(x, return_counts=True)"]
