"""MSM504: explicit device placement (``.cuda()``, ``.cpu()``, ``.to(device)``, ``torch.device``).

MindSpore selects the device once per process and places every tensor and network there. The fixes, tried
in order: a default device argument dropped (``fixes/device_default_fixes.py``), then the move itself
removed (a statement of its own removed whole, ``x = x.to(device)`` too, it would become ``x = x``); a
``.to(device, dtype)`` keeps its cast (its message says so). Safe: on one device the move computes
nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.device_default_fixes import device_default
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._call_advice import device_move_message
from msmigrate.rules.framework._patterns import (
    DEVICE_METHODS,
    DOCS,
    TAKE_OVER,
    is_device,
    method_calls,
    references,
)
from msmigrate.rules.support import attribute_range, reference_range, report, usage_at

RULE = Rule(
    "MSM504",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    DOCS + "api_python/mindspore/mindspore.set_context.html",
    fixable=True,
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM504.title": ("Explicit device placement", "显式的设备放置"),
    "rule.MSM504.explanation": (
        'MindSpore selects the device once per process (mindspore.set_device("GPU", 0), or set_context '
        "with device_target) and places every tensor and network there. .cuda(), .cpu(), .to(device) and "
        "torch.device are not needed; the quick-fix removes the device move.",
        'MindSpore 在进程中统一指定一次设备（mindspore.set_device("GPU", 0)，'
        "或 set_context 的 device_target），"
        "所有张量和网络都放在该设备上。不需要 .cuda()、.cpu()、.to(device) 和 torch.device；"
        "快速修复会删除这些设备迁移调用。",
    ),
    "finding.MSM504": (
        "{call} moves data between devices; MindSpore uses the device set once with mindspore.set_device",
        "{call} 在设备间迁移数据；MindSpore 使用通过 mindspore.set_device 统一指定的设备",
    ),
    "finding.MSM504.device": (
        "torch.device: select the device once with mindspore.set_device",
        "torch.device：请用 mindspore.set_device 统一指定设备",
    ),
    "fix.pattern.device": ("Remove the device move", "删除设备迁移调用"),
    "finding.MSM504.cast": (
        "{call} moves data between devices and casts to {dtype}: keep the cast (.astype({dtype})); MindSpore "
        "uses the device set once with mindspore.set_device",
        "{call} 在设备间迁移数据并转换为 {dtype}：请保留类型转换（.astype({dtype}）；MindSpore 使用通过 "
        "mindspore.set_device 统一指定的设备",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM504": (
        "import torch\n\ndef step(x: torch.Tensor):\n    return x.cuda()\n",
        "import torch\n\ndef step(x: torch.Tensor):\n    return x.float()\n",
        [(4, 14)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call, func in method_calls(ctx, DEVICE_METHODS | {"to"}):
        attr = func.attr
        if attr == "to" and not (call.args and is_device(ctx, call.args[0])):
            continue
        if attr in DEVICE_METHODS and call.args and not isinstance(call.args[0], ast.Constant | ast.Name):
            continue
        key, args = device_move_message(ctx, call, attr)
        found.append(report(ctx, RULE, attribute_range(ctx, func), key, args,
                            apis=[f"torch.Tensor.{attr}", f"torch.nn.Module.{attr}"], convertible=TAKE_OVER,
                            fixable=device_move_fixable(ctx, call),
                            torch_api=_device_method_api(ctx, func, ctx.receiver_kind(func.value))))
    for node in references(ctx):
        ctx.cancel.raise_if_cancelled()
        name = ctx.qualified_name(node)
        if name in {"torch.device", "torch.cuda.set_device"}:
            found.append(report(ctx, RULE, reference_range(ctx, node), "finding.MSM504.device", {},
                                apis=[name], convertible=TAKE_OVER, torch_api=name))
    return [finding for finding in found if finding is not None]


def device_move_fixable(ctx, call: ast.Call) -> bool:
    """Whether removing ``.cuda()`` / ``.cpu()`` / ``.to(device)`` keeps the same meaning otherwise."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in DEVICE_METHODS:
        return not call.args and all(k.arg == "non_blocking" for k in call.keywords)
    return (
        func.attr == "to"
        and len(call.args) == 1
        and is_device(ctx, call.args[0])
        and all(k.arg == "non_blocking" for k in call.keywords)
    )


