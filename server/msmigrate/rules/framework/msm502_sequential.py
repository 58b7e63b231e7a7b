"""MSM502: ``nn.Sequential(a, b)`` is ``nn.SequentialCell([a, b])``.

The fix writes the full MindSpore name (``nn`` still means ``torch.nn`` in a file being migrated) and puts
the layers in one list, keeping their text, comments and line breaks; an ``OrderedDict`` argument is kept
as it is. Safe: the same layers, run in the same order (keywords: no fix).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.call_layout import wrap_arguments
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.ordered_dicts import is_ordered_dict
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._patterns import DOCS, TAKE_OVER, calls
from msmigrate.rules.support import reference_range, report

RULE = Rule(
    "MSM502",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    DOCS + "api_python/nn/mindspore.nn.SequentialCell.html",
    fixable=True,
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM502.title": ("nn.Sequential container", "nn.Sequential 容器"),
    "rule.MSM502.explanation": (
        "The MindSpore counterpart is nn.SequentialCell, which takes the layers as one list (or an "
        "OrderedDict). The quick-fix rewrites nn.Sequential(a, b) to nn.SequentialCell([a, b]).",
        "MindSpore 中对应的是 nn.SequentialCell，它以一个列表（或 OrderedDict）接收各层。"
        "快速修复会把 nn.Sequential(a, b) 改写为 nn.SequentialCell([a, b])。",
    ),
    "finding.MSM502": (
        "nn.Sequential becomes nn.SequentialCell with the layers in a list",
        "nn.Sequential 改为 nn.SequentialCell，各层放入列表",
    ),
    "fix.pattern.sequential": ("Rewrite as SequentialCell([...])", "改写为 SequentialCell([...])"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM502": (
        "import torch.nn as nn\nbody = nn.Sequential(nn.ReLU(), nn.Dropout(0.1))\n",
        "import torch.nn as nn\nbody = nn.ModuleList([nn.ReLU()])\n",
        [(2, 8)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call, name in calls(ctx):
        if name == "torch.nn.Sequential":
            found.append(report(ctx, RULE, reference_range(ctx, call.func), "finding.MSM502", {}, apis=[name],
                                convertible=TAKE_OVER, fixable=sequential_fixable(call), torch_api=name))
    return [finding for finding in found if finding is not None]


def sequential_fixable(call: ast.Call) -> bool:
    return not call.keywords


def sequential(ctx: FixContext, finding: Finding) -> Fix | None:
    """``nn.Sequential(a, b)`` → ``nn.SequentialCell([a, b])`` (an OrderedDict is kept); the layers' text,
    comments and line breaks stay as written."""
    call = ctx.call_of(finding)
    if call is None or call.keywords:
        return None
    # the full MindSpore name: ``nn`` still means torch.nn in a file being migrated
    name, import_edits = ctx.mindspore_reference("mindspore.nn.SequentialCell", finding.line)
    single_dict = len(call.args) == 1 and is_ordered_dict(ctx, call.args[0])
    brackets = [] if single_dict or not call.args else wrap_arguments(ctx, call, "[", "]")
    if brackets is None:
        return None
    edit = TextEdit(*ctx.node_range(call.func), name)
    return Fix("MSM502", "fix.pattern.sequential", [edit, *brackets, *import_edits])


FIXERS = (sequential,)
FIX_SAFETY = Safety.SAFE  # the same layers, run in the same order
