"""MSM501, with the rename of ``def forward``: the class's ``super().forward(...)`` calls (whisper's
``class LayerNorm(nn.LayerNorm): def forward(self, x): return super().forward(x.float())``) call the base
cell's ``construct``; MindSpore's Cell has no ``forward``. Its edits sit beside the rename's
(``rules/framework/msm501_module_forward.py``: ``construct``), so both apply in one pass.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding


def _is_super(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def super_construct(ctx: FixContext, finding: Finding) -> Fix | None:
    for cls in ast.walk(ctx.tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        methods = {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
        forward = methods.get("forward")
        if forward is None or forward.lineno != finding.line or "construct" in methods:
            continue
        edits = []
        for node in ast.walk(cls):
            if isinstance(node, ast.Attribute) and node.attr == "forward" and _is_super(node.value):
                _, _, line, column = ctx.node_range(node)
                edits.append(TextEdit(line, column - len("forward"), line, column, "construct"))
        return Fix("MSM501", "fix.pattern.construct", edits) if edits else None
    return None

