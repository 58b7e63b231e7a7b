"""MSM201–MSM204: which missing-API policy applies to an unmapped torch API (refines MSM200 findings),
and the MSM201 quick-fix: the exact rewrite of the advice (``fixes/rewrites.py``) or the MindSpore name."""

from __future__ import annotations

import weakref
from collections.abc import Iterable

from msmigrate.fixes.composition_fixes import built_from
from msmigrate.fixes.composition_fixes import refine as composition_refine
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.receiver_function_fixes import RECEIVER_FUNCTION, receiver_call, receiver_function
from msmigrate.fixes.rewrites import rewrite, title_args
from msmigrate.i18n import ref
from msmigrate.knowledge.missing_advice import (
    NAME_FIX,
    POLICY_DOC,
    RULE_FOR_POLICY,
    MissingAdvice,
    Policy,
    advice_for,
)
from msmigrate.knowledge.missing_advice_frequent import RECIPE_NOTES
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule

DOC = POLICY_DOC.format(lang="en")

RULES = [
    Rule("MSM201", C.MISSING, S.INFORMATION, DOC, fixable=True),  # a hint when a rename or a fix does it
    Rule("MSM202", C.MISSING, S.WARNING, DOC, fixable=True),  # verified compositions: composition_fixes
    Rule("MSM203", C.MISSING, S.WARNING, DOC),
    Rule("MSM204", C.MISSING, S.WARNING, DOC),
]

# The family's texts (en, zh): rule titles and explanations, finding messages. The message catalogue
# (i18n.py) reads this literal without importing the module.
MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM201.title": (
        "Missing API with an equivalent replacement",
        "缺失接口：可等价替换",
    ),
    "rule.MSM201.explanation": (
        "The torch API has no row in the mapping table, but the same result can be computed with another "
        "API: a shape-only call becomes a reshape, adaptive pooling to size 1 becomes a mean or maximum over "
        "the spatial axes with keepdims, max pooling whose indices are not used is max pooling with argmax, "
        "a full sort is a top-k with k equal to the dimension size. When the rewrite is exact for the call "
        "as written, a quick-fix applies it.",
        "该 torch 接口在映射表中没有对应行，但可以用其他接口得到相同结果：只改变形状的调用可改为 reshape；"
        "输出尺寸为 1 的自适应池化等价于在空间维上带 keepdims 的求均值或求最大值；不使用索引的最大池化与带 "
        "argmax 的最大池化等价；全排序等价于 k 取该维长度的 top-k。若改写对当前写法完全等价，"
        "可通过快速修复直接应用。",
    ),
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
    "rule.MSM203.title": (
        "Missing API that needs a custom operator",
        "缺失接口：需要自定义算子",
    ),
    "rule.MSM203.explanation": (
        "The computation cannot be expressed efficiently with existing MindSpore APIs. Write it as a custom "
        "operator with mindspore.ops.Custom; the AOT route can also call an existing third-party kernel (for "
        "example a PyTorch ATen operator) for quick validation. Porting to CPU and GPU is straightforward; "
        "Ascend needs its own operator development, so prefer wrapping official operators there.",
        "该计算无法用 MindSpore 现有接口高效表达。请用 mindspore.ops.Custom 编写自定义算子；其 AOT "
        "方式也可以调用"
        "现有的第三方算子（例如 PyTorch 的 ATen 算子）做快速验证。迁移到 CPU 和 GPU 较为直接；Ascend "
        "需要单独进行"
        "算子开发，门槛较高，建议优先用官方算子组合实现。",
    ),
    "rule.MSM204.title": (
        "Missing API to raise with the MindSpore community",
        "缺失接口：建议向 MindSpore 社区求助",
    ),
    "rule.MSM204.explanation": (
        "There is no known replacement or composition. Open an issue on the MindSpore tracker asking for the "
        "API (the link fills in its name), and meanwhile consider a custom operator.",
        "目前没有已知的替换或组合方案。请在 MindSpore 的 issue 系统中提交需求（链接已自动填入接口名），"
        "在此之前可考虑开发自定义算子。",
    ),
    "finding.MSM201": (
        "{torch_api} has no MindSpore mapping; equivalent replacement: {replacement}",
        "{torch_api} 没有 MindSpore 映射；可等价替换为：{replacement}",
    ),
    "finding.MSM201.reference": (
        "{torch_api} names a type here; in MindSpore it is {replacement}",
        "{torch_api} 在此处作为类型引用；在 MindSpore 中为 {replacement}",
    ),
    "finding.MSM201.drop": (
        "{torch_api} has no MindSpore counterpart and needs none: remove it",
        "{torch_api} 在 MindSpore 中没有对应接口，也无需对应：请删除它",
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
    "finding.MSM203": (
        "{torch_api} has no MindSpore mapping; implement it as a custom operator (mindspore.ops.Custom)",
        "{torch_api} 没有 MindSpore 映射；请用自定义算子（mindspore.ops.Custom）实现",
    ),
    "finding.MSM204": (
        "{torch_api} has no MindSpore mapping and no known replacement; ask the MindSpore community",
        "{torch_api} 没有 MindSpore 映射，也没有已知替代方案；请向 MindSpore 社区求助",
    ),
}

