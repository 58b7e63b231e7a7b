"""MSM509: torch's automatic mixed precision (``autocast``, ``GradScaler``) is ``mindspore.amp``.

``mindspore.amp.auto_mixed_precision`` casts a whole network and ``DynamicLossScaler`` scales the loss;
there is no region autocast, so ``autocast(enabled=False)`` is reported as the block kept as it is
(``_amp.py``). Advice only: no fix.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._amp import amp_finding
from msmigrate.rules.framework._patterns import TAKE_OVER, TUTORIALS, references
from msmigrate.rules.support import reference_range

RULE = Rule("MSM509", C.FRAMEWORK_PATTERN, S.INFORMATION, TUTORIALS + "advanced/mixed_precision.html")

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM509.title": ("Automatic mixed precision", "自动混合精度"),
    "rule.MSM509.explanation": (
        'Use mindspore.amp: auto_mixed_precision(net, "O1"/"O2") casts the network, and '
        "DynamicLossScaler scales the loss (scale before grad, unscale the gradients and check them with "
        "all_finite before optimizer(grads)). There is no autocast context.",
        '请使用 mindspore.amp：auto_mixed_precision(net, "O1"/"O2") 转换网络精度，'
        "DynamicLossScaler 负责损失缩放（求导前缩放损失，调用 optimizer(grads) 前对梯度反缩放"
        "并用 all_finite 检查）。没有 autocast 上下文。",
    ),
    "finding.MSM509": (
        "{api}: use mindspore.amp (auto_mixed_precision, DynamicLossScaler)",
        "{api}：请使用 mindspore.amp（auto_mixed_precision、DynamicLossScaler）",
    ),
    "finding.MSM509.disabled": (
        "{api}(enabled=False) turns mixed precision off for its block: MindSpore has no region autocast, so "
        "drop the with (or decorator) and keep the block as it is",
        "{api}(enabled=False) 在其代码块内关闭混合精度：MindSpore 没有按代码块的 autocast，"
        "请去掉 with（或装饰器），保留代码块本身",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM509": (
        "import torch\nscaler = torch.cuda.amp.GradScaler()\n",
        "import torch\nscale = torch.ones(1)\n",
        [(2, 10)],
    ),
}


AMP_APIS = frozenset(
    {
        "torch.cuda.amp.autocast",
        "torch.autocast",
        "torch.amp.autocast",
        "torch.cpu.amp.autocast",
        "torch.cuda.amp.GradScaler",
        "torch.amp.GradScaler",
        "torch.cpu.amp.GradScaler",
    }
)


def detect(ctx) -> Iterable[Finding]:
    found = []
    for node in references(ctx):
        ctx.cancel.raise_if_cancelled()
        name = ctx.qualified_name(node)
        if name in AMP_APIS:
            found.append(amp_finding(ctx, RULE, reference_range(ctx, node), name, TAKE_OVER))
    return [finding for finding in found if finding is not None]


FIXERS = ()
