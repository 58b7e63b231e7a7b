"""MSM201: an unmapped torch API with an equivalent replacement (refines MSM200 findings).

The advice of the missing-API guide (``knowledge/missing_advice.py``) names the replacement; the quick-fix is
the exact rewrite of the advice (``fixes/rewrites.py``) when it applies to the call as written, the function
a receiver method becomes, or the MindSpore name of a dtype or of a type named (``torch.dtype`` →
``mindspore.Type``). A type *named* (an annotation, an ``isinstance`` class) computes nothing, so its rename
is safe; ``x.detach()`` → ``ops.stop_gradient(x)`` is safe where ``x`` is a new tensor nothing else holds
(``_detach_safety.py``: an in-place change of ``x`` or of the result, as MindSpore's write-backs make it,
is not seen through the other); the other rewrites are not checked numerically here, so they are unsafe.

A second detector (``EXTRA_DETECTORS``, run after MSM504's, which reports every ``torch.device``) refines
torch's type objects named in model code and its legacy typed tensor constructors into MSM201, with an exact
rewrite:

* ``torch.dtype`` named as a type (``cast_dtype: Optional[torch.dtype]``, ``-> torch.dtype``,
  ``isinstance(d, torch.dtype)``) is ``mindspore.Type`` (the same class as ``mindspore.dtype.Type``): every
  MindSpore dtype (``mindspore.float32``) is an instance of it (checked under MindSpore 2.10);
* ``torch.device`` named as a type (``def _get_device(self) -> torch.device``) is ``str``: MindSpore names
  devices by strings (``Tensor.device`` is ``"CPU"``), the value such code returns once migrated;
* ``torch.FloatTensor([[...], ...])`` and the other typed constructors called with the data (a list or tuple
  display, or a comprehension) are ``mindspore.tensor(data, dtype=mindspore.float32)`` — the same values
  and dtype. Called with sizes (``torch.FloatTensor(2, 3)``: uninitialized memory) they are left alone.
  The fix decides its safety per call: safe for ``torch.FloatTensor`` whose data is Python numbers
  (``rules/number_data.py``, the check MSM535 makes for ``torch.Tensor``), unsafe otherwise (a tensor in
  the list, a name not known, another dtype: not checked).
"""
from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.receiver_function_fixes import RECEIVER_FUNCTION, receiver_function
from msmigrate.fixes.rewrites import rewrite, title_args
from msmigrate.knowledge.missing_advice import NAME_FIX, advice_for
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Detector, Rule
from msmigrate.rules.missing._detach_safety import with_safety
from msmigrate.rules.missing._refine import DOC, reference_rename, refine
from msmigrate.rules.number_data import number_data

RULE = Rule("MSM201", C.MISSING, S.INFORMATION, DOC, fixable=True)  # a hint when a rename or a fix does it
# torch's type objects named as types → their MindSpore names; the typed tensor constructors → their dtypes
TYPE_NAMES: dict[str, str] = {"torch.dtype": "mindspore.Type", "torch.device": "str"}
TYPED_TENSORS: dict[str, str] = {
    "torch.FloatTensor": "float32", "torch.DoubleTensor": "float64", "torch.HalfTensor": "float16",
    "torch.BFloat16Tensor": "bfloat16", "torch.LongTensor": "int64", "torch.IntTensor": "int32",
    "torch.ShortTensor": "int16", "torch.CharTensor": "int8", "torch.ByteTensor": "uint8",
    "torch.BoolTensor": "bool",
}
_DATA = (ast.List, ast.Tuple, ast.ListComp)

