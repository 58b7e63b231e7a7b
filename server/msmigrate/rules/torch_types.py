"""torch's type objects named in model code, and its legacy typed tensor constructors (refines MSM200/MSM504
findings into MSM201 with an exact rewrite).

* ``torch.dtype`` named as a type (``cast_dtype: Optional[torch.dtype]``, ``-> torch.dtype``,
  ``isinstance(d, torch.dtype)``) is ``mindspore.Type`` (the same class as ``mindspore.dtype.Type``): every
  MindSpore dtype (``mindspore.float32``) is an instance of it (checked under MindSpore 2.10);
* ``torch.device`` named as a type (``def _get_device(self) -> torch.device``) is ``str``: MindSpore names
  devices by strings (``Tensor.device`` is ``"CPU"``), the value such code returns once migrated;
* ``torch.FloatTensor([[...], ...])`` and the other typed constructors called with the data (a list or tuple
  display, or a comprehension) are ``mindspore.tensor(data, dtype=mindspore.float32)`` — the same values
  and dtype. Called with sizes (``torch.FloatTensor(2, 3)``: uninitialized memory) they are left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.finding import FindingCategory as C

RULE = "MSM201"  # an equivalent replacement of a missing API (rules/missing/msm201_equivalent.py)
RULES: list = []
DETECT_AFTER = ("MSM504",)  # torch.device named as a type: MSM504 reported it, this says what it is
TYPE_NAMES: dict[str, str] = {"torch.dtype": "mindspore.Type", "torch.device": "str"}
TYPED_TENSORS: dict[str, str] = {
    "torch.FloatTensor": "float32", "torch.DoubleTensor": "float64", "torch.HalfTensor": "float16",
    "torch.BFloat16Tensor": "bfloat16", "torch.LongTensor": "int64", "torch.IntTensor": "int32",
    "torch.ShortTensor": "int16", "torch.CharTensor": "int8", "torch.ByteTensor": "uint8",
    "torch.BoolTensor": "bool",
}
_DATA = (ast.List, ast.Tuple, ast.ListComp)

MESSAGES: dict[str, tuple[str, str]] = {
    "finding.MSM201.typed_tensor": (
        "{torch_api}(data) builds a {dtype} tensor of the data: "
        "mindspore.tensor(data, dtype=mindspore.{dtype})",
        "{torch_api}(data) 用数据构造 {dtype} 张量：即 mindspore.tensor(data, dtype=mindspore.{dtype})",
    ),
    "fix.pattern.typed_tensor": ("Rewrite as mindspore.tensor(…, dtype=mindspore.{dtype})",
                                 "改写为 mindspore.tensor(…, dtype=mindspore.{dtype})"),
    "fix.pattern.type_name": ("Name the type {name}", "将类型写为 {name}"),
}
EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {}


def _data_call(call: ast.Call | None) -> ast.expr | None:
    """The data of ``torch.FloatTensor(data)`` (one list/tuple display or comprehension, no keyword)."""
    if call is None or len(call.args) != 1 or call.keywords or not isinstance(call.args[0], _DATA):
        return None
    return call.args[0]


def check(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    for finding in ctx.usages:
        api = finding.torch_api or ""
        if api in TYPE_NAMES and finding.usage is UsageKind.REFERENCE:
            finding.rule, finding.category, finding.message_key = RULE, C.MISSING, "finding.MSM201.reference"
            finding.message_args = {"torch_api": api, "replacement": TYPE_NAMES[api]}
            finding.mindspore_api = TYPE_NAMES[api] if TYPE_NAMES[api].startswith("mindspore.") else None
            finding.fixable = True
        elif api in TYPED_TENSORS and finding.usage is UsageKind.CALL and _data_call(ctx.call_of(finding)):
            finding.rule, finding.category = RULE, C.MISSING
            finding.message_key = "finding.MSM201.typed_tensor"
            finding.message_args = {"torch_api": api, "dtype": TYPED_TENSORS[api]}
            finding.mindspore_api = "mindspore.tensor"
            finding.fixable = True
    return ()


CHECKERS = [check]


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
        return Fix(RULE, "fix.pattern.type_name", [TextEdit(*ctx.node_range(reference), name), *imports],
                   {"name": TYPE_NAMES[api]})
    call = ctx.call_of(finding) if api in TYPED_TENSORS else None
    data = _data_call(call)
    if call is None or data is None:
        return None
    function, imports = ctx.mindspore_reference("mindspore.tensor", finding.line)
    dtype, more = ctx.mindspore_reference(f"mindspore.{TYPED_TENSORS[api]}", finding.line)
    text = f"{function}({ctx.text(data)}, dtype={dtype})"
    return Fix(RULE, "fix.pattern.typed_tensor", [TextEdit(*ctx.node_range(call), text), *imports, *more],
               {"dtype": TYPED_TENSORS[api]})


FIXERS = {RULE: torch_type}
