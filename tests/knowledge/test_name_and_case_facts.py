"""Curated facts are data (issue 26): the parameter-name facts (``param_names.toml``) and the composition
check cases (``composition_cases.toml``) are read, every entry validated, a bad entry named by file and
line."""

from __future__ import annotations

import math

import pytest
from fact_file_support import error as _error
from fact_file_support import write as _write

from msmigrate.check.composition_cases import Case, composition_cases, read_cases
from msmigrate.knowledge import param_facts
from msmigrate.knowledge.param_names import param_names, read_param_names

NAMES = """\
[[param]]
name = "dim"
takes = "int"

[[param]]
name = "input"
takes = "tensor"
first_input = true

[[param]]
name = "size"
takes = "shape"
same_meaning = ["shape"]
{bad}
"""

CASES = """\
[[case]]
apis = ["torch.Tensor.unflatten", "torch.unflatten"]
name = "sizes"
args = [{{tensor = {{shape = [3, 14]}}}}, 1, {{tuple = [7, 2]}}]

[[case]]
apis = ["torch.nn.RMSNorm"]
name = "eps"
args = [{{tensor = {{shape = [2, 5], dtype = "float64", low = 0.1, high = 2.0}}}}]
init_args = [{{tuple = [5]}}, {{none = true}}]
init_kwargs = {{mask = {{tensor = {{dtype = "bool", data = [true, false]}}}}, eps = -inf}}
{bad}
"""


def test_a_names_file_is_read_by_what_each_name_takes(tmp_path):
    names = read_param_names(_write(tmp_path, "names.toml", NAMES.format(bad="")))
    assert names.takes == {"int": frozenset({"dim"}), "shape": frozenset({"size"}),
                           "tensor": frozenset({"input"})}
    assert names.first_inputs == frozenset({"input"})
    assert names.same_meaning == {"size": frozenset({"shape"})}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('[[param]]\nname = "axis"\ntakes = "integer"',
         "{path}:16: [[param]] 4: 'takes' is 'integer', not one of int, shape, tensor"),
        ('[[param]]\nname = "axis"',
         "{path}:14: [[param]] 4: 'axis' says nothing: give takes, first_input or same_meaning"),
        ('[[param]]\nname = "dim"\ntakes = "int"',
         "{path}:15: [[param]] 4: 'dim' is already written (entry 1)"),
        ('[[param]]\nname = "x"\nfirst_input = false',
         "{path}:16: [[param]] 4: 'first_input' is written only as true"),
        ('[[param]]\nname = "x"\nsame_as = ["y"]',
         "{path}:16: [[param]] 4: key 'same_as' is not known "
         "(known: name, takes, first_input, same_meaning)"),
    ],
)
def test_a_bad_names_entry_names_file_and_line(tmp_path, bad, message):
    path = _write(tmp_path, "names.toml", NAMES.format(bad=bad))
    assert _error(read_param_names, path) == message.format(path=path)


def test_the_shipped_names_are_those_the_code_held():
    names = param_names()
    assert param_facts.INTEGER_PARAMS == names.takes["int"] == {
        "dim", "dims", "axis", "axes", "dim0", "dim1", "axis0", "axis1", "start_dim", "end_dim", "k"}
    assert param_facts.TENSOR_PARAMS == {"other", "input", "x", "tensor", "index", "indices", "mask", "x1",
                                         "x2", "b", "dividend", "divisor"}
    assert param_facts.SHAPE_PARAMS == {"shape", "size", "sizes", "output_size"}
    assert param_facts.PRIMARY_INPUTS == {"input", "self", "x", "x1", "A", "a", "tensor", "input_x", "data"}
    assert param_facts.SAME_MEANING == {
        "size": {"shape"}, "num_classes": {"depth"}, "num_embeddings": {"vocab_size"},
        "embedding_dim": {"embedding_size"}, "sections": {"indices_or_sections"},
        "indices": {"indices_or_sections"}, "tensor_indices_or_sections": {"indices_or_sections"},
        "new_state": {"state"}, "train": {"training"},
        "prefix": {"name_prefix"}, "recurse": {"expand"},  # Module.named_modules, Module.parameters
    }
    assert (param_facts.param_kind("axis1"), param_facts.param_kind("divisor"), param_facts.param_kind("A"),
            param_facts.param_kind("size")) == ("int", "tensor", None, None)


