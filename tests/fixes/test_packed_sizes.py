"""Sizes given as separate arguments (issue 24, item 3): torch reads ``torch.zeros(n, 51)``,
``x.new_zeros(2, 3)``, ``x.repeat(2, 1)`` as one ``*size``; a MindSpore target whose installed signature
takes one parameter there (``mindspore.mint.zeros(size)``, ``mindspore.ops.zeros(size, dtype)``,
``Tensor.tile(dims)``) gets them as one tuple, a target taking ``*shape`` (``Tensor.view``, ``ops.randn``)
as they are. The argument plan of the resolution says so (``ArgPlan.packed``): the message, the fix and
the safety agree, and the fixed code runs in MindSpore, where torch cannot be imported, with torch's
results."""

from __future__ import annotations

import pytest
from program_support import needs_frameworks, run_program

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.fixes.api import fix_all
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base

SOURCE = (
    "import torch\n\n"
    "n = 3\n"
    "shape = (2, 4)\n"
    "x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n"
    "a = torch.zeros(n, 5)\n"
    "b = torch.ones(2, 3, dtype=torch.float32)\n"
    "c = torch.zeros(*shape)\n"
    "d = torch.zeros(\n    2,  # rows\n    3,\n)\n"
    "e = torch.zeros((2, 3))\n"
    "f = torch.zeros(4)\n"
    "r = x.repeat(2, 1)\n"
    "q = x.new_zeros(2, 3)\n"
    "q1 = x.new_ones(2, 3)\n"
    "fl = x.flip(0, 1)\n"
    "v = x.view(3, 2)\n"
    "p = x.permute(1, 0)\n"
    "result = [a, b, c, d, e, f, r, q, q1, fl, v, p]\n"
)
FIXED_26 = (
    "import mindspore\n\n"
    "n = 3\n"
    "shape = (2, 4)\n"
    "x = mindspore.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n"
    "a = mindspore.mint.zeros((n, 5))\n"
    "b = mindspore.mint.ones((2, 3), dtype=mindspore.float32)\n"
    "c = mindspore.mint.zeros((*shape,))\n"
    "d = mindspore.mint.zeros(\n    (2,  # rows\n    3),\n)\n"
    "e = mindspore.mint.zeros((2, 3))\n"
    "f = mindspore.mint.zeros(4)\n"
    "r = x.tile((2, 1))\n"
    "q = x.new_zeros((2, 3))\n"
    "q1 = x.new_ones((2, 3))\n"
    "fl = x.flip((0, 1))\n"
    "v = x.view(3, 2)\n"
    "p = x.permute(1, 0)\n"
    "result = [a, b, c, d, e, f, r, q, q1, fl, v, p]\n"
)


def _fixed(source: str, version: str) -> str:
    fixed, _applied = fix_all(source, "m.py", get_knowledge_base(version))
    return fixed


def test_separate_sizes_become_one_tuple_where_the_target_takes_one() -> None:
    assert _fixed(SOURCE, "2.6") == FIXED_26
    # the 2.4 table's ops.zeros(size, dtype) would read the second size as the dtype
    assert _fixed("import torch\ny = torch.zeros(2, 3)\nz = torch.ones(2, 3)\n", "2.4") == (
        "import mindspore\ny = mindspore.ops.zeros((2, 3))\nz = mindspore.ops.ones((2, 3))\n")


def test_the_plan_the_message_and_the_safety_say_it() -> None:
    source = "import torch\na = torch.zeros(n, 51)\nb = torch.zeros((n, 51))\nc = torch.randn(n, 51)\n"
    kb = get_knowledge_base("2.6")
    findings = analyze_source(source, "m.py", kb, AnalysisOptions(device="CPU")).findings
    by_line = {f.line: f for f in findings if f.torch_api in ("torch.zeros", "torch.randn")}
    packed = by_line[2]
    assert packed.resolution is not None and packed.resolution.plan is not None
    assert packed.resolution.plan.packed == 0
    assert (packed.rule, packed.message("en")) == (
        "MSM101", "torch.zeros → mindspore.mint.zeros (torch takes these values as separate arguments, "
        "MindSpore as one tuple: (n, 51)).")
    assert packed.message("zh").endswith(
        "torch 将这些值作为多个参数传入，MindSpore 则接受一个元组：(n, 51)）。")
    assert is_safe(packed)  # the written call is the form the numeric check ran (verified on CPU)
    tupled, randn = by_line[3], by_line[4]
    assert (tupled.rule, tupled.resolution.plan.packed) == ("MSM100", None)
    assert randn.resolution.target == "mindspore.ops.randn" and randn.resolution.plan.packed is None


@needs_frameworks
@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_the_fixed_program_computes_what_torch_does(version: str) -> None:
    outcome = run_program(version, "sizes", "torch.zeros", "torch", SOURCE)
    assert (outcome.status, outcome.detail) == ("pass", "")
    if version == "2.6":
        assert outcome.fixed_source == FIXED_26
