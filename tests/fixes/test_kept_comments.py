"""Comments and layout inside rewritten calls are kept (issue 24, item 7): ``nn.Sequential(...)`` →
``SequentialCell([...])`` keeps the comments between the layers; an argument the plan drops
(``nn.LeakyReLU(0.2,  # slope`` ↵ ``True)``) takes its comma, not the comment of the argument before it; one
alone on its line takes that line; keywords the plan adds to a call whose ``)`` has its own line get a line
each (``pad_mode='pad',``); separate sizes written as one tuple keep their comments. Both tables; the fixed
program runs in MindSpore, where torch cannot be imported, with torch's results."""

from __future__ import annotations

import pytest
from program_support import needs_frameworks, run_program

from msmigrate.fixes.api import fix_all
from msmigrate.knowledge.base import get_knowledge_base

DATA = "[[[[0.5, -1.0, 2.0, 1.0], [1.5, 0.25, -0.75, 3.0]], [[3.0, 1.0, -2.0, 0.5], [0.0, 4.0, 1.0, -1.5]]]]"
SOURCE = (
    "import torch\n"
    "import torch.nn as nn\n\n"
    f"x = torch.tensor({DATA})\n"
    "features = nn.Sequential(\n"
    "    # stem\n"
    "    nn.MaxPool2d(2, 2),  # halves H and W\n"
    "    nn.LeakyReLU(0.2,  # slope\n"
    "                 True),\n"
    "    # head\n"
    "    nn.Flatten(),\n"
    ")\n"
    "act = nn.ReLU(\n"
    "    True  # in place\n"
    ")\n"
    "act2 = nn.ReLU(True)  # inline\n"
    "conv = nn.Conv2d(\n"
    "    2,  # in\n"
    "    4,  # out\n"
    "    3,\n"
    "    bias=False,  # no bias\n"
    ")\n"
    "total = torch.sum(\n"
    "    x,  # values\n"
    "    1,  # channels\n"
    "    keepdim=True,\n"
    ")\n"
    "grid = torch.zeros(\n"
    "    2,  # rows\n"
    "    3,  # columns\n"
    ")\n"
    "result = [features(x), act(x), act2(x), conv.weight.shape, total, grid]\n"
)

FIXED_26 = (
    "import mindspore\n\n"
    f"x = mindspore.tensor({DATA})\n"
    "features = mindspore.nn.SequentialCell([\n"
    "    # stem\n"
    "    mindspore.nn.MaxPool2d(2, 2),  # halves H and W\n"
    "    mindspore.nn.LeakyReLU(0.2  # slope\n"
    "                 ),\n"
    "    # head\n"
    "    mindspore.nn.Flatten(),\n"
    "])\n"
    "act = mindspore.mint.nn.ReLU(\n"
    ")\n"
    "act2 = mindspore.mint.nn.ReLU()  # inline\n"
    "conv = mindspore.nn.Conv2d(\n"
    "    2,  # in\n"
    "    4,  # out\n"
    "    3,\n"
    "    has_bias=False,  # no bias\n"
    "    pad_mode='pad',\n"
    ")\n"
    "total = mindspore.mint.sum(\n"
    "    x,  # values\n"
    "    1,  # channels\n"
    "    keepdim=True,\n"
    ")\n"
    "grid = mindspore.mint.zeros(\n"
    "    (2,  # rows\n"
    "    3),  # columns\n"
    ")\n"
    "result = [features(x), act(x), act2(x), conv.weight.shape, total, grid]\n"
)
# the 2.4 table: nn.ReLU, ops.sum and ops.zeros (mint's are the 2.6 table's); the layout is the same
FIXED_24 = (FIXED_26.replace("mindspore.mint.nn.ReLU", "mindspore.nn.ReLU")
            .replace("mindspore.mint.sum", "mindspore.ops.sum")
            .replace("mindspore.mint.zeros", "mindspore.ops.zeros"))
FIXED = {"2.6": FIXED_26, "2.4": FIXED_24}


@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_comments_and_layout_inside_rewritten_calls_are_kept(version: str) -> None:
    fixed, _applied = fix_all(SOURCE, "m.py", get_knowledge_base(version), device="CPU")
    assert fixed == FIXED[version]


def test_arguments_dropped_between_others_keep_the_comments_around_them() -> None:
    source = (
        "import torch.nn as nn\n"
        "a = nn.Hardtanh(0.0,  # low\n"
        "                6.0,  # high\n"
        "                True)\n"
        "b = nn.LeakyReLU(\n"
        "    0.1,  # slope\n"
        "    True,  # in place\n"
        ")\n"
        "c = nn.ELU(1.0, True)  # elu\n"
    )
    fixed, _applied = fix_all(source, "m.py", get_knowledge_base("2.6"), device="CPU")
    assert fixed == (
        "import mindspore\n"
        "a = mindspore.nn.Hardtanh(0.0,  # low\n"
        "                6.0  # high\n"
        "                )\n"
        "b = mindspore.nn.LeakyReLU(\n"
        "    0.1,  # slope\n"
        ")\n"
        "c = mindspore.nn.ELU(1.0)  # elu\n"
    )


@needs_frameworks
@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_the_fixed_program_computes_what_torch_does(version: str) -> None:
    outcome = run_program(version, "comments", "torch.nn.Sequential", "nn", SOURCE)
    assert (outcome.status, outcome.detail, outcome.fixed_source) == ("pass", "", FIXED[version])
