"""MSM706: a Parameter's ``.device`` read in code GRAPH_MODE compiles.

Met by ``msmigrate compare`` on segment-anything's ``PromptEncoder``: ``_get_device()`` returns
``self.point_embeddings[0].weight.device`` (``.embedding_table.device`` once migrated) and ``forward`` calls
it; the model matches in PyNative mode and GRAPH_MODE (MindSpore 2.10) stops with "the 'Parameter' object's
method 'device' is not supported in 'construct'". A tensor's ``.device`` compiles; a Parameter's does not.
What is flagged, in ``forward``/``construct`` and what they call (``_compiled.compiled_functions``):
``X.device`` where ``X`` is a layer's parameter attribute (``weight``, ``bias``, ``embedding_table``, the
norms' ``gamma``/``beta``/``moving_mean``/``moving_variance``) or ``self.NAME`` assigned a ``Parameter(...)``
or registered as a buffer in the class (the migration makes buffers Parameters).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.import_names import module_imports
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, compiled_functions, network_classes
from msmigrate.rules.support import new_finding

RULE = Rule("MSM706", C.FRAMEWORK_PATTERN, S.WARNING, DOC)
LAYER_PARAMETERS = frozenset(
    {"weight", "bias", "embedding_table", "gamma", "beta", "moving_mean", "moving_variance"}
)
ERROR = "the 'Parameter' object's method 'device' is not supported in 'construct'"

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM706.title": (
        "A Parameter's device read in construct", "在 construct 中读取 Parameter 的 device"
    ),
    "rule.MSM706.explanation": (
        "In GRAPH_MODE (MindSpore 2.10) construct and what it calls cannot read the device of a Parameter "
        "(a layer's weight, bias or embedding table, or a Parameter the cell holds): compilation stops with "
        "\"the 'Parameter' object's method 'device' is not supported in 'construct'\", while a tensor's "
        "device compiles. Torch code reads a weight's device to create new "
        "tensors on the model's device; read it once in __init__ into a plain attribute, or leave the "
        "device out where the tensors are created (MindSpore places them itself).",
        "在 GRAPH_MODE（MindSpore 2.10）下，construct 及其调用的代码不能读取 Parameter（层的 weight、bias、"
        "embedding_table，或 Cell 持有的 Parameter）的 device：编译会报错 "
        "\"the 'Parameter' object's method 'device' is not supported in 'construct'\"，而普通张量的 "
        "device 可以编译。torch 代码常读取权重的 device 以便在模型所在设备上创建新张量；请在 __init__ "
        "中读取一次并保存为普通属性，或在创建张量时不指定 device（由 MindSpore 自行放置）。",
    ),
    "finding.MSM706": (
        "{expr}.device in {function}: GRAPH_MODE does not read a Parameter's device (\"{error}\"); the model "
        "runs in PyNative mode only",
        "{function} 中的 {expr}.device：GRAPH_MODE 无法读取 Parameter 的 device（\"{error}\"）；"
        "模型只能在 PyNative 模式下运行",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM706": (
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
        "        return torch.zeros(2, device=self.fc.weight.device) + x\n",
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
        "        return torch.zeros(2, device=x.device) + x\n",
        [(7, 38)],
    ),
}


def _held_parameters(cls: ast.ClassDef) -> set[str]:
    """Names ``self.NAME`` the class assigns a ``Parameter(...)`` (any module's) or registers as a buffer
    (``self.register_buffer("NAME", ...)``: the migration makes it a Parameter)."""
    found = set()
    for node in ast.walk(cls):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register_buffer" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call):
            func = node.value.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (name == "Parameter" and isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name) and target.value.id == "self"):
                    found.add(target.attr)
    return found


def _is_parameter(node: ast.expr, held: set[str]) -> bool:
    if not isinstance(node, ast.Attribute):
        return False
    if isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr in held
    return node.attr in LAYER_PARAMETERS


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if ".device" not in ctx.source:
        return []
    imports = module_imports(ctx.tree)
    held: set[str] = set()
    for cls in network_classes(ctx, imports):
        held |= _held_parameters(cls)
    found: list[Finding] = []
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "device"
                and id(node) not in seen
                and _is_parameter(node.value, held)
            ):
                seen.add(id(node))
                found.append(
                    new_finding(
                        RULE,
                        ctx.node_range(node),
                        "finding.MSM706",
                        {"expr": ast.unparse(node.value), "function": owner, "error": ERROR},
                    )
                )
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
