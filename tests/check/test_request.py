"""Building check requests: specs (table and generic rules), renames, literal call-site values, overrides."""

import json

import pytest

from msmigrate.check.request import (
    OVERRIDE_ENV,
    CheckTarget,
    build_request,
    is_op_like,
    literal_value,
    precheck,
    target_for,
)
from msmigrate.check.spec import (
    ApiSpec,
    T,
    api_kind,
    generic_spec,
    is_dtype_name,
    load_specs,
    not_called_spec,
    spec_for,
)
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.model import MappingCategory, MappingRow


def test_generic_spec_uses_float_tensor_of_default_shape():
    spec = generic_spec("torch.abs", "function", [[{"name": "input", "kind": "positional_or_keyword"}]])
    assert spec.args == ({"tensor": {"shape": [2, 3, 4], "dtype": "float32", "low": -1.0, "high": 1.0}},)
    assert spec.source == "generic"


@pytest.mark.parametrize(
    ("api", "low", "high"),
    [
        ("torch.log", 0.1, 2.0),
        ("torch.rsqrt", 0.1, 2.0),
        ("torch.asin", -0.9, 0.9),
        ("torch.acosh", 1.1, 3.0),
    ],
)
def test_generic_spec_respects_domains(api, low, high):
    tensor = generic_spec(api, "function").args[0]["tensor"]
    assert (tensor["low"], tensor["high"]) == (low, high)


def test_generic_spec_index_mask_and_unknown_parameters():
    sig = [[{"name": n, "kind": "positional_or_keyword"} for n in ("input", "dim", "index")]]
    spec = generic_spec("torch.gather", "function", sig)
    assert spec.args[1] == 1 and spec.args[2]["tensor"]["dtype"] == "int64"
    sig = [[{"name": n, "kind": "positional_or_keyword"} for n in ("input", "mask")]]
    assert generic_spec("torch.masked_select", "function", sig).args[1]["tensor"]["dtype"] == "bool"
    sig = [[{"name": n, "kind": "positional_or_keyword"} for n in ("input", "equation")]]
    skipped = generic_spec("torch.x", "function", sig)
    assert (skipped.skip, skipped.note) == ("no_input_rule", "required_parameter:equation")


def test_generic_spec_picks_the_overload_it_can_fill():
    sigs = [
        [
            {"name": "beta", "kind": "positional_or_keyword"},
            {"name": "input", "kind": "positional_or_keyword"},
        ],
        [
            {"name": "input", "kind": "positional_or_keyword"},
            {"name": "other", "kind": "positional_or_keyword"},
        ],
    ]
    assert len(generic_spec("torch.f", "function", sigs).args) == 2


def test_tensor_method_gets_a_receiver():
    sig = [[{"name": "other", "kind": "positional_or_keyword"}]]
    spec = generic_spec("torch.Tensor.add", "tensor_method", sig)
    assert len(spec.args) == 2 and all("tensor" in a for a in spec.args)


def test_api_kind():
    assert api_kind("torch.Tensor.abs") == "tensor_method"
    assert api_kind("torch.nn.Linear") == "class"
    assert api_kind("torch.nn.functional.relu") == "function"


def test_table_spec_wins_and_pair_spec_wins_over_it():
    table = {
        "torch.std": ApiSpec(args=(T(2, 3), 1)),
        "torch.std -> mindspore.ops.std": ApiSpec(args=(T(2, 3), 1), ms_kwargs={"ddof": 1}),
    }
    assert spec_for("torch.std", "function", table=table).ms_kwargs is None
    assert spec_for("torch.std", "function", table=table, mindspore_api="mindspore.ops.std").ms_kwargs == {
        "ddof": 1
    }


def test_request_shares_tensors_and_renames_keywords():
    row = MappingRow(
        "torch.f",
        "mindspore.ops.f",
        MappingCategory.PARAM_NAMES,
        "torch",
        param_renames={"dim": "axis"},
        torch_only_params=("out",),
    )
    spec = ApiSpec(args=(T(2, 3),), kwargs={"dim": 1, "out": None, "keepdim": True})
    request = build_request(CheckTarget("torch.f", "mindspore.ops.f", "function", spec, row))
    assert request["tensors"] == {"t0": {"shape": [2, 3], "dtype": "float32", "low": -1.0, "high": 1.0}}
    assert request["torch"]["args"] == [{"ref": "t0"}] == request["mindspore"]["args"]
    assert request["torch"]["kwargs"] == {"dim": 1, "out": None, "keepdim": True}
    assert request["mindspore"]["kwargs"] == {"axis": 1, "keepdim": True}
    assert request["dropped"] == ["out"]
    json.dumps(request)  # JSON-ready


