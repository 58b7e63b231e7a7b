"""MSM704 fix: the form of a Tensor method that runs in PyNative and in GRAPH_MODE on CPU with the same result
(``knowledge/graph_mode_forms.py``): ``x.chunk(2, dim=1)`` → ``x.chunk(2, 1)`` (the keyword that selects the
overload without a CPU kernel passed by position), ``x.transpose(1, 2)`` → ``x.swapaxes(1, 2)``. Both mean the
same in torch, so the fix applies to torch code and to migrated code alike. Only where the keyword is the
call's first keyword and every parameter before it is passed by position (then dropping ``dim=`` leaves it
in its place); std/median have no such form (their positional overloads compute otherwise). Registered by
the rule's module, ``rules/graph/msm704_tensor_form.py``.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.graph_mode_forms import failing_form
from msmigrate.model.finding import Finding

RULE = "MSM704"
# the keyword's position among the method's parameters (torch's and MindSpore's Tensor method alike)
POSITION = {"chunk": 1, "split": 1, "cumsum": 0, "sort": 0}
RENAMED = {"transpose": "swapaxes"}


def _call_at(ctx: FixContext, finding: Finding) -> ast.Call | None:
    """The method call whose arguments the finding covers."""
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            chosen = [*node.args, *node.keywords]  # the finding starts at the arguments choosing the form
            if any(ctx.node_range(arg)[:2] == (finding.line, finding.column) for arg in chosen):
                form = failing_form(node.func.attr, len(node.args), {k.arg for k in node.keywords if k.arg})
                if form is not None:
                    return node
    return None


def graph_form(ctx: FixContext, finding: Finding) -> Fix | None:
    call = _call_at(ctx, finding)
    if call is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    method = call.func.attr  # type: ignore[attr-defined]
    if method == "expand":  # sizes packed into one tuple, as broadcast_to takes them (-1 keeps a size)
        line, column, end_line, end_column = ctx.node_range(call.func)
        first, last = ctx.node_range(call.args[0]), ctx.node_range(call.args[-1])
        edits = [TextEdit(end_line, end_column - len(method), end_line, end_column, "broadcast_to"),
                 TextEdit(*first[:2], *first[:2], "("), TextEdit(*last[2:], *last[2:], ")")]
        return Fix(RULE, "fix.graph_form", edits, {"form": "x.broadcast_to((…))"})
    if method in RENAMED:
        line, column, end_line, end_column = ctx.node_range(call.func)
        edit = TextEdit(end_line, end_column - len(method), end_line, end_column, RENAMED[method])
        return Fix(RULE, "fix.graph_form", [edit], {"form": f"x.{RENAMED[method]}(…)"})
    if method not in POSITION or len(call.args) != POSITION[method] or not call.keywords:
        return None
    first = call.keywords[0]
    if first.arg != "dim":
        return None
    start = ctx.node_range(first)[:2]
    value = ctx.node_range(first.value)[:2]
    return Fix(RULE, "fix.graph_form", [TextEdit(*start, *value, "")], {"form": f"x.{method}(…, dim)"})

