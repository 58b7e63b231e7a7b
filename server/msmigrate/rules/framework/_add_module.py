"""MSM521 (``msm521_cell_parameters.py``) for ``net.add_module(name, cell)``: the mapped target,
``Cell.insert_child_to_cell``, leaves the child's parameters unnamed by their path, so the names (the
checkpoint keys) differ from torch's, and a child added to a ``SequentialCell`` is not run. The finding
names this, and its fix calls the helper module's ``add_module`` (``fixes/add_module_fixes.py``), which
adds the child as torch does. The usage finding of the API is taken over here, so its fix is that one and
not the mapping's rename.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.add_module_fixes import ADD_MODULE_KEY, APIS, fits
from msmigrate.model.finding import Finding


def add_module_findings(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
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
