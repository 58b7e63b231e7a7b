"""MSM535: a tensor made from data where MindSpore's call gives exactly torch's (the safe fix).

The API findings of ``torch.from_numpy`` and ``torch.Tensor`` are fixed by name (``mindspore.from_numpy``,
``mindspore.Tensor``), unsafe: nothing checks them. At two kinds of call the rewrite is exact, and this
rule takes the finding over with a safe fix:

* ``torch.from_numpy(array)``: torch's tensor shares the array's memory both ways; MindSpore's (2.10, CPU)
  reads the array but its in-place writes do not reach it. The values, dtype and shape are the same, so
  the two differ only when the array and the tensor are both used after the call. Exact where the array
  is a new one nothing else holds (``np.zeros(…)``, ``x.copy()``, arithmetic; or a local name bound to
  one just before and not read after the call: whisper's ``set_alignment_heads``), or where the tensor is
  copied at once (``p.data.copy_(torch.from_numpy(a).float())``: open_clip's sin-cos position embedding).
* ``torch.Tensor(data)`` where the data is Python numbers (``rules/number_data.py``: numbers written out, a
  comprehension of arithmetic over ``range``, a parameter annotated ``List[float]``): a float32 tensor of
  them, as ``mindspore.tensor(data, dtype=mindspore.float32)`` makes. (``torch.Tensor(n)`` with an int is
  an uninitialised tensor of n elements, ``torch.Tensor(t)`` shares ``t``: not these. MSM201 rewrites
  ``torch.FloatTensor(data)``, with the same check.)
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
from msmigrate.rules.framework._inplace_safety import Tree, arithmetic, name_reason, qualified
from msmigrate.rules.number_data import NumberData, number_data
from msmigrate.rules.support import IDIOM_TAKE_OVER, reference_range, report, short, tree_index
from msmigrate.rules.tree_view import tree_view

RULE = Rule("MSM535", C.FRAMEWORK_PATTERN, S.INFORMATION,
            "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.from_numpy.html",
            fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM535.title": ("Tensor made from data, rewritten exactly", "由数据创建的张量（可精确改写）"),
    "rule.MSM535.explanation": (
        "torch.from_numpy shares the array's memory both ways; mindspore.from_numpy gives the same values, "
        "dtype and shape, but its in-place writes do not reach the array. Where the array is a new one "
        "nothing else holds, or the tensor is copied at once, nothing can tell them apart, and the "
        "quick-fix writes mindspore.from_numpy as a safe fix. torch.Tensor of Python numbers (written out, "
        "computed over range in a list comprehension, or a parameter annotated as a list of floats) is a "
        "float32 tensor of them: the quick-fix writes mindspore.tensor(…, dtype=mindspore.float32).",
        "torch.from_numpy 与数组双向共享内存；mindspore.from_numpy 给出相同的数值、dtype 和形状，但其原地"
        "写入不会反映到数组。若数组是没有其他引用的新数组，或张量随即被复制，两者无法区分，快速修复以安全"
        "修复写为 mindspore.from_numpy。由 Python 数字构成的 torch.Tensor（直接写出、在列表推导式中"
        "基于 range 计算，或注解为浮点数列表的参数）是由这些数字组成的 float32 张量：快速修复写为 "
        "mindspore.tensor(…, dtype=mindspore.float32)。",
    ),
    "finding.MSM535.from_numpy": (
        "torch.from_numpy({array}): {array} is a new array nothing else holds or reads after this call, so "
        "mindspore.from_numpy gives the same tensor (the memory they share is never seen)",
        "torch.from_numpy({array})：{array} 是没有其他引用、此调用后也不再被读取的新数组，因此 "
        "mindspore.from_numpy 给出相同的张量（二者共享的内存不会被观察到）",
    ),
    "finding.MSM535.copied": (
        "torch.from_numpy({array}): the tensor is copied at once and kept nowhere, so mindspore.from_numpy "
        "gives the same values (the memory torch shares with the array is never seen)",
        "torch.from_numpy({array})：该张量随即被复制且未被保留，因此 mindspore.from_numpy 给出相同的数值"
        "（torch 与数组共享的内存不会被观察到）",
    ),
    "finding.MSM535.tensor": (
        "{api}({data}): a float32 tensor of these numbers, as mindspore.tensor(…, "
        "dtype=mindspore.float32) makes",
        "{api}({data})：由这些数字组成的 float32 张量，与 mindspore.tensor(…, "
        "dtype=mindspore.float32) 相同",
    ),
    "fix.tensor_from_data": ("Write {target}", "改写为 {target}"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM535": (
        "import numpy as np\nimport torch\n\n\ndef mask(n):\n    array = np.triu(np.ones((n, n)))\n"
        "    return torch.from_numpy(array), torch.Tensor([0.5, 2])\n",
        "import numpy as np\nimport torch\n\n\ndef mask(array):\n    return torch.from_numpy(array)\n",
        [(7, 12), (7, 37)],
    ),
}

_NUMPY_NEW = frozenset({"array", "zeros", "ones", "full", "empty", "arange", "linspace", "eye", "identity",
                        "concatenate", "stack", "vstack", "hstack", "triu", "tril", "zeros_like", "ones_like",
                        "full_like", "empty_like"})


def is_new_array(view: Tree, node: ast.expr) -> bool:
    """Whether ``node`` makes a NumPy array no other reference holds."""
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        return arithmetic(node)
    if not isinstance(node, ast.Call):
        return False
    name = qualified(view, node.func)
    if name is not None:
        module, _, function = name.rpartition(".")
        return (module == "numpy" and function in _NUMPY_NEW
                and not any(k.arg == "copy" for k in node.keywords))  # np.array(x, copy=False) may be x
    return (isinstance(node.func, ast.Attribute) and node.func.attr == "copy" and not node.args
            and not node.keywords)


def _copied_at_once(view: Tree, call: ast.Call) -> bool:
    """``X.copy_(torch.from_numpy(a)[.method(…)…])`` as a statement: the tensor is read once and dropped."""
    node: ast.AST = call
    parent = view.parents.get(id(node))
    while (isinstance(parent, ast.Attribute) and parent.value is node and not parent.attr.endswith("_")
           and isinstance(view.parents.get(id(parent)), ast.Call)
           and view.parents[id(parent)].func is parent):  # type: ignore[attr-defined]
        node = view.parents[id(parent)]
        parent = view.parents.get(id(node))
    return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
            and parent.func.attr == "copy_" and parent.args == [node] and not parent.keywords
            and isinstance(view.parents.get(id(parent)), ast.Expr))


def from_numpy_key(view: Tree, call: ast.Call) -> str | None:
    """The finding's message key where ``torch.from_numpy(…)`` is exact as ``mindspore.from_numpy``."""
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
        return None
    array = call.args[0]
    if (name_reason(view, call, array, is_new_array) is None if isinstance(array, ast.Name)
            else is_new_array(view, array)):
        return "finding.MSM535.from_numpy"
    return "finding.MSM535.copied" if _copied_at_once(view, call) else None


