"""MSM405: a sparse tensor registered as a buffer that is not saved (``persistent=False``).

whisper keeps the alignment heads as ``self.register_buffer("alignment_heads", all_heads.to_sparse(),
persistent=False)``. MindSpore 2.10's ``Cell.register_buffer`` takes a dense Tensor only ("cannot assign
'COOTensor' object to buffer … mindspore Tensor or None required", checked), and ``Tensor.to_sparse`` does
not exist there: ``Tensor.to_coo()`` is torch's ``to_sparse()`` without arguments (both COO, the same indices
and values). A buffer torch does not save is state the Cell keeps for itself, which a plain attribute holds:
the fix writes ``self.name = value.to_coo()`` (three edits, the value's own text and its fixes kept). A
persistent sparse buffer (saved with the weights) is left to MSM532 and MSM401.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.buffers import buffer_arguments
from msmigrate.rules.support import attribute_range, report

DOC = "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.COOTensor.html"
RULE = Rule("MSM405", C.SPARSE, S.WARNING, DOC, fixable=True)
API = "torch.nn.Module.register_buffer"

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM405.title": ("Sparse tensor as a buffer", "稀疏张量作为 buffer"),
    "rule.MSM405.explanation": (
        "MindSpore's Cell.register_buffer takes a dense Tensor only, and its Tensor has no to_sparse: "
        "to_coo() gives the same COO tensor. A buffer torch does not save (persistent=False) is state the "
        "cell keeps for itself; the fix keeps it as an attribute: self.name = value.to_coo().",
        "MindSpore 的 Cell.register_buffer 只接受稠密 Tensor，其 Tensor 也没有 to_sparse："
        "to_coo() 给出相同的 COO 张量。torch 不保存的 buffer（persistent=False）是 Cell 自己保存的状态；"
        "修复把它保存为属性：self.name = value.to_coo()。",
    ),
    "finding.MSM405": (
        "buffer {name} holds a sparse tensor: MindSpore's register_buffer takes a dense Tensor only; keep it "
        "as an attribute (self.{name} = ….to_coo())",
        "buffer {name} 保存的是稀疏张量：MindSpore 的 register_buffer 只接受稠密 Tensor；"
        "请将其保存为属性（self.{name} = ….to_coo()）",
    ),
    "fix.sparse_buffer": ("Keep {name} as an attribute holding the COO tensor",
                          "把 {name} 保存为持有 COO 张量的属性"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM405": (
        "import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('heads', torch.eye(4).to_sparse(), persistent=False)\n",
        "import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('heads', torch.eye(4), persistent=False)\n",
        [(7, 14)],
    ),
}


def _sparse_buffer(call: ast.Call) -> tuple[str, ast.Call] | None:
    """(name, the ``value.to_sparse()`` call) of ``self.register_buffer("name", value.to_sparse(),
    persistent=False)`` (by position or keyword)."""
    found = buffer_arguments(call)
    if found is None:
        return None
    name, value, persistent = found
    if not (isinstance(persistent, ast.Constant) and persistent.value is False):
        return None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == "to_sparse" and not value.args and not value.keywords):
        return None
    return name, value


def _statements(tree: ast.Module) -> Iterable[tuple[ast.Expr, ast.Call, str, ast.Call]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            found = _sparse_buffer(node.value)
            if found is not None:
                yield node, node.value, found[0], found[1]


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if "to_sparse" not in ctx.source or "register_buffer" not in ctx.source:
        return []
    found = []
    for _statement, call, name, _value in _statements(ctx.tree):
        span = attribute_range(ctx, call.func)  # type: ignore[arg-type]
        finding = report(ctx, RULE, span, "finding.MSM405", {"name": name}, apis=[API],
                         convertible=frozenset({"MSM100", "MSM101", "MSM201"}), fixable=True, torch_api=API)
        if finding is not None:
            found.append(finding)
    return found


def sparse_buffer(ctx: FixContext, finding: Finding) -> Fix | None:
    """``self.register_buffer("n", v.to_sparse(), persistent=False)`` → ``self.n = v.to_coo()``."""
    for _statement, call, name, value in _statements(ctx.tree):
        if attribute_range(ctx, call.func)[:2] != (finding.line, finding.column):  # type: ignore[arg-type]
            continue
        receiver = value.func.value  # type: ignore[attr-defined]
        start = ctx.node_range(call)[:2]
        receiver_start = ctx.node_range(receiver)[:2]
        receiver_end = ctx.node_range(receiver)[2:]
        value_end = ctx.node_range(value)[2:]
        call_end = ctx.node_range(call)[2:]
        edits = [TextEdit(*start, *receiver_start, f"self.{name} = "),
                 TextEdit(*receiver_end, *value_end, ".to_coo()"),
                 TextEdit(*value_end, *call_end, "")]
        return Fix(RULE.id, "fix.sparse_buffer", edits, {"name": name})
    return None


FIXERS = (sparse_buffer,)
# the attribute holds the same COO tensor, but it is no buffer any more (not in the Cell's buffers, not
# moved with the Cell): a change of the program's structure, applied only when asked
FIX_SAFETY = Safety.UNSAFE
