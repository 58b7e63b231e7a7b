"""MSM532: a persistent buffer (``self.register_buffer("name", tensor)``) becomes a Parameter that is not
trained, as MindSpore keeps the state its own layers save (BatchNorm's ``moving_mean``).

torch saves persistent buffers in the state dict; MindSpore 2.10's ``Cell.register_buffer`` keeps the tensor,
but ``mindspore.save_checkpoint`` writes Parameters only and ``load_param_into_net`` loads Parameters only
(checked), so a converted checkpoint cannot give a buffer torch's value (the sinusoidal table of
whisper's encoder, segment-anything's random Gaussian matrix of positional encodings). The fix writes
``self.name = mindspore.Parameter(tensor, requires_grad=False)``: saved and loaded with the weights, left
out of ``trainable_params()`` (what an optimizer takes), computed with as before. A buffer with
``persistent=False`` (not in torch's state dict) keeps ``register_buffer``; so does a buffer the class
assigns otherwise (``self.name = …`` elsewhere: a Parameter is set with ``set_data``) or registers twice,
and one whose value is ``None``.
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
from msmigrate.rules.buffers import buffer_arguments
from msmigrate.rules.support import BEFORE_MISSING_API, attribute_range, report

DOC = "https://www.mindspore.cn/tutorials/en/r2.6.0/model_migration/model_migration.html"
RULE = Rule("MSM532", C.FRAMEWORK_PATTERN, S.INFORMATION, DOC, fixable=True)
API = "torch.nn.Module.register_buffer"

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM532.title": ("Persistent buffer", "持久化的 buffer"),
    "rule.MSM532.explanation": (
        "torch saves a persistent buffer (register_buffer without persistent=False) in the state dict with "
        "the weights. MindSpore's checkpoints hold Parameters only: save_checkpoint does not write a buffer "
        "and load_param_into_net does not load one, so a converted torch checkpoint cannot restore it. "
        "MindSpore keeps such state as a Parameter that is not trained (as BatchNorm keeps moving_mean): "
        "the fix writes self.name = mindspore.Parameter(tensor, requires_grad=False).",
        "torch 会把持久化的 buffer（未设置 persistent=False 的 register_buffer）与权重一起存入 state dict。"
        "MindSpore 的检查点只保存 Parameter：save_checkpoint 不会写入 buffer，"
        "load_param_into_net 也不会加载，因此转换后的 torch 检查点无法恢复它。"
        "MindSpore 把这类状态保存为不参与训练的 Parameter（如 BatchNorm 的 moving_mean）："
        "修复改写为 self.name = mindspore.Parameter(tensor, requires_grad=False)。",
    ),
    "finding.MSM532": (
        "buffer {name} is saved with the weights in torch; in MindSpore a Parameter that is not trained is "
        "(self.{name} = mindspore.Parameter(…, requires_grad=False))",
        "buffer {name} 在 torch 中随权重保存；在 MindSpore 中应为不参与训练的 Parameter"
        "（self.{name} = mindspore.Parameter(…, requires_grad=False)）",
    ),
    "fix.persistent_buffer": ("Keep {name} as a Parameter that is not trained",
                              "把 {name} 改为不参与训练的 Parameter"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM532": (
        "import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('table', torch.zeros(4))\n",
        "import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('mask', torch.zeros(4), persistent=False)\n",
        [(7, 14)],
    ),
}


def _registered(call: ast.Call) -> tuple[str, ast.expr] | None:
    """(name, value) of ``self.register_buffer("name", value[, persistent=True])`` that MSM532 rewrites."""
    found = buffer_arguments(call)
    if found is None:
        return None
    name, value, persistent = found
    if value is None or (isinstance(value, ast.Constant) and value.value is None):
        return None
    if persistent is not None and not (isinstance(persistent, ast.Constant) and persistent.value is True):
        return None
    return name, value


def _assigned_otherwise(cls: ast.ClassDef, name: str) -> bool:
    """Whether the class sets ``self.<name>`` other than by one ``register_buffer`` call."""
    registered = 0
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AugAssign | ast.AnnAssign) else node.targets if isinstance(node, ast.Delete) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr == name and isinstance(
                    target.value, ast.Name) and target.value.id == "self":
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "register_buffer", "register_parameter") and node.args and isinstance(
                node.args[0], ast.Constant) and node.args[0].value == name:
            registered += 1
    return registered > 1


def _buffers(tree: ast.Module) -> Iterable[tuple[ast.Expr, ast.Call, str, ast.expr]]:
    """Each rewritable ``register_buffer`` statement: (statement, call, name, value)."""
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for node in ast.walk(cls):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                found = _registered(node.value)
                if found is not None and not _assigned_otherwise(cls, found[0]):
                    yield node, node.value, found[0], found[1]


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if "register_buffer" not in ctx.source:
        return []
    found = []
    for _statement, call, name, _value in _buffers(ctx.tree):
        if not ctx.usages or not any(f.torch_api == API for f in ctx.usages):
            continue
        span = attribute_range(ctx, call.func)  # type: ignore[arg-type]
        finding = report(ctx, RULE, span, "finding.MSM532", {"name": name}, apis=[API],
                         convertible=frozenset({"MSM100", "MSM101", "MSM201"}), fixable=True, torch_api=API)
        if finding is not None:
            found.append(finding)
    return found


def persistent_buffer(ctx: FixContext, finding: Finding) -> Fix | None:
    for statement, call, name, value in _buffers(ctx.tree):
        if attribute_range(ctx, call.func)[:2] != (finding.line, finding.column):  # type: ignore[arg-type]
            continue
        parameter, imports = ctx.mindspore_reference("mindspore.Parameter", finding.line)
        text = f"self.{name} = {parameter}({ctx.text(value)}, requires_grad=False)"
        return Fix(RULE.id, "fix.persistent_buffer", [TextEdit(*ctx.node_range(statement), text), *imports],
                   {"name": name})
    return None


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (persistent_buffer,)
FIX_SAFETY = Safety.SAFE  # an untrained Parameter: the same values, saved and loaded with the weights