def test_mindspore_overrides_link_to_torch_arguments():
    spec = ApiSpec(args=(T(3), 1, T(3)), ms_args=({"arg": 0}, {"arg": 2}), ms_kwargs={"axis": {"arg": 1}})
    request = build_request(CheckTarget("torch.f", "mindspore.ops.f", "function", spec))
    assert request["mindspore"]["args"] == [{"ref": "t0"}, {"ref": "t1"}]
    assert request["mindspore"]["kwargs"] == {"axis": 1}


def test_literal_call_site_values_replace_non_tensor_arguments_only():
    spec = ApiSpec(args=(T(2, 3), 1), kwargs={"keepdim": False})
    target = CheckTarget("torch.sum", "mindspore.mint.sum", "function", spec)
    request = build_request(
        target, call_args=["x", "0"], call_kwargs={"keepdim": "True", "dtype": "torch.float32"}
    )
    assert request["torch"]["args"] == [{"ref": "t0"}, 0]  # "x" is not a literal: the tensor spec stays
    assert request["torch"]["kwargs"] == {"keepdim": True}  # torch.float32 is not a literal: ignored
    assert request["literals"] == ["#1", "keepdim"]


def test_literal_values_are_never_evaluated():
    assert literal_value("(1, 2)") == (True, (1, 2))
    assert literal_value("__import__('os').system('true')") == (False, None)
    assert literal_value("[" * 10000) == (False, None)


def test_class_call_site_keeps_shape_parameters():
    spec = ApiSpec(init_args=(4, 5), args=(T(2, 3, 4),))
    target = CheckTarget("torch.nn.Linear", "mindspore.mint.nn.Linear", "class", spec)
    request = build_request(target, call_kwargs={"in_features": "128", "bias": "False"})
    assert request["torch"]["init_kwargs"] == {"bias": False}
    assert request["torch"]["init_args"] == [4, 5]


def test_targets_from_the_knowledge_base():
    kb = get_knowledge_base("2.6")
    target = target_for("torch.nn.functional.softmax", kb)
    assert (target.mindspore_api, target.kind) == ("mindspore.mint.nn.functional.softmax", "function")
    assert target.spec.source == "table" and target.spec.args[1] == 1
    assert precheck(target) is None
    skipped = precheck(target_for("torch.distributed.all_reduce", kb))
    assert (skipped.status, skipped.reason) == ("skipped", "not_op")
    randn = target_for("torch.randn", kb)  # random values: run, and shapes and dtypes compared
    assert precheck(randn) is None
    assert (randn.spec.compare, randn.spec.note) == ("shape_dtype", "random_values")
    assert precheck(target_for("torch.no_such_api", kb)).reason == "no_mapping"


def test_op_like():
    assert is_op_like("torch.abs") and is_op_like("torch.nn.Linear") and is_op_like("torch.Tensor.view")
    assert not is_op_like("torch.optim.Adam") and not is_op_like("torch.utils.data.DataLoader")
    assert not is_op_like("torchvision.transforms.Resize")


def test_mapping_override_for_tests(tmp_path, monkeypatch):
    path = tmp_path / "override.json"
    path.write_text(json.dumps({"torch.exp": "mindspore.ops.log"}), encoding="utf-8")
    monkeypatch.setenv(OVERRIDE_ENV, str(path))
    target = target_for("torch.exp", get_knowledge_base("2.6"))
    assert target.mindspore_api == "mindspore.ops.log" and target.row.mindspore_api == "mindspore.ops.log"


def test_spec_file_loads():
    specs = load_specs()
    assert specs["torch.nn.Linear"].init_args == (4, 5)
    assert specs["torch.empty"].compare == "shape_dtype"


def test_call_site_keyword_replaces_the_positional_value_of_the_same_parameter():
    kb = get_knowledge_base("2.6")
    target = target_for("torch.nn.functional.softmax", kb)
    assert target.spec.args[1] == 1
    request = build_request(target, call_args=["x"], call_kwargs={"dim": "-1"})
    assert request["torch"]["args"] == [{"ref": "t0"}, -1] and request["torch"]["kwargs"] == {}
    layer = target_for("torch.nn.Softmax", kb)
    request = build_request(layer, call_kwargs={"dim": "2"})
    assert request["torch"]["init_args"] == [2] and request["torch"]["init_kwargs"] == {}


