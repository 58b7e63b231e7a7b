"""MSM707: a helper-module composition that runs in PyNative mode only, called in code GRAPH_MODE compiles.

Met by ``msmigrate compare`` on segment-anything's ``ImageEncoderViT``: ``torch.einsum`` becomes the helper
module's ``einsum`` (``mint.einsum`` runs on Ascend only), whose Python reads the equation with string
operations, ``max(..., default=0)``, ``chr`` and sets; the model matches in PyNative mode and GRAPH_MODE
(MindSpore 2.10) stops with "Got an unexpected keyword argument 'default'". Flagged: a call of such a helper
(``ms_compat.einsum(...)``, or the name imported from the helper module) in ``forward``/``construct`` and
what they call (``_compiled.compiled_functions``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.import_names import imported_name, module_imports
from msmigrate.analysis.source_text import dotted_name
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, compiled_functions
from msmigrate.rules.support import new_finding

RULE = Rule("MSM707", C.FRAMEWORK_PATTERN, S.INFORMATION, DOC)
HELPER_MODULE = "ms_compat"
# helper function -> the torch API it stands for, and what GRAPH_MODE says (checked by the rule's test)
PYNATIVE_ONLY = {"einsum": ("torch.einsum", "Got an unexpected keyword argument 'default'")}

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM707.title": (
        "A helper composition that runs in PyNative mode only",
        "只能在 PyNative 模式下运行的辅助组合实现",
    ),
    "rule.MSM707.explanation": (
        "Some APIs are migrated to a composition in the project's helper module (ms_compat) because "
        "MindSpore's own operator lacks a kernel on the target device: torch.einsum becomes "
        "ms_compat.einsum on CPU, since mint.einsum runs on Ascend only. The composition reads its "
        "arguments with plain Python (string operations on the equation), which GRAPH_MODE (MindSpore "
        "2.10) does not compile, so a cell calling it runs in PyNative mode only. For GRAPH_MODE write the "
        "product with matmul, broadcasting and sum, or use mint.einsum on Ascend.",
        "有些 API 因为 MindSpore 自身算子在目标设备上没有内核，会被迁移为项目辅助模块（ms_compat）中的"
        "组合实现：在 CPU 上 torch.einsum 变为 ms_compat.einsum，因为 mint.einsum 只支持 Ascend。"
        "该组合实现用普通 Python 解析参数（对等式做字符串操作），GRAPH_MODE（MindSpore 2.10）无法编译，"
        "因此调用它的 Cell 只能在 PyNative 模式下运行。若需 GRAPH_MODE，请用 matmul、广播与 sum "
        "改写该乘积，或在 Ascend 上使用 mint.einsum。",
    ),
    "finding.MSM707": (
        "{name} in {function}: the helper's composition of {api} runs in PyNative mode only; GRAPH_MODE does "
        "not compile it (\"{error}\")",
        "{function} 中的 {name}：辅助模块中 {api} 的组合实现只能在 PyNative 模式下运行；GRAPH_MODE 无法编译"
        "（\"{error}\"）",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM707": (
        "import torch.nn as nn\nimport ms_compat\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
        "        return ms_compat.einsum('ij,jk->ik', x, x)\n",
        "import torch.nn as nn\nimport ms_compat\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
        "        return x @ x\n\n\ndef product(x):\n    return ms_compat.einsum('ij,jk->ik', x, x)\n",
        [(7, 16)],
    ),
}


def helper_call(call: ast.Call, imports: dict[str, str]) -> str | None:
    """The helper function ``call`` calls when it is one of ``PYNATIVE_ONLY``, else None."""
    full = imported_name(call.func, imports) or dotted_name(call.func) or ""
    module, _, name = full.rpartition(".")
    return name if name in PYNATIVE_ONLY and module.rpartition(".")[2] == HELPER_MODULE else None


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if HELPER_MODULE not in ctx.source:
        return []
    imports = module_imports(ctx.tree)
    found: list[Finding] = []
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and id(node) not in seen and (name := helper_call(node, imports)):
                seen.add(id(node))
                api, error = PYNATIVE_ONLY[name]
                found.append(
                    new_finding(
                        RULE,
                        ctx.node_range(node.func),
                        "finding.MSM707",
                        {"name": name, "function": owner, "api": api, "error": error},
                    )
                )
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
