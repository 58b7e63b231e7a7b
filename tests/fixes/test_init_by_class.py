"""MSM503 on a parameter of cells whose MindSpore classes name it differently (torchvision's ResNet,
MobileNet and EfficientNet: ``isinstance(m, (nn.BatchNorm2d, nn.GroupNorm))`` → ``ones_(m.weight)``; on
CPU the BatchNorm's is ``gamma``, mint's GroupNorm's ``weight``): one ``set_data`` per name. The exact
fixed source, and the fixed model run against torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.gn = nn.GroupNorm(2, 4)
        for m in self.modules():
            if isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 0.5)
                nn.init.zeros_(m.bias)  # a comment

    def forward(self, x):
        return self.gn(self.bn(self.conv(x)))
'''
I_ = "mindspore.common.initializer"
FIXED = f'''\
import ms_compat
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = mindspore.nn.Conv2d(3, 4, 3, has_bias=True, pad_mode='pad')
        self.bn = mindspore.nn.BatchNorm2d(4)
        self.gn = mindspore.mint.nn.GroupNorm(2, 4)
        for m in ms_compat.modules(self):
            if isinstance(m, (mindspore.nn.BatchNorm2d, mindspore.mint.nn.GroupNorm)):
                if isinstance(m, mindspore.nn.BatchNorm2d):
                    m.gamma.set_data({I_}.initializer({I_}.Constant(0.5), m.gamma.shape, m.gamma.dtype))
                else:
                    m.weight.set_data({I_}.initializer({I_}.Constant(0.5), m.weight.shape, m.weight.dtype))
                if isinstance(m, mindspore.nn.BatchNorm2d):
                    m.beta.set_data({I_}.initializer({I_}.Zero(), m.beta.shape, m.beta.dtype))
                else:
                    m.bias.set_data({I_}.initializer({I_}.Zero(), m.bias.shape, m.bias.dtype))  # a comment

    def construct(self, x):
        return self.gn(self.bn(self.conv(x)))
'''


def test_one_set_data_per_parameter_name(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_model_initializes_as_torch(tmp_path: Path) -> None:
    # the initialized parameters by torch's names (the conv's are random: not compared)
    expression = ("[p for n, p in sorted(named(Net()), key=lambda np: np[0]) if not n.startswith('conv')"
                  " and n.endswith(('weight', 'bias'))]")
    setup = {
        "torch": "def named(m):\n    return [(n, p.detach()) for n, p in m.named_parameters()]\n",
        "mindspore": "TORCH_NAMES = {'gamma': 'weight', 'beta': 'bias'}\n\n\ndef named(m):\n"
                     "    return [(n.rpartition('.')[0] + '.' + TORCH_NAMES.get(n.rpartition('.')[2],"
                     " n.rpartition('.')[2]), p) for n, p in m.parameters_and_names()]\n",
    }
    assert_same(run_both(tmp_path, TORCH, expression, setup=setup), 0.0)
