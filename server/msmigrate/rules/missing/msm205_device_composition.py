"""MSM205: a mapped API whose MindSpore target takes other arguments, where the fix cannot rewrite them.

A mapped torch API whose MindSpore target takes other arguments than torch's, used where the fix
cannot rewrite those arguments: the verified composition of the project's helper module takes torch's.

On CPU (MindSpore 2.10) ``mint.nn.LayerNorm`` and ``mint.nn.Conv2d`` have no kernel, so the fix writes
``nn.LayerNorm`` and ``nn.Conv2d``, whose arguments differ (``normalized_shape`` only as a tuple,
``epsilon``, ``pad_mode``, a padding of four values); ``nn.Conv1d`` is the table's own target. The argument
plan rewrites a call it sees, but not the arguments handed to a class used as a base
(``class LayerNorm(nn.LayerNorm)``) or passed as a value (``norm_layer=nn.LayerNorm``,
``partial(nn.LayerNorm, eps=1e-6)``, ``conv_layer=nn.Conv2d``), nor values it cannot read
(``padding=p`` may be a pair). Where the catalogue has a composition for the API
(``knowledge/compositions/catalogue.py``, ``replaces``), such uses take it instead:

* ``EVERY_USE`` (``LayerNorm``, ``layer_norm``): every use of the torch name, ``isinstance`` tests too, so
  that the classes the code builds and tests agree; on CPU also where the target takes torch's arguments
  but its fix is not known to keep the results there (``mint.nn.functional.layer_norm``: no CPU kernel);
* ``UNSAFE_USES`` (``ModuleList``): on the check device, the uses whose target's own fix is not safe (a
  list changed after its call, which ``CellList`` names otherwise); the others keep the target;
* ``TORCH_ARGUMENTS`` (``Conv1d``, ``Conv2d``, subclasses of MindSpore's classes): base classes, values, and
  calls passing ``padding``/``padding_mode`` otherwise than as the literal the target takes as torch does;
  a type test keeps MindSpore's class, which the composition's instances are.

The fix is the composition fix (``fixes/composition_fixes.py``): the helper's name at the reference, the
helper module imported and written; safe on the device the compositions are checked on (CPU).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.composition_fixes import applies
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix
from msmigrate.i18n import MessageRef, ref
from msmigrate.knowledge.compositions.catalogue import (
    EVERY_USE,
    INT_LITERAL,
    TORCH_ARGUMENTS,
    UNSAFE_USES,
    Composition,
)
from msmigrate.knowledge.compositions.verified import CHECK_DEVICE, offered_composition
from msmigrate.knowledge.resolution import same_parameters
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.missing._composition_safety import composition_safety
from msmigrate.rules.missing._interpolate_safety import API as INTERPOLATE
from msmigrate.rules.missing._interpolate_safety import with_interpolate_safety

DOC = "https://www.mindspore.cn/docs/en/r2.6.0/note/api_mapping/pytorch_api_mapping.html"
RULE = Rule("MSM205", C.DIFFERENCES, S.INFORMATION, DOC, fixable=True)
MAPPED = frozenset({"MSM100", "MSM101"})
_VALUES = frozenset({UsageKind.ATTRIBUTE, UsageKind.BASE_CLASS})

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.composition.unsafe.interpolate": (
        "Call {helper} of {module} (unsafe: the call's mode, antialias or align_corners is not a literal the "
        "helper computes as torch; without antialias it calls ops.interpolate, whose bicubic and linear "
        "differ)",
        "改为调用 {module} 中的 {helper}（不安全：该调用的 mode、antialias 或 align_corners 不是辅助函数与 "
        "torch 结果一致的字面值；不使用 antialias 时它调用 ops.interpolate，其 bicubic 与 linear 结果不同）",
    ),
    "rule.MSM205.title": (
        "Mapped API whose MindSpore target takes other arguments, where they cannot be rewritten",
        "映射目标参数不同且无法改写参数的已映射接口",
    ),
    "rule.MSM205.explanation": (
        "The MindSpore API the fix writes for this torch API on the chosen device takes other arguments "
        "(on CPU, mint.nn.LayerNorm and mint.nn.Conv2d have no kernel, and nn.LayerNorm and nn.Conv2d want "
        "a tuple shape, epsilon, pad_mode, four padding values). The fix rewrites the arguments of a call "
        "it sees, but not those given to a class used as a base class or passed as a value, nor values it "
        "cannot read. There msmigrate writes a composition that takes torch's arguments, checked against "
        "torch, into the project's helper module.",
        "在所选设备上，修复为该 torch 接口写入的 MindSpore 接口参数不同（CPU 上 mint.nn.LayerNorm、"
        "mint.nn.Conv2d 没有内核，而 nn.LayerNorm、nn.Conv2d 要求元组形状、epsilon、pad_mode、四个填充值）。"
        "修复能改写它看到的调用的参数，但无法改写传给基类或作为值传递的类的参数，也无法改写读不出的值。"
        "此时 msmigrate 改用项目辅助模块中一个接受 torch 参数、并已与 torch 对比验证的组合实现。",
    ),
    "finding.MSM205": (
        "{torch_api} → {mindspore_api} takes other arguments ({use:messages}); the composition {helper} "
        "takes torch's (checked against torch)",
        "{torch_api} → {mindspore_api} 的参数不同（{use:messages}）；组合实现 {helper} 接受 torch 的参数"
        "（已与 torch 对比验证）",
    ),
    "finding.MSM205.use.every_use": ("every use takes the composition, so that the classes agree",
                             "所有用法都改用组合实现，以保持类一致"),
    "finding.MSM205.use.unsafe_use": ("its own fix is not known to keep the results here",
                              "此处其自身的修复无法保证结果不变"),
    "finding.MSM205.use.base_class": ("a base class", "用作基类"),
    "finding.MSM205.use.value": ("passed as a value", "作为值传递"),
    "finding.MSM205.use.argument": ("{argument} as passed here", "此处传入的 {argument}"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM205": (
        "import torch\nnorm = torch.nn.LayerNorm(64)\n",
        "import torch\nnorm = torch.nn.GroupNorm(4, 64)\n",
        [(2, 8)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    """Turn the mapped findings this applies to into MSM205 findings (see the module doc)."""
    for finding in ctx.usages:
        if finding.rule not in MAPPED or not finding.torch_api:
            continue
        composition = offered_composition(finding.torch_api)
        if composition is None or not composition.replaces:
            continue
        resolution = finding.resolution
        target = (resolution.target if resolution is not None else None) or finding.mindspore_api
        if not target or not _otherwise(composition, finding, target, ctx.kb):
            continue
        call = ctx.call_of(finding)
        use = _use(composition, finding, call, ctx.kb)
        if use is None or not applies(composition, finding, call):
            continue
        finding.rule, finding.category, finding.severity = RULE.id, RULE.category, RULE.severity
        finding.mindspore_api = f"ms_compat.{composition.helper}"  # what is written (its parameter names)
        finding.message_key = "finding.MSM205"
        finding.message_args = {"torch_api": finding.torch_api, "mindspore_api": target,
                                "helper": f"ms_compat.{composition.helper}", "use": (use,)}
        finding.fixable = True
    return ()


def _otherwise(composition: Composition, finding: Finding, target: str, kb) -> bool:  # noqa: ANN001
    """Whether the target does not do what torch's API does with torch's arguments: for a composition of
    the unsafe uses, on the device the composition was checked on, the target's fix is not safe; it takes
    other parameters; or, for a composition of every use, on the device the composition was checked on, the
    target's own fix is not known to keep the results (no check passed there: ``mint``'s layer_norm has
    no CPU kernel); or, for a class taking ``inplace`` whose arguments the fix cannot see, on CPU (mint's
    in-place activations have no CPU kernel: ``InplaceSiLU``, ``InplaceReLU``)."""
    resolution = finding.resolution
    on_cpu = resolution is not None and resolution.device == CHECK_DEVICE
    if composition.replaces == UNSAFE_USES:  # the safe uses keep the target
        return on_cpu and resolution.safety is not Safety.SAFE
    if composition.other_meaning or not same_parameters(kb.torch_signatures(finding.torch_api),
                                                        kb.mindspore_signatures(target)):
        return True
    if (composition.replaces == TORCH_ARGUMENTS and on_cpu
            and any(p["name"] == "inplace" for s in kb.torch_signatures(finding.torch_api) for p in s)):
        return True  # arguments out of sight may say inplace=True: mint's in-place kernels are not on CPU
    return (composition.replaces == EVERY_USE and resolution is not None and resolution.device == CHECK_DEVICE
            and resolution.safety is not Safety.SAFE)


def _use(composition: Composition, finding: Finding, call: ast.Call | None, kb) -> MessageRef | None:  # noqa: ANN001
    """Why this use takes the composition (a message reference), None when the target's own fix stands."""
    if composition.replaces == EVERY_USE:
        return ref("finding.MSM205.use.every_use")
    if composition.replaces == UNSAFE_USES:
        return ref("finding.MSM205.use.unsafe_use")
    if composition.replaces != TORCH_ARGUMENTS:
        return None
    if composition.calls_only and (finding.usage is not UsageKind.CALL or call is None):
        return None  # a base class or a value keeps the target's fix
    if finding.usage is UsageKind.BASE_CLASS:
        return ref("finding.MSM205.use.base_class")
    if finding.usage in _VALUES and call is None:
        return ref("finding.MSM205.use.value")
    if finding.usage is not UsageKind.CALL or call is None:
        return None
    argument = unread_argument(composition, call, kb.torch_signatures(finding.torch_api))
    return ref("finding.MSM205.use.argument", argument=argument) if argument else None


