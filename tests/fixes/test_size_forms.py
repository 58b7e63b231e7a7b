"""Item 3 of issue 24 beyond ``test_packed_sizes.py``: the other calls real code passes sizes to as
separate arguments (``empty``, ``rand``, ``randn``, ``new_empty``, ``reshape``, ``expand``, ``tile``,
``view``) and as one tuple (``randint``, ``full``), ``x.size(1)`` and ``nn.Parameter(x, False)`` (torch's
second positional parameter is ``requires_grad``; MindSpore's ``Parameter(default_input, *args, **kwargs)``
would read it as ``name``: it is passed by keyword). The exact rewritten source on both tables, the safety
of each, and a MindSpore run, where torch cannot be imported, that gives torch's results (shapes for random
and uninitialized values)."""

from __future__ import annotations

import pytest
from program_support import needs_frameworks, run_program

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.fixes.api import fix_all
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base

SOURCE = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n"
    "n = 2\n"
    "a = torch.empty(n, 3)\n"
    "b = torch.rand(2, 3)\n"
    "c = torch.randn(2, n)\n"
    "d = torch.randint(0, 5, (2, 3))\n"
    "e = torch.full((2, 3), 1.5)\n"
    "f = x.new_empty(3, 2)\n"
    "g = x.reshape(3, 2)\n"
    "h = x.expand(2, 2, 3)\n"
    "i = x.tile(2, 1)\n"
    "j = x.view(-1)\n"
    "k = x.size(1)\n"
    "w = nn.Parameter(x, False)\n"
    "result = [a.shape, b.shape, c.shape, d.shape, e, f.shape, g, h, i, j, k, w, w.requires_grad]\n"
)
FIXED_26 = (
    "import mindspore\n"
    "\n"
    "x = mindspore.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n"
    "n = 2\n"
    "a = mindspore.mint.empty(n, 3)\n"
    "b = mindspore.ops.rand(2, 3)\n"
    "c = mindspore.ops.randn(2, n)\n"
    "d = mindspore.ops.randint(0, 5, (2, 3))\n"
    "e = mindspore.numpy.full((2, 3), 1.5)\n"
    "f = x.new_empty((3, 2))\n"
    "g = x.reshape(3, 2)\n"
    "h = x.broadcast_to(2, 2, 3)\n"
    "i = x.tile((2, 1))\n"
    "j = x.view(-1)\n"
    "k = x.shape[1]\n"
    "w = mindspore.Parameter(x, requires_grad=False)\n"
    "result = [a.shape, b.shape, c.shape, d.shape, e, f.shape, g, h, i, j, k, w, w.requires_grad]\n"
)
# the 2.4 table writes ops.full with torch's default dtype (mindspore.numpy.full on 2.6)
FIXED_24 = FIXED_26.replace("e = mindspore.numpy.full((2, 3), 1.5)",
                            "e = mindspore.ops.full((2, 3), 1.5, dtype=mindspore.float32)")
FIXED = {"2.6": FIXED_26, "2.4": FIXED_24}


@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_sizes_sizes_and_parameters_as_real_code_writes_them(version: str) -> None:
    kb = get_knowledge_base(version)
    assert fix_all(SOURCE, "m.py", kb, device="CPU")[0] == FIXED[version]
    findings = analyze_source(SOURCE, "m.py", kb, AnalysisOptions(device="CPU")).findings
    written = [f for f in findings if f.resolution is not None and f.resolution.write.value != "none"]
    assert len(written) == 11  # x.reshape(3, 2) and x.view(-1) stay as they are
    unsafe = sorted({f.torch_api for f in written if not is_safe(f)})
    assert unsafe == ["torch.full"]  # its equivalence check failed on CPU: applied with --unsafe-fixes only
    [parameter] = [f for f in findings if f.torch_api == "torch.nn.Parameter"]
    assert parameter.resolution.plan.to_keyword == ((1, "requires_grad"),)


@needs_frameworks
@pytest.mark.parametrize("version", ["2.6", "2.4"])
def test_the_fixed_program_computes_what_torch_does(version: str) -> None:
    outcome = run_program(version, "size_forms", "torch.empty", "torch", SOURCE)
    assert (outcome.status, outcome.detail, outcome.fixed_source) == ("pass", "", FIXED[version])
