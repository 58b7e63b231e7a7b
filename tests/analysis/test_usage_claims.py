"""Claims the code around a usage decides (analysis/usage_claims.py, knowledge/pair_facts.py, the
positional plan of knowledge/param_facts.py): each checked against MindSpore 2.10 when it was written
(a Cell defining only forward raises "construct is not defined"; mint.zeros(device=…) raises "unexpected
keyword argument"; Tensor.device is 'CPU')."""

from __future__ import annotations

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.param_facts import plan_arguments
from msmigrate.model.resolution import Safety


@pytest.fixture(scope="module")
def kb():
    return get_knowledge_base("2.6")


def _findings(kb, source: str):
    result = analyze_source(source, "s.py", kb, AnalysisOptions(use_jedi=False))
    return {(f.line, f.column): f for f in result.findings}


def _p(name: str, default: str | None = None) -> dict:
    param = {"kind": "positional_or_keyword", "name": name}
    return param if default is None else {**param, "default": default}


MODULES = """\
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, device=None, dtype=None):
        dd = {'device': device, 'dtype': dtype}
        super().__init__()
        self.zero = nn.Parameter(torch.zeros(3, **dd))
        layer = None or nn.LayerNorm
        self.norm = layer(4, **dd)

    def forward(self, x):
        return x.device

class Holder(nn.Module):
    def __init__(self):
        super().__init__()
"""


def test_a_module_base_of_a_class_defining_forward_is_a_difference(kb):
    found = _findings(kb, MODULES)
    base = found[(4, 13)]
    assert (base.rule, base.category.value) == ("MSM101", "differences")
    assert base.mindspore_api == "mindspore.nn.Cell"
    assert "Block defines forward, which a Cell does not run: it runs construct" in base.message()
    assert base.resolution.safety is Safety.SAFE  # the rename itself; MSM501 renames forward
    plain = found[(15, 14)]  # no forward: the name is all there is to change
    assert (plain.rule, plain.category.value) == ("MSM100", "consistent")


def test_keywords_through_a_dict_of_known_keys_that_the_target_does_not_take(kb):
    found = _findings(kb, MODULES)
    zeros = found[(8, 34)]
    assert (zeros.rule, zeros.mindspore_api) == ("MSM101", "mindspore.mint.zeros")
    assert "passes device through **dd, which mindspore.mint.zeros does not accept" in zeros.message()
    assert zeros.resolution.plan.blocked == ("fix.blocked.var_keyword", "device", "**dd")
    assert zeros.resolution.safety is Safety.BY_HAND
    # the class referenced and assigned to a name, which the function calls with **dd: on CPU (no kernel for
    # mint.nn.LayerNorm) the project helper's LayerNorm, which takes torch's arguments, device included
    norm = found[(9, 25)]
    assert (norm.torch_api, norm.rule, norm.mindspore_api) == (
        "torch.nn.LayerNorm", "MSM205", "ms_compat.LayerNorm")
    assert "the composition ms_compat.LayerNorm takes torch's (checked against torch)" in norm.message()


def test_a_dict_whose_keys_change_is_not_read(kb):
    source = ("import torch\n\ndef f(device):\n    dd = {'device': device}\n    dd.pop('device')\n"
              "    return torch.zeros(3, **dd)\n")
    zeros = _findings(kb, source)[(6, 12)]
    assert (zeros.rule, zeros.category.value) == ("MSM100", "consistent")


def test_tensor_device_is_a_str_in_mindspore(kb):
    device = _findings(kb, MODULES)[(13, 18)]
    assert (device.rule, device.category.value) == ("MSM101", "differences")
    assert "Tensor.device is a str ('CPU', 'GPU', 'Ascend')" in device.message()


def test_positional_arguments_are_compared_where_they_land():
    save = [[_p("save_obj"), _p("ckpt_file_name"), _p("integrated_save", "True")]]
    plan = plan_arguments(["obj", "f"], [], ["obj", "f", "pickle_module"], save, {})
    assert (plan.missing, plan.shifted, plan.to_keyword) == ((), (), ())
    assert plan.landed == (("obj", "save_obj"), ("f", "ckpt_file_name"))
    # names known to take other kinds of value do not land on each other (dim is no tensor of indices)
    index_add = [[_p("indices"), _p("y"), _p("axis")], [_p("dim"), _p("index"), _p("source")]]
    plan = plan_arguments(["dim", "index", "source"], [], ["dim", "index", "source"], index_add, {})
    assert (plan.overload, plan.landed, plan.missing) == (1, (), ())


