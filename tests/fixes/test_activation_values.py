"""MSM205 for activation classes passed as a value (torchvision's ``activation_layer=nn.ReLU6`` in
MobileNetV2, ``nn.SiLU`` in EfficientNet, called with ``inplace=``): ``mindspore.nn.ReLU6`` takes no
``inplace`` and mint's in-place SiLU has no CPU kernel, so the value becomes the helper module's class with
torch's arguments. The exact fixed source, and the fixed model run against torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

TORCH = '''\
import torch.nn as nn


class Block(nn.Sequential):
    def __init__(self, activation_layer=nn.ReLU, inplace=True):
        params = {} if inplace is None else {"inplace": inplace}
        super().__init__(nn.Linear(4, 4), activation_layer(**params))


def make():
    return nn.Sequential(Block(), Block(nn.ReLU6), Block(nn.SiLU), Block(nn.Hardswish),
                         Block(activation_layer=nn.Hardsigmoid, inplace=None), nn.ReLU(inplace=True))
'''
FIXED = (
    "import ms_compat\n"
    "import mindspore\n\n\n"
    "class Block(mindspore.nn.SequentialCell):\n"
    "    def __init__(self, activation_layer=ms_compat.ReLU, inplace=True):\n"
    "        params = {} if inplace is None else {\"inplace\": inplace}\n"
    "        super().__init__(mindspore.mint.nn.Linear(4, 4), activation_layer(**params))\n\n\n"
    "def make():\n"
    "    return mindspore.nn.SequentialCell([Block(), Block(ms_compat.ReLU6), Block(ms_compat.SiLU), "
    "Block(ms_compat.Hardswish),\n"
    "                         Block(activation_layer=ms_compat.Hardsigmoid, inplace=None), "
    "mindspore.mint.nn.ReLU()])\n"
)

def test_activation_classes_passed_as_values(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH) == FIXED
    helpers = (tmp_path / "ms_compat.py").read_text(encoding="utf-8")
    assert [line for line in helpers.splitlines() if line.startswith("class ")] == [
        f"class {name}(mindspore.nn.Cell):" for name in ("Hardsigmoid", "Hardswish", "ReLU", "ReLU6", "SiLU")]


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_blocks_compute_as_torch(tmp_path: Path) -> None:
    # the same weights on both sides: each Linear's set to fixed values before the forward
    setup = {
        "torch": "import torch\n\n\ndef run(x):\n    m = make()\n    with torch.no_grad():\n"
                 "        for p in m.parameters():\n"
                 "            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape))\n"
                 "    return m(x * 4)\n",
        "mindspore": "import mindspore\n\n\ndef run(x):\n    m = make()\n    for p in m.get_parameters():\n"
                     "        p.set_data(mindspore.ops.linspace(-1.0, 1.0, p.size).reshape(p.shape))\n"
                     "    return m(x * 4)\n",
    }
    assert_same(run_both(tmp_path, TORCH, "run(t(3, 4))", setup=setup), 1e-5)
