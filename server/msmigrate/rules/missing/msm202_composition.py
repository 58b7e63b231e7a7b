"""MSM202: an unmapped torch API that can be composed from mapped APIs (refines MSM200 findings).

A call that a verified composition replaces (``knowledge/compositions/``) becomes this rule's whatever the
policy of its advice: the quick-fix calls the composition from the project's helper module
(``fixes/composition_fixes.py``), safe on the device its numeric check passed on (CPU). Otherwise the advice
shows a composition to write by hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.fixes.composition_fixes import built_from, compose
from msmigrate.fixes.composition_fixes import refine as composition_refine
from msmigrate.knowledge.missing_advice import RULE_FOR_POLICY
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.missing._composition_safety import composition_safety
from msmigrate.rules.missing._refine import DOC, advice_of, apply, unmapped

RULE = Rule("MSM202", C.MISSING, S.WARNING, DOC, fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM202.title": (
        "Missing API that can be composed from mapped APIs",
        "缺失接口：可用已有接口组合实现",
    ),
    "rule.MSM202.explanation": (
        "No single MindSpore API does this, but every building block is mapped. The advice shows a MindSpore "
        "composition written for this case (for example a Cell for RMS normalization); compare its output "
        "with the PyTorch call on a few inputs before relying on it.",
        "MindSpore 没有单个接口实现该功能，但所需的基础运算都有映射。建议中给出了针对该场景编写的 MindSpore "
        "组合实现（例如实现 RMS 归一化的 Cell）；使用前请用几组输入与 PyTorch 的结果对比验证。",
    ),
    "finding.MSM202": (
        "{torch_api} has no MindSpore mapping; compose it from mapped APIs ({replacement})",
        "{torch_api} 没有 MindSpore 映射；可用已映射接口组合实现（{replacement}）",
    ),
    "finding.MSM202.composition": (
        "{torch_api} has no MindSpore counterpart; {helper}, a composition of MindSpore operators checked "
        "against torch, computes the same: the quick-fix calls it from the project's helper module",
        "{torch_api} 在 MindSpore 中没有对应接口；{helper} 是用 MindSpore 算子组合、并已与 torch "
        "对比验证的实现，计算结果相同：快速修复改为调用项目辅助模块中的该函数",
    ),
    "finding.MSM202.member": (
        "{torch_api} is read on the result of {owner}, whose composition {helper} has it too: the quick-fix "
        "of {owner} rewrites both",
        "{torch_api} 读取的是 {owner} 结果的属性，其组合实现 {helper} 的结果同样具有该属性：{owner} "
        "的快速修复会一并改写",
    ),
    "finding.MSM202.recipe": (
        "{torch_api} has no MindSpore mapping; compose it. {recipe:messages}",
        "{torch_api} 没有 MindSpore 映射；请组合实现。{recipe:messages}",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM202": (
        "import torch\nnorm = torch.nn.RMSNorm(64)\n",
        "import torch\nnorm = torch.nn.LayerNorm(64)\n",
        [(2, 8)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    """A verified composition's call (``fixes/composition_fixes.refine``), else the advice's composition."""
    for finding in list(unmapped(ctx)):
        advice = advice_of(ctx, finding.torch_api)
        if composition_refine(ctx, finding):  # a verified composition replaces the call
            if advice is not None and not finding.mindspore_api:  # the catalogue's API the helper calls
                finding.mindspore_api = built_from(finding.torch_api, advice.replacements)
            continue
        if advice is not None and advice.policy is not None and RULE_FOR_POLICY[advice.policy] == RULE.id:
            apply(ctx, finding, advice)
    return ()


FIXERS = (compose,)
FIX_SAFETY = composition_safety
