"""Argument-aware mapping (issue 12, item 4): overloads chosen by the call's arguments, parameter facts
that apply to one call, everything checked against the installed MindSpore 2.10 signature."""

import ast

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.analysis.arguments import argument_kind, bind, bound
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.consistency import rename_facts

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
HEADER += "def f(x: torch.Tensor, y: torch.Tensor, a, b):\n"
OPTIONS = AnalysisOptions(use_jedi=False)


def _call(text: str) -> ast.Call:
    return ast.parse(text, mode="eval").body


def _names(bindings, name):
    node = bound(bindings, name)
    return None if node is None else ast.unparse(node)


# --- binding arguments to the torch signature --------------------------------------------------------
def test_bind_by_the_torch_signature_with_overloads():
    kb = get_knowledge_base("2.6")
    signatures = kb.torch_signatures("torch.max")
    tensors = {"x", "y", "r"}

    def kind(node):
        return argument_kind(node, lambda n: isinstance(n, ast.Name) and n.id in tensors)

    assert _names(bind(_call("torch.max(x, 1)"), signatures, kind), "dim") == "1"
    assert _names(bind(_call("torch.max(x, dim=-1, keepdim=True)"), signatures, kind), "keepdim") == "True"
    two = bind(_call("torch.max(r, 1 / r)"), signatures, kind)
    assert [b.names() for b in two] == [("input", "other", "out")] and _names(two, "other") == "1 / r"
    assert _names(bind(_call("torch.max(x, y)"), signatures, kind), "other") == "y"
    open_ = bind(_call("torch.max(x, n)"), signatures, kind)  # n: an axis or a tensor, unknown
    assert len(open_) == 2 and _names(open_, "dim") is None and _names(open_, "input") == "x"
    assert [b.names() for b in bind(_call("torch.max(x)"), signatures, kind)] == [("input", "out")]
    assert bind(_call("torch.max(x, 1, True, 4)"), signatures, kind) == []
    method = bind(_call("x.sum(1)"), kb.torch_signatures("torch.Tensor.sum"), kind)
    assert [b.positional for b in method] == [("dim",)]
    converted = bind(_call("x.sum(int(n))"), kb.torch_signatures("torch.Tensor.sum"), kind)
    assert _names(converted, "dim") == "int(n)"
    starred = bind(_call("torch.max(*args)"), signatures, kind)
    assert {b.complete for b in starred} == {False}


def test_argument_kinds():
    assert [argument_kind(_call(text)) for text in ("1", "-2", "(0, 1)", "1.5", "'tanh'", "None", "True",
                                                     "1 / r", "int(n)", "len(s)", "n")] == [
        "int", "int", "int", "float", "str", "none", "bool", "not_int", "int", "int", None]


# --- findings per call ----------------------------------------------------------------------------
def _findings(body: str, version: str, rule_prefix: str = "MSM10"):
    source = HEADER + "".join(f"    {line}\n" for line in body.splitlines())
    result = analyze_source(source, "t.py", get_knowledge_base(version), OPTIONS)
    return source, [f for f in result.findings if f.rule.startswith(rule_prefix) and f.line > 6]


def _one(body: str, version: str):
    _source, found = _findings(body, version)
    assert len(found) == 1, [(f.rule, f.torch_api) for f in found]
    return found[0]


