"""``nn.ModuleList(block(i) for i in range(n))``: torch takes any iterable of modules; MindSpore 2.10's
``nn.CellList`` a list only ("the new cells wanted to append should be instance of list, but got
generator", checked). Beside the rename the mapping's fix writes, the generator becomes ``list(…)`` — the
same modules in the same order (a fix of the same finding, its edit inside the call's parentheses)."""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding, UsageKind

CONTAINERS = frozenset({"torch.nn.ModuleList"})


def generator_listed(ctx: FixContext, finding: Finding) -> Fix | None:
    if finding.torch_api not in CONTAINERS or finding.usage is not UsageKind.CALL:
        return None
    call = ctx.call_of(finding)
    if call is None or len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.GeneratorExp):
        return None
    line, column, end_line, end_column = ctx.node_range(call.args[0])
    # insertions only, around the generator: the fixes inside it (its modules' names) apply in the same pass.
    # A generator that is the only argument spans the call's parentheses: ``(list`` goes before them.
    before = "(list" if ctx.text(call.args[0]).startswith("(") else "list("
    edits = [TextEdit(line, column, line, column, before),
             TextEdit(end_line, end_column, end_line, end_column, ")")]
    return Fix(finding.rule, "fix.generator_listed", edits, {})


FIXERS = {"MSM100": generator_listed, "MSM101": generator_listed}