def test_a_method_receiver_lands_on_the_first_parameter_of_a_function(kb):
    source = ("import torch.nn as nn\n\nm = nn.Linear(2, 2)\nm.add_module('a', nn.ReLU())\n"
              "m.load_state_dict({})\n")
    found = _findings(kb, source)
    add = found[(4, 3)]
    assert (add.mindspore_api, add.category.value) == ("mindspore.nn.Cell.insert_child_to_cell", "consistent")
    load = found[(5, 3)]
    assert "land on other" not in load.message() and "does not accept" not in load.message()


def test_a_field_of_a_named_tuple_torch_returns_is_no_tensor_member(kb):
    source = ("import torch\n\ndef f(x: torch.Tensor):\n    top = torch.topk(x, k=3)\n"
              "    return top.indices, x.sort(1).values, torch.max(x, 1)[0].abs()\n")
    found = _findings(kb, source)
    indices = found[(5, 16)]
    assert (indices.rule, indices.torch_api, indices.mindspore_api) == (
        "MSM200", "torch.return_types.topk.indices", None)
    assert indices.message() == (
        "torch.return_types.topk.indices: torch's topk returns a named tuple (values, indices); MindSpore's "
        "returns a plain tuple in the same order: read .indices as [1].")
    assert found[(5, 35)].torch_api == "torch.return_types.sort.values"
    assert found[(5, 62)].torch_api == "torch.Tensor.abs"  # indexing the named tuple gives a tensor


def test_a_name_shown_not_to_be_a_tensor_is_not_one(kb):
    source = ("import torch\nfrom collections import OrderedDict\n\ndef f(model, x):\n"
              "    features = model(x)\n    if isinstance(features, torch.Tensor):\n"
              "        features = OrderedDict([('0', features)])\n    return list(features.values())\n")
    assert [f.torch_api for f in _findings(kb, source).values()] == ["torch.Tensor"]


def test_a_method_of_an_object_whose_class_the_file_maps(kb):
    source = ("import torch\nfrom torch.optim.lr_scheduler import StepLR\nm = torch.nn.Linear(2, 2)\n"
              "opt = torch.optim.SGD(m.parameters(), lr=0.1)\nsched = StepLR(opt, step_size=10)\n"
              "sched.step()\n")
    step = _findings(kb, source)[(6, 7)]
    assert (step.rule, step.torch_api) == ("MSM100", "torch.optim.lr_scheduler.LRScheduler.step")
    assert step.mindspore_api == "mindspore.experimental.optim.lr_scheduler.StepLR.step"
    assert ("becomes mindspore.experimental.optim.lr_scheduler.StepLR, whose step takes this call's "
            "arguments as they are written") in step.message()


def test_a_container_method_of_a_mapped_container(kb):
    # nn.ModuleList -> nn.CellList, which has append(cell): the argument passed by position lands on it
    source = ("import torch.nn as nn\nblocks = nn.ModuleList()\nblocks.append(nn.ReLU())\n"
              "blocks.append(module=nn.ReLU())\n")
    found = _findings(kb, source)
    assert (found[(3, 8)].rule, found[(3, 8)].mindspore_api) == ("MSM100", "mindspore.nn.CellList.append")
    assert (found[(4, 8)].rule, found[(4, 8)].mindspore_api) == ("MSM101", "mindspore.nn.CellList.append")
    assert "its parameters differ" in found[(4, 8)].message()


GRAD_SWITCHES = """\
import torch
from torch import nn
class Critic(nn.Module):
    def forward(self, x, shared):
        with torch.set_grad_enabled(not shared):
            y = self.f(x)
        with torch.no_grad():
            z = x * 2
        with torch.no_grad():
            self.w.mul_(2)
        with torch.enable_grad():
            w = x
        return y + z + w
def evaluate(model, x):
    with torch.no_grad():
        return model(x)
"""


