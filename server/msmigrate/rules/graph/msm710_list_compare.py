"""MSM710: a list compared with ``==``/``!=`` to a value that is not a list, in code GRAPH_MODE compiles.

Met by ``msmigrate compare`` on efficientnet_pytorch's ``MBConvBlock``: its block arguments hold
``stride=[1]`` (a list, built in ``utils.py``) and ``forward`` tests ``self._block_args.stride == 1`` before
``x = x + inputs``. In Python a list never equals a number, so the branch never runs and the model matches
in PyNative mode; GRAPH_MODE (MindSpore 2.10, its default syntax level) does not work out such a comparison
while compiling, compiles the branch too, and stops where the branch's shapes disagree ("For 'Add',
input1.shape and input2.shape need to broadcast"). It does for one spelling (``if self.stride == 1:``, a
cell's own list attribute left of ``==`` in the test itself), not for the others (the number on the left, a
namedtuple's field, a local list, the result kept in a variable); a tuple, an index (``stride[0] == 1``),
``len()``, or a list compared with a list are worked out (all checked by the rule's test). Every spelling is
flagged: it is always False (``!=``: True) in Python, a mistake in the torch code too.

What is flagged, in ``forward``/``construct`` and what they call (``_compiled.compiled_functions``): ``A ==
B`` or ``A != B`` where one side is a number, string or bool literal and the other a list seen in the same
file: a list display or comprehension or ``list(...)``, a local name assigned one, ``self.NAME`` the class
assigns one, or ``X.NAME`` where a call of the file passes ``NAME=[...]`` (a namedtuple's field). A list
built in another file (efficientnet's case: ``BlockArgs(stride=[...])`` in ``utils.py``, compared in
``model.py``) is out of a one-file rule's sight.
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

RULE = Rule("MSM710", C.FRAMEWORK_PATTERN, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM710.title": (
        "A list compared with a number in code GRAPH_MODE compiles",
        "在 GRAPH_MODE 编译的代码中将列表与数字比较",
    ),
    "rule.MSM710.explanation": (
        "In Python a list never equals a number or a string, so such a test is always False with == (True "
        "with !=), in torch as in MindSpore's PyNative mode; it is usually a mistake (a stride kept as [1] "
        "and tested against 1). GRAPH_MODE (MindSpore 2.10) mostly does not work the comparison out while "
        "compiling, so it compiles the branch Python never takes as well, and compilation fails if that "
        "branch's shapes disagree. Compare an element (stride[0] == 1) or keep the value as an int or a "
        "tuple.",
        "在 Python 中列表永远不等于数字或字符串，因此这种判断用 == 时总为 False（用 != 时总为 True），"
        "在 torch 和 MindSpore 的 PyNative 模式下都是如此；这通常是个错误（步长保存为 [1] 却与 1 比较）。"
        "GRAPH_MODE（MindSpore 2.10）大多不会在编译时算出该比较，因此连 Python 永远不会执行的分支也一并编译，"
        "若该分支的形状不一致就会编译失败。请比较其中的元素（stride[0] == 1），或将该值保存为 int 或元组。",
    ),
    "finding.MSM710": (
        "{expr} in {function} compares a list with {other}: always {result} in Python, and GRAPH_MODE "
        "may compile the branch it guards too (it stops where that branch's shapes disagree); compare an "
        "element or keep an int or a tuple",
        "{function} 中的 {expr} 将列表与 {other} 比较：在 Python 中总为 {result}，而 GRAPH_MODE 可能会把它"
        "所控制的分支也一并编译（该分支形状不一致时编译失败）；请比较其中的元素，或保存为 int 或元组",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM710": (
        "import torch.nn as nn\n\n\nclass Block(nn.Module):\n    def __init__(self, stride):\n"
        "        super().__init__()\n        self.stride = [stride]\n\n    def forward(self, x, skip):\n"
        "        if self.stride == 1:\n            x = x + skip\n        return x\n",
        "import torch.nn as nn\n\n\nclass Block(nn.Module):\n    def __init__(self, stride):\n"
        "        super().__init__()\n        self.stride = [stride]\n\n    def forward(self, x, skip):\n"
        "        if self.stride[0] == 1:\n            x = x + skip\n        return x\n",
        [(10, 12)],
    ),
}


def _is_list_value(node: ast.expr | None) -> bool:
    return isinstance(node, ast.List | ast.ListComp) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list"
    )


def _list_fields(tree: ast.Module) -> set[str]:
    """Keyword names the file's calls give a list (``BlockArgs(stride=[s])``, ``args._replace(k=[...])``)."""
    return {k.arg for node in ast.walk(tree) if isinstance(node, ast.Call)
            for k in node.keywords if k.arg and _is_list_value(k.value)}


def _self_lists(cls: ast.ClassDef) -> set[str]:
    """``self.NAME`` the class assigns a list."""
    found = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and _is_list_value(node.value):
            for target in node.targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == "self"):
                    found.add(target.attr)
    return found


def _local_lists(function: ast.AST) -> set[str]:
    return {t.id for node in ast.walk(function) if isinstance(node, ast.Assign) and _is_list_value(node.value)
            for t in node.targets if isinstance(t, ast.Name)}


def _is_list(node: ast.expr, local: set[str], attrs: set[str], fields: set[str]) -> bool:
    """A list by what the file shows: a display, a local list, ``self.NAME`` the class assigns a list,
    ``X.NAME`` where a call passes ``NAME=[...]``."""
    if _is_list_value(node):
        return True
    if isinstance(node, ast.Name):
        return node.id in local
    if isinstance(node, ast.Attribute):
        own = isinstance(node.value, ast.Name) and node.value.id == "self"
        return node.attr in attrs if own else node.attr in fields
    return False


def _scalar(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bool)


def detect(ctx) -> Iterable[Finding]:
    if "==" not in ctx.source and "!=" not in ctx.source:
        return []
    imports = module_imports(ctx.tree)
    fields = _list_fields(ctx.tree)
    by_method = {id(f): cls for cls in network_classes(ctx, imports) for f in cls.body}
    found: list[Finding] = []
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        cls = by_method.get(id(function))
        attrs, local = (_self_lists(cls) if cls else set()), _local_lists(function)

        known = (local, attrs, fields)
        for node in ast.walk(function):
            if not isinstance(node, ast.Compare) or id(node) in seen or len(node.ops) != 1:
                continue
            if not isinstance(node.ops[0], ast.Eq | ast.NotEq):
                continue
            left, right = node.left, node.comparators[0]
            other = right if _is_list(left, *known) and _scalar(right) else \
                left if _is_list(right, *known) and _scalar(left) else None
            if other is None:
                continue
            seen.add(id(node))
            found.append(new_finding(
                RULE, ctx.node_range(node), "finding.MSM710",
                {"expr": ast.unparse(node), "function": owner, "other": ast.unparse(other),
                 "result": "False" if isinstance(node.ops[0], ast.Eq) else "True"},
            ))
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
