"""A module made by a function of another file of the project, then called: its result is a tensor.

pytorchcv 0.0.74 builds layers with factories of ``common/conv.py`` (``def conv1x1(...) -> nn.Module:``,
parameters over several lines) and calls them from the model's file: ``self.output = conv1x1(...)``, then
``x = self.output(x)`` and ``x.view(x.size(0), -1)`` (``dla.py`` DLA.forward). ``x`` is the convolution's
output, a tensor; ``x.size(0)`` is torch's ``Tensor.size`` (a MindSpore Tensor's ``size`` is the element
count, an int: calling it raises ``TypeError: 'int' object is not callable``). A factory without an
annotation says nothing of its result: the call is then a possible Tensor API, not silently left out.
"""

from __future__ import annotations

from pathlib import Path

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.analysis.project_classes import class_headers, module_class_index
from msmigrate.fixes.project import FixOptions, fix_paths
from msmigrate.knowledge.base import get_knowledge_base

# the shapes of pytorchcv's common/conv.py headers (several lines, a default with brackets and a call)
CONV = '''\
import torch.nn as nn


def conv1x1(in_channels: int,
            out_channels: int,
            stride: int | tuple[int, int] = 1,
            groups: int = 1,
            bias: bool = False) -> nn.Module:
    return nn.Conv2d(in_channels, out_channels, 1, stride=stride, groups=groups, bias=bias)


def conv_block(channels: int, activation=(lambda: nn.ReLU(inplace=True))) -> "ConvBlock":
    return ConvBlock(channels, activation)


def channels_of(width: float) -> int:
    return int(width * 64)


def make_linear(n):
    return nn.Linear(n, n)


class ConvBlock(nn.Module):
    pass
'''

NET = '''\
import torch.nn as nn
from .conv import conv1x1, make_linear


class DLA(nn.Module):
    def __init__(self):
        super().__init__()
        self.output = conv1x1(in_channels=4, out_channels=10, bias=True)
        self.head = make_linear(10)

    def forward(self, x):
        x = self.output(x)
        x = x.view(x.size(0), -1)
        return self.head(x).size(1)
'''


def test_annotated_top_level_functions_returning_a_module_are_indexed():
    assert class_headers(CONV) == [["ConvBlock", ["nn.Module"]], ["conv1x1", ["nn.Module"]],
                                   ["conv_block", ["ConvBlock"]], ["channels_of", ["int"]]]
    index = module_class_index([("pkg/common/conv.py", CONV), ("pkg/dla.py", NET)])
    assert index == frozenset({
        "pkg.common.conv.ConvBlock", "common.conv.ConvBlock", "conv.ConvBlock",
        "pkg.common.conv.conv1x1", "common.conv.conv1x1", "conv.conv1x1",
        "pkg.common.conv.conv_block", "common.conv.conv_block", "conv.conv_block", "pkg.dla.DLA", "dla.DLA",
    })  # channels_of returns an int; make_linear has no annotation


def test_a_module_of_an_imported_factory_gives_a_tensor_and_an_unannotated_one_a_possible_tensor():
    kb = get_knowledge_base("2.6")
    index = module_class_index([("pkg/conv.py", CONV)])
    options = AnalysisOptions(use_jedi=False, module_classes=index)
    result = analyze_source(NET, "pkg/dla.py", kb, options)
    found = [(f.line, f.column, f.torch_api, f.rule) for f in result.findings
             if f.torch_api in ("torch.Tensor.size", "torch.Tensor.view")]
    # line 13: x is conv1x1's module's output, a tensor; line 14: make_linear's result is not known (MSM102)
    assert found == [(13, 15, "torch.Tensor.view", "MSM100"), (13, 22, "torch.Tensor.size", "MSM101"),
                     (14, 29, "torch.Tensor.size", "MSM102")]


def test_fix_writes_the_shape_for_the_size_of_a_factory_made_modules_output(tmp_path: Path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "conv.py").write_text(CONV, encoding="utf-8")
    (package / "dla.py").write_text(NET, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=True))
    fixed = (package / "dla.py").read_text(encoding="utf-8")
    assert "        x = x.view(x.shape[0], -1)\n" in fixed
