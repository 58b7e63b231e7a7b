"""MSM708: ``empty``/``empty_like`` given a device known while compiling, in code GRAPH_MODE compiles (met on
segment-anything's PromptEncoder once its Parameter ``.device`` is gone). Flagged in torch ``forward`` and
MindSpore ``construct`` and what they call; the last test compiles each MindSpore form under MindSpore
2.10 on CPU: the flagged ones stop with MindSpore's message, the others (no device, None, an input's
device) compile."""

from __future__ import annotations

import textwrap

import pytest
from graph_probe import compile_net, needs_mindspore

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph._family import graph_findings

TORCH = """import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.place = "cpu"

    def forward(self, x):
{body}
"""
MS = """import mindspore as ms
import mindspore.nn as nn
from mindspore import mint


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.place = "CPU"

    def construct(self, x):
{body}
"""

# body (torch spelling; "torch." → "mint." for MindSpore) -> flagged
BODIES: dict[str, bool] = {
    "e = torch.empty((2, 3), device=self.place)\nreturn e * 0 + x": True,
    "e = torch.empty_like(x, device=self.place)\nreturn e * 0 + x": True,
    "e = torch.empty((2, 3), device=self._where())\nreturn e * 0 + x": True,
    "e = torch.empty((2, 3), device='cpu' if x is None else 'CPU')\nreturn e * 0 + x": True,
    "e = torch.empty((2, 3), device=x.device)\nreturn e * 0 + x": False,  # an input's device compiles
    "e = torch.empty((2, 3))\nreturn e * 0 + x": False,
    "e = torch.empty((2, 3), device=None)\nreturn e * 0 + x": False,
    "e = torch.empty((2, 3), device='Ascend')\nreturn e * 0 + x": False,
}


def _source(head: str, body: str, torch: str = "torch") -> str:
    helper = "\n    def _where(self):\n        return self.place\n"
    return head.format(body=textwrap.indent(body.replace("torch.", f"{torch}."), " " * 8)) + helper


def _flagged(findings) -> list[tuple[str, str]]:  # noqa: ANN001
    return [(f.message_args["name"], f.message_args["function"]) for f in findings if f.rule == "MSM708"]


@pytest.mark.parametrize("body", list(BODIES))
def test_forward_of_a_torch_module(analyze, body: str) -> None:  # noqa: ANN001
    name = "torch.empty_like" if "empty_like" in body else "torch.empty"
    found = _flagged(analyze(_source(TORCH, body)).findings)
    assert found == ([(name, "Net.forward")] if BODIES[body] else [])


@pytest.mark.parametrize("body", list(BODIES))
def test_construct_of_a_mindspore_cell(body: str) -> None:
    name = "mindspore.mint.empty_like" if "empty_like" in body else "mindspore.mint.empty"
    found = _flagged(graph_findings(_source(MS, body, "mint"), "m.py", get_knowledge_base("2.6")))
    assert found == ([(name, "Net.construct")] if BODIES[body] else [])


def test_a_helper_called_from_forward_is_flagged_and_the_message_is_in_both_languages(analyze) -> None:  # noqa: ANN001
    source = _source(TORCH, "return self._pad(x)") + (
        "\n    def _pad(self, x):\n        return torch.cat([torch.empty((1, 0), device=self.place), x], 1)\n"
    )
    (finding,) = [f for f in analyze(source).findings if f.rule == "MSM708"]
    assert (finding.line, finding.column, finding.severity.value) == (17, 47, "warning")
    assert finding.message("en") == (
        "torch.empty(..., device=...) in Net._pad: GRAPH_MODE accepts only 'Ascend' or 'npu' as its device "
        "(\"For 'Empty', the device must be 'Ascend' or 'npu' in GRAPH mode\"); drop device="
    )
    assert finding.message("zh") == (
        "Net._pad 中的 torch.empty(..., device=...)：GRAPH_MODE 只接受 'Ascend' 或 'npu' 作为其设备"
        "（\"For 'Empty', the device must be 'Ascend' or 'npu' in GRAPH mode\"）；请删除 device="
    )


@pytest.mark.slow
@needs_mindspore
@pytest.mark.parametrize("body", [b for b in BODIES if "Ascend" not in b])  # 'Ascend' runs on Ascend only
def test_every_flagged_form_fails_to_compile_and_every_other_compiles(tmp_path, body: str) -> None:  # noqa: ANN001
    op = "EmptyLike" if "empty_like" in body else "Empty"
    refused = f"For '{op}', the device must be 'Ascend' or 'npu' in GRAPH mode."
    assert compile_net(tmp_path, _source(MS, body, "mint")) == {
        "pynative": [2, 3], "graph": refused if BODIES[body] else [2, 3]}
