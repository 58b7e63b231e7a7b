"""MSM709: a subclass of ``nn.ModuleDict`` (``mindspore.nn.CellDict`` once migrated) that is called.

Met by ``msmigrate compare`` on torchvision's DenseNet: ``class _DenseBlock(nn.ModuleDict)`` has a
``forward`` that runs its layers (``for name, layer in self.items()``); migrated, it derives from
``mindspore.nn.CellDict`` and runs in PyNative mode, while GRAPH_MODE (MindSpore 2.10) compiles a CellDict as
a dictionary, so calling it stops with "The object is not callable" at the call (in DenseNet, inside
SequentialCell's loop). A subclass of ``nn.Cell`` holding the same children (``insert_child_to_cell``) with
an ``items()`` method compiles (checked by the rule's test). What is flagged: the name of a class that
derives from ``torch.nn.ModuleDict`` or ``mindspore.nn.CellDict`` and defines ``forward`` or ``construct``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph_mode import DOC, _full_name, _imports
from msmigrate.rules.support import new_finding

GRAPH_CALLED_DICT = Rule("MSM709", C.FRAMEWORK_PATTERN, S.WARNING, DOC)
RULES = [GRAPH_CALLED_DICT]
DICT_BASES = frozenset(
    {"torch.nn.ModuleDict", "torch.nn.modules.container.ModuleDict", "mindspore.nn.CellDict"}
)
ENTRIES = frozenset({"forward", "construct"})

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM709.title": (
        "A called subclass of nn.ModuleDict (CellDict) does not compile in GRAPH_MODE",
        "被调用的 nn.ModuleDict（CellDict）子类无法在 GRAPH_MODE 下编译",
    ),
    "rule.MSM709.explanation": (
        "A class deriving from nn.ModuleDict with its own forward is migrated to a subclass of "
        "mindspore.nn.CellDict with a construct. It runs in PyNative mode, but GRAPH_MODE (MindSpore 2.10) "
        "compiles a CellDict as a dictionary, so calling it fails with \"The object is not callable\". "
        "Derive the class from nn.Cell instead, add its children with insert_child_to_cell (or as "
        "attributes), and give it an items() method that returns self._cells.items().",
        "继承 nn.ModuleDict 并带有自己 forward 的类会被迁移为带 construct 的 mindspore.nn.CellDict 子类。"
        "它在 PyNative 模式下可以运行，但 GRAPH_MODE（MindSpore 2.10）把 CellDict 当作字典编译，"
        "调用它会报 \"The object is not callable\"。请改为继承 nn.Cell，用 insert_child_to_cell（或属性）"
        "添加子 Cell，并提供返回 self._cells.items() 的 items() 方法。",
    ),
    "finding.MSM709": (
        "{name} derives from {base} and is called ({method}): GRAPH_MODE compiles a CellDict as a dictionary "
        "(\"The object is not callable\"); derive it from nn.Cell with an items() method",
        "{name} 继承 {base} 并被调用（{method}）：GRAPH_MODE 把 CellDict 当作字典编译"
        "（\"The object is not callable\"）；请改为继承 nn.Cell 并提供 items() 方法",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM709": (
        "import torch.nn as nn\n\n\nclass Block(nn.ModuleDict):\n    def forward(self, x):\n"
        "        for _, layer in self.items():\n            x = layer(x)\n        return x\n",
        "import torch.nn as nn\n\n\nclass Heads(nn.ModuleDict):\n    def names(self):\n"
        "        return list(self.keys())\n",
        [(4, 7)],
    ),
}


def _name_range(ctx, node: ast.ClassDef) -> tuple[int, int, int, int]:
    """The class's name (the base carries the API finding of its own conversion)."""
    column = ctx.lines[node.lineno - 1].find(node.name, node.col_offset) + 1
    return (node.lineno, column, node.lineno, column + len(node.name))


def check(ctx) -> Iterable[Finding]:
    if "ModuleDict" not in ctx.source and "CellDict" not in ctx.source:
        return []
    imports = _imports(ctx.tree)
    found: list[Finding] = []
    for node in ctx.nodes_of(ast.ClassDef):
        methods = [n.name for n in node.body if isinstance(n, ast.FunctionDef) and n.name in ENTRIES]
        for base in node.bases:
            name = _full_name(base, imports)
            if name in DICT_BASES and methods:
                found.append(
                    new_finding(
                        GRAPH_CALLED_DICT,
                        _name_range(ctx, node),
                        "finding.MSM709",
                        {"name": node.name, "base": name, "method": methods[0]},
                    )
                )
    return sorted(found, key=lambda f: (f.line, f.column))


CHECKERS = [check]