@pytest.mark.parametrize(
    ("call", "version", "rule", "target", "message"),
    [
        ("torch.max(x, y)", "2.6", "MSM100", "mindspore.mint.maximum",
         "torch.max with two tensors (element-wise) → mindspore.mint.maximum: same behaviour; replacing the "
         "name is enough."),
        ("torch.min(x, y)", "2.4", "MSM100", "mindspore.ops.minimum",
         "torch.min with two tensors (element-wise) → mindspore.ops.minimum: same behaviour; replacing the "
         "name is enough."),
        ("torch.max(x)", "2.4", "MSM100", "mindspore.ops.amax",
         "torch.max over all elements (full reduction) → mindspore.ops.amax: same behaviour; replacing the "
         "name is enough."),
        ("torch.max(x, 1)", "2.6", "MSM100", "mindspore.mint.max",
         "torch.max along an axis (reduction) → mindspore.mint.max: same behaviour; replacing the name is "
         "enough."),
        ("torch.max(x, dim=1)", "2.4", "MSM101", "mindspore.ops.max",
         "torch.max → mindspore.ops.max (along an axis (reduction); keywords to rename: dim→axis; see the "
         "difference page)."),
        ("torch.max(x, 1)", "2.4", "MSM101", "mindspore.ops.max",
         "torch.max → mindspore.ops.max (along an axis (reduction); MindSpore-only parameters: initial, "
         "where; see the difference page)."),
        ("x.max(y)", "2.4", "MSM100", "mindspore.Tensor.maximum",
         "torch.Tensor.max with two tensors (element-wise) → mindspore.Tensor.maximum: same behaviour; "
         "replacing the name is enough."),
        # the arguments leave the overload open (a may be an axis or a tensor): the table's mapping
        ("torch.max(a, b)", "2.6", "MSM100", "mindspore.mint.max",
         "torch.max → mindspore.mint.max: same behaviour; replacing the name is enough."),
    ],
)
def test_overload_chosen_by_the_arguments(call, version, rule, target, message):
    finding = _one(call, version)
    assert (finding.rule, finding.mindspore_api, finding.message()) == (rule, target, message)


def test_overload_quick_fix_and_hover_follow_the_chosen_overload():
    from msmigrate.lsp.hover import hover_markdown

    kb = get_knowledge_base("2.4")
    source, [finding] = _findings("return torch.max(x, y)", "2.4")
    [fix] = fixes_for(source, "t.py", [finding], kb)
    assert [e.new_text for e in fix.edits] == ["mindspore.ops.maximum", "import mindspore\n"]
    sections = hover_markdown(finding, kb, "en").split("\n\n---\n\n")
    assert sections[1].startswith(  # after the name's mapping (torch.max → mindspore.ops.max)
        "**This call:** torch.max with two tensors (element-wise) → mindspore.ops.maximum: same behaviour;")
    source, [method] = _findings("return x.max(y)", "2.4")
    [fix] = fixes_for(source, "t.py", [method], kb)
    assert (fix.title_key, [e.new_text for e in fix.edits]) == ("fix.rename_method", ["maximum"])
    assert method.fixable


@pytest.mark.parametrize(
    ("call", "details", "changes"),
    [
        # GELU: left out, approximate is torch's exact 'none', MindSpore's tanh-approximating True: the fix
        # passes approximate=False
        ("nn.GELU()", "MindSpore needs approximate=False (MindSpore default True) to compute what torch "
         "does; see the difference page", True),
        # ... and MindSpore 2.10's approximate is a bool: torch's 'tanh' is its True
        ("nn.GELU(approximate='tanh')", "MindSpore means these values otherwise; written in its meaning: "
         "approximate='tanh' → True; see the difference page", True),
        # a value of another type no fact converts: Unfold's padding is a str in MindSpore
        ("nn.Unfold(2, padding=1)", "left out, the default differs: dilation→rates: 1 vs —, stride→strides: "
         "1 vs —; values of another type in MindSpore: padding: 1 (MindSpore: a str, default 'valid'); "
         "see the difference page", True),
        # Dropout(0.1): MindSpore's first parameter is keep_prob
        ("nn.Dropout(0.1)", "arguments passed by position land on other MindSpore parameters (p→keep_prob): "
         "pass them by keyword; see the difference page", True),
        ("nn.Dropout(p=0.1)", "MindSpore-only parameters: keep_prob, dtype; see the difference page", False),
        ("nn.Conv2d(3, 16, 3, 1, 1)",
         "arguments passed by position land on other MindSpore parameters (padding→pad_mode): pass them by "
         "keyword; left out, the default differs: bias→has_bias: True vs False; MindSpore needs "
         "pad_mode='pad' (MindSpore default 'same') to compute what torch does; see the difference page",
         True),
        ("torch.flatten(x)", "left out, the default differs: start_dim: 0 vs 1; see the difference page",
         True),
        ("torch.flatten(x, 1)", "arguments passed by position land on other MindSpore parameters "
         "(start_dim→order): pass them by keyword; see the difference page", True),
        # 2.10 takes input (the table's input_x is rejected) and Tensor.sum takes dim with keepdim
        ("F.gelu(input=x)", "see the difference page", False),
        ("x.sum(dim=1, keepdim=True)", "MindSpore-only parameters: initial; see the difference page", False),
    ],
)
def test_parameter_facts_of_one_call(call, details, changes):
    finding = _one(call, "2.4")
    assert finding.rule == "MSM101"
    assert finding.message() == f"{finding.torch_api} → {finding.mindspore_api} ({details})."
    assert finding.message_args["changes_results"] is changes


