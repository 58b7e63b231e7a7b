"""torch.nn.Module members left on a MindSpore Cell (analysis/cell_leftovers.py): found as leftovers, reported
as MSM104 in files that no longer name torch, and never for members a Cell has.

The members a Cell lacks come from the inventories of mapping_data (torch 2.13, MindSpore 2.10); each
decision is checked here against the installed MindSpore (``hasattr`` on a real Cell)."""

from __future__ import annotations

import ast

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.analysis.cell_leftovers import SAME_ON_CELL, cell_lacks, cell_leftovers
from msmigrate.analysis.columns import ColumnMap
from msmigrate.knowledge.base import KnowledgeBase, get_knowledge_base

LACKING = [
    "add_module", "bfloat16", "call_super_init", "children", "cpu", "cuda", "double", "dump_patches", "eval",
    "extra_repr", "float", "forward", "get_parameter", "get_submodule", "half", "ipu", "modules", "mtia",
    "named_children", "named_modules", "named_parameters", "parameters", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_module", "register_parameter", "requires_grad_",
    "set_submodule", "share_memory", "train", "type", "xpu", "zero_grad",
]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return get_knowledge_base("2.6")


def _found(source: str, kb: KnowledgeBase) -> list[tuple[int, int, str, str, str]]:
    found = cell_leftovers(ast.parse(source), ColumnMap(source.splitlines(), source.isascii()), kb)
    return [(x.line, x.column, x.kind.value, x.text, x.owner) for x in found]


def test_the_members_a_cell_lacks_come_from_the_inventories(kb) -> None:
    assert sorted(cell_lacks(kb)) == LACKING
    # train is not a Cell method (set_train is); buffers, apply, to, state_dict … are, so none is listed
    kept = {"buffers", "apply", "to", "state_dict", "named_buffers", "register_forward_hook"}
    assert kept & cell_lacks(kb) == set()


def test_every_decision_holds_on_the_installed_mindspore(kb) -> None:
    mindspore = pytest.importorskip("mindspore")
    cell = mindspore.nn.Cell()
    assert [name for name in sorted(cell_lacks(kb)) if hasattr(cell, name)] == []
    assert sorted(SAME_ON_CELL) == ["training"]
    cell.set_train(True)
    first = cell.training
    cell.set_train(False)
    assert (first, cell.training) == (True, False)  # the same mode flag as torch's Module.training


SPELLINGS = '''\
import mindspore
import mindspore as ms
from mindspore import nn
from mindspore.nn import Cell, SequentialCell


class A(mindspore.nn.Cell):
    def construct(self, x):
        self.zero_grad()
        return x


class B(ms.nn.Cell):
    def construct(self, x):
        return self.named_modules()


class C(nn.Cell):
    def construct(self, x):
        return list(self.children()), self.training


class D(Cell):
    def construct(self, x):
        self.train(False)
        return self.set_train(False)


class E(SequentialCell):
    def f(me):
        return me.parameters()


class F(nn.Cell):
    def train(self, mode=True):
        super(F, self).train(mode)
        return super().set_train(mode)
'''


def test_self_members_are_found_under_every_spelling_of_the_base(kb) -> None:
    assert _found(SPELLINGS, kb) == [
        (9, 9, "cell", "self.zero_grad", "A"),
        (15, 16, "cell", "self.named_modules", "B"),
        (20, 21, "cell", "self.children", "C"),
        (25, 9, "cell", "self.train", "D"),
        (31, 16, "cell", "me.parameters", "E"),
        (36, 9, "cell", "super().train", "F"),  # F's own train is not its base's
    ]


DEFINED = '''\
import mindspore
from mindspore import nn
from other import Mixin


class Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cuda = False

    def train(self, mode=True):
        return self.set_train(mode)


class Child(Base):
    def construct(self, x):
        super().train()
        self.train()
        if self.cuda:
            self.zero_grad()
        return x


class Mixed(Mixin, nn.Cell):
    def construct(self, x):
        return self.zero_grad()


class Dynamic(nn.Cell):
    def __getattr__(self, name):
        return 1

    def construct(self, x):
        return self.zero_grad()


class Static(nn.Cell):
    @staticmethod
    def make(self):
        return self.zero_grad()

    def construct(self, x):
        def inner(self):
            return self.zero_grad()
        return lambda: self.float()


class Torchy:
    def run(self):
        return self.zero_grad()


def build():
    net = Child()
    net.eval()
    other = Child()
    other = object()
    other.eval()
    return net
'''


def test_what_a_class_defines_and_bases_not_known_are_left_alone(kb) -> None:
    """Child inherits train and cuda from Base; Mixin may define anything; __getattr__ answers anything; a
    static method's and a nested function's own self are not the instance; only net's every assignment is
    a call of the Cell class."""
    assert _found(DEFINED, kb) == [
        (20, 13, "cell", "self.zero_grad", "Child"),
        (45, 24, "cell", "self.float", "Static"),
        (55, 5, "cell", "net.eval", "Child"),
    ]


def test_a_torch_module_class_is_not_a_cell(kb) -> None:
    source = "import torch.nn as nn\nimport mindspore\n\nclass Net(nn.Module):\n    def f(self):\n" \
             "        return self.zero_grad()  # Cell\n"
    assert _found(source, kb) == []


FIXED = '''\
from mindspore import nn


class Head(nn.Cell):
    def construct(self, x):
        walk = self.cells_and_names(name_prefix="p")
        self.zero_grad()
        self.float()  # msmigrate: ignore[MSM104]
        return x
'''


def test_a_file_without_torch_still_reports_the_members_left_on_its_cells(kb) -> None:
    result = analyze_source(FIXED, "m.py", kb, AnalysisOptions(use_jedi=False))
    assert [(f.line, f.column, f.end_line, f.end_column, f.rule, f.severity.value) for f in result.findings] \
        == [(7, 9, 7, 23, "MSM104", "warning")]
    [finding] = result.findings
    assert finding.message("en") == (
        "self.zero_grad: mindspore.nn.Cell has no zero_grad; it is torch.nn.Module's, left after Head became "
        "a Cell (an AttributeError when it runs): write it with the Cell's own API or drop it")
    assert finding.message("zh") == (
        "self.zero_grad：mindspore.nn.Cell 没有 zero_grad；这是 Head 改为 Cell 后遗留的 torch.nn.Module 成员"
        "（运行时会抛出 AttributeError）：请改用 Cell 自己的接口，或删除该调用")
    named = FIXED.replace("self.cells_and_names(name_prefix=", "self.named_modules(prefix=")
    [first, _] = analyze_source(named, "m.py", kb, AnalysisOptions(use_jedi=False)).findings
    assert (first.line, first.column, first.message("en").rsplit(": ", 1)[1]) == (
        6, 16, "MindSpore's counterpart is mindspore.nn.Cell.cells_and_names")


def test_files_naming_neither_torch_nor_a_cell_are_not_analysed(kb) -> None:
    source = "class Net:\n    def f(self):\n        return self.zero_grad()\n"
    assert analyze_source(source, "plain.py", kb).findings == []
    no_checkers = analyze_source(FIXED, "m.py", kb, AnalysisOptions(use_jedi=False, run_checkers=False))
    assert no_checkers.findings == []
