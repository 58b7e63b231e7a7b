"""Parameter facts checked against a MindSpore signature (knowledge/param_facts.py)."""

from msmigrate.knowledge.param_facts import (
    REQUIRED,
    ArgumentPlan,
    companions,
    default_differences,
    keyword_target,
    literal_kind,
    plan_arguments,
)


def _p(name, default=None, kind="positional_or_keyword"):
    param = {"name": name, "kind": kind}
    if default is not None:
        param["default"] = default
    return param


# mindspore.Tensor.sum in 2.10: two overloads
SUM = [[_p("dim", "None"), _p("keepdim", "False"), _p("dtype", "None", "keyword_only")],
       [_p("axis", "None"), _p("dtype", "None"), _p("keepdims", "False"), _p("initial", "None")]]
OPS_MAX = [[_p("input"), _p("axis", "None"), _p("keepdims", "False"), _p("initial", "None", "keyword_only")]]
FLATTEN = [[_p("input"), _p("order", "'C'"), _p("start_dim", "1", "keyword_only"),
            _p("end_dim", "-1", "keyword_only")]]


def test_keywords_go_to_the_overload_that_takes_them_all():
    # the table's dim→axis would give sum(axis=…, keepdim=…), which 2.10 rejects
    plan = plan_arguments([], ["dim", "keepdim"], ["dim", "keepdim", "dtype"], SUM, {"dim": "axis"})
    assert plan == ArgumentPlan(0, targets=(("dim", "dim"), ("dtype", "dtype"), ("keepdim", "keepdim")))
    # ops.max: the rename from the table, a similar name (keepdim → keepdims), the torch-only out
    plan = plan_arguments(["input"], ["dim", "keepdim", "out"], ["input", "dim", "keepdim", "out"], OPS_MAX,
                          {"dim": "axis"})
    assert (plan.renames, plan.missing) == ((("dim", "axis"), ("keepdim", "keepdims")), ("out",))


def test_arguments_by_position_that_land_on_another_parameter_move_to_keywords():
    plan = plan_arguments(["input", "start_dim"], [], ["input", "start_dim", "end_dim"], FLATTEN, {})
    assert (plan.shifted, plan.to_keyword) == ((("start_dim", "order"),), ((1, "start_dim"),))
    assert plan_arguments([], [], [], [], {}) is None


def test_the_first_tensor_by_position_is_the_same_argument_whatever_its_name():
    inv = [[_p("input")]]  # mindspore.mint.linalg.inv; torch.linalg.inv(A)
    plan = plan_arguments(["A"], [], ["A"], inv, {})
    assert (plan.missing, plan.to_keyword, plan.shifted) == ((), (), ())
    # a second argument by position is the same only where both names take a tensor: torch.dot's tensor
    # is tensor_dot's x2 (param_facts.TENSOR_PARAMS), a tensor is no axis
    tensor_dot = [[_p("x1"), _p("x2"), _p("axes")]]
    plan = plan_arguments(["input", "tensor"], [], ["input", "tensor"], tensor_dot, {})
    assert (plan.missing, plan.to_keyword, plan.targets) == ((), (), (("input", "x1"), ("tensor", "x2")))
    assert plan_arguments(["input", "tensor"], [], ["input", "tensor"], [[_p("x1"), _p("axis")]],
                          {}).missing == ("tensor",)
    # and only between tensor names: a first parameter of another kind is not the input
    assert plan_arguments(["A"], [], ["A"], [[_p("shape")]], {}).missing == ("A",)


def test_keyword_target_by_position_only_for_names_torch_does_not_have():
    overload = OPS_MAX[0]
    assert keyword_target("dim", overload, {}, ["input", "dim", "keepdim"]) == "axis"
    assert keyword_target("other", overload, {}, ["input", "other"]) is None  # a tensor is no axis
    assert keyword_target("input", overload, {}, ["input"]) == "input"
    assert keyword_target("out", overload, {}, ["input", "dim", "keepdim", "out"]) is None


