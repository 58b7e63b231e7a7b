"""MSM710: a list compared with a number in code GRAPH_MODE compiles (met by ``msmigrate compare`` on
efficientnet_pytorch's MBConvBlock: ``self._block_args.stride == 1`` with ``stride=[1]``, guarding
``x = x + inputs``). Flagged in torch ``forward`` and MindSpore ``construct`` where the file shows the list;
the last test compiles a minimal reproduction of each form under MindSpore 2.10: every form runs in PyNative
mode without taking the branch; the flagged ones stop GRAPH_MODE at the branch's ``Add`` except the one form
MindSpore works out (``if self.stride == 1:``), the others (an element, a tuple, ``len``) compile."""

from __future__ import annotations

import textwrap

import pytest
from graph_probe import compile_net, needs_mindspore

from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.rules.graph._family import graph_findings

TORCH = """import collections
import torch.nn as nn

Args = collections.namedtuple("Args", ["stride"])


def decode():
    return Args(stride=[1])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stride = [1]
        self.pair = (1,)
        self.args = decode()

    def forward(self, x):
        y = x[:, :2]
{body}
        return y
"""
MS = TORCH.replace("import torch.nn as nn", "import mindspore.nn as nn").replace(
    "(nn.Module)", "(nn.Cell)").replace("def forward(", "def construct(")

# the test guarding ``y = y + x`` (shapes (2, 2) and (2, 3): only a branch never compiled lets it pass)
# -> (flagged, compiles in GRAPH_MODE)
BODIES: dict[str, tuple[bool, bool]] = {
    "if 1 == self.stride:": (True, False),
    "if self.args.stride == 1:": (True, False),  # a namedtuple field the file builds with a list (effnet)
    "s = [1]\nif s == 1:": (True, False),
    "same = self.stride == 1\nif same:": (True, False),
    # MindSpore 2.10 works this one form out (a cell's own list attribute, left of ==, in the if itself);
    # flagged all the same: always False in Python, and any other spelling of it stops GRAPH_MODE
    "if self.stride == 1:": (True, True),
    "if self.stride[0] == 2:": (False, True),
    "if self.pair == 1:": (False, True),
    "if len(self.stride) == 2:": (False, True),
    "if self.stride == [2]:": (False, True),
}


def _source(head: str, body: str) -> str:
    return head.format(body=textwrap.indent(body + "\n    y = y + x", " " * 8))


def _flagged(findings) -> list[tuple[str, str]]:  # noqa: ANN001
    return [(f.message_args["expr"], f.message_args["function"]) for f in findings if f.rule == "MSM710"]


def _expr(body: str) -> str:
    return next(line for line in body.splitlines() if "==" in line).removeprefix("if ").removesuffix(":") \
        .removeprefix("same = ")


@pytest.mark.parametrize("body", list(BODIES))
def test_forward_of_a_torch_module(analyze, body: str) -> None:  # noqa: ANN001
    found = _flagged(analyze(_source(TORCH, body)).findings)
    assert found == ([(_expr(body), "Net.forward")] if BODIES[body][0] else [])


@pytest.mark.parametrize("body", list(BODIES))
def test_construct_of_a_mindspore_cell(body: str) -> None:
    found = _flagged(graph_findings(_source(MS, body), "m.py", get_knowledge_base("2.6")))
    assert found == ([(_expr(body), "Net.construct")] if BODIES[body][0] else [])


def test_message_in_both_languages(analyze) -> None:  # noqa: ANN001
    (finding,) = [f for f in analyze(_source(TORCH, "if self.stride == 1:")).findings if f.rule == "MSM710"]
    assert (finding.line, finding.column, finding.end_column) == (20, 12, 28)
    assert finding.message("en") == (
        "self.stride == 1 in Net.forward compares a list with 1: always False in Python, and GRAPH_MODE "
        "may compile the branch it guards too (it stops where that branch's shapes disagree); compare an "
        "element or keep an int or a tuple"
    )
    assert finding.message("zh") == (
        "Net.forward 中的 self.stride == 1 将列表与 1 比较：在 Python 中总为 False，而 GRAPH_MODE 可能会把它"
        "所控制的分支也一并编译（该分支形状不一致时编译失败）；请比较其中的元素，或保存为 int 或元组"
    )


@pytest.mark.slow
@needs_mindspore
@pytest.mark.parametrize("body", list(BODIES))
def test_every_flagged_form_but_one_fails_to_compile_and_every_other_compiles(tmp_path, body: str) -> None:  # noqa: ANN001
    refused = "For 'Add', input1.shape and input2.shape need to broadcast. The value of input1.shape[3] or " \
        "input2.shape[3] must be 1 or -1 when they are not the same, but got input1.shape = [2, 2] and " \
        "input2.shape = [2, 3]"
    assert compile_net(tmp_path, _source(MS, body)) == {
        "pynative": [2, 2], "graph": [2, 2] if BODIES[body][1] else refused}
