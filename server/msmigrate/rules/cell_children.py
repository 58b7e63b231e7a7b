"""MSM521 for ``net.add_module(name, cell)``: the mapped target, ``Cell.insert_child_to_cell``, leaves the
child's parameters unnamed by their path, so the names (the checkpoint keys) differ from torch's, and a
child added to a ``SequentialCell`` is not run. The finding names this, and its fix calls the helper
module's ``add_module`` (``fixes/add_module_fixes.py``), which adds the child as torch does. The usage
finding of the API is taken over here, so its fix is that one and not the mapping's rename.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.add_module_fixes import ADD_MODULE_KEY, APIS, fits
from msmigrate.model.finding import Finding

RULES: list = []  # MSM521 is defined in rules/cell_parameters.py

MESSAGES: dict[str, tuple[str, str]] = {
    "finding.MSM521.add_module": (
        "{api} → mindspore.nn.Cell.insert_child_to_cell does not name the child's parameters by their path "
        "(the checkpoint keys differ from torch's) and a SequentialCell does not run the child: the helper "
        "module's add_module adds it as torch does",
        "{api} → mindspore.nn.Cell.insert_child_to_cell 不会按路径为子 Cell 的参数命名"
        "（检查点键与 torch 不同），SequentialCell 也不会执行该子 Cell：辅助模块的 add_module 以与 torch "
        "相同的方式添加它",
    ),
}
EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {}


def check(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    for finding in ctx.usages:
        if finding.torch_api not in APIS:
            continue
        call = ctx.call_of(finding)
        if call is None or not isinstance(call.func, ast.Attribute):
            continue
        finding.rule, finding.message_key = "MSM521", ADD_MODULE_KEY
        finding.message_args = {"api": finding.torch_api}
        finding.fixable = fits(call)
    return ()


CHECKERS = [check]