def unread_argument(composition: Composition, call: ast.Call, signatures: list[list[dict]]) -> str | None:
    """The first ``as_written`` parameter the call passes otherwise than as the literal the target takes
    as torch does (``padding=p``, ``padding=(1, 2)``); ``*args``/``**kwargs`` may pass any."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return composition.as_written[0][0] if composition.as_written else None
    positional = [p["name"] for p in (signatures[0] if signatures else [])
                  if p.get("kind") in ("positional_only", "positional_or_keyword")]
    for name, literal in composition.as_written:
        index = positional.index(name) if name in positional else None
        node = call.args[index] if index is not None and index < len(call.args) else next(
            (k.value for k in call.keywords if k.arg == name), None)
        if node is None:
            continue
        if literal == INT_LITERAL:
            if not (isinstance(node, ast.Constant) and type(node.value) is int):
                return name
        elif ast.dump(node) != ast.dump(ast.parse(literal, mode="eval").body):
            return name
    return None


def compose_device(ctx: FixContext, finding: Finding) -> Fix | None:
    """The composition fix, for this rule's findings."""
    from msmigrate.fixes.composition_fixes import compose

    fix = compose(ctx, finding)
    if fix is not None and finding.torch_api == INTERPOLATE:  # safe per call: its fallback's modes
        return with_interpolate_safety(ctx.call_of(finding), fix)
    return fix


FIXERS = (compose_device,)
FIX_SAFETY = composition_safety  # checked against torch on CPU: safe there