def test_an_optimizer_is_compared_by_its_training_steps():
    kb = get_knowledge_base("2.4")
    target = target_for("torch.optim.Adagrad", kb)
    assert precheck(target) is None and target.spec.loop == "training_step"
    request = build_request(target)
    assert (request["kind"], request["loop"], request["mindspore_api"]) == (
        "class", "training_step", "mindspore.experimental.optim.Adagrad")
    assert request["torch"]["init_kwargs"] == request["mindspore"]["init_kwargs"] == {"lr": 0.1,
                                                                                        "lr_decay": 0.01}
    shapes = [request["tensors"][a["ref"]]["shape"] for a in request["torch"]["args"]]
    assert shapes == [[4, 3], [4, 2], [3, 2], [2]]
    # the table's renames apply to the optimizer's arguments (nn.Adagrad: lr → learning_rate)
    row = next(r for r in kb.rows() if r.mindspore_api == "mindspore.nn.Adagrad")
    request = build_request(CheckTarget("torch.optim.Adagrad", row.mindspore_api, "class", target.spec, row))
    assert request["mindspore"]["init_kwargs"] == {"learning_rate": 0.1}  # lr_decay: torch only
    assert request["dropped"] == ["lr_decay"]
    # a learning-rate scheduler has no single comparison yet
    scheduler = precheck(target_for("torch.optim.lr_scheduler.StepLR", kb))
    assert (scheduler.status, scheduler.reason) == ("skipped", "not_op")
    # other specs run no loop
    assert build_request(target_for("torch.abs", kb))["loop"] is None


def test_a_result_form_the_fix_writes_is_requested_where_the_call_gets_it():
    """ops.unique returns (values in first-seen order, indices): the fix writes
    mindspore.ops.sort(ops.unique(x)[0])[0] unless the call passes a parameter that changes torch's
    result, and the worker compares that form (value_forms.CHECKED_FORMS); bincount's .long() only
    changes the type: not requested (its note tells the difference)."""
    kb = get_knowledge_base("2.4")
    unique = target_for("torch.unique", kb)
    assert unique.mindspore_api == "mindspore.ops.unique"
    assert build_request(unique)["result_form"] == "sorted_first_output"
    assert build_request(unique, call_kwargs={"return_inverse": "True"})["result_form"] is None
    by_position = CheckTarget(unique.torch_api, unique.mindspore_api, "function",
                              ApiSpec(args=(T(12), True)), unique.row, unique.signatures)
    assert build_request(by_position)["result_form"] is None  # sorted=True, by position
    assert build_request(target_for("torch.bincount", kb))["result_form"] is None
    assert build_request(target_for("torch.abs", kb))["result_form"] is None


def test_a_dtype_is_checked_by_a_cast_to_it():
    kb = get_knowledge_base("2.6")  # torch.long: a derived mapping (not in the 2.6 table)
    target = target_for("torch.long", kb)
    assert precheck(target) is None
    request = build_request(target)
    assert (request["torch_api"], request["mindspore_api"], request["loop"]) == (
        "torch.long", "mindspore.long", "dtype")
    assert request["tensors"] == {"t0": {"data": [[0.0, 1.0, 2.5], [7.0, 0.25, 100.0]], "dtype": "float32"}}
    assert request["torch"]["args"] == request["mindspore"]["args"] == [{"ref": "t0"}]
    assert is_dtype_name("long") and is_dtype_name("float8_e4m3fn") and is_dtype_name("bool")
    assert is_dtype_name("float") and not is_dtype_name("pi") and not is_dtype_name("floating")
    # an attribute that is no dtype is not compared
    assert not_called_spec("torch.pi", "attribute", ApiSpec(args=(T(2),))).skip == "not_op"


def test_a_tensor_property_is_read_on_the_generated_tensor_and_is_tensor_on_two_objects():
    kb = get_knowledge_base("2.6")
    request = build_request(target_for("torch.Tensor.shape", kb))
    assert (request["kind"], request["mindspore_api"], request["loop"]) == (
        "tensor_method", "mindspore.Tensor.shape", None)
    assert request["tensors"] == {"t0": {"shape": [2, 3, 4], "dtype": "float32", "low": -1.0, "high": 1.0}}
    assert request["torch"]["args"] == [{"ref": "t0"}]
    target = target_for("torch.is_tensor", kb)
    assert precheck(target) is None  # not op-like, but its loop compares it
    request = build_request(target)
    assert request["loop"] == "per_argument"
    assert request["torch"]["args"] == request["mindspore"]["args"] == [{"ref": "t0"}, [1.0, 2.0]]
    # a device, an address, autograd state: not compared
    for api in ("torch.Tensor.device", "torch.Tensor.data_ptr"):
        skipped = precheck(target_for(api, kb))
        assert skipped is not None and (skipped.status, skipped.reason) == ("skipped", "not_op"), api
    spec = ApiSpec(args=(T(2),))
    assert not_called_spec("torch.Tensor.grad", "tensor_attribute", spec).skip == "not_op"
    assert not_called_spec("torch.Tensor.mT", "tensor_attribute", spec) == spec
    assert not_called_spec("torch.nn.functional", "module", spec).skip == "not_op"
