"""MSM536: a padding that crops (an amount written negated), where the fix would write ``ops.pad`` on CPU.

torch's ``F.pad(x, (0, 0, n, -n))`` shifts ``x`` along a dimension: a negative amount removes elements
(g-mlp-pytorch's token shift). On CPU the API finding writes ``mindspore.ops.pad`` (mint's pad has no CPU
kernel), and MindSpore 2.10's ``ops.pad`` computes a negative amount right on its first call only: later
calls leave elements of the result unwritten (they hold what memory held), in PyNative and GRAPH_MODE
alike; non-negative amounts stay right. The primitive ``ops.PadV3`` with the amounts as an int64 tensor
computes torch's result for negative amounts too, every call, in both modes, so the quick-fix writes
``ops.PadV3()(x, mindspore.tensor(pad, mindspore.int64), mindspore.tensor(value, x.dtype))`` (all checked
against torch in ``tests/rules/test_msm536_negative_pad.py``). An amount written negated (``-n``, ``-1``)
marks the crop; an amount that is only a name may be negative too and is not claimed (most paddings are
computed as ``max(…, 0)``). The fix needs the padding as a tuple or list display, the input as a name or
attribute (it is read twice), and no mode but ``'constant'``; otherwise the finding says to crop by slicing.
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
from msmigrate.rules.support import IDIOM_TAKE_OVER, reference_range, report, short, tree_index

RULE = Rule("MSM536", C.FRAMEWORK_PATTERN, S.WARNING,
            "https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.pad.html", fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM536.title": ("A padding that crops, on CPU", "CPU 上起裁剪作用的填充"),
    "rule.MSM536.explanation": (
        "A negative padding amount removes elements (torch's F.pad(x, (0, 0, n, -n)) shifts x). On CPU, "
        "MindSpore 2.10's ops.pad computes a negative amount right on its first call only; later calls leave "
        "elements of the result unwritten. The primitive ops.PadV3, given the amounts as an int64 tensor, "
        "computes torch's result every call, in PyNative and GRAPH_MODE: the quick-fix writes it. Where it "
        "cannot (a mode other than 'constant', the padding not written as a tuple or list), crop by slicing "
        "and pad only with amounts that are not negative.",
        "负的填充量会删除元素（torch 的 F.pad(x, (0, 0, n, -n)) 用于平移 x）。在 CPU 上，MindSpore 2.10 的 "
        "ops.pad 只有首次调用能正确计算负填充量，之后的调用会使结果中部分元素未被写入。"
        "以 int64 张量传入填充量的原语 ops.PadV3 每次都给出与 torch 相同的结果"
        "（PyNative 与 GRAPH_MODE 均是）：快速修复改写为它。"
        "无法改写时（mode 不是 'constant'，或填充量不是以元组或列表写出），"
        "请先用切片裁剪，再只用非负的填充量填充。",
    ),
    "finding.MSM536": (
        "F.pad with the amount {value}, negative (a crop): mindspore.ops.pad on CPU computes it right on its "
        "first call only (MindSpore 2.10); ops.PadV3 with the amounts as an int64 tensor computes it every "
        "call",
        "F.pad 的填充量 {value} 为负（裁剪）：mindspore.ops.pad 在 CPU 上仅首次调用时计算正确（MindSpore "
        "2.10）；以 int64 张量传入填充量的 ops.PadV3 每次都计算正确",
    ),
    "fix.negative_pad": ("Call ops.PadV3 with the amounts {pad} as an int64 tensor",
                         "调用 ops.PadV3，以 int64 张量传入填充量 {pad}"),
}

TORCH_API = "torch.nn.functional.pad"
WRITTEN_TARGET, DEVICE = "mindspore.ops.pad", "CPU"  # the API finding's target where this holds

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM536": (
        "import torch.nn.functional as F\n\n\ndef shift(t, n):\n    return F.pad(t, (0, 0, n, -n))\n",
        "import torch.nn.functional as F\n\n\ndef grow(t, n):\n    return F.pad(t, (0, 0, n, n))\n",
        [(5, 12)],
    ),
}


def negated_amount(pad: ast.expr | None) -> ast.expr | None:
    """The first amount of a padding display written negated (``-n``, ``-1``)."""
    if not isinstance(pad, ast.Tuple | ast.List):
        return None
    for amount in pad.elts:
        if isinstance(amount, ast.UnaryOp) and isinstance(amount.op, ast.USub):
            return amount
        if isinstance(amount, ast.Constant) and isinstance(amount.value, int | float) and amount.value < 0:
            return amount
    return None


def _pad_argument(call: ast.Call) -> ast.expr | None:
    if len(call.args) > 1:
        return call.args[1]
    return next((k.value for k in call.keywords if k.arg == "pad"), None)


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    """The ``F.pad`` calls with an amount written negated whose API finding writes ``ops.pad`` on CPU (that
    finding becomes this rule's)."""
    if "pad" not in ctx.source:
        return []
    targets = {(u.line, u.column): u.resolution for u in ctx.usages if u.resolution is not None}
    found = []
    for call in tree_index(ctx).nodes(ast.Call):
        written = ctx.qualified_name(call.func)
        if not written or ctx.kb.canonical(written) != TORCH_API:
            continue
        amount = negated_amount(_pad_argument(call))
        span = reference_range(ctx, call.func)
        resolution = targets.get(span[:2])
        if amount is None or resolution is None or (resolution.device, resolution.target) != (
                DEVICE, WRITTEN_TARGET):
            continue
        finding = report(ctx, RULE, span, "finding.MSM536", {"value": short(ctx, amount)},
                         apis=[TORCH_API, written], convertible=IDIOM_TAKE_OVER, fixable=True,
                         torch_api=TORCH_API)
        if finding is not None:
            found.append(finding)
    return found


def _constant_mode(call: ast.Call) -> bool:
    if len(call.args) > 2:
        return False  # mode (and value) by position: not rewritten
    mode = next((k.value for k in call.keywords if k.arg == "mode"), None)
    return mode is None or (isinstance(mode, ast.Constant) and mode.value == "constant")


def pad_v3(ctx: FixContext, finding: Finding) -> Fix | None:
    """``F.pad(x, (0, 0, n, -n), value=v)`` → ``ops.PadV3()(x, mindspore.tensor((0, 0, n, -n),
    mindspore.int64), mindspore.tensor(v, x.dtype))``."""
    call = ctx.call_of(finding)
    if call is None or not _constant_mode(call) or any(k.arg is None for k in call.keywords):
        return None
    source = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "input"), None)
    pad = _pad_argument(call)
    if not isinstance(source, ast.Name | ast.Attribute) or negated_amount(pad) is None:
        return None
    if any(k.arg not in ("input", "pad", "mode", "value") for k in call.keywords):
        return None
    value = next((k.value for k in call.keywords if k.arg == "value"), None)
    value_text = "0" if value is None or (isinstance(value, ast.Constant) and value.value is None) \
        else ctx.text(value)
    primitive, edits = ctx.mindspore_reference("mindspore.ops.PadV3", finding.line)
    tensor, more = ctx.mindspore_reference("mindspore.tensor", finding.line)
    int64, most = ctx.mindspore_reference("mindspore.int64", finding.line)
    x = ctx.text(source)
    text = (f"{primitive}()({x}, {tensor}({ctx.text(pad)}, {int64}), "  # type: ignore[arg-type]
            f"{tensor}({value_text}, {x}.dtype))")
    return Fix(RULE.id, "fix.negative_pad", [TextEdit(*ctx.node_range(call), text), *edits, *more, *most],
               {"pad": short(ctx, pad)})  # type: ignore[arg-type]


FIXERS = (pad_v3,)
FIX_SAFETY = Safety.SAFE  # torch's values for every amount, every call (checked against torch: the test)
