"""Curated facts are data (issue 26, item 2): the fact files are read, every entry validated, and a bad entry
is named by file and line, with the exact message."""

from __future__ import annotations

from pathlib import Path

import pytest
from fact_file_support import error as _error
from fact_file_support import write as _write

from msmigrate.check.spec_table import build_table, read_table
from msmigrate.knowledge.advice_catalogue import Policy, catalogue, read_catalogue
from msmigrate.knowledge.fact_files import FACTS_DIR
from msmigrate.knowledge.mindspore_calls import mindspore_calls, read_mindspore_calls

ADVICE = """\
# two entries
[[advice]]
note = "view"
policy = "equivalent"
[advice.apis]
"torch.Tensor.view" = ["mindspore.Tensor.reshape"]

[[advice]]
note = "community"
{bad}
[advice.apis]
"torch.optim.LBFGS" = []
"""


def _says(read, path: Path, message: str) -> None:
    """The error of reading ``path`` is ``message`` (its start, for a message ending in a list of choices)."""
    found, expected = _error(read, path), message.format(path=path)
    assert found.startswith(expected) if expected.endswith("one of ") else found == expected


def test_a_good_file_is_read_in_order(tmp_path):
    path = _write(tmp_path, "advice.toml", ADVICE.format(bad='policy = "community"'))
    read = read_catalogue(path)
    assert [(e.torch_api, e.policy, e.replacements, e.note) for e in read.entries.values()] == [
        ("torch.Tensor.view", Policy.EQUIVALENT, ("mindspore.Tensor.reshape",), "view"),
        ("torch.optim.LBFGS", Policy.COMMUNITY, (), "community"),
    ]
    assert read.recipe_notes == frozenset() and read.recipe_apis == ()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('policy = "ask"', "{path}:10: [[advice]] 2: 'policy' is 'ask', not one of community, compose, "
                           "custom_operator, equivalent"),
        ('polcy = "community"', "{path}:10: [[advice]] 2: key 'polcy' is not known (known: note, policy, "
                                "snippet, fix, rule, recipe, apis)"),
        ("", "{path}:8: [[advice]] 2: key 'policy' is required"),
        ('policy = "community"\nrule = "MSM201"', "{path}:11: [[advice]] 2: 'rule' is 'MSM201', not a "
                                                  "framework-pattern rule id (MSM5xx)"),
        ('policy = "community"\nrecipe = "yes"', "{path}:11: [[advice]] 2: 'recipe' must be bool, not str"),
        ('policy = "community"\nsnippet = "nope"',
         "{path}:11: [[advice]] 2: 'snippet' is 'nope', not one of "),
    ],
)
def test_a_bad_advice_entry_names_file_and_line(tmp_path, bad, message):
    _says(read_catalogue, _write(tmp_path, "advice.toml", ADVICE.format(bad=bad)), message)


def test_an_api_advised_twice_is_named_at_its_second_line(tmp_path):
    text = ADVICE.format(bad='policy = "community"') + '"torch.Tensor.view" = []\n'
    path = _write(tmp_path, "advice.toml", text)
    assert _error(read_catalogue, path) == (
        f"{path}:13: [[advice]] 2: 'torch.Tensor.view' is already advised by entry 1")


def test_invalid_toml_names_its_line(tmp_path):
    path = _write(tmp_path, "advice.toml", ADVICE.format(bad="policy = community"))
    assert _error(read_catalogue, path) == (
        f"{path}:10: not valid TOML: Invalid value (at line 10, column 10)")


SPEC = """\
[[spec]]
apis = ["torch.sum", "torch.Tensor.sum"]
args = [{{tensor = {{shape = [2, 3, 4]}}}}, 1]

[[spec]]
apis = ["torch.polygamma"]
mindspore = ["mindspore.ops.polygamma"]
args = [1, {{tensor = {{shape = [2, 3], low = 0.1, high = 2.0}}}}]
{bad}
"""


def test_a_spec_file_is_read_with_its_defaults(tmp_path):
    bad = 'ms_args = [{tensor = {data = [1], dtype = "int64"}}, {arg = 1}, {none = true}]'
    path = _write(tmp_path, "specs.toml", SPEC.format(bad=bad))
    table = read_table(path)
    tensor = {"tensor": {"shape": [2, 3, 4], "dtype": "float32", "low": -1.0, "high": 1.0}}
    assert table["torch.sum"] is table["torch.Tensor.sum"]
    assert table["torch.sum"].to_json() == {"args": [tensor, 1]}
    assert table["torch.polygamma -> mindspore.ops.polygamma"].to_json() == {
        "args": [1, {"tensor": {"shape": [2, 3], "dtype": "float32", "low": 0.1, "high": 2.0}}],
        "ms_args": [{"tensor": {"data": [1], "dtype": "int64"}}, {"arg": 1}, None],
    }


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('skip = "broken"', "{path}:9: [[spec]] 2: 'skip' is 'broken', not one of "),
        ("ms_args = [{tensor = {shape = [2], dtype = \"int64\"}}]",
         "{path}:9: [[spec]] 2: 'ms_args': a random int64 tensor needs 'low' and 'high'"),
        ("ms_args = [{list = [1]}]",
         "{path}:9: [[spec]] 2: 'ms_args': {{'list': [1]}} is none of the forms arg, dtype, kwarg, none, "
         "tensor, tuple"),
        ("outputs = [true]", "{path}:9: [[spec]] 2: 'outputs' must be a list of output indices"),
        ('apis = ["torch.sum"]',  # a key written twice in one table is no valid TOML
         "{path}:9: not valid TOML: Cannot overwrite a value (at line 9, column 21)"),
    ],
)
def test_a_bad_spec_entry_names_file_and_line(tmp_path, bad, message):
    _says(read_table, _write(tmp_path, "specs.toml", SPEC.format(bad=bad)), message)


