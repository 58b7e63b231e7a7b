"""MSM711: a container cell built from other cells in code GRAPH_MODE compiles.

Met by ``msmigrate compare`` on g-mlp-pytorch's ``gMLP.forward``: ``out = nn.Sequential(*layers)(x)``
(``layers`` the model's ModuleList, or some of it in training) becomes ``nn.SequentialCell([*layers])(x)``,
which runs in PyNative mode; GRAPH_MODE (MindSpore 2.10) creates a cell in ``construct`` only from constants
("When creating an instance of 'SequentialCell', all arguments are required to be constants, but input 0 is
a variable"), and cells are not constants: ``SequentialCell([*self.layers])`` and
``SequentialCell(self.layers)`` fail alike. A layer made from numbers (``nn.ReLU()``, ``mint.nn.Linear(n,
4)`` with ``n`` from a shape) compiles, and so does a loop over the cells (``for layer in layers: x =
layer(x)``; all checked by the rule's test). What is flagged: a call of torch's ``nn.Sequential``,
``nn.ModuleList``, ``nn.ModuleDict`` or MindSpore's ``nn.SequentialCell``, ``nn.CellList``,
``nn.CellDict`` in ``forward``/``construct`` or what they call (``_compiled.compiled_functions``), with
an argument. No fix: the loop is a statement rewrite of what uses the container.
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
CONTAINERS = frozenset({
    "torch.nn.Sequential", "torch.nn.ModuleList", "torch.nn.ModuleDict", "mindspore.nn.SequentialCell",
    "mindspore.nn.CellList", "mindspore.nn.CellDict",
})

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM711.title": ("A container cell built in construct", "在 construct 中构建容器 Cell"),
    "rule.MSM711.explanation": (
        "GRAPH_MODE (MindSpore 2.10) creates a cell inside construct only from constants, and cells are not "
        "constants: nn.SequentialCell([*layers])(x) in construct (torch's nn.Sequential(*layers)(x) in "
        "forward, migrated) stops with \"all arguments are required to be constants\"; it runs in PyNative "
        "mode. Apply the layers in a loop (for layer in layers: x = layer(x)), or build the container once "
        "in __init__.",
        "GRAPH_MODE（MindSpore 2.10）只能在 construct 中用常量创建 Cell，而 Cell 不是常量：construct 中的 "
        "nn.SequentialCell([*layers])(x)（迁移后的 torch forward 中的 nn.Sequential(*layers)(x)）会报错"
        "“all arguments are required to be constants”；它可以在 PyNative 模式下运行。请用循环依次调用各层"
        "（for layer in layers: x = layer(x)），或在 __init__ 中一次性构建该容器。",
    ),
    "finding.MSM711": (
        "{container}(…) in {owner}: GRAPH_MODE creates no cell from other cells in construct (\"all arguments "
        "are required to be constants\"); apply the layers in a loop or build it in __init__",
        "{owner} 中的 {container}(…)：GRAPH_MODE 不能在 construct 中用其他 Cell 创建 Cell"
        "（“all arguments are required to be constants”）；请用循环依次调用各层，或在 __init__ 中构建",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM711": (
        NET + "        return nn.Sequential(*self.blocks)(x)\n",
        NET + "        for block in self.blocks:\n            x = block(x)\n        return x\n",
        [(6, 16)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if not any(name.rpartition(".")[2] in ctx.source for name in CONTAINERS):
        return []
    imports = module_imports(ctx.tree)
    found: list[Finding] = []
    for owner, node in compiled_nodes(ctx, imports, ast.Call):
        assert isinstance(node, ast.Call)
        name = imported_name(node.func, imports)
        if name in CONTAINERS and (node.args or node.keywords):
            found.append(new_finding(RULE, ctx.node_range(node.func), "finding.MSM711",
                                     {"container": ast.unparse(node.func), "owner": owner}))
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