def test_default_differences():
    torch_sig = [_p("p", "2.0"), _p("approximate", "'none'"), _p("op", "<RedOpType.SUM: 0>"), _p("k", "0")]
    ms_sig = [_p("p", "2"), _p("approximate", "True"), _p("op", "'sum'"), _p("k", "None")]
    targets = {"p": "p", "approximate": "approximate", "op": "op", "k": "k"}
    assert default_differences(torch_sig, ms_sig, targets) == [("approximate", "'none'", "True")]
    assert default_differences(FLATTEN[0][:1] + [_p("start_dim", "0")], FLATTEN[0],
                               {"start_dim": "start_dim"}) == [("start_dim", "0", "1")]


def test_a_parameter_mindspore_requires_differs_from_a_literal_torch_default():
    # torch.optim.SGD(params, lr=0.001) → mindspore.experimental.optim.SGD(params, lr): no default
    torch_sig = [_p("params"), _p("lr", "0.001"), _p("momentum", "0"), _p("foreach", "None")]
    ms_sig = [_p("params"), _p("lr"), _p("momentum", "0")]
    targets = {"params": "params", "lr": "lr", "momentum": "momentum"}
    assert default_differences(torch_sig, ms_sig, targets) == [("lr", "0.001", REQUIRED)]
    # a None default (torch computes something instead) gives no value to pass
    steps = {"steps": "steps"}
    assert default_differences([_p("x"), _p("steps", "None")], [_p("x"), _p("steps")], steps) == []


def test_literal_kinds_and_companions():
    defaults = ("'a'", "True", "3", "-1", "1e-06", "None", None, "mindspore.float32")
    assert [literal_kind(v) for v in defaults] == ["str", "bool", "int", "int", "float", None, None, None]
    conv = [_p("in_channels"), _p("pad_mode", "'same'"), _p("padding", "0")]
    assert companions("mindspore.nn.Conv2d", conv, set()) == [("pad_mode", "'pad'", "'same'")]
    assert companions("mindspore.nn.Conv2d", conv, {"pad_mode"}) == []
    assert companions("mindspore.mint.nn.Conv2d", conv, set()) == []


def test_rename_facts_resolutions_on_a_small_table():
    from msmigrate.knowledge.base import KnowledgeBase
    from msmigrate.knowledge.consistency import rename_facts
    from msmigrate.knowledge.inventory_index import InventoryIndex
    from msmigrate.knowledge.model import MappingCategory, MappingRow, MappingTable

    def row(torch_api, ms_api, renames):
        return MappingRow(torch_api, ms_api, MappingCategory.PARAM_NAMES, "torch", param_renames=renames)

    kb = KnowledgeBase("2.6")
    kb.__dict__["table"] = MappingTable("2.6", "r2.6.0", "2.1", (), (
        row("torch.a", "mindspore.ops.a", {"dim": "dims"}),  # 2.10 calls it axis: found by position
        row("torch.b", "mindspore.ops.b", {"input": "input_x"}),  # 2.10 takes input: no rename
        row("torch.c", "mindspore.ops.c", {"weight": "w"}),  # no such parameter: dropped
        row("torch.d", "mindspore.ops.d", {"dim": "axis"}),  # accepted: not listed
        row("torch.e", "mindspore.ops.e", {"dim": "nope"}),  # **kwargs: cannot be rejected
    ))
    torch_sig = {"signatures": [[_p("input"), _p("dim"), _p("weight", "None")]]}
    kb.__dict__["torch_inventory"] = InventoryIndex.from_apis({f"torch.{n}": torch_sig for n in "abcde"})
    kb.__dict__["mindspore_inventory"] = InventoryIndex.from_apis({
        "mindspore.ops.a": {"signatures": [[_p("input"), _p("axis")]]},
        "mindspore.ops.b": {"signatures": [[_p("input")]]},
        "mindspore.ops.c": {"signatures": [[_p("input")]]},
        "mindspore.ops.d": {"signatures": [[_p("input"), _p("axis")]]},
        "mindspore.ops.e": {"signatures": [[_p("input"), _p("kwargs", kind="var_keyword")]]},
    })
    assert rename_facts(kb) == (
        ("torch.a", "mindspore.ops.a", "dim", "dims", "use:axis"),
        ("torch.b", "mindspore.ops.b", "input", "input_x", "keep"),
        ("torch.c", "mindspore.ops.c", "weight", "w", "drop"),
    )
