"""MSM508: an optimizer's learning rate is ``learning_rate`` in MindSpore, and a schedule, not
``param_groups``.

``lr=`` given to a torch optimizer whose MindSpore counterpart names it ``learning_rate`` is renamed by the
fix, which also writes that optimizer (``learning_rate=`` alone would break the torch call; the edit is the
mapping fix's, so fix-all merges the two): safe. Writing ``param_groups[i]["lr"]`` is reported (a
learning-rate schedule replaces it), reading the groups or writing other keys is not.
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
from msmigrate.rules.framework._patterns import (
    DOCS,
    OPTIMIZER_NAME,
    calls,
    is_optimizer,
    looks_like,
    optimizer_target,
    references,
)
from msmigrate.rules.support import attribute_range, new_finding

RULE = Rule(
    "MSM508",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    DOCS + "api_python/mindspore.nn.html#dynamic-learning-rate",
    fixable=True,
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM508.title": (
        "Optimizer learning-rate argument and parameter groups",
        "优化器学习率参数与参数组",
    ),
    "rule.MSM508.explanation": (
        "MindSpore optimizers take the learning rate as learning_rate, which may also be a list of per-step "
        'values or a LearningRateSchedule. Changing param_groups[i]["lr"] during training is replaced by '
        "such a schedule. The quick-fix renames lr= to learning_rate=.",
        "MindSpore 优化器的学习率参数名为 learning_rate，也可以是逐步的学习率列表或 LearningRateSchedule。"
        '训练中修改 param_groups[i]["lr"] 的做法应改用这类调度。快速修复会把 lr= 重命名为 learning_rate=。',
    ),
    "finding.MSM508": (
        "Optimizer argument lr is called learning_rate in MindSpore",
        "优化器参数 lr 在 MindSpore 中名为 learning_rate",
    ),
    "finding.MSM508.param_groups": (
        "Changing the learning rate through param_groups: pass a learning-rate schedule to the optimizer",
        "通过 param_groups 修改学习率：请向优化器传入学习率调度",
    ),
    "fix.pattern.learning_rate": (
        "Use {optimizer} and rename lr to learning_rate",
        "改用 {optimizer}，并将 lr 重命名为 learning_rate",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM508": (
        "import torch\nopt = torch.optim.SGD(params, lr=0.1, momentum=0.9)\n",
        "import torch\nopt = torch.optim.SGD(params, 0.1)\n",
        [(2, 31)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call, name in calls(ctx):
        if is_optimizer(name) and not _target_takes_lr(ctx.kb, name):
            for keyword in call.keywords:
                if keyword.arg == "lr":
                    line, column, _, _ = ctx.node_range(keyword)
                    found.append(new_finding(RULE, (line, column, line, column + 2), "finding.MSM508", {},
                                             torch_api=name, fixable=learning_rate_fixable(ctx.kb, name)))
    for node in references(ctx):
        ctx.cancel.raise_if_cancelled()
        if (  # (only the param_groups that are written are among the references)
            isinstance(node, ast.Attribute)
            and node.attr == "param_groups"
            and ctx.qualified_name(node) is None
            and (ctx.receiver_kind(node.value) == "optimizer" or looks_like(node.value, OPTIMIZER_NAME))
        ):
            found.append(new_finding(RULE, attribute_range(ctx, node), "finding.MSM508.param_groups", {}))
    return found


def _target_takes_lr(kb, optimizer: str) -> bool:
    """Whether the MindSpore optimizer it becomes (``mindspore.mint.optim.Adam`` …) names it ``lr`` too."""
    target = optimizer_target(kb, optimizer)
    if target is None:
        return False
    signatures = kb.mindspore_signatures(target)
    return any(param["name"] == "lr" for signature in signatures for param in signature)


def learning_rate_fixable(kb, optimizer: str) -> bool:
    """The rename needs a known MindSpore optimizer (``learning_rate=`` is no keyword of the torch one);
    the mapping fix renames ``lr`` itself when the optimizer's row says so, and then this rule does not."""
    row = kb.mapping(optimizer)
    return optimizer_target(kb, optimizer) is not None and (row is None or "lr" not in row.param_renames)


def learning_rate(ctx: FixContext, finding: Finding) -> Fix | None:
    """``torch.optim.SGD(p, lr=0.1)`` → ``mindspore.nn.SGD(p, learning_rate=0.1)``.

    The optimizer is replaced in the same fix: ``learning_rate=`` alone would break the torch call. The
    replacement edit is the one the mapping fix makes, so fix-all merges the two.
    """
    if finding.message_key != "finding.MSM508" or not finding.torch_api:
        return None
    target = optimizer_target(ctx.kb, finding.torch_api)
    if target is None or not learning_rate_fixable(ctx.kb, finding.torch_api):
        return None
    for call in ast.walk(ctx.tree):
        if not isinstance(call, ast.Call):
            continue
        for keyword in call.keywords:
            if keyword.arg != "lr":
                continue
            line, column, _, _ = ctx.node_range(keyword)
            if (line, column) != (finding.line, finding.column):
                continue
            edits = [TextEdit(line, column, line, column + 2, "learning_rate")]
            text, import_edits = ctx.mindspore_reference(target, call.func.lineno)
            if ctx.text(call.func) != text:
                edits += [TextEdit(*ctx.node_range(call.func), text), *import_edits]
            return Fix("MSM508", "fix.pattern.learning_rate", edits, {"optimizer": target})
    return None


FIXERS = (learning_rate,)
FIX_SAFETY = Safety.SAFE  # the same optimizer and learning rate, under MindSpore's keyword
