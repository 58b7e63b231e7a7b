"""MSM709: a subclass of ``mindspore.nn.CellDict`` that is called.

Met by ``msmigrate compare`` on torchvision's DenseNet: ``class _DenseBlock(nn.ModuleDict)`` has a
``forward`` that runs its layers (``for name, layer in self.items()``); migrated, it derives from
``mindspore.nn.CellDict`` and runs in PyNative mode, while GRAPH_MODE (MindSpore 2.10) compiles a CellDict as
a dictionary, so calling it stops with "The object is not callable" at the call (in DenseNet, inside
SequentialCell's loop). A subclass of ``nn.Cell`` holding the same children (``insert_child_to_cell``) with
an ``items()`` method compiles (checked by the rule's test). What is flagged: the name of a class that
derives from ``mindspore.nn.CellDict`` and defines ``construct``. A torch ``nn.ModuleDict`` subclass is not
flagged: the helper module's ``ModuleDict`` composition (a Cell with ``items()``) is what it migrates to
where that composition is offered, and it compiles; ``CellDict`` is what ``--unsafe-fixes`` wrote before.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.import_names import imported_name, module_imports
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC
from msmigrate.rules.support import new_finding

RULE = Rule("MSM709", C.FRAMEWORK_PATTERN, S.WARNING, DOC)
DICT_BASES = frozenset({"mindspore.nn.CellDict", "mindspore.nn.layer.container.CellDict"})
ENTRIES = frozenset({"construct"})

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM709.title": (
        "A called subclass of CellDict does not compile in GRAPH_MODE",
        "被调用的 CellDict 子类无法在 GRAPH_MODE 下编译",
    ),
    "rule.MSM709.explanation": (
        "A subclass of mindspore.nn.CellDict with its own construct (a torch nn.ModuleDict subclass with "
        "a forward, migrated) runs in PyNative mode, but GRAPH_MODE (MindSpore 2.10) "
        "compiles a CellDict as a dictionary, so calling it fails with \"The object is not callable\". "
        "Derive the class from nn.Cell instead, add its children with insert_child_to_cell (or as "
        "attributes), and give it an items() method that returns self._cells.items().",
        "带有自己 construct 的 mindspore.nn.CellDict 子类（例如迁移后的、带 forward 的 torch nn.ModuleDict "
        "子类）在 PyNative 模式下可以运行，但 GRAPH_MODE（MindSpore 2.10）把 CellDict 当作字典编译，"
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
        "import torch\nfrom mindspore import nn\n\n\nclass Block(nn.CellDict):\n    def construct(self, x):\n"
        "        for _, layer in self.items():\n            x = layer(x)\n        return x\n",
        "import torch\nfrom mindspore import nn\n\n\nclass Heads(nn.CellDict):\n    def names(self):\n"
        "        return list(self.keys())\n",
        [(5, 7)],
    ),
}


def _name_range(ctx, node: ast.ClassDef) -> tuple[int, int, int, int]:
    """The class's name (the base carries the API finding of its own conversion)."""
    column = ctx.lines[node.lineno - 1].find(node.name, node.col_offset) + 1
    return (node.lineno, column, node.lineno, column + len(node.name))


def detect(ctx) -> Iterable[Finding]:
    if "CellDict" not in ctx.source:
        return []
    imports = module_imports(ctx.tree)
    found: list[Finding] = []
    for node in ctx.nodes_of(ast.ClassDef):
        methods = [n.name for n in node.body if isinstance(n, ast.FunctionDef) and n.name in ENTRIES]
        for base in node.bases:
            name = imported_name(base, imports)
            if name in DICT_BASES and methods:
                found.append(
                    new_finding(
                        RULE,
                        _name_range(ctx, node),
                        "finding.MSM709",
                        {"name": node.name, "base": name, "method": methods[0]},
                    )
                )
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