def _device_method_api(ctx, func: ast.Attribute, kind: str | None) -> str | None:
    """``torch.nn.Module.to`` on a module, ``torch.Tensor.to`` on a tensor (or the API the analyzer
    reported there); none when the receiver's kind is unknown (modules and tensors both have it)."""
    if kind == "module":
        return f"torch.nn.Module.{func.attr}"
    if kind == "tensor":
        return f"torch.Tensor.{func.attr}"
    existing = usage_at(ctx, attribute_range(ctx, func))
    return existing.torch_api if existing is not None else None


def device(ctx: FixContext, finding: Finding) -> Fix | None:
    """Drop ``.cuda()`` / ``.cpu()`` / ``.to(device)``; a statement of its own is removed whole, and so is
    ``x = x.to(device)`` (it would become ``x = x``)."""
    call = ctx.call_of(finding)
    if call is None or not device_move_fixable(_Names(ctx), call):
        return None
    statement = _statement_of(ctx.tree, call)
    if statement is not None and (isinstance(statement, ast.Expr) or _self_assignment(ctx, statement, call)):
        line, column, end_line, end_column = ctx.node_range(statement)
        siblings = _siblings(ctx.tree, statement)
        if siblings is None or len(siblings) > 1:
            if (
                ctx.lines[line - 1][: column - 1].strip() == ""
                and ctx.lines[end_line - 1][end_column - 1 :].strip() == ""
            ):
                return Fix("MSM504", "fix.pattern.device", [TextEdit(line, 1, end_line + 1, 1, "")])
        return Fix("MSM504", "fix.pattern.device", [TextEdit(line, column, end_line, end_column, "pass")])
    raw = _drop_member_call(ctx, call)
    return Fix("MSM504", "fix.pattern.device", [TextEdit(*edit) for edit in raw]) if raw else None


def _self_assignment(ctx: FixContext, statement: ast.stmt, call: ast.Call) -> bool:
    """``x = x.cuda()`` / ``self.x = self.x.to(device)``: the move is the whole value, assigned back."""
    return (
        isinstance(statement, ast.Assign)
        and statement.value is call
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name | ast.Attribute)
        and isinstance(call.func, ast.Attribute)
        and ctx.text(statement.targets[0]) == ctx.text(call.func.value)
    )


def _drop_member_call(ctx: FixContext, call: ast.Call):
    from msmigrate.fixes.rewrites import drop_call

    stripped = ast.Call(func=call.func, args=[], keywords=[])
    ast.copy_location(stripped, call)
    stripped.end_lineno, stripped.end_col_offset = call.end_lineno, call.end_col_offset
    return drop_call(ctx, stripped, "")


class _Names:
    """Adapter giving the fix context the ``qualified_name`` the device predicates ask for."""

    def __init__(self, ctx: FixContext) -> None:
        self.ctx = ctx

    def qualified_name(self, node: ast.expr) -> str | None:
        return "torch.device" if self.ctx.text(node) in {"torch.device", "device"} else None


def _statement_of(tree: ast.Module, target: ast.AST) -> ast.stmt | None:
    """The expression statement or assignment whose whole value is ``target``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr | ast.Assign) and node.value is target:
            return node
    return None


def _siblings(tree: ast.Module, statement: ast.stmt) -> list[ast.stmt] | None:
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and statement in block:
                return block
    return None


FIXERS = (device_default, device)
FIX_SAFETY = Safety.SAFE  # on the one device MindSpore uses, a move computes nothing
