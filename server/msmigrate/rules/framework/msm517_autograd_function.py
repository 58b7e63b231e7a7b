"""MSM517: custom gradients with ``torch.autograd.Function`` → a ``mindspore.nn.Cell`` with ``bprop``
(the rewrite: ``fixes/autograd_function_fixes.py``)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.autograd_function_fixes import FUNCTION_BASES, autograd_function_fix, plan
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import BEFORE_MISSING_API, IDIOM_TAKE_OVER, reference_range, report, tree_index

RULE = Rule("MSM517", C.FRAMEWORK_PATTERN, S.INFORMATION,
                         "https://www.mindspore.cn/docs/en/r2.6.0/api_python/nn/mindspore.nn.Cell.html",
                         fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM517.title": (
        "Custom gradient with torch.autograd.Function",
        "用 torch.autograd.Function 自定义梯度",
    ),
    "rule.MSM517.explanation": (
        "In MindSpore a custom gradient is a Cell whose bprop(self, *inputs, out, dout) returns the "
        "gradients of the inputs; construct computes the output. The quick-fix turns the Function into such "
        "a Cell: forward(ctx, ...) becomes construct(self, ...), backward(ctx, grad) becomes bprop with the "
        "inputs, the output and the gradient, saved tensors are read from the inputs (or the output), "
        "ctx attributes set from inputs are computed again, and Fn.apply(...) becomes Fn()(...). A "
        "Function using ctx otherwise (needs_input_grad, mark_dirty, setup_context) is left to a person.",
        "在 MindSpore 中，自定义梯度是一个 Cell：其 bprop(self, *inputs, out, dout) 返回各输入的梯度，"
        "construct 计算输出。快速修复把 Function 改写为这样的 Cell：forward(ctx, ...) 改为 "
        "construct(self, ...)，backward(ctx, grad) 改为接收输入、输出和梯度的 bprop，保存的张量从输入"
        "（或输出）读取，由输入设置的 ctx 属性重新计算，Fn.apply(...) 改为 Fn()(...)。以其他方式使用 ctx 的 "
        "Function（needs_input_grad、mark_dirty、setup_context）需人工处理。",
    ),
    "finding.MSM517": (
        "{cls} is a torch.autograd.Function: in MindSpore, a Cell whose bprop gives the gradients",
        "{cls} 是 torch.autograd.Function：在 MindSpore 中应为由 bprop 给出梯度的 Cell",
    ),
    "fix.autograd_function": (
        "Rewrite {cls} as a mindspore.nn.Cell with construct and bprop",
        "将 {cls} 改写为带 construct 和 bprop 的 mindspore.nn.Cell",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM517": (
        "import torch\n\n\nclass Clip(torch.autograd.Function):\n    @staticmethod\n"
        "    def forward(ctx, x):\n        return x.clamp(-1, 1)\n\n    @staticmethod\n"
        "    def backward(ctx, grad):\n        return grad\n",
        "import torch\n\n\nclass Clip:\n    @staticmethod\n"
        "    def forward(x):\n        return x.clamp(-1, 1)\n",
        [(4, 12)],
    ),
}

_TAKE_OVER = IDIOM_TAKE_OVER


def detect(ctx) -> Iterable[Finding]:
    found = []
    for cls in tree_index(ctx).nodes(ast.ClassDef):
        for base in cls.bases:
            written = ctx.qualified_name(base)
            if written and (written in FUNCTION_BASES or ctx.kb.canonical(written) in FUNCTION_BASES):
                finding = report(ctx, RULE, reference_range(ctx, base), "finding.MSM517",
                                 {"cls": cls.name}, apis=[written, ctx.kb.canonical(written)],
                                 convertible=_TAKE_OVER, fixable=plan(cls) is not None,
                                 torch_api="torch.autograd.Function")
                if finding is not None:
                    found.append(finding)
    return found


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (autograd_function_fix,)
FIX_SAFETY = Safety.SAFE  # the same forward and gradients, as a Cell with bprop
