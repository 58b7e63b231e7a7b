"""MSM505: ``model.train()`` / ``model.eval()`` switch a Cell's mode with ``set_train(True/False)``.

Reported on a receiver that is a module, or is unknown and named like a model (``model``, ``net``,
``encoder``…), with a mode the call states (``train()``, ``train(False)``, ``train(flag)``, ``eval()``).
The fix writes ``set_train`` with the same flag: safe.
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
from msmigrate.rules.framework._patterns import DOCS, MODEL_NAME, TAKE_OVER, looks_like, method_calls
from msmigrate.rules.support import attribute_range, report, short

RULE = Rule(
    "MSM505",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    DOCS + "api_python/nn/mindspore.nn.Cell.html#mindspore.nn.Cell.set_train",
    fixable=True,
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM505.title": ("train() / eval() mode switch", "train() / eval() 模式切换"),
    "rule.MSM505.explanation": (
        "A Cell switches between training and inference behaviour (dropout, batch norm) with "
        "set_train(True) and set_train(False). The quick-fix rewrites model.train() and model.eval().",
        "Cell 通过 set_train(True) 和 set_train(False) 在训练与推理行为（dropout、batch norm）之间切换。"
        "快速修复会改写 model.train() 和 model.eval()。",
    ),
    "finding.MSM505": (
        "{call} switches the mode; use set_train({flag})",
        "{call} 切换模式；请使用 set_train({flag})",
    ),
    "fix.pattern.set_train": ("Rewrite as set_train({flag})", "改写为 set_train({flag})"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM505": (
        "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nmodel.eval()\n",
        "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nmodel.zero_grad()\n",
        [(3, 7)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call, func in method_calls(ctx, {"train", "eval"}):
        receiver = func.value
        if _receiver_is_model(ctx, receiver) and train_mode_flag(call) is not None:
            attr = func.attr
            args = {"call": f"{short(ctx, receiver, 20)}.{attr}()", "flag": train_mode_flag(call)}
            found.append(report(ctx, RULE, attribute_range(ctx, func), "finding.MSM505", args,
                                apis=[f"torch.nn.Module.{attr}"], convertible=TAKE_OVER, fixable=True,
                                torch_api=f"torch.nn.Module.{attr}"))
    return [finding for finding in found if finding is not None]


def _receiver_is_model(ctx, node: ast.expr) -> bool:
    kind = ctx.receiver_kind(node)
    return kind == "module" or (
        kind is None and ctx.qualified_name(node) is None and looks_like(node, MODEL_NAME)
    )


def train_mode_flag(call: ast.Call) -> str | None:
    """``True``/``False`` (as text) for ``model.train()``, ``model.train(False)``, ``model.eval()``; the
    argument's text for ``model.train(is_training)`` (``set_train`` takes the same bool)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or call.keywords and [k.arg for k in call.keywords] != ["mode"]:
        return None
    values = [*call.args, *(k.value for k in call.keywords)]
    if func.attr == "eval":
        return "False" if not values else None
    if not values:
        return "True"
    if len(values) != 1 or isinstance(values[0], ast.Starred):
        return None
    if isinstance(values[0], ast.Constant):
        return str(values[0].value) if isinstance(values[0].value, bool) else None
    return ast.unparse(values[0])


def set_train(ctx: FixContext, finding: Finding) -> Fix | None:
    """``model.train()`` → ``model.set_train(True)``; ``model.eval()`` → ``set_train(False)``."""
    call = ctx.call_of(finding)
    if call is None or not isinstance(call.func, ast.Attribute):
        return None
    flag = train_mode_flag(call)
    if flag is None:
        return None
    values = [*call.args, *(k.value for k in call.keywords)]
    if values and not isinstance(values[0], ast.Constant):  # the argument as written
        flag = ctx.text(values[0])
    _, _, end_line, end_column = ctx.node_range(call.func)
    start_column = end_column - len(call.func.attr)
    call_end = ctx.node_range(call)
    edit = TextEdit(end_line, start_column, call_end[2], call_end[3], f"set_train({flag})")
    return Fix("MSM505", "fix.pattern.set_train", [edit], {"flag": flag})


FIXERS = (set_train,)
FIX_SAFETY = Safety.SAFE  # the same mode switch
