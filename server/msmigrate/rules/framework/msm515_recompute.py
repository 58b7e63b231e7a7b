"""MSM515: activation checkpointing (``torch.utils.checkpoint.checkpoint``).

``checkpoint(block, *args)`` computes ``block(*args)`` and recomputes it during the backward pass to save
memory; with torch's default ``preserve_rng_state=True`` the gradients are those of ``block(*args)``.
MindSpore 2.10 has ``mindspore.recompute(block, *args)`` (and ``Cell.recompute()``), but, checked on CPU,
it does not replay the random state: a block with dropout gets gradients for another dropout mask than
its forward used, and ``use_reentrant=False`` fails on dropout altogether. So the exact rewrite is the
plain call ``block(*args)`` (safe); the finding names ``mindspore.recompute`` for whoever needs the memory
and has no randomness in the block.
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
from msmigrate.rules.support import IDIOM_TAKE_OVER, reference_range, report, tree_index

RULE = Rule("MSM515", C.FRAMEWORK_PATTERN, S.INFORMATION,
            "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.recompute.html",
            fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM515.title": ("Activation checkpointing", "激活重计算（checkpoint）"),
    "rule.MSM515.explanation": (
        "torch.utils.checkpoint.checkpoint(block, *args) computes block(*args) and recomputes it in the "
        "backward pass to save memory. MindSpore's mindspore.recompute does the same but does not replay the "
        "random state, so a block with dropout gets other gradients. The quick-fix calls the block directly "
        "(the same results, no memory saving); where memory matters and the block has no dropout, "
        "mindspore.recompute(block, *args) can be written by hand.",
        "torch.utils.checkpoint.checkpoint(block, *args) 计算 block(*args)，并在反向传播时重新计算以节省"
        "内存。MindSpore 的 mindspore.recompute 作用相同，但不会重放随机状态，因此含 dropout 的块会得到"
        "不同的梯度。快速修复直接调用该块（结果相同，不节省内存）；"
        "需要节省内存且块中没有 dropout 时，可手工改写为 mindspore.recompute(block, *args)。",
    ),
    "finding.MSM515": (
        "{api}: call the block directly, or use mindspore.recompute to save memory",
        "{api}：直接调用该块，或使用 mindspore.recompute 节省内存",
    ),
    "fix.recompute.call": (
        "Call {block} directly (the same results, no memory saving)",
        "直接调用 {block}（结果相同，不节省内存）",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM515": (
        "from torch.utils.checkpoint import checkpoint\n\n"
        "def run(block, x):\n    return checkpoint(block, x)\n",
        "import torch\n\ndef run(block, x):\n    return block(x)\n",
        [(4, 12)],
    ),
}

CHECKPOINT = "torch.utils.checkpoint.checkpoint"
# checkpoint's own keywords (any other keyword goes to the block)
_OWN = frozenset({"use_reentrant", "preserve_rng_state", "context_fn", "determinism_check", "debug"})
_TAKE_OVER = IDIOM_TAKE_OVER


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call in tree_index(ctx).nodes(ast.Call):
        written = ctx.qualified_name(call.func)
        if written and ctx.kb.canonical(written) == CHECKPOINT:
            finding = report(ctx, RULE, reference_range(ctx, call.func), "finding.MSM515",
                             {"api": CHECKPOINT}, apis=[CHECKPOINT, written], convertible=_TAKE_OVER,
                             fixable=_parts(call) is not None, torch_api=CHECKPOINT)
            if finding is not None:
                found.append(finding)
    return found


def _parts(call: ast.Call) -> tuple[ast.expr, list[ast.expr], list[ast.keyword]] | None:
    """(block, its arguments, its keywords) of ``checkpoint(block, *args, **kwargs)``."""
    if not call.args or isinstance(call.args[0], ast.Starred) or any(k.arg is None for k in call.keywords):
        return None
    return call.args[0], call.args[1:], [k for k in call.keywords if k.arg not in _OWN]


def _block_text(ctx: FixContext, block: ast.expr) -> str:
    text = ctx.text(block)
    return text if isinstance(block, ast.Name | ast.Attribute | ast.Call | ast.Subscript) else f"({text})"


def direct_call(ctx: FixContext, finding: Finding) -> Fix | None:
    """``checkpoint(block, x, use_reentrant=False)`` → ``block(x)``."""
    call = ctx.call_of(finding)
    parts = _parts(call) if call is not None else None
    if parts is None:
        return None
    block, args, keywords = parts
    arguments = ", ".join([*(ctx.text(a) for a in args), *(ctx.text(k) for k in keywords)])
    text = f"{_block_text(ctx, block)}({arguments})"
    return Fix("MSM515", "fix.recompute.call", [TextEdit(*ctx.node_range(call), text)],
               {"block": ctx.text(block)})


FIXERS = (direct_call,)
FIX_SAFETY = Safety.SAFE  # the block called directly computes what checkpoint's forward does