MESSAGES: dict[str, tuple[str, str]] = {
    "fix.pattern.receiver_function.unsafe.held": (
        "Rewrite .{method}() as {name}(…) (unsafe: {input} may be held by other code; torch's detach shares "
        "its memory, and an in-place change through one, written back with assign_value in MindSpore, is not "
        "seen through the other)",
        "将 .{method}() 改写为 {name}(…)（不安全：{input} 可能被其他代码持有；torch 的 detach 共享其内存，"
        "而在 MindSpore 中以 assign_value 写回的原地修改在另一个上看不到）",
    ),
    "fix.pattern.receiver_function.unsafe.parameter": (
        "Rewrite .{method}() as {name}(…) (unsafe: {input} is a parameter of the function; torch's detach "
        "shares the caller's tensor's memory, which an in-place change written back with assign_value in "
        "MindSpore does not reach)",
        "将 .{method}() 改写为 {name}(…)（不安全：{input} 是函数的参数；torch 的 detach 与调用方的张量"
        "共享内存，而在 MindSpore 中以 assign_value 写回的原地修改不会影响它）",
    ),
    "fix.pattern.receiver_function.unsafe.loop": (
        "Rewrite .{method}() as {name}(…) (unsafe: the call is in a loop, where {input} may be read again "
        "on the next pass; torch's detach shares its memory, which an in-place change written back with "
        "assign_value in MindSpore does not reach)",
        "将 .{method}() 改写为 {name}(…)（不安全：调用位于循环中，{input} 可能在下一轮再次被读取；"
        "torch 的 detach 共享其内存，而在 MindSpore 中以 assign_value 写回的原地修改不会影响它）",
    ),
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
    "finding.MSM201.recipe": (
        "{torch_api} has no MindSpore mapping. {recipe:messages}",
        "{torch_api} 没有 MindSpore 映射。{recipe:messages}",
    ),
    "finding.MSM201.typed_tensor": (
        "{torch_api}(data) builds a {dtype} tensor of the data: "
        "mindspore.tensor(data, dtype=mindspore.{dtype})",
        "{torch_api}(data) 用数据构造 {dtype} 张量：即 mindspore.tensor(data, dtype=mindspore.{dtype})",
    ),
    "finding.MSM201.typed_tensor.numbers": (
        "{torch_api}(data) builds a float32 tensor of the data, which are Python numbers: "
        "mindspore.tensor(data, dtype=mindspore.float32) builds the same",
        "{torch_api}(data) 用数据构造 float32 张量，数据均为 Python 数字："
        "mindspore.tensor(data, dtype=mindspore.float32) 构造出相同的张量",
    ),
    "fix.pattern.typed_tensor": ("Rewrite as mindspore.tensor(…, dtype=mindspore.{dtype})",
                                 "改写为 mindspore.tensor(…, dtype=mindspore.{dtype})"),
    "fix.pattern.typed_tensor.unsafe": (
        "Rewrite as mindspore.tensor(…, dtype=mindspore.{dtype}) (unsafe: checked only for float32 data "
        "that is Python numbers)",
        "改写为 mindspore.tensor(…, dtype=mindspore.{dtype})（不安全：仅对由 Python 数字构成的 float32 数据"
        "做过检查）",
    ),
    "fix.pattern.type_name": ("Name the type {name}", "将类型写为 {name}"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM201": (
        "import torch.nn.functional as F\ny = F.adaptive_max_pool2d(x, 1)\n",
        "import torch.nn.functional as F\ny = F.adaptive_avg_pool2d(x, 1)\n",
        [(2, 5)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return refine(ctx, RULE.id)


def detect_torch_types(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    """A type object named as a type, a typed constructor called with the data: MSM201 with its rewrite
    (run after MSM504, which reports every ``torch.device`` and so the ones named as a type)."""
    for finding in ctx.usages:
        api = finding.torch_api or ""
        if api in TYPE_NAMES and finding.usage is UsageKind.REFERENCE:
            finding.rule, finding.category = RULE.id, C.MISSING
            finding.message_key = "finding.MSM201.reference"
            finding.message_args = {"torch_api": api, "replacement": TYPE_NAMES[api]}
            finding.mindspore_api = TYPE_NAMES[api] if TYPE_NAMES[api].startswith("mindspore.") else None
            finding.fixable = True
        elif api in TYPED_TENSORS and finding.usage is UsageKind.CALL and _data_call(ctx.call_of(finding)):
            finding.rule, finding.category = RULE.id, C.MISSING
            finding.message_key = "finding.MSM201.typed_tensor"
            call = ctx.call_of(finding)
            if api == "torch.FloatTensor" and number_data(ctx).numbers(call, call.args[0]):
                finding.message_key = "finding.MSM201.typed_tensor.numbers"
            finding.message_args = {"torch_api": api, "dtype": TYPED_TENSORS[api]}
            finding.mindspore_api = "mindspore.tensor"
            finding.fixable = True
    return ()


def _data_call(call: ast.Call | None) -> ast.expr | None:
    """The data of ``torch.FloatTensor(data)`` (one list/tuple display or comprehension, no keyword)."""
    if call is None or len(call.args) != 1 or call.keywords or not isinstance(call.args[0], _DATA):
        return None
    return call.args[0]


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
    if advice.fix == RECEIVER_FUNCTION:  # x.detach(): safe where x is a new tensor nothing else holds
        fix = receiver_function(ctx, finding, advice.replacements[0])
        return None if fix is None else with_safety(ctx, finding, fix)
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


def torch_type(ctx: FixContext, finding: Finding) -> Fix | None:
    """The type's MindSpore name at the reference; a typed constructor's data as ``mindspore.tensor``."""
    api = finding.torch_api or ""
    if api in TYPE_NAMES and finding.usage is UsageKind.REFERENCE:
        reference = ctx.reference_of(finding)
        if reference is None:
            return None
        name, imports = TYPE_NAMES[api], []
        if name.startswith("mindspore."):
            name, imports = ctx.mindspore_reference(name, finding.line)
        return Fix(RULE.id, "fix.pattern.type_name", [TextEdit(*ctx.node_range(reference), name), *imports],
                   {"name": TYPE_NAMES[api]})
    call = ctx.call_of(finding) if api in TYPED_TENSORS else None
    data = _data_call(call)
    if call is None or data is None:
        return None
    function, imports = ctx.mindspore_reference("mindspore.tensor", finding.line)
    dtype, more = ctx.mindspore_reference(f"mindspore.{TYPED_TENSORS[api]}", finding.line)
    text = f"{function}({ctx.text(data)}, dtype={dtype})"
    exact = finding.message_key == "finding.MSM201.typed_tensor.numbers"  # decided by detect_torch_types
    return Fix(RULE.id, "fix.pattern.typed_tensor" if exact else "fix.pattern.typed_tensor.unsafe",
               [TextEdit(*ctx.node_range(call), text), *imports, *more], {"dtype": TYPED_TENSORS[api]},
               safety=Safety.SAFE if exact else Safety.UNSAFE)


def fix_safety(kb, finding: Finding) -> Safety:  # noqa: ANN001 - the knowledge base (not read)
    """A type named (an annotation, an ``isinstance`` class, a string annotation's names) computes nothing:
    its rename is safe; any other rewrite of this rule is not checked, so unsafe (the typed constructors'
    fix states its own safety per call: ``torch_type``)."""
    return Safety.SAFE if finding.usage is UsageKind.REFERENCE else Safety.UNSAFE


FIXERS = (missing_api, torch_type)
FIX_SAFETY = fix_safety
# torch.device named as a type: MSM504 reported it (as every torch.device), this says what it is
EXTRA_DETECTORS = (Detector(detect_torch_types, after=("MSM504",)),)
