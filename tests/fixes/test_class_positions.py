"""Arguments of classes passed by position (issue 24, item 3): the argument plan compares each position
with where it lands in the installed MindSpore signature: ``nn.ReLU(True)``, ``nn.LeakyReLU(0.2, True)``
pass ``inplace`` by position, which MindSpore lacks and which can be dropped (the values computed are the
same), so the fix drops it there as it does for ``inplace=True``; an argument landing on another MindSpore
parameter is passed by keyword (``nn.Dropout(0.1, True)`` → ``nn.Dropout(p=0.1)``). The fixed code runs in
MindSpore, where torch cannot be imported, with torch's results."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conversion"))
import harness  # noqa: E402

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)

LAYERS = ("nn.ReLU(True)", "nn.LeakyReLU(0.2, True)", "nn.Hardtanh(0, 6, True)", "nn.ELU(1.0, True)",
          "nn.ReLU6(True)", "nn.SiLU(True)", "nn.Hardswish(True)", "nn.Dropout(0.1, True)", "nn.Softmax(1)")
INPUT = "x = {}.tensor([[-2.0, -0.5, 0.0], [0.5, 3.0, 7.0]])\n"
# each layer gets a new tensor (x * 1.0), as real code's layers do: with inplace=True torch changes it;
# the dropout is compared in eval mode
CALLS = "m7.{}\n" + "".join(f"y{i} = m{i}(x * 1.0)\n" for i in range(len(LAYERS))) + "result = [{}]\n".format(
    ", ".join(f"y{i}" for i in range(len(LAYERS))))
SOURCE = "import torch\nimport torch.nn as nn\n\n" + INPUT.format("torch") + "".join(
    f"m{i} = {layer}\n" for i, layer in enumerate(LAYERS)) + CALLS.format("eval()")
# on CPU (2.6): the 2.4 table's nn.ReLU6 / nn.Dropout where mint's have no CPU kernel; mint.nn.SiLU
# without inplace=True (its in-place kernel InplaceSiLU has none)
WRITTEN = {
    "2.6": ("mindspore.mint.nn.ReLU()", "mindspore.nn.LeakyReLU(0.2)", "mindspore.nn.Hardtanh(0, 6)",
            "mindspore.nn.ELU(1.0)", "mindspore.nn.ReLU6()", "mindspore.mint.nn.SiLU()",
            "mindspore.mint.nn.Hardswish()", "mindspore.nn.Dropout(p=0.1)", "mindspore.mint.nn.Softmax(1)"),
    "2.4": ("mindspore.nn.ReLU()", "mindspore.nn.LeakyReLU(0.2)", "mindspore.nn.Hardtanh(0, 6)",
            "mindspore.nn.ELU(1.0)", "mindspore.nn.ReLU6()", "mindspore.nn.SiLU()",
            "mindspore.mint.nn.Hardswish()", "mindspore.nn.Dropout(p=0.1)", "mindspore.nn.Softmax(1)"),
}


def _expected(version: str) -> str:
    return "import mindspore\n\n" + INPUT.format("mindspore") + "".join(
        f"m{i} = {layer}\n" for i, layer in enumerate(WRITTEN[version])) + CALLS.format("set_train(False)")


@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_inplace_by_position_is_dropped_and_shifted_arguments_passed_by_keyword(version: str) -> None:
    fixed, _applied = fix_all(SOURCE, "m.py", get_knowledge_base(version))
    assert fixed == _expected(version)


def test_the_plan_the_message_and_the_safety_say_it() -> None:
    source = "import torch.nn as nn\na = nn.LeakyReLU(0.2, True)\nb = nn.Dropout(0.1, True)\n"
    findings = {f.line: f for f in analyze_source(source, "m.py", get_knowledge_base("2.4")).findings}
    leaky, dropout = findings[2], findings[3]
    assert leaky.resolution.plan.absent == ((1, "inplace"),)
    assert leaky.message("en") == (
        "torch.nn.LeakyReLU → mindspore.nn.LeakyReLU (MindSpore has no inplace (the value passed can be "
        "dropped); see the difference page).")
    plan = dropout.resolution.plan
    assert (plan.absent, plan.to_keyword) == (((1, "inplace"),), ((0, "p"),))
    assert "(p→keep_prob)" in dropout.message("en") and "inplace→" not in dropout.message("en")
    assert is_safe(leaky) and is_safe(dropout)  # verified on CPU; nothing blocks the rewrite any more


@needs_frameworks
@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_the_fixed_program_computes_what_torch_does(version: str) -> None:
    program = harness.Program("positions", "torch.nn.ReLU", "", "nn", SOURCE, {}, written=True)
    [outcome] = harness.run_suite(version, programs=[program]).outcomes
    assert (outcome.status, outcome.detail, outcome.fixed_source) == ("pass", "", _expected(version))
