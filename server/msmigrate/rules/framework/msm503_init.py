"""MSM503: in-place weight initialization with ``torch.nn.init.*`` is ``param.set_data(initializer(...))``.

``kaiming_normal_`` is ``HeNormal``, ``xavier_uniform_`` is ``XavierUniform`` and so on
(``knowledge/initializers.py``). The fixes, tried in order: a whole class's initialization
(``fixes/init_by_class_fixes.py``), a slice or new tensor initialized (``fixes/init_helper_fixes.py``), the
call rewritten (``fixes/init_fixes.py``). Safe: the same distribution with the same arguments. The
helpers ``calculate_gain`` and ``_calculate_fan_in_and_fan_out`` are MSM518/MSM519.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.fixes.init_by_class_fixes import init_by_class
from msmigrate.fixes.init_fixes import init_rewrite
from msmigrate.fixes.init_helper_fixes import slice_or_new_tensor_init
from msmigrate.knowledge.initializers import INIT_ARGUMENTS, INITIALIZERS
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._patterns import DOCS, TAKE_OVER, calls
from msmigrate.rules.support import reference_range, report

RULE = Rule(
    "MSM503", C.FRAMEWORK_PATTERN, S.INFORMATION, DOCS + "api_python/mindspore.common.initializer.html",
    fixable=True,
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM503.title": ("In-place weight initialization with nn.init", "用 nn.init 原地初始化权重"),
    "rule.MSM503.explanation": (
        "MindSpore initializes parameters with mindspore.common.initializer: "
        "param.set_data(initializer(HeNormal(), param.shape, param.dtype)), or by passing weight_init to the "
        "layer. kaiming_normal_ is HeNormal, xavier_uniform_ is XavierUniform, constant_ is Constant, "
        "zeros_ is Zero, normal_ is Normal, trunc_normal_ is TruncatedNormal.",
        "MindSpore 使用 mindspore.common.initializer 初始化参数：param.set_data(initializer(HeNormal(), "
        "param.shape, "
        "param.dtype))，或在创建层时传入 weight_init。kaiming_normal_ 对应 HeNormal，xavier_uniform_ 对应 "
        "XavierUniform，constant_ 对应 Constant，zeros_ 对应 Zero，"
        "normal_ 对应 Normal，trunc_normal_ 对应 TruncatedNormal。",
    ),
    "finding.MSM503": (
        "{api}: initialize with mindspore.common.initializer.{initializer} via param.set_data(initializer(..."
        "))",
        "{api}：请通过 param.set_data(initializer(...)) 使用 mindspore.common.initializer.{initializer} "
        "初始化",
    ),
    "finding.MSM503.generic": (
        "{api}: initialize with mindspore.common.initializer via param.set_data(initializer(...))",
        "{api}：请通过 param.set_data(initializer(...)) 使用 mindspore.common.initializer 初始化",
    ),
    "fix.pattern.initializer": (
        "Initialize with {initializer} via set_data(initializer(...))",
        "通过 set_data(initializer(...)) 用 {initializer} 初始化",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM503": (
        "import torch.nn as nn\nnn.init.kaiming_normal_(conv.weight, mode='fan_out')\n",
        "import torch.nn as nn\nconv = nn.Conv2d(3, 8, 3)\n",
        [(2, 1)],
    ),
}


INIT_HELPERS = frozenset({"torch.nn.init.calculate_gain", "torch.nn.init._calculate_fan_in_and_fan_out"})


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call, name in calls(ctx):
        if name and name.startswith("torch.nn.init.") and name not in INIT_HELPERS:  # (MSM518, MSM519)
            initializer = INITIALIZERS.get(name.rsplit(".", 1)[1])
            key = "finding.MSM503" if initializer else "finding.MSM503.generic"
            found.append(report(ctx, RULE, reference_range(ctx, call.func), key,
                                {"api": name, "initializer": initializer}, apis=[name], convertible=TAKE_OVER,
                                fixable=name.rsplit(".", 1)[1] in INIT_ARGUMENTS, torch_api=name))
    return [finding for finding in found if finding is not None]


FIXERS = (init_by_class, slice_or_new_tensor_init, init_rewrite)
FIX_SAFETY = Safety.SAFE  # the same distribution with the same arguments
