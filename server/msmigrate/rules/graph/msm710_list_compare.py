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
B`` or ``A != B`` where one side is a number, string or bool literal and the other a list: a list display or
comprehension or ``list(...)``, a local name assigned one, ``self.NAME`` the class assigns one (these are
always lists there: "always False"), or ``X.NAME`` where the project builds the field ``NAME`` as a list
(``analysis/project_fields.py``: a call's keyword ``NAME=[...]``, a namedtuple's field, or ``obj.NAME =
[...]``), in this file or, from the project index, in another (efficientnet's case: ``BlockArgs(stride=
[...])`` in ``utils.py``, compared in ``model.py``). A field may hold other values too (efficientnet's
repeated blocks get ``_replace(stride=1)``, for which the test is True), so its message says the test is
False wherever the field holds such a list, not always. No fix: ``== 1`` → ``False`` would drop the
branch for those other values (efficientnet's residual connections of the repeated blocks).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterable

from msmigrate.analysis.import_names import module_imports
from msmigrate.analysis.project_fields import LIST, built_as, built_fields, is_list_display
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
    "finding.MSM710.field_here": (
        "{expr} in {function} compares {name}, which line {line} of this file builds as a list, with "
        "{other}: a list never equals {other} in Python, so the test is {result} wherever {name} holds such "
        "a list, and GRAPH_MODE may compile the branch it guards too (it stops where that branch's shapes "
        "disagree); build it as a tuple on that line (a tuple compares as the list does, and GRAPH_MODE "
        "works that comparison out) or compare what is meant",
        "{function} 中的 {expr} 将 {name}（本文件第 {line} 行将其构造为列表）与 {other} 比较："
        "在 Python 中列表永远不等于 {other}，因此只要 {name} 是这样的列表，该判断就为 {result}，"
        "而 GRAPH_MODE 可能会把它所控制的分支也一并编译（该分支形状不一致时编译失败）；"
        "请在该处将其构造为元组（元组的比较结果与列表相同，且 GRAPH_MODE 能在编译时算出该比较），"
        "或改为比较真正想比较的值",
    ),
    "finding.MSM710.field": (
        "{expr} in {function} compares {name}, which {file} builds as a list, with {other}: a list never "
        "equals {other} in Python, so the test is {result} wherever {name} holds such a list, and GRAPH_MODE "
        "may compile the branch it guards too (it stops where that branch's shapes disagree); build it as a "
        "tuple there (a tuple compares as the list does, and GRAPH_MODE works that comparison out) or "
        "compare what is meant",
        "{function} 中的 {expr} 将 {name}（{file} 将其构造为列表）与 {other} 比较："
        "在 Python 中列表永远不等于 {other}，因此只要 {name} 是这样的列表，该判断就为 {result}，"
        "而 GRAPH_MODE 可能会把它所控制的分支也一并编译（该分支形状不一致时编译失败）；"
        "请在该处将其构造为元组（元组的比较结果与列表相同，且 GRAPH_MODE 能在编译时算出该比较），"
        "或改为比较真正想比较的值",
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


def _self_lists(cls: ast.ClassDef) -> set[str]:
    """``self.NAME`` the class assigns a list."""
    found = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and is_list_display(node.value):
            for target in node.targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == "self"):
                    found.add(target.attr)
    return found


def _local_lists(function: ast.AST) -> set[str]:
    return {t.id for node in ast.walk(function)
            if isinstance(node, ast.Assign) and is_list_display(node.value)
            for t in node.targets if isinstance(t, ast.Name)}


class _Lists:
    """What one function's code shows to be a list: a display, a local list, ``self.NAME`` its class
    assigns a list; and the fields built as lists (``X.NAME``) in this file (first line) or, from the
    project index, in another file."""

    def __init__(self, cls: ast.ClassDef | None, function: ast.AST, here: dict[str, int],
                 elsewhere: Callable[[], dict[str, str]]) -> None:
        self.attrs = _self_lists(cls) if cls else set()
        self.local = _local_lists(function)
        self.here, self.elsewhere = here, elsewhere

    def evidence(self, node: ast.expr) -> tuple[str, dict[str, object]] | None:
        """``None``, or the message variant and its fields that say why ``node`` is a list."""
        if is_list_display(node) or (isinstance(node, ast.Name) and node.id in self.local):
            return "finding.MSM710", {}
        if not isinstance(node, ast.Attribute):
            return None
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return ("finding.MSM710", {}) if node.attr in self.attrs else None
        if node.attr in self.here:
            return "finding.MSM710.field_here", {"name": node.attr, "line": self.here[node.attr]}
        file = self.elsewhere().get(node.attr)
        if file is not None:
            return "finding.MSM710.field", {"name": node.attr, "file": file}
        return None


def _scalar(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bool)


def _same_file(path: str, rel: str) -> bool:
    path = path.replace("\\", "/")
    return path == rel or path.endswith("/" + rel)


def _shown(path: str, rel: str) -> str:
    """``rel`` (relative to the project's root) as the message names it: its file name alone when it is in
    the folder of ``path`` (the analysed file)."""
    folder, _, name = rel.rpartition("/")
    own = path.replace("\\", "/").rpartition("/")[0]
    return name if folder and (own == folder or own.endswith("/" + folder)) else rel


def detect(ctx) -> Iterable[Finding]:
    if "==" not in ctx.source and "!=" not in ctx.source:
        return []
    imports = module_imports(ctx.tree)
    here: dict[str, int] = {}
    for name, form, line in built_fields(ctx.tree):
        if form == LIST:
            here.setdefault(name, line)

    @functools.cache
    def elsewhere() -> dict[str, str]:
        """Another file's fields (read on first need: the editor builds the index then); not the index's
        entries of this file, whose text may have changed since."""
        return {name: _shown(ctx.path, rel) for name, rel in built_as(ctx.project_fields, LIST).items()
                if not _same_file(ctx.path, rel)}

    by_method = {id(f): cls for cls in network_classes(ctx, imports) for f in cls.body}
    found: list[Finding] = []
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        lists = _Lists(by_method.get(id(function)), function, here, elsewhere)
        for node in ast.walk(function):
            if not isinstance(node, ast.Compare) or id(node) in seen or len(node.ops) != 1:
                continue
            if not isinstance(node.ops[0], ast.Eq | ast.NotEq):
                continue
            left, right = node.left, node.comparators[0]
            why = lists.evidence(left) if _scalar(right) else None
            other = right
            if why is None and _scalar(left):
                why, other = lists.evidence(right), left
            if why is None:
                continue
            seen.add(id(node))
            key, fields = why
            found.append(new_finding(
                RULE, ctx.node_range(node), key,
                {"expr": ast.unparse(node), "function": owner, "other": ast.unparse(other),
                 "result": "False" if isinstance(node.ops[0], ast.Eq) else "True", **fields},
            ))
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