def test_a_cases_file_is_read_with_tuples_defaults_and_infinities(tmp_path):
    cases = read_cases(_write(tmp_path, "cases.toml", CASES.format(bad="")))
    tensor = {"tensor": {"shape": [3, 14], "dtype": "float32", "low": -1.0, "high": 1.0}}
    sizes = Case("sizes", (tensor, 1, (7, 2)))
    assert cases["torch.Tensor.unflatten"] == cases["torch.unflatten"] == (sizes,)
    (eps,) = cases["torch.nn.RMSNorm"]
    assert eps.args == ({"tensor": {"shape": [2, 5], "dtype": "float64", "low": 0.1, "high": 2.0}},)
    assert eps.init_args == ((5,), None)
    assert list(eps.init_kwargs) == ["mask", "eps"] and eps.init_kwargs["eps"] == -math.inf
    assert eps.init_kwargs["mask"] == {"tensor": {"data": [True, False], "dtype": "bool"}}
    assert (eps.kwargs, eps.compare, eps.read, eps.rtol, eps.atol) == ({}, "values", (), 1e-5, 1e-6)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('[[case]]\napis = ["torch.unflatten"]\nname = "sizes"',
         "{path}:14: [[case]] 3: 'torch.unflatten' already has a case 'sizes'"),
        ('[[case]]\napis = ["torch.isin"]\nname = "one"\ncompare = "sorted"',
         "{path}:15: [[case]] 3: 'compare' is 'sorted', not one of program, shape_dtype, values"),
        ('[[case]]\napis = ["torch.isin"]\nname = "one"\nargs = [{arg = 0}]',
         "{path}:15: [[case]] 3: 'args': {{'arg': 0}} is none of the forms dtype, none, tensor, tuple"),
        ('[[case]]\napis = ["torch.isin"]\nname = "one"\nargs = [{tensor = {data = [1], low = 0}}]',
         "{path}:15: [[case]] 3: 'args': a tensor of given 'data' has no 'low' or 'high'"),
        ('[[case]]\napis = ["torch.isin"]\nargs = []', "{path}:12: [[case]] 3: key 'name' is required"),
    ],
)
def test_a_bad_case_names_file_and_line(tmp_path, bad, message):
    path = _write(tmp_path, "cases.toml", CASES.format(bad=bad))
    assert _error(read_cases, path) == message.format(path=path)


def test_the_shipped_cases_are_those_the_code_held():
    cases = composition_cases()
    # + torch.nn.functional.interpolate (antialias): 7 cases
    assert (len(cases), sum(len(c) for c in cases.values())) == (41, 151)
    relu = cases["torch.nn.ReLU"]
    assert relu == cases["torch.nn.Hardsigmoid"] and [c.name for c in relu] == [
        "default", "inplace", "positional_inplace"]
    assert relu[2].init_args == (True,)
    unbatched = cases["torch.nn.functional.multi_head_attention_forward"][5]
    assert unbatched.name == "unbatched_causal" and unbatched.kwargs["attn_mask"] == {"tensor": {
        "data": [[0.0 if j <= i else -math.inf for j in range(4)] for i in range(4)], "dtype": "float32"}}
    assert unbatched.args[3:8] == (8, 2, {"tensor": {"shape": [24, 8], "dtype": "float32", "low": -1.0,
                                                     "high": 1.0}},
                                   {"tensor": {"shape": [24], "dtype": "float32", "low": -1.0, "high": 1.0}},
                                   None)
    finfo = cases["torch.finfo"][1]
    assert (finfo.args, finfo.rtol, finfo.atol, finfo.read[0]) == (({"dtype": "float16"},), 0.0, 0.0, "bits")
    assert cases["torch.Tensor.sqrt_"][2].args == (
        {"tensor": {"shape": [2, 3], "dtype": "float64", "low": 0.1, "high": 2.0}},)
