"""Fixes that keep what the torch code computes where MindSpore means a parameter otherwise: BatchNorm's
momentum (1 - torch's), pools' pad_mode, nn.init calls (initializers, parameter names of cells),
modules()/children(), checkpoint loading, and the torch imports left after them."""

from __future__ import annotations

import pytest

from msmigrate.fixes.api import fix_all
from msmigrate.fixes.torch_imports import unused_torch_import_edits
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.cell_parameters import parameter_name
from msmigrate.knowledge.param_facts import mindspore_value


def _body(source: str, kb) -> list[str]:
    new, _applied = fix_all(source, "m.py", kb)
    return [line for line in new.splitlines() if line and not line.startswith("import ")]


def test_momentum_values_are_converted_to_mindspores_meaning():
    assert mindspore_value("mindspore.nn.BatchNorm2d", "momentum", "0.1") == "0.9"
    assert mindspore_value("mindspore.nn.SyncBatchNorm", "momentum", "0.01") == "0.99"
    assert mindspore_value("mindspore.nn.BatchNorm1d", "momentum", "self.m") == "1 - self.m"
    assert mindspore_value("mindspore.nn.BatchNorm1d", "momentum", "a + b") == "1 - (a + b)"
    assert mindspore_value("mindspore.nn.BatchNorm1d", "momentum", "None") is None
    assert mindspore_value("mindspore.mint.nn.BatchNorm2d", "momentum", "0.1") == "0.1"  # torch's meaning
    assert mindspore_value("mindspore.nn.InstanceNorm2d", "momentum", "0.1") == "0.1"
    assert mindspore_value("mindspore.nn.BatchNorm2d", "use_batch_statistics", "True") == "None"
    assert mindspore_value("mindspore.nn.BatchNorm2d", "use_batch_statistics", "False") == "True"
    assert mindspore_value("mindspore.nn.BatchNorm2d", "use_batch_statistics", "flag") is None


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_batchnorm_momentum_fix(version):
    source = ("import torch.nn as nn\n"
              "a = nn.BatchNorm2d(8)\n"
              "b = nn.BatchNorm2d(8, momentum=0.01)\n"
              "c = nn.BatchNorm2d(8, 1e-3, 0.2)\n"
              "d = nn.BatchNorm1d(8, momentum=m)\n"
              "e = nn.BatchNorm3d(8, momentum=None)\n"
              "f = nn.BatchNorm2d(8, track_running_stats=False)\n"
              "g = nn.BatchNorm2d(8, track_running_stats=True)\n")
    # 2.6 maps to mint.nn.BatchNorm* (no CPU kernel): the fix writes 2.4's nn.BatchNorm* either way
    assert _body(source, get_knowledge_base(version)) == [
        "a = mindspore.nn.BatchNorm2d(8)",  # torch's 0.1 is MindSpore's default 0.9: nothing to add
        "b = mindspore.nn.BatchNorm2d(8, momentum=0.99)",
        "c = mindspore.nn.BatchNorm2d(8, 1e-3, 0.8)",
        "d = mindspore.nn.BatchNorm1d(8, momentum=1 - m)",
        "e = nn.BatchNorm3d(8, momentum=None)",  # a cumulative average: no MindSpore value means it
        # batch statistics always (MindSpore's False would mean the moving ones always)
        "f = mindspore.nn.BatchNorm2d(8, use_batch_statistics=True)",
        "g = mindspore.nn.BatchNorm2d(8, use_batch_statistics=None)",
    ]


def test_batchnorm_finding_states_the_converted_value(kb24):
    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.i18n import t

    found = analyze_source("import torch.nn as nn\nb = nn.BatchNorm2d(8, momentum=0.01)\n", "m.py",
                           kb24).findings
    (finding,) = [f for f in found if f.torch_api == "torch.nn.BatchNorm2d"]
    text = t(finding.message_key, "en", **finding.message_args)
    assert text == ("torch.nn.BatchNorm2d → mindspore.nn.BatchNorm2d (MindSpore means these values "
                    "otherwise; written in its meaning: momentum=0.01 → 0.99; see the difference page).")


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_pool_padding_needs_pad_mode_and_stride_defaults_to_kernel_size(version):
    source = ("import torch.nn as nn\n"
              "f = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)\n"
              "g = nn.MaxPool2d(2, 2)\n"
              "h = nn.MaxPool2d(2)\n"
              "i = nn.AvgPool1d(kernel_size=(3,), padding=1)\n"
              "j = nn.AvgPool3d(self.k)\n")
    assert _body(source, get_knowledge_base(version)) == [
        "f = mindspore.nn.MaxPool2d(kernel_size=3, stride=2, padding=1, pad_mode='pad')",
        "g = mindspore.nn.MaxPool2d(2, 2)",
        "h = mindspore.nn.MaxPool2d(2, stride=2)",  # torch's stride is kernel_size, MindSpore's 1
        "i = mindspore.nn.AvgPool1d(kernel_size=(3,), padding=1, pad_mode='pad', stride=(3,))",
        "j = mindspore.nn.AvgPool3d(self.k, stride=self.k)",
    ]


def test_cell_parameter_names():
    assert parameter_name("mindspore.nn.BatchNorm2d", "weight") == "gamma"
    assert parameter_name("mindspore.nn.BatchNorm2d", "running_var") == "moving_variance"
    assert parameter_name("mindspore.nn.Conv2d", "weight") == "weight"
    assert parameter_name("mindspore.mint.nn.GroupNorm", "weight") == "weight"


