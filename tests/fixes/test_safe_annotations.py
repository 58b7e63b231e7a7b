"""Annotations in safe mode: a string annotation's torch names (torchvision's ViT:
``"OrderedDict[str, torch.Tensor]"``, MSM104) and the values of ``X.__annotations__ = {...}`` (torchvision's
GoogLeNetOutputs) name types and compute nothing, so ``msmigrate fix`` rewrites them without
``--unsafe-fixes``. The exact rewritten source; the usages' kinds."""

from __future__ import annotations

from pathlib import Path

from run_support import fixed

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import get_knowledge_base

TORCH = '''\
from collections import OrderedDict, namedtuple
from typing import Optional

import torch
from torch import Tensor

Outputs = namedtuple("Outputs", ["logits", "aux"])
Outputs.__annotations__ = {"logits": Tensor, "aux": Optional[torch.Tensor]}
kinds = {"logits": Tensor}


def interpolate(state: "OrderedDict[str, torch.Tensor]") -> "OrderedDict[str, torch.Tensor]":
    kept: "OrderedDict[str, torch.Tensor]" = OrderedDict()
    return kept
'''
FIXED = '''\
from collections import OrderedDict, namedtuple
from typing import Optional

from torch import Tensor
import mindspore

Outputs = namedtuple("Outputs", ["logits", "aux"])
Outputs.__annotations__ = {"logits": mindspore.Tensor, "aux": Optional[mindspore.Tensor]}
kinds = {"logits": Tensor}


def interpolate(state: "OrderedDict[str, mindspore.Tensor]") -> "OrderedDict[str, mindspore.Tensor]":
    kept: "OrderedDict[str, mindspore.Tensor]" = OrderedDict()
    return kept
'''


def test_annotations_are_rewritten_by_safe_fixes(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH, unsafe=False) == FIXED
    result = analyze_source(TORCH, "model.py", get_knowledge_base("2.6"))
    usages = [(f.line, f.rule, f.usage.value) for f in result.findings if f.torch_api == "torch.Tensor"]
    # a dict that is not __annotations__ may be called: its Tensor is a value, unsafe to rename
    assert usages == [(8, "MSM100", "reference"), (8, "MSM100", "reference"), (9, "MSM100", "attribute")]
    strings = [(f.line, f.message_key) for f in result.findings if f.rule == "MSM104"]
    assert strings == [(12, "finding.MSM104.string")] * 2 + [(13, "finding.MSM104.string")]
