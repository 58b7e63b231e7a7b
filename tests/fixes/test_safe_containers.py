"""Containers in safe mode: ``nn.ModuleList`` built in one call and ``nn.Sequential`` (also as a base class)
passed the container check (``check/worker_programs.py``, ``verified-derived-CPU.json``), so ``msmigrate fix``
applies them without ``--unsafe-fixes``; a ModuleList changed after its call or sliced (CellList names its
cells' parameters otherwise: its resolution stays unsafe) and ``nn.ModuleDict`` (CellDict refuses a container
value) take the helper module's ``ModuleList`` / ``ModuleDict`` instead (MSM205), compositions checked by a
program on both sides (``msmigrate check --compositions``), also safe. The exact rewritten source, the
resolutions' reasons, and a MindSpore run (torch blocked) against torch with the parameter names torch
gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_support import assert_same, fixed, needs_frameworks, run_both

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.container_forms import unverified_list_form
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base

TORCH = '''\
import torch.nn as nn


class Stack(nn.Sequential):
    def __init__(self, *layers):
        super().__init__(*layers)


def pair():
    return nn.ModuleList([nn.Linear(4, 4), nn.ReLU()])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.pairs = nn.ModuleList([pair(), pair()])
        self.head = Stack(nn.Linear(4, 3), nn.ReLU())

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        for linear, act in self.pairs:
            x = act(linear(x)) + self.blocks[-1](x)
        return self.head(x) * len(self.pairs)
'''
FIXED = '''\
import mindspore


class Stack(mindspore.nn.SequentialCell):
    def __init__(self, *layers):
        super().__init__(*layers)


def pair():
    return mindspore.nn.CellList([mindspore.mint.nn.Linear(4, 4), mindspore.mint.nn.ReLU()])


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = mindspore.nn.CellList([mindspore.mint.nn.Linear(4, 4) for _ in range(2)])
        self.pairs = mindspore.nn.CellList([pair(), pair()])
        self.head = Stack(mindspore.mint.nn.Linear(4, 3), mindspore.mint.nn.ReLU())

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        for linear, act in self.pairs:
            x = act(linear(x)) + self.blocks[-1](x)
        return self.head(x) * len(self.pairs)
'''

CHANGED = '''\
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([])
        for _ in range(2):
            self.layers.append(nn.ModuleList([nn.Linear(4, 4)]))
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 4)})

    def forward(self, x):
        for block in self.blocks[:2]:
            x = block(x)
        return x
'''


def _safety(source: str) -> list[tuple[int, str, str, str]]:
    findings = analyze_source(source, "model.py", get_knowledge_base("2.6")).findings
    return [(f.line, f.torch_api, f.resolution.safety.value, f.resolution.safety_reason) for f in findings
            if f.torch_api in ("torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.Sequential")]


def test_lists_built_in_one_call_and_sequential_are_safe(tmp_path: Path) -> None:
    assert fixed(tmp_path, TORCH, unsafe=False) == FIXED
    assert _safety(TORCH) == [
        (4, "torch.nn.Sequential", "safe", "verified"),
        (10, "torch.nn.ModuleList", "safe", "verified"),  # returned: changed by no name
        (16, "torch.nn.ModuleList", "safe", "verified"),
        (17, "torch.nn.ModuleList", "safe", "verified"),
    ]


CHANGED_FIXED = '''\
import ms_compat
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = ms_compat.ModuleList([])
        for _ in range(2):
            self.layers.append(mindspore.nn.CellList([mindspore.mint.nn.Linear(4, 4)]))
        self.blocks = ms_compat.ModuleList([mindspore.mint.nn.Linear(4, 4) for _ in range(3)])
        self.heads = ms_compat.ModuleDict({"a": mindspore.mint.nn.Linear(4, 4)})

    def construct(self, x):
        for block in self.blocks[:2]:
            x = block(x)
        return x
'''


def test_changed_or_sliced_lists_and_module_dicts_take_the_verified_helpers(tmp_path: Path) -> None:
    findings = analyze_source(CHANGED, "model.py", get_knowledge_base("2.6")).findings
    assert [(f.line, f.rule, f.mindspore_api, is_safe(f)) for f in findings
            if f.torch_api in ("torch.nn.ModuleList", "torch.nn.ModuleDict")] == [
        (7, "MSM205", "ms_compat.ModuleList", True),  # appended to
        (9, "MSM101", "mindspore.nn.CellList", True),  # the inner list: built by its call
        (10, "MSM205", "ms_compat.ModuleList", True),  # sliced in forward
        (11, "MSM205", "ms_compat.ModuleDict", True),  # CellDict's check errs: no SequentialCell value
    ]
    assert fixed(tmp_path, CHANGED, unsafe=False) == CHANGED_FIXED


LIST = "nn.ModuleList"


@pytest.mark.parametrize(("statements", "form"), [
    ("x = nn.ModuleList([a])\n", ""),
    ("x = nn.ModuleList([a])\nx += [b]\n", "container_changed"),
    ("x = nn.ModuleList([a])\nx[0] = b\n", "container_changed"),
    ("x = nn.ModuleList([a])\ny = x[0]\n", ""),
    ("x = nn.ModuleList([a])\ny = x[1:]\n", "container_changed"),
    ("x = nn.ModuleList([a])\nx.insert(0, b)\n", "container_changed"),
    ("self.x = nn.ModuleList([a])\nother.x.extend([b])\n", "container_changed"),  # any object's x
    ("self.x = nn.ModuleList([a])\nself.y.append(b)\n", ""),
    ("f(nn.ModuleList([a]))\n", ""),
    ("a, b = nn.ModuleList([a]), 1\n", ""),
])
def test_the_forms_a_list_is_changed_in(statements: str, form: str) -> None:
    import ast

    tree = ast.parse(statements)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == LIST)
    assert unverified_list_form(tree, "torch.nn.ModuleList", call) == form
    assert unverified_list_form(tree, "torch.nn.ModuleList", None) == "container_changed"  # a base class
    assert unverified_list_form(tree, "torch.nn.Sequential", call) == ""


NAMES = {
    "torch": "\n\ndef names(m):\n    return sorted(n for n, _ in m.named_parameters())\n",
    "mindspore": "\n\ndef names(m):\n    return sorted(p.name for p in m.get_parameters())\n",
}
EXPECTED_NAMES = sorted(
    [f"blocks.{i}.{p}" for i in range(2) for p in ("weight", "bias")]
    + [f"pairs.{i}.0.{p}" for i in range(2) for p in ("weight", "bias")]
    + [f"head.0.{p}" for p in ("weight", "bias")]
)


CHANGED_NAMES = sorted(
    [f"layers.{i}.0.{p}" for i in range(2) for p in ("weight", "bias")]
    + [f"blocks.{i}.{p}" for i in range(3) for p in ("weight", "bias")]
    + [f"heads.a.{p}" for p in ("weight", "bias")]
)


@pytest.mark.slow
@needs_frameworks
@pytest.mark.parametrize(("source", "expected"), [(TORCH, EXPECTED_NAMES), (CHANGED, CHANGED_NAMES)],
                         ids=["verified_pairs", "helpers"])  # helpers: CellList would say 0.0.weight
def test_the_safe_containers_compute_and_name_what_torch_does(tmp_path: Path, source: str,
                                                              expected: list[str]) -> None:
    expression = f"(set_all(Net())(t(2, 4)), d([float(names(Net()) == {expected!r})]))"
    outputs = run_both(tmp_path, source, expression, unsafe=False, setup=NAMES)
    assert outputs["torch"][1].tolist() == [1.0]  # the names this test expects are torch's own
    assert_same(outputs)


def test_an_annotation_of_a_changed_list_keeps_cell_list() -> None:
    source = ("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
              "        super().__init__()\n        self.heads = nn.ModuleList([])\n"
              "        self.heads.append(nn.Linear(4, 4))\n\n"
              "    def get(self) -> nn.ModuleList:  # a built-in-one-call list is a CellList too\n"
              "        return self.heads\n")
    findings = analyze_source(source, "model.py", get_knowledge_base("2.6")).findings
    assert [(f.line, f.rule, f.mindspore_api, f.resolution.safety_reason, is_safe(f)) for f in findings
            if f.torch_api == "torch.nn.ModuleList"] == [
        (7, "MSM205", "ms_compat.ModuleList", "rule", True),
        (10, "MSM101", "mindspore.nn.CellList", "reference", True),  # a type named computes nothing
    ]
