"""MSM501: an ``nn.Module`` subclass's ``forward`` is a ``mindspore.nn.Cell``'s ``construct``.

The finding sits on the name in ``def forward``; the class's own ``torch.nn.Module`` base finding is folded
into it (one finding per class). The fix renames ``forward`` and the class's ``self.forward(...)`` calls
(and its ``super().forward(...)`` calls, ``fixes/construct_super_fixes.py``): safe, the same method under
the name MindSpore calls.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from msmigrate.fixes.construct_super_fixes import super_construct
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._patterns import DOCS, TAKE_OVER
from msmigrate.rules.module_classes import forward_name_range, module_classes
from msmigrate.rules.support import new_finding, reference_range, tree_index, usage_at

RULE = Rule(
    "MSM501", C.FRAMEWORK_PATTERN, S.INFORMATION, DOCS + "api_python/nn/mindspore.nn.Cell.html", fixable=True
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM501.title": ("nn.Module forward method", "nn.Module 的 forward 方法"),
    "rule.MSM501.explanation": (
        "A MindSpore network is a subclass of mindspore.nn.Cell, and its forward computation is the "
        "construct method. Rename forward to construct (the quick-fix also renames direct self.forward(...) "
        "calls in the class) and change the base class to nn.Cell.",
        "MindSpore 网络继承自 mindspore.nn.Cell，其前向计算写在 construct 方法中。请把 forward 重命名为 "
        "construct"
        "（快速修复会同时重命名类中直接调用的 self.forward(...)），并把基类改为 nn.Cell。",
    ),
    "finding.MSM501": (
        "Rename forward to construct: {cls} becomes a mindspore.nn.Cell",
        "将 forward 重命名为 construct：{cls} 需改为 mindspore.nn.Cell 子类",
    ),
    "fix.pattern.construct": ("Rename forward to construct", "将 forward 重命名为 construct"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM501": (
        "import torch.nn as nn\n\nclass Net(nn.Module):\n    def forward(self, x):\n        return x\n",
        "import torch.nn as nn\n\nclass Helper:\n    def forward(self, x):\n        return x\n",
        [(4, 9)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found = []
    classes = tree_index(ctx).nodes(ast.ClassDef)
    modules = module_classes(ctx, classes)
    for node in classes:
        ctx.cancel.raise_if_cancelled()
        if node.name not in modules:
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "forward":
                span = forward_name_range(ctx, stmt)
                if span:
                    _fold_module_base(ctx, node)
                    found.append(new_finding(RULE, span, "finding.MSM501", {"cls": node.name},
                                             torch_api="torch.nn.Module.forward", fixable=True))
    return found


def _fold_module_base(ctx, node: ast.ClassDef) -> None:
    """``class M(nn.Module)`` with a ``forward``: MSM501 says M becomes a ``mindspore.nn.Cell``, so the
    base's own finding (``torch.nn.Module`` → ``mindspore.nn.Cell``) is dropped: one finding per class."""
    for base in node.bases:
        if ctx.qualified_name(base) == "torch.nn.Module":
            existing = usage_at(ctx, reference_range(ctx, base), ["torch.nn.Module"])
            if existing is not None and existing.rule in TAKE_OVER:
                ctx.usages.remove(existing)


def construct(ctx: FixContext, finding: Finding) -> Fix | None:
    """Rename ``def forward`` to ``construct`` and the class's own ``self.forward(`` calls."""
    for cls in ast.walk(ctx.tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for stmt in cls.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "forward":
                line = ctx.lines[stmt.lineno - 1]
                column = _name_column(line, "forward")
                if stmt.lineno != finding.line or column != finding.column:
                    continue
                if any(
                    isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "construct"
                    for s in cls.body
                ):
                    return None
                edits = [TextEdit(stmt.lineno, column, stmt.lineno, column + len("forward"), "construct")]
                for node in ast.walk(cls):
                    if (
                        isinstance(node, ast.Attribute)
                        and node.attr == "forward"
                        and isinstance(node.value, ast.Name)
                        and node.value.id == "self"
                    ):
                        _, _, end_line, end_column = ctx.node_range(node)
                        edits.append(
                            TextEdit(end_line, end_column - len("forward"), end_line, end_column, "construct")
                        )
                return Fix("MSM501", "fix.pattern.construct", edits)
    return None


def _name_column(line: str, name: str) -> int:
    match = re.search(r"\bdef\s+(" + name + r")\b", line)
    return match.start(1) + 1 if match else -1


FIXERS = (super_construct, construct)
FIX_SAFETY = Safety.SAFE  # the same method, under the name MindSpore calls
