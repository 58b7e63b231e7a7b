"""MSM711: a container cell built from a list of cells in code GRAPH_MODE compiles.

Met by ``msmigrate compare`` on g-mlp-pytorch's ``gMLP.forward``: ``out = nn.Sequential(*layers)(x)``
(``layers`` the model's ModuleList, or some of it in training) becomes ``nn.SequentialCell([*layers])(x)``
(MSM502 writes the layers in a list), which runs in PyNative mode; GRAPH_MODE (MindSpore 2.10) stops with
"When creating an instance of 'SequentialCell', all arguments are required to be constants, but input 0 is
a variable": a list of cells is not a constant. ``SequentialCell([self.a, self.b])``,
``SequentialCell(self.layers)`` and ``CellList([...])`` fail alike, while the cells passed as separate
arguments (``SequentialCell(*layers)``, ``SequentialCell(self.a, self.b)``), a layer made from numbers
(``nn.ReLU()``, ``mint.nn.Linear(n, 4)``) and a loop over the cells compile (all checked by the rule's
test). What is flagged, in ``forward``/``construct`` and what they call (``_compiled.compiled_functions``):
MindSpore's ``nn.SequentialCell``, ``nn.CellList``, ``nn.CellDict`` called with a first argument that is not
starred, and torch's ``nn.Sequential``, ``nn.ModuleList``, ``nn.ModuleDict`` called with arguments (their
migration writes the list). The finding is on the arguments (the name keeps its API finding). No fix.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.import_names import imported_name, module_imports
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, NET, compiled_nodes
from msmigrate.rules.support import new_finding

RULE = Rule("MSM711", C.FRAMEWORK_PATTERN, S.WARNING, DOC)
TORCH_CONTAINERS = frozenset({"torch.nn.Sequential", "torch.nn.ModuleList", "torch.nn.ModuleDict"})
MINDSPORE_CONTAINERS = frozenset({"mindspore.nn.SequentialCell", "mindspore.nn.CellList",
                                  "mindspore.nn.CellDict"})
CONTAINERS = TORCH_CONTAINERS | MINDSPORE_CONTAINERS

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM711.title": ("A container cell built from a list in construct",
                          "在 construct 中用列表构建容器 Cell"),
    "rule.MSM711.explanation": (
        "GRAPH_MODE (MindSpore 2.10) builds a cell inside construct only from constants, and a list of cells "
        "is not one: nn.SequentialCell([*layers])(x) or nn.CellList([...]) in construct (torch's "
        "nn.Sequential(*layers)(x) in forward, migrated with the layers in a list) stops with "
        "\"all arguments are required to be constants\"; it runs in PyNative mode. Pass the cells as "
        "separate arguments (nn.SequentialCell(*layers) compiles), apply them in a loop (for layer in "
        "layers: x = layer(x)), or build the container once in __init__.",
        "GRAPH_MODE（MindSpore 2.10）只能在 construct 中用常量构建 Cell，"
        "而 Cell 的列表不是常量：construct 中的 "
        "nn.SequentialCell([*layers])(x) 或 nn.CellList([...])（迁移后的 torch forward 中的 "
        "nn.Sequential(*layers)(x)，各层写成列表）会报错“all arguments are required to be constants”；它可以"
        "在 PyNative 模式下运行。请把各 Cell 作为单独的参数传入（nn.SequentialCell(*layers) 可以编译），"
        "用循环依次调用（for layer in layers: x = layer(x)），或在 __init__ 中一次性构建该容器。",
    ),
    "finding.MSM711": (
        "{container}({arguments}) in {owner}: GRAPH_MODE builds no cell from a list of cells in construct "
        "(\"all arguments are required to be constants\"); pass the cells as separate arguments "
        "(SequentialCell(*layers)), apply them in a loop or build it in __init__",
        "{owner} 中的 {container}({arguments})：GRAPH_MODE 不能在 construct 中用 Cell 的列表构建 Cell"
        "（“all arguments are required to be constants”）；请把各 Cell 作为单独的参数传入"
        "（SequentialCell(*layers)）、用循环依次调用，或在 __init__ 中构建",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM711": (
        NET + "        return nn.Sequential(*self.blocks)(x)\n",
        NET + "        for block in self.blocks:\n            x = block(x)\n        return x\n",
        [(6, 30)],
    ),
}


def _list_built(name: str, call: ast.Call) -> bool:
    """Whether the container is built from a list: torch's with arguments (its migration writes the list),
    MindSpore's with a first argument that is not starred."""
    if name in TORCH_CONTAINERS:
        return bool(call.args or call.keywords)
    first = call.args[0] if call.args else (call.keywords[0].value if call.keywords else None)
    return first is not None and not isinstance(first, ast.Starred)


def _arguments_range(ctx, call: ast.Call) -> tuple[int, int, int, int]:  # noqa: ANN001
    nodes = [*call.args, *(k.value for k in call.keywords)]
    first, last = ctx.node_range(nodes[0]), ctx.node_range(nodes[-1])
    for k in call.keywords:  # a keyword's name is part of the argument
        if k.value is nodes[0]:
            first = (k.lineno, k.col_offset + 1, *first[2:])
    if isinstance(call.args[0] if call.args else None, ast.Starred):
        first = ctx.node_range(call.args[0])
    return (*first[:2], *last[2:])


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if not any(name.rpartition(".")[2] in ctx.source for name in CONTAINERS):
        return []
    imports = module_imports(ctx.tree)
    found: list[Finding] = []
    for owner, node in compiled_nodes(ctx, imports, ast.Call):
        assert isinstance(node, ast.Call)
        name = imported_name(node.func, imports)
        if name in CONTAINERS and _list_built(name, node):
            span = _arguments_range(ctx, node)
            arguments = ", ".join([*(ast.unparse(a) for a in node.args),
                                   *(f"{k.arg}={ast.unparse(k.value)}" for k in node.keywords)])
            found.append(new_finding(RULE, span, "finding.MSM711", {
                "container": ast.unparse(node.func), "owner": owner,
                "arguments": arguments if len(arguments) <= 40 else arguments[:39] + "…"}))
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