def test_a_spec_key_given_twice_is_an_error(tmp_path):
    path = _write(tmp_path, "specs.toml", SPEC.format(bad="") + '\n[[spec]]\napis = ["torch.Tensor.sum"]\n')
    assert _error(read_table, path) == (
        f"{path}:12: [[spec]] 3: 'torch.Tensor.sum' already has a spec (entry 1)")


def test_the_shipped_files_load_and_hold_what_the_code_held():
    assert sorted(p.name for p in FACTS_DIR.iterdir()) == [
        "check_specs.toml", "composition_cases.toml", "mindspore_calls.toml", "missing_advice.toml",
        "param_names.toml"]
    advice = catalogue()
    assert len(advice.entries) == 308 and len(advice.recipe_apis) == 52 and len(advice.recipe_notes) == 32
    scatter = advice.entries["torch.Tensor.scatter_"]
    assert (scatter.policy, scatter.replacements, scatter.note) == (
        Policy.EQUIVALENT, ("mindspore.ops.tensor_scatter_elements",), "inplace")
    table = build_table()
    assert len(table) == 877  # 876, and the program of torch.nn.Module.parameters (check/worker_programs.py)
    assert table["torch.Tensor.size -> mindspore.Tensor.shape"].ms_call == "subscript"
    calls = mindspore_calls()
    pair = ("torch.Tensor.scatter_add", "mindspore.ops.tensor_scatter_elements")
    assert calls.pair_companions[pair] == (("reduction", "'add'", ()),)
    assert calls.pair_renames[pair] == {"dim": "axis", "index": "indices", "src": "updates"}
    assert calls.companions["mindspore.nn.MaxPool2d"] == (
        ("pad_mode", "'pad'", ("padding", "dilation", "return_indices", "ceil_mode")),)
    assert calls.default_from["mindspore.nn.MaxPool2d"] == (("stride", "kernel_size"),)
    assert calls.class_as_partial == {("torch.nn.Fold", "mindspore.ops.fold"),
                                      ("torch.nn.Unfold", "mindspore.ops.unfold")}


CALLS = """\
[[api]]
mindspore = ["mindspore.ops.bincount", "mindspore.Tensor.bincount"]
result_form = {form = "int64", unless = ["weights"]}

[[api]]
mindspore = ["mindspore.ops.tensor_scatter_elements"]
torch = ["torch.scatter_add"]
companions = [{param = "reduction", value = "'add'"}]
{bad}
"""


def test_call_facts_are_keyed_by_api_and_by_pair(tmp_path):
    path = _write(tmp_path, "calls.toml", CALLS.replace("{bad}", 'renames = {dim = "axis"}'))
    calls = read_mindspore_calls(path)
    assert calls.result_forms == {"mindspore.ops.bincount": ("int64", ("weights",)),
                                  "mindspore.Tensor.bincount": ("int64", ("weights",))}
    pair = ("torch.scatter_add", "mindspore.ops.tensor_scatter_elements")
    assert calls.pair_companions == {pair: (("reduction", "'add'", ()),)}
    assert calls.pair_renames == {pair: {"dim": "axis"}} and calls.companions == {}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('argument_forms = {index = "int32"}',
         "{path}:9: [[api]] 2: 'argument_forms' is no fact of a pair (an entry with torch)"),
        ('renames = {dim = 1}', "{path}:9: [[api]] 2: 'renames': 'dim' is 1, not a string"),
        ("class_as_partial = false", "{path}:9: [[api]] 2: 'class_as_partial' is written only as true"),
        ('companions = [{param = "x"}]', "Cannot overwrite"),
    ],
)
def test_a_bad_call_fact_names_file_and_line(tmp_path, bad, message):
    path = _write(tmp_path, "calls.toml", CALLS.replace("{bad}", bad))
    found = _error(read_mindspore_calls, path)
    if "Cannot overwrite" in message:  # a key given twice in one entry is no valid TOML
        assert found.startswith(f"{path}:9: not valid TOML: Cannot overwrite a value")
    else:
        assert found == message.format(path=path)


def test_a_pair_fact_given_twice_is_named(tmp_path):
    text = CALLS.replace("{bad}", "") + '\n[[api]]\nmindspore = ["mindspore.ops.tensor_scatter_elements"]\n' \
        'torch = ["torch.scatter_add"]\ncompanions = [{param = "reduction", value = "\'add\'"}]\n'
    path = _write(tmp_path, "calls.toml", text)
    assert _error(read_mindspore_calls, path) == (
        f"{path}:14: [[api]] 3: 'companions' of ('torch.scatter_add', "
        "'mindspore.ops.tensor_scatter_elements') is given twice")


def test_the_form_names_are_those_of_value_forms():
    from msmigrate.knowledge import mindspore_calls as calls
    from msmigrate.knowledge import value_forms as forms

    assert calls.ARGUMENT_FORMS == {forms.INT32, forms.TENSOR, forms.TENSOR_PAIR, forms.LIST, forms.TUPLE}
    assert calls.CALL_FORMS == {forms.CLASS_INDICES}
    assert calls.RESULT_FORMS == {forms.FIRST_OUTPUT, forms.INT64, forms.PYTHON_BOOL,
                                  forms.SORTED_FIRST_OUTPUT}