@pytest.mark.parametrize(
    ("call", "version", "fixed"),
    [
        ("F.gelu(input=x)", "2.4", "mindspore.ops.gelu(input=x)"),
        ("torch.max(x, dim=1, keepdim=True)", "2.4", "mindspore.ops.max(x, axis=1, keepdims=True)"),
        ("torch.max(x, dim=1, keepdim=True)", "2.6", "mindspore.mint.max(x, dim=1, keepdim=True)"),
        ("nn.Dropout(0.1)", "2.4", "mindspore.nn.Dropout(p=0.1)"),
        ("torch.flatten(x, 1)", "2.4", "mindspore.ops.flatten(x, start_dim=1)"),
        ("nn.Conv2d(3, 16, 3, 1, 1, bias=False)", "2.4",
         "mindspore.nn.Conv2d(3, 16, 3, 1, padding=1, has_bias=False, pad_mode='pad')"),
        # left-out defaults that differ are passed with torch's value when MindSpore takes that type
        ("nn.Conv2d(3, 16, 3)", "2.4", "mindspore.nn.Conv2d(3, 16, 3, has_bias=True, pad_mode='pad')"),
        ("torch.flatten(x)", "2.4", "mindspore.ops.flatten(x, start_dim=0)"),
        ("nn.GELU(approximate='tanh')", "2.4", "mindspore.nn.GELU(approximate=True)"),  # a bool there
        ("nn.GELU()", "2.4", "mindspore.nn.GELU(approximate=False)"),  # torch's default is exact, not tanh
        ("x.sum(dim=1, keepdim=True)", "2.4", "x.sum(dim=1, keepdim=True)"),  # nothing to rewrite
    ],
)
def test_quick_fix_writes_keywords_the_installed_signature_takes(call, version, fixed):
    source = HEADER + f"    return {call}\n"
    new, _applied = fix_all(source, "t.py", get_knowledge_base(version), OPTIONS)
    assert new.splitlines()[-1] == f"    return {fixed}"


def test_a_parameter_mindspore_lacks_is_a_difference_never_a_rename():
    # 2.6 maps torch.sum to mint.sum "consistent"; out=y has no counterpart in the 2.10 signature
    source, [finding] = _findings("return torch.sum(x, 1, out=y)", "2.6")
    assert (finding.rule, finding.message()) == (
        "MSM101", "torch.sum → mindspore.mint.sum (passes out, which MindSpore does not accept).")
    assert finding.message_args["changes_results"] is True
    [fix] = fixes_for(source, "t.py", [finding], get_knowledge_base("2.6"))
    assert (fix.title_key, fix.edits) == ("fix.blocked.out", [])
    # a value that can be dropped is stated too (the fix drops it)
    dropped = _one("torch.sum(x, 1, out=None)", "2.6")
    assert dropped.message() == (
        "torch.sum → mindspore.mint.sum (MindSpore has no out (the value passed can be dropped)).")
    assert dropped.message_args["changes_results"] is False
    assert _one("torch.sum(x, 1)", "2.6").rule == "MSM100"