def tensor_key(data: NumberData, call: ast.Call) -> str | None:
    """The finding's message key where ``torch.Tensor(data)`` is exact as ``mindspore.tensor(data,
    dtype=mindspore.float32)``: the data is Python numbers (``rules/number_data.py``)."""
    if len(call.args) != 1 or call.keywords or not data.numbers(call, call.args[0]):
        return None
    return "finding.MSM535.tensor"


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    """The exact calls of ``torch.from_numpy`` and ``torch.Tensor`` (their API findings become this
    rule's)."""
    if "from_numpy" not in ctx.source and "Tensor(" not in ctx.source:
        return []
    view = tree_view(ctx)
    found = []
    for call in tree_index(ctx).nodes(ast.Call):
        written = ctx.qualified_name(call.func)
        api = ctx.kb.canonical(written) if written else None
        if api == "torch.from_numpy":
            key = from_numpy_key(view, call)
        elif api == "torch.Tensor":
            key = tensor_key(number_data(ctx), call)
        else:
            continue
        if key is None:
            continue
        args = {"array": short(ctx, call.args[0]), "data": short(ctx, call.args[0]), "api": api}
        finding = report(ctx, RULE, reference_range(ctx, call.func), key, args, apis=[api, written],
                         convertible=IDIOM_TAKE_OVER, fixable=True, torch_api=api)
        if finding is not None:
            found.append(finding)
    return found


def tensor_from_data(ctx: FixContext, finding: Finding) -> Fix | None:
    """``torch.from_numpy(a)`` → ``mindspore.from_numpy(a)``; ``torch.Tensor([…])`` →
    ``mindspore.tensor([…], dtype=mindspore.float32)``."""
    call = ctx.call_of(finding)
    if call is None or len(call.args) != 1:
        return None
    if finding.message_key == "finding.MSM535.tensor":
        tensor, edits = ctx.mindspore_reference("mindspore.tensor", finding.line)
        dtype, more = ctx.mindspore_reference("mindspore.float32", finding.line)
        text = f"{tensor}({ctx.text(call.args[0])}, dtype={dtype})"
        return Fix(RULE.id, "fix.tensor_from_data", [TextEdit(*ctx.node_range(call), text), *edits, *more],
                   {"target": f"{tensor}(…, dtype={dtype})"})
    name, edits = ctx.mindspore_reference("mindspore.from_numpy", finding.line)
    return Fix(RULE.id, "fix.tensor_from_data", [TextEdit(*ctx.node_range(call.func), name), *edits],
               {"target": name})


FIXERS = (tensor_from_data,)
FIX_SAFETY = Safety.SAFE  # only at the calls detect() finds exact (the module doc)