def test_a_gradient_switch_where_a_gradient_may_pass(kb):
    found = {line: f for (line, _col), f in _findings(kb, GRAD_SWITCHES).items() if f.rule == "MSM507"}
    # a network's forward: the values computed under the switch need ops.stop_gradient
    assert found[5].mindspore_api == found[7].mindspore_api == "mindspore.ops.stop_gradient"
    assert "whether gradients stop depends on not shared at run time" in found[5].message()
    assert "wrap the values computed under it in mindspore.ops.stop_gradient" in found[7].message()
    assert "not needed" in found[9].message()  # in-place updates only: nothing to wrap
    assert (found[11].mindspore_api, "not needed" in found[11].message()) == (None, True)  # gradients on
    assert "not needed" in found[15].message()  # evaluation code outside a network
    assert "mindspore.ops.stop_gradient 包裹" in found[7].message("zh")


PARAMETERS = """\
import torch
from torch import nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(3))
        self.w.requires_grad = False
    def freeze(self):
        for p in self.parameters():
            p.requires_grad = False
def f(x: torch.Tensor):
    return x.requires_grad
class P(nn.Parameter):
    def g(self):
        return self.requires_grad
"""


def test_a_tensor_member_of_a_parameter(kb):
    # mindspore.Tensor has no requires_grad (MindSpore 2.10); mindspore.Parameter has it and takes writes
    found = {line: f for (line, _col), f in _findings(kb, PARAMETERS).items()
             if f.torch_api == "torch.Tensor.requires_grad"}
    on_parameter = ("MSM100", "mindspore.Parameter.requires_grad")
    assert {line: (f.rule, f.mindspore_api) for line, f in found.items()} == {
        7: on_parameter, 10: on_parameter, 12: ("MSM201", None), 15: on_parameter}
    assert "the object is a Parameter here (for … in self.parameters())" in found[10].message()
    assert "(self.w = nn.Parameter(…))" in found[7].message()
    assert "(class P(nn.Parameter))" in found[15].message()


UNKNOWN_KEYWORDS = """\
import torch
from torch import nn
def build(dim, n, opts, **kwargs):
    conv = nn.ConvTranspose2d(dim, dim, 3, **kwargs)
    dd = {'dtype': torch.float32}
    other = nn.ConvTranspose2d(dim, dim, 3, **dd)
    return conv, other, torch.cat([torch.zeros(n, **opts)], 0)
"""


def test_arguments_the_analysis_cannot_see(kb):
    found = {line: f for (line, _col), f in _findings(kb, UNKNOWN_KEYWORDS).items()
             if f.torch_api in ("torch.nn.ConvTranspose2d", "torch.zeros")}
    # **kwargs may pass bias: "left out" holds unless it does; **dd's keys are written: bias is left out
    assert "left out unless **kwargs passes it, the default differs: bias→has_bias" in found[4].message()
    assert "left out, the default differs: bias→has_bias" in found[6].message()
    assert found[7].message().endswith(
        "The arguments passed through **opts are not known here: this holds for the arguments written; check "
        "that mindspore.mint.zeros accepts theirs.")
    assert (found[7].rule, found[7].category.value) == ("MSM100", "consistent")
    assert "除非 **kwargs 传入，否则未传入且默认值不同" in found[4].message("zh")


def test_a_possible_tensor_method_with_renamed_keywords(kb):
    # MindSpore 2.10: Tensor.amax(dim=1) raises "unexpected keyword argument 'dim'"; amax(axis=1) runs
    found = _findings(kb, "import torch\ndef f(x):\n    return x.amax(dim=1), x.amax(1)\n")
    assert found[(3, 14)].rule == found[(3, 29)].rule == "MSM102"
    assert found[(3, 14)].message().endswith("mindspore.Tensor.amax takes these keywords under other names: "
                                             "dim→axis.")
    assert "under other names" not in found[(3, 29)].message()
    assert "关键字参数名称不同：dim→axis" in found[(3, 14)].message("zh")