INIT = """import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 2)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.bias, 0)
        for m in self.modules():
            if isinstance(m, Block):
                nn.init.zeros_(m.bn.weight)
        nn.init.normal_(self.fc.weight, std=0.01)
        nn.init.normal_(self.fc.bias)
        nn.init.ones_(self.bn.weight)
        nn.init.uniform_(self.fc.bias, -bound, bound)
        children = list(self.children())
"""


def test_init_calls_become_initializers(kb26):
    init = "mindspore.common.initializer"
    body = _body(INIT, kb26)
    assert body[5:] == [
        "        for m in ms_compat.modules(self):",
        "            if isinstance(m, mindspore.nn.Conv2d):",
        f'                m.weight.set_data({init}.initializer({init}.HeNormal(mode="fan_out", '
        'nonlinearity="relu"), m.weight.shape, m.weight.dtype))',
        "            elif isinstance(m, mindspore.nn.BatchNorm2d):",
        f"                m.gamma.set_data({init}.initializer({init}.Constant(1), m.gamma.shape, "
        "m.gamma.dtype))",
        # a BatchNorm calls it beta, MindSpore 2.6's mint GroupNorm bias: one set_data per name
        "            elif isinstance(m, (mindspore.nn.BatchNorm2d, mindspore.mint.nn.GroupNorm)):",
        "                if isinstance(m, mindspore.nn.BatchNorm2d):",
        f"                    m.beta.set_data({init}.initializer({init}.Constant(0), m.beta.shape, "
        "m.beta.dtype))",
        "                else:",
        f"                    m.bias.set_data({init}.initializer({init}.Constant(0), m.bias.shape, "
        "m.bias.dtype))",
        "        for m in ms_compat.modules(self):",
        "            if isinstance(m, Block):",
        f"                m.bn.gamma.set_data({init}.initializer({init}.Zero(), m.bn.gamma.shape, "
        "m.bn.gamma.dtype))",
        # torch's std defaults to 1.0, MindSpore's sigma to 0.01: passed explicitly
        f"        self.fc.weight.set_data({init}.initializer({init}.Normal(sigma=0.01), "
        "self.fc.weight.shape, self.fc.weight.dtype))",
        f"        self.fc.bias.set_data({init}.initializer({init}.Normal(sigma=1.0), self.fc.bias.shape, "
        "self.fc.bias.dtype))",
        # self.bn is a BatchNorm2d (assigned in this class): its weight is gamma
        f"        self.bn.gamma.set_data({init}.initializer({init}.One(), self.bn.gamma.shape, "
        "self.bn.gamma.dtype))",
        # U(-bound, bound) is Uniform(scale=bound)
        f"        self.fc.bias.set_data({init}.initializer({init}.Uniform(scale=bound), self.fc.bias.shape, "
        "self.fc.bias.dtype))",
        "        children = list(self.cells())",
    ]


def test_init_of_a_plain_tensor_assigns_its_value(kb26):
    # a name may hold a plain Tensor, which has no set_data: assign_value fills it (a Parameter too)
    init = "mindspore.common.initializer"
    body = _body("import torch\nw = torch.empty(3, 5)\ntorch.nn.init.ones_(w)\n", kb26)
    assert body[-1] == f"w.assign_value({init}.initializer({init}.One(), w.shape, w.dtype).init_data())"


def test_checkpoint_loading(kb26):
    source = ("import torch\n"
              "sd = torch.load(path, map_location='cpu')\n"
              "net.load_state_dict(sd)\n"
              "net.load_state_dict(sd, strict=False)\n"
              "other = torch.load(path, pickle_module=p)\n")
    assert _body(source, kb26)[:3] == [
        "sd = mindspore.load_checkpoint(path)",
        "mindspore.load_param_into_net(net, sd, strict_load=True)",
        "mindspore.load_param_into_net(net, sd, strict_load=False)",
    ]
    assert _body(source, kb26)[3] == "other = torch.load(path, pickle_module=p)"
    _new, applied = fix_all(source, "m.py", kb26)
    titles = {fix.title("en"): fix.title("zh") for fix in applied if fix.rule == "MSM512"}
    assert titles == {
        "Rewrite with mindspore.load_checkpoint; the file must be a MindSpore checkpoint: convert the torch "
        "file once with msmigrate convert-weights FILE -o FILE.ckpt --model <migrated model>":
        "改写为 mindspore.load_checkpoint；该文件必须是 MindSpore 检查点：请先用 msmigrate convert-weights "
        "FILE -o FILE.ckpt --model <迁移后的模型> 转换一次 torch 文件",
        "Rewrite with mindspore.load_param_into_net": "改写为 mindspore.load_param_into_net",
    }


def test_a_docstring_naming_torch_keeps_no_import():
    source = '"""Uses ``torch.save``."""\nimport torch\n\n\ndef f():\n    """Like torch.load."""\n'
    assert [(e.line, e.new_text) for e in unused_torch_import_edits(source)] == [(2, "")]
    assert unused_torch_import_edits('import torch\n__all__ = ["torch"]\n') == []


def test_lookup_says_batchnorm_defaults_mean_the_same():
    from msmigrate.knowledge.lookup import lookup

    result = lookup("torch.nn.BatchNorm2d", get_knowledge_base("2.4"))
    notes = result.to_json("en")["notes"]
    assert ("Default of momentum: PyTorch 0.1, MindSpore 0.9, the same behaviour: MindSpore means its "
            "values otherwise (a value passed is converted by the quick-fix).") in notes
    assert not [n for n in notes if n.startswith("Default of momentum differs")]
    text = result.render_text("en", width=200)
    assert ("│ momentum            │ momentum             │ same default, values mean otherwise (0.1 → 0.9)"
            in text)
