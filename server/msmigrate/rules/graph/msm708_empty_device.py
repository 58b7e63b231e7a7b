"""MSM708: ``empty``/``empty_like`` given a ``device`` in code GRAPH_MODE compiles.

Met on segment-anything's ``PromptEncoder``: ``torch.empty((bs, 0, self.embed_dim),
device=self._get_device())`` in ``_embed_points``/``forward`` becomes ``mint.empty(..., device=...)``, which
runs in PyNative mode; GRAPH_MODE (MindSpore 2.10, CPU) stops with "For 'Empty', the device must be 'Ascend'
or 'npu' in GRAPH mode" (``EmptyLike`` alike) when the device is known while compiling: a string other than
'Ascend'/'npu', or read from ``self`` (an attribute set in ``__init__``, as MSM706 advises for a Parameter's
device, or a method's result); an input tensor's ``x.device`` compiles (checked by the rule's test). What is
flagged, in ``forward``/``construct`` and what they call (``_compiled.compiled_functions``): a call of
``torch.empty``/``torch.empty_like`` or ``mindspore.mint.empty``/``mindspore.mint.empty_like`` whose
``device`` is such a value (either side of a conditional expression). MindSpore places tensors by its
context; dropping ``device=`` compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.import_names import imported_name, module_imports
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, compiled_nodes
from msmigrate.rules.support import new_finding

RULE = Rule("MSM708", C.FRAMEWORK_PATTERN, S.WARNING, DOC)
# the calls and what GRAPH_MODE names them in its message
EMPTY_CALLS = {
    "torch.empty": "Empty",
    "torch.empty_like": "EmptyLike",
    "mindspore.mint.empty": "Empty",
    "mindspore.mint.empty_like": "EmptyLike",
}
ACCEPTED = frozenset({"Ascend", "npu"})

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM708.title": (
        "empty or empty_like given a device in code GRAPH_MODE compiles",
        "在 GRAPH_MODE 编译的代码中为 empty 或 empty_like 指定 device",
    ),
    "rule.MSM708.explanation": (
        "torch.empty and torch.empty_like become mint.empty and mint.empty_like, which take a device "
        "argument. In PyNative mode any device is accepted; GRAPH_MODE (MindSpore 2.10) refuses a device "
        "it knows while compiling unless it is 'Ascend' or 'npu': a string such as 'CPU', or a device "
        "read from the cell (an attribute set in __init__, a parameter's device). MindSpore places tensors "
        "by its execution context: drop the device argument.",
        "torch.empty 与 torch.empty_like 会迁移为接受 device 参数的 mint.empty 与 mint.empty_like。"
        "PyNative 模式下任何设备都可以；GRAPH_MODE（MindSpore 2.10）在编译时已知的设备若不是 'Ascend' 或 "
        "'npu' 就会拒绝：例如 'CPU' 这样的字符串，或从 Cell 读取的设备（在 __init__ 中设置的属性、参数的"
        "设备）。MindSpore 按执行上下文放置张量：请删除 device 参数。",
    ),
    "finding.MSM708": (
        "{name}(..., device=...) in {function}: GRAPH_MODE accepts only 'Ascend' or 'npu' as its device "
        "(\"For '{op}', the device must be 'Ascend' or 'npu' in GRAPH mode\"); drop device=",
        "{function} 中的 {name}(..., device=...)：GRAPH_MODE 只接受 'Ascend' 或 'npu' 作为其设备"
        "（\"For '{op}', the device must be 'Ascend' or 'npu' in GRAPH mode\"）；请删除 device=",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM708": (
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
        "        return torch.cat([torch.empty((1, 0), device=self.place), x], 1)\n",
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
        "        return torch.cat([torch.empty((1, 0), device=x.device), x], 1)\n",
        [(7, 47)],
    ),
}


def _refused(value: ast.expr) -> bool:
    """A device GRAPH_MODE knows while compiling and refuses: a string other than 'Ascend'/'npu', or a
    value read from ``self`` (``self.place``, ``self._get_device()``, ``self.fc.weight.device``)."""
    if isinstance(value, ast.IfExp):
        return _refused(value.body) or _refused(value.orelse)
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str) and value.value not in ACCEPTED
    root = value
    while isinstance(root, ast.Attribute | ast.Call | ast.Subscript):
        root = root.func if isinstance(root, ast.Call) else root.value
    return isinstance(root, ast.Name) and root.id == "self" and root is not value


def detect(ctx) -> Iterable[Finding]:
    if "empty" not in ctx.source or "device" not in ctx.source:
        return []
    imports = module_imports(ctx.tree)
    found: list[Finding] = []
    for owner, node in compiled_nodes(ctx, imports, ast.Call):
        name = imported_name(node.func, imports)
        device = next((k for k in node.keywords if k.arg == "device"), None)
        if name in EMPTY_CALLS and device is not None and _refused(device.value):
            found.append(new_finding(RULE, ctx.node_range(device), "finding.MSM708",
                                     {"name": name, "function": owner, "op": EMPTY_CALLS[name]}))
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
