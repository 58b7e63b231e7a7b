"""MSM534: ``module._modules``, torch's dict of a module's direct children, read on a module.

torch keeps the sub-modules a module sets as attributes in ``Module._modules`` (name → module, in the order
they were set); code iterates it (``for m in self._modules.values()``, pytorchcv's ``Concurrent`` and
``MixConv``, pretrainedmodels' ``LambdaBase``) or looks a child up by name. A MindSpore ``Cell`` has no
``_modules``: it keeps its direct children in ``Cell._cells``, an ordered dict filled the same way (a cell
set as an attribute, ``insert_child_to_cell``, the items of a ``SequentialCell`` under ``"0"``, ``"1"``, …;
checked under MindSpore 2.10, also inside ``construct`` in GRAPH_MODE). Reading it is the same, so the fix
writes ``_cells`` for ``_modules``. Storing into it (``m._modules[name] = layer``, ``del``) is reported
without a fix: ``_cells[name] = layer`` would not give the new cell's parameters their path in the network
(``Cell.__setattr__`` does), so a checkpoint would not load into it; ``setattr(m, name, layer)`` does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import attribute_range, new_finding, short

RULE = Rule("MSM534", C.FRAMEWORK_PATTERN, S.WARNING,
            "https://www.mindspore.cn/docs/en/r2.6.0/api_python/nn/mindspore.nn.Cell.html", fixable=True)
ATTRIBUTE, TARGET = "_modules", "_cells"

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM534.title": ("A module's _modules dict", "模块的 _modules 字典"),
    "rule.MSM534.explanation": (
        "torch keeps a module's direct sub-modules in the dict _modules (name to module, in the order they "
        "were set). A MindSpore Cell has no _modules and raises AttributeError; it keeps its direct child "
        "cells, in the same order and under the same names, in the ordered dict _cells. The quick-fix reads "
        "_cells instead. Storing into _modules is not rewritten: a cell stored into _cells does not get its "
        "parameters named by their path in the network, so a checkpoint does not load into it; set it as an "
        "attribute instead (setattr(cell, name, child)).",
        "torch 把模块的直接子模块保存在字典 _modules 中（名称到模块，按设置的顺序）。MindSpore 的 Cell "
        "没有 _modules，访问它会抛出 AttributeError；Cell 把直接子 Cell 以相同的顺序和名称保存在有序字典 "
        "_cells 中。快速修复改为读取 _cells。对 _modules 的写入不会被改写：直接存入 _cells 的 Cell 不会"
        "按其在网络中的路径为参数命名，检查点因此无法加载到它；"
        "请改为将其设为属性（setattr(cell, name, child)）。",
    ),
    "finding.MSM534": (
        "{receiver}._modules: a MindSpore Cell keeps its direct child cells in {receiver}._cells",
        "{receiver}._modules：MindSpore 的 Cell 把直接子 Cell 保存在 {receiver}._cells 中",
    ),
    "finding.MSM534.store": (
        "{receiver}._modules is written to: a MindSpore Cell has no _modules, and a cell stored into _cells "
        "does not get its parameters named by their path; use setattr({receiver}, name, child)",
        "写入了 {receiver}._modules：MindSpore 的 Cell 没有 _modules，直接存入 _cells 的 Cell 不会按路径为"
        "参数命名；请使用 setattr({receiver}, name, child)",
    ),
    "fix.module_children": ("Read {receiver}._cells", "改为读取 {receiver}._cells"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM534": (
        "import torch\n\n\nclass Concurrent(torch.nn.Sequential):\n    def forward(self, x):\n"
        "        return torch.cat([m(x) for m in self._modules.values()], 1)\n",
        "import torch\n\n\nclass Concurrent(torch.nn.Sequential):\n    def forward(self, x):\n"
        "        return torch.cat([m(x) for m in self.children()], 1)\n",
        [(6, 46)],
    ),
}


def _stored(node: ast.Attribute, parent: ast.AST | None) -> bool:
    """``x._modules[k] = v``, ``del x._modules[k]``, ``x._modules = …``: the dict is written to."""
    if not isinstance(node.ctx, ast.Load):
        return True
    return isinstance(parent, ast.Subscript) and parent.value is node and not isinstance(parent.ctx, ast.Load)


def _sites(ctx) -> Iterable[tuple[ast.Attribute, bool]]:  # noqa: ANN001 - the analysis context
    """Each ``<receiver>._modules`` on a receiver that is not known to be other than a module, with whether
    it is written to."""
    parents: dict[int, ast.AST] = {}
    for node in ctx.nodes_of(ast.Subscript):
        parents[id(node.value)] = node
    for node in ctx.nodes_of(ast.Attribute):
        if node.attr != ATTRIBUTE:
            continue
        kind = ctx.receiver_kind(node.value)
        if kind is not None and kind != "module":
            continue  # a tensor's or an optimizer's attribute of that name is not torch's module dict
        yield node, _stored(node, parents.get(id(node)))


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if ATTRIBUTE not in ctx.source or not any(f.torch_api for f in ctx.usages):
        return []  # only files that use torch
    found = []
    for node, stored in _sites(ctx):
        args = {"receiver": short(ctx, node.value)}
        key = "finding.MSM534.store" if stored else "finding.MSM534"
        found.append(new_finding(RULE, attribute_range(ctx, node), key, args, fixable=not stored))
    return found


def cells_dict(ctx: FixContext, finding: Finding) -> Fix | None:
    """``<receiver>._modules`` → ``<receiver>._cells`` where the dict is read."""
    if finding.message_key != "finding.MSM534":
        return None
    edit = TextEdit(finding.line, finding.column, finding.end_line, finding.end_column, TARGET)
    return Fix(RULE.id, "fix.module_children", [edit], dict(finding.message_args))


FIXERS = (cells_dict,)
FIX_SAFETY = Safety.SAFE  # the same children under the same names in the same order; only reads are fixed
