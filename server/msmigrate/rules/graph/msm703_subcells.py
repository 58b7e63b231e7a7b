"""MSM703: the cell's own sub-cells iterated inside ``construct``.

``self.cells()``, ``self.cells_and_names()``, ``self.name_cells()``; torch's ``children()``/``modules()``
become these.
What GRAPH_MODE compiles: ``_compiled.py``; the sites of MSM701–MSM705 are found in one walk
(``_sites.py``). Each failure was met by ``msmigrate compare`` and is checked under MindSpore 2.10
(``tests/rules/test_graph_mode_rules.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, NET
from msmigrate.rules.graph._sites import findings

RULE = Rule("MSM703", C.FRAMEWORK_PATTERN, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM703.title": ("Sub-cells iterated in construct", "在 construct 中遍历子 Cell"),
    "rule.MSM703.explanation": (
        "self.cells(), self.cells_and_names() and self.name_cells() (what torch's children() and modules() "
        "become) are generators the graph compiler cannot run. Collect the cells once in __init__, in a "
        "mindspore.nn.CellList, and iterate that list in construct.",
        "self.cells()、self.cells_and_names() 和 self.name_cells()（torch 的 children()、modules() 迁移后的"
        "形式）是图编译器无法执行的生成器。请在 __init__ 中把这些 Cell 收集到一个 mindspore.nn.CellList 里，"
        "在 construct 中遍历该列表。",
    ),
    "finding.MSM703": (
        "self.{method}() in {function}: GRAPH_MODE cannot iterate the cell's sub-cells; hold them in a "
        "mindspore.nn.CellList built in __init__",
        "{function} 中的 self.{method}()：GRAPH_MODE 无法遍历 Cell 的子 Cell；请在 __init__ 中构建 "
        "mindspore.nn.CellList 保存它们",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM703": (
        NET + "        for cell in self.cells():\n            x = cell(x)\n        return x\n",
        NET + "        for cell in self.layers:\n            x = cell(x)\n        return x\n",
        [(6, 21)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
