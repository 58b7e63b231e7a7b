"""Dtypes, tensor properties and ``torch.is_tensor`` replaced by ``msmigrate fix`` (safe fixes only): their
derived 2.6 mappings passed the numeric check on CPU (a cast to the dtype, the property read on a tensor,
the predicate called on a tensor and on a list); float8, whose cast MindSpore cannot run on CPU, stays."""

from __future__ import annotations

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.project import FixOptions, fix_source
from msmigrate.fixes.safety import is_safe

SOURCE = (
    "import torch\n"
    "\n"
    "x = torch.ones(2, 3, dtype=torch.complex64)\n"
    "y = torch.ones(2, 3)\n"
    "parts = (x.real, y.mT, y.numel())\n"
    "h = y.to(torch.float8_e4m3fn)\n"
    "if not torch.is_tensor(h) or h.dtype in (torch.float16, torch.bfloat16):\n"
    "    h = torch.zeros(3, dtype=torch.long)\n"
)
FIXED = (
    "import torch\n"
    "import mindspore\n"
    "\n"
    "x = mindspore.mint.ones((2, 3), dtype=mindspore.complex64)\n"
    "y = mindspore.mint.ones((2, 3))\n"
    "parts = (x.real(), y.mT, y.numel())\n"
    "h = y.to(torch.float8_e4m3fn)\n"
    "if not mindspore.ops.is_tensor(h) or h.dtype in (mindspore.float16, mindspore.bfloat16):\n"
    "    h = mindspore.mint.zeros(3, dtype=mindspore.long)\n"
)


def test_checked_dtypes_properties_and_is_tensor_are_fixed_safely(kb26) -> None:
    new, record = fix_source(SOURCE.encode(), "m.py", kb26, FixOptions(mindspore_version="2.6"))
    assert new is not None and new.decode() == FIXED
    # left: the float8 dtype only ("Select CPU operator[Cast] fail")
    left = [(f.torch_api, f.line) for f in record.remaining if f.category.value == "consistent"]
    assert left == [("torch.float8_e4m3fn", 7)]


def test_safety_follows_the_derived_check(kb26) -> None:
    findings = {f.torch_api: f for f in analyze_source(SOURCE, "m.py", kb26).findings}
    for api in ("torch.complex64", "torch.float16", "torch.bfloat16", "torch.long", "torch.is_tensor",
                "torch.Tensor.real"):
        assert is_safe(findings[api], kb26) is True, api
    assert is_safe(findings["torch.float8_e4m3fn"], kb26) is False