def test_value_of_another_type_blocks_the_quick_fix():
    source, [finding] = _findings("return torch.std(x, unbiased=False)", "2.4")
    [fix] = fixes_for(source, "t.py", [finding], get_knowledge_base("2.4"))
    assert (fix.title_key, fix.edits) == ("fix.blocked.value_type", [])
    assert fix.title_args["param"] == "unbiased"


def test_message_in_chinese():
    finding = _one("nn.GELU()", "2.4")
    assert finding.message("zh") == (
        "torch.nn.GELU → mindspore.nn.GELU（MindSpore 需传入 approximate=False (MindSpore default True) "
        "才与 torch 计算一致；请参阅差异对比页面）。")


# --- dynamic-shape rules read arguments by the signature -------------------------------------------------
def test_dynamic_shape_axis_by_the_torch_signature():
    body = ("r = x.nonzero().float()\nn = int(x.sum().item())\na = torch.max(r, 1 / r)\nb = x.sum(n)\n"
            "c = torch.max(x, dim=n)\nd = torch.max(x, n)\nreturn a, b, c, d")
    _source, found = _findings(body, "2.6", "MSM306")
    assert [(f.line, f.message_args["api"], f.message_args["axis"]) for f in found] == [
        (10, "torch.Tensor.sum", "n"), (11, "torch.max", "n")]


# --- the data check --------------------------------------------------------------------------------
def test_data_validate_lists_renames_the_installed_signature_rejects():
    facts = rename_facts(get_knowledge_base("2.4"))
    assert ("torch.nn.functional.gelu", "mindspore.ops.gelu", "input", "input_x", "keep") in facts
    assert ("torch.Tensor.expand", "mindspore.Tensor.broadcast_to", "sizes", "shape", "drop") in facts
    assert len(facts) == 23
    assert rename_facts(get_knowledge_base("2.6")) == ()


def test_data_validate_text_states_the_rejected_renames_in_both_languages():
    from click.testing import CliRunner

    from msmigrate.cli import main

    en = CliRunner().invoke(main, ["data", "validate", "--mindspore-version", "2.4"])
    zh = CliRunner().invoke(main, ["data", "validate", "--mindspore-version", "2.4", "--lang", "zh"])
    assert en.exit_code == 0 and zh.exit_code == 0
    assert "Parameter renames the installed MindSpore signature rejects (23)" in en.output
    assert ("  torch.nn.functional.gelu -> mindspore.ops.gelu: input -> input_x (MindSpore takes the torch "
            "name: no rename)\n") in en.output
    assert "已安装的 MindSpore 签名不接受的参数改名（23 个）" in zh.output


def test_lookup_states_the_renames_the_installed_signature_rejects():
    from msmigrate.knowledge.lookup import lookup

    kb = get_knowledge_base("2.4")
    gelu = lookup("F.gelu", kb)
    assert gelu.rejected_renames == {"input": "keep"}
    assert ("The table renames input to input_x, but the installed MindSpore takes input: keep the name."
            in gelu.notes("en"))
    zh = "映射表将 input 改名为 input_x，但已安装的 MindSpore 接受 input：保留原名即可。"
    assert zh in gelu.notes("zh")
    assert [r for r in gelu._param_rows("en") if r[0] == "input"] == []  # no rename row
    expand = lookup("torch.Tensor.expand", kb)
    assert expand.rejected_renames == {"sizes": "drop"}
    assert ("The table renames sizes to shape, a parameter the installed MindSpore does not have: the rename "
            "does not apply." in expand.notes("en"))
    linear = lookup("torch.nn.Linear", kb)
    assert linear.rejected_renames == {}
    assert "Parameter in_features is called in_channels in MindSpore." in linear.notes("en")