# rule id → (example that triggers the rule, counter-example that does not, the (line, column) of the
# rule's findings in the example)
EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM201": (
        "import torch.nn.functional as F\ny = F.adaptive_max_pool2d(x, 1)\n",
        "import torch.nn.functional as F\ny = F.adaptive_avg_pool2d(x, 1)\n",
        [(2, 5)],
    ),
    "MSM202": (
        "import torch\nnorm = torch.nn.RMSNorm(64)\n",
        "import torch\nnorm = torch.nn.LayerNorm(64)\n",
        [(2, 8)],
    ),
    "MSM203": (
        "import torch\nout = torch.segment_reduce(data, 'sum', lengths=lengths)\n",
        "import torch\nout = torch.cumsum(data, 0)\n",
        [(2, 7)],
    ),
    "MSM204": (
        "import torch\nopt = torch.optim.LBFGS(params)\n",
        "import torch\nopt = torch.optim.Adam(params)\n",
        [(2, 7)],
    ),
}


_ADVICE: weakref.WeakKeyDictionary[object, dict[str, MissingAdvice | None]] = weakref.WeakKeyDictionary()


def refine(ctx) -> Iterable[Finding]:
    """Give each ``MSM200`` finding the rule of its policy, its replacement and whether a fix is exact."""
    advice_of = _ADVICE.get(ctx.kb)
    if advice_of is None:  # the advice depends on the API and the (read-only) knowledge base only
        advice_of = _ADVICE[ctx.kb] = {}
    for finding in ctx.usages:
        if finding.rule != "MSM200" or not finding.torch_api:
            continue
        if finding.torch_api in advice_of:
            advice = advice_of[finding.torch_api]
        else:
            advice = advice_of[finding.torch_api] = advice_for(finding.torch_api, ctx.kb)
        if composition_refine(ctx, finding):  # a verified composition replaces the call (MSM202)
            if advice is not None and not finding.mindspore_api:  # the catalogue's API the helper calls
                finding.mindspore_api = built_from(finding.torch_api, advice.replacements)
            continue
        if advice is None or advice.policy is None:
            continue
        rule = RULE_FOR_POLICY[advice.policy]
        finding.rule = rule
        renamed = reference_rename(finding, advice, ctx.kb)
        if renamed is not None:
            finding.message_key = f"finding.{rule}.reference"  # a type named, not a missing API
        else:
            finding.message_key = message_key(rule, advice)
        finding.message_args = {
            "torch_api": finding.torch_api,
            "replacement": ", ".join(advice.replacements) or "-",
        }
        if renamed is None and advice.note_key in RECIPE_NOTES:  # the note is the answer: say it
            finding.message_key = f"finding.{rule}.recipe"
            finding.message_args["recipe"] = (ref(advice.note_key, **advice.note_args),)
        finding.mindspore_api = finding.mindspore_api or (
            advice.replacements[0] if advice.replacements else None
        )
        if renamed is not None:
            finding.fixable = True
        elif advice.fix == NAME_FIX:
            finding.fixable = finding.usage in (UsageKind.ATTRIBUTE, UsageKind.REFERENCE)
        elif advice.fix == RECEIVER_FUNCTION:
            finding.fixable = receiver_call(ctx.call_of(finding)) is not None
        else:
            finding.fixable = bool(rewrite(advice.fix, ctx, ctx.call_of(finding), finding.torch_api))
    return ()


CHECKERS = [refine]


def message_key(rule: str, advice: MissingAdvice) -> str:
    """The finding's message: an equivalent API with nothing to replace it by is dropped (``.drop``); the
    other policies say what to do whether or not replacements are listed."""
    return f"finding.{rule}.drop" if rule == "MSM201" and not advice.replacements else f"finding.{rule}"


def reference_rename(finding: Finding, advice: MissingAdvice, kb) -> str | None:
    """The MindSpore class a type reference becomes (``x: torch.Tensor`` → ``mindspore.Tensor``): an
    annotation or ``isinstance`` argument naming a class with an equivalent class is a rename."""
    if finding.usage is not UsageKind.REFERENCE or advice.policy is not Policy.EQUIVALENT:
        return None
    if not advice.replacements:
        return None
    replacement = advice.replacements[0]
    entry = kb.mindspore_inventory.get(replacement)
    return replacement if entry is not None and entry.get("kind") == "class" else None


def missing_api(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM201: the exact rewrite of the advice, when it applies to the call as written."""
    if not finding.torch_api:
        return None
    advice = advice_for(finding.torch_api, ctx.kb)
    if advice is None:
        return None
    renamed = reference_rename(finding, advice, ctx.kb)
    if renamed is not None:
        return _mindspore_name(ctx, finding, renamed)
    if advice.fix is None:
        return None
    if advice.fix == NAME_FIX:
        return _mindspore_name(ctx, finding, advice.replacements[0])
    if advice.fix == RECEIVER_FUNCTION:
        return receiver_function(ctx, finding, advice.replacements[0])
    call = ctx.call_of(finding)
    if call is None:
        return None
    raw = rewrite(advice.fix, ctx, call, advice.torch_api)
    if not raw:
        return None
    return Fix(
        "MSM201",
        f"fix.pattern.{advice.fix}",
        [TextEdit(*edit) for edit in raw],
        title_args(advice.fix, call, advice.torch_api, ctx),
    )


def _mindspore_name(ctx: FixContext, finding: Finding, mindspore_api: str) -> Fix | None:
    """A dtype such as ``torch.float32`` → ``mindspore.float32`` (plain references only, not imports)."""
    reference = ctx.reference_of(finding)
    if finding.usage not in (UsageKind.ATTRIBUTE, UsageKind.REFERENCE) or reference is None:
        return None
    name, import_edits = ctx.mindspore_reference(mindspore_api, finding.line)
    edit = TextEdit(*ctx.node_range(reference), name)
    return Fix("MSM201", "fix.pattern.mindspore_name", [edit, *import_edits], {"name": mindspore_api})


FIXERS = {"MSM201": missing_api}
