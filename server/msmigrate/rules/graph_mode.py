"""MSM7xx: code that runs in PyNative mode but does not compile in GRAPH_MODE (MindSpore 2.10).

Each rule is a failure ``msmigrate compare`` met running a migrated model in GRAPH_MODE, checked there
(``tests/rules/test_graph_mode_rules.py`` compiles each example under MindSpore 2.10 and expects the message
the rule names):

* MSM701 — syntax the graph compiler rejects inside ``construct``: ``try``, ``del``, ``nonlocal``, ``import``,
  ``match``, a nested ``class`` or ``async def``, ``yield``, ``:=``, set literals ("Unsupported statement
  'Try'", "Unsupported expression 'Yield'");
* MSM702 — a ``with`` statement whose manager is not a ``@jit_class`` instance (``warnings.catch_warnings()``,
  ``contextlib.nullcontext()``, even ``mindspore._no_grad()``): "Only support jit_class instance";
* MSM703 — iterating the cell's own sub-cells inside ``construct`` (``self.cells()``,
  ``self.cells_and_names()``, ``self.name_cells()``; torch's ``children()``/``modules()`` become these);
* MSM704 — a Tensor-method form MindSpore runs in PyNative but not in GRAPH_MODE on CPU
  (``x.chunk(2, dim=1)``, ``x.transpose(1, 2)``: ``knowledge/graph_mode_forms.py``).

What is checked: ``construct`` of a ``mindspore.nn.Cell`` subclass and ``forward`` of a ``torch.nn.Module``
subclass (it becomes ``construct``), with the methods of the class they call as ``self.name(...)`` and the
file's functions they call by name, transitively — the graph compiler compiles those too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from msmigrate.analysis.source_text import dotted_name
from msmigrate.knowledge.graph_mode_forms import failing_form
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.module_classes import is_module_base
from msmigrate.rules.support import attribute_range, new_finding, usage_at

DOC = "https://www.mindspore.cn/tutorials/en/r2.3.1/beginner/accelerate_with_static_graph.html"
JIT_CLASS_DOC = (
    "https://www.mindspore.cn/tutorials/en/r2.3.1/advanced/static_graph_expert_programming.html"
    "#using-jit-class"
)

GRAPH_SYNTAX = Rule("MSM701", C.FRAMEWORK_PATTERN, S.WARNING, DOC)
GRAPH_WITH = Rule("MSM702", C.FRAMEWORK_PATTERN, S.WARNING, JIT_CLASS_DOC)
GRAPH_SUBCELLS = Rule("MSM703", C.FRAMEWORK_PATTERN, S.WARNING, DOC)
GRAPH_FORM = Rule("MSM704", C.FRAMEWORK_PATTERN, S.INFORMATION, DOC, fixable=True)  # fixes/graph_form_fixes

GRAPH_EINOPS = Rule("MSM705", C.FRAMEWORK_PATTERN, S.INFORMATION, DOC)

RULES = [GRAPH_SYNTAX, GRAPH_WITH, GRAPH_SUBCELLS, GRAPH_FORM, GRAPH_EINOPS]
# einops called in a compiled function, or its layers held by a cell (the library, or the helper module's
# adapters MSM530 writes): einops' own code (backend lookup, try statements) does not compile
EINOPS_FUNCTIONS = frozenset({"rearrange", "repeat", "reduce", "pack", "unpack", "einsum", "parse_shape"})
EINOPS_LAYERS = frozenset({"Rearrange", "Reduce", "EinMix"})

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM701.title": ("Syntax GRAPH_MODE does not compile", "GRAPH_MODE 无法编译的语法"),
    "rule.MSM701.explanation": (
        "In GRAPH_MODE (and under mindspore.jit) construct and what it calls are compiled, and the compiler "
        "of MindSpore 2.10 rejects try statements, del, nonlocal, import, match, nested class and async "
        "definitions, yield (generators, contextmanager methods), the := operator and set literals. The "
        "model runs in PyNative mode and stops at compilation in GRAPH_MODE. Move such code out of "
        "construct (into __init__ or the training script) or write it without that syntax.",
        "在 GRAPH_MODE（以及 mindspore.jit）下，construct 及其调用的代码会被编译，"
        "MindSpore 2.10 的编译器不支持 "
        "try 语句、del、nonlocal、import、match、嵌套的 class 与 async 定义、yield（生成器、contextmanager "
        "方法）、:= 运算符和集合字面量。模型在 PyNative 模式下可以运行，在 GRAPH_MODE 下编译失败。"
        "请把这类代码移出 "
        "construct（放到 __init__ 或训练脚本中），或改用其他写法。",
    ),
    "rule.MSM702.title": ("with statement in construct", "construct 中的 with 语句"),
    "rule.MSM702.explanation": (
        "GRAPH_MODE compiles a with statement only when its context manager is an instance of a class "
        "decorated with @mindspore.jit_class; warnings.catch_warnings(), contextlib.nullcontext(), torch's "
        "no_grad() and MindSpore's own _no_grad() are not, and compilation stops with \"Only support "
        'jit_class instance". Remove the with statement from construct (keep its body), use '
        "mindspore.ops.stop_gradient on the values that need no gradient, or make the manager a "
        "@jit_class.",
        "GRAPH_MODE 只在上下文管理器是 @mindspore.jit_class 修饰的类的实例时才能编译 with 语句；"
        "warnings.catch_warnings()、contextlib.nullcontext()、torch 的 no_grad() 以及 MindSpore 自己的 "
        '_no_grad() 都不是，编译会报错 "Only support jit_class instance"。请从 construct 中去掉 with 语句'
        "（保留其中的代码），对不需要梯度的值使用 mindspore.ops.stop_gradient，或把管理器改为 @jit_class。",
    ),
    "rule.MSM703.title": ("Sub-cells iterated in construct", "在 construct 中遍历子 Cell"),
    "rule.MSM703.explanation": (
        "self.cells(), self.cells_and_names() and self.name_cells() (what torch's children() and modules() "
        "become) are generators the graph compiler cannot run. Collect the cells once in __init__, in a "
        "mindspore.nn.CellList, and iterate that list in construct.",
        "self.cells()、self.cells_and_names() 和 self.name_cells()（torch 的 children()、modules() 迁移后的"
        "形式）是图编译器无法执行的生成器。请在 __init__ 中把这些 Cell 收集到一个 mindspore.nn.CellList 里，"
        "在 construct 中遍历该列表。",
    ),
    "rule.MSM704.title": (
        "Tensor method form GRAPH_MODE does not run on CPU",
        "GRAPH_MODE 在 CPU 上无法运行的 Tensor 方法写法",
    ),
    "rule.MSM704.explanation": (
        "MindSpore's Tensor methods take torch's spelling in PyNative mode, but in GRAPH_MODE on CPU "
        "(MindSpore 2.10) the keyword dim of chunk, split, cumsum, sort, std and median selects an overload "
        "whose operator has no CPU kernel, and transpose takes a full permutation (two dimensions are one "
        "only for a 2-D tensor). "
        "Where the message names an equivalent form (dim passed by position, swapaxes), it runs in both "
        "modes with the same result.",
        "MindSpore 的 Tensor 方法在 PyNative 模式下接受 torch 的写法，但在 CPU 上的 GRAPH_MODE"
        "（MindSpore 2.10）中，chunk、split、cumsum、sort、std、median 的关键字参数 dim 会选中一个"
        "没有 CPU 内核的重载，transpose 则要求完整的维度排列（只有二维张量的两个维度才构成完整排列）。"
        "若消息给出了等价写法（按位置传 dim、swapaxes），该写法在两种模式下都能运行且结果相同。",
    ),
    "finding.MSM704": (
        "x.{method}(…) in {function}: this form runs in PyNative mode only; "
        'GRAPH_MODE on CPU fails ("{error}")',
        "{function} 中的 x.{method}(…)：这种写法只能在 PyNative 模式下运行；CPU 上的 GRAPH_MODE 会失败"
        '（"{error}"）',
    ),
    "finding.MSM704.alternative": (
        "x.{method}(…) in {function}: this form runs in PyNative mode only; "
        'GRAPH_MODE on CPU fails ("{error}"); {alternative} runs in both',
        "{function} 中的 x.{method}(…)：这种写法只能在 PyNative 模式下运行；CPU 上的 GRAPH_MODE 会失败"
        '（"{error}"）；{alternative} 在两种模式下都能运行',
    ),
    "rule.MSM705.title": ("einops in GRAPH_MODE", "GRAPH_MODE 下的 einops"),
    "rule.MSM705.explanation": (
        "einops parses its patterns and looks up the tensor's backend at run time, with classes and try "
        "statements GRAPH_MODE does not compile (MindSpore 2.10): a cell whose construct calls rearrange, "
        "repeat or reduce, or holds a Rearrange/Reduce layer, runs in PyNative mode only (met on "
        "vit-pytorch's models through the helper module's einops adapters). For GRAPH_MODE write the "
        "pattern with reshape and transpose (swapaxes), or run the model in PyNative mode.",
        "einops 在运行时解析模式串并查找张量的后端，用到 GRAPH_MODE（MindSpore 2.10）无法编译的类与 try "
        "语句：construct 中调用 rearrange、repeat、reduce 或包含 Rearrange/Reduce 层的 Cell 只能在 "
        "PyNative 模式下运行（在经由辅助模块 einops 适配器迁移的 vit-pytorch 模型上遇到）。若需 "
        "GRAPH_MODE，请用 reshape 与 transpose（swapaxes）改写该模式，或在 PyNative 模式下运行模型。",
    ),
    "finding.MSM705": (
        "{name} in {function}: einops does not compile in GRAPH_MODE (\"Unsupported statement 'Try'\"); "
        "the model runs in PyNative mode only",
        "{function} 中的 {name}：einops 无法在 GRAPH_MODE 下编译（\"Unsupported statement 'Try'\"）；"
        "模型只能在 PyNative 模式下运行",
    ),
    "finding.MSM705.layer": (
        "{name} layer in {function}: einops does not compile in GRAPH_MODE (\"Unsupported statement "
        "'ClassDef'\"); the model runs in PyNative mode only",
        "{function} 中的 {name} 层：einops 无法在 GRAPH_MODE 下编译（\"Unsupported statement "
        "'ClassDef'\"）；模型只能在 PyNative 模式下运行",
    ),
    "finding.MSM701": (
        "{what} in {function}: GRAPH_MODE does not compile it (\"Unsupported {kind} '{node}'\"); "
        "the model runs "
        "in PyNative mode only",
        "{function} 中的 {what}：GRAPH_MODE 无法编译（\"Unsupported {kind} '{node}'\"）；模型只能在 PyNative "
        "模式下运行",
    ),
    "finding.MSM702": (
        'with {manager} in {function}: GRAPH_MODE compiles with only over a @jit_class instance ("Only '
        'support jit_class instance"); remove the with statement from construct or make the manager a '
        "@jit_class",
        '{function} 中的 with {manager}：GRAPH_MODE 只能编译 @jit_class 实例上的 with（"Only support '
        'jit_class instance"）；请从 construct 中去掉该 with 语句，或把管理器改为 @jit_class',
    ),
    "finding.MSM703": (
        "self.{method}() in {function}: GRAPH_MODE cannot iterate the cell's sub-cells; hold them in a "
        "mindspore.nn.CellList built in __init__",
        "{function} 中的 self.{method}()：GRAPH_MODE 无法遍历 Cell 的子 Cell；请在 __init__ 中构建 "
        "mindspore.nn.CellList 保存它们",
    ),
}

_NET = "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM701": (
        _NET + "        try:\n            y = self.a(x)\n        except ValueError:\n            y = x\n"
        "        del x\n        return y\n",
        _NET + "        y = self.a(x)\n        return y\n",
        [(6, 9), (10, 9)],
    ),
    "MSM702": (
        "import warnings\n"
        + _NET
        + "        with warnings.catch_warnings():\n            return self.a(x)\n",
        "import warnings\n" + _NET + "        return self.a(x)\n\n    def helper(self):\n"
        "        with warnings.catch_warnings():\n            pass\n",
        [(7, 9)],
    ),
    "MSM703": (
        _NET + "        for cell in self.cells():\n            x = cell(x)\n        return x\n",
        _NET + "        for cell in self.layers:\n            x = cell(x)\n        return x\n",
        [(6, 21)],
    ),
    "MSM704": (
        "import torch\n" + _NET + "        a, b = torch.ones(2, 4).chunk(2, dim=1)\n        return a\n",
        "import torch\n" + _NET + "        a, b = torch.ones(2, 4).chunk(2, 1)\n        return a\n",
        [(7, 42)],
    ),
    "MSM705": (
        "import torch.nn as nn\nfrom einops import rearrange\n\n\nclass Net(nn.Module):\n"
        "    def forward(self, x):\n        return rearrange(x, 'b c n -> b n c')\n",
        "import torch.nn as nn\nfrom einops import rearrange\n\n\ndef flip(x):\n"
        "    return rearrange(x, 'b c n -> b n c')\n",
        [(7, 16)],
    ),
}

# syntax node -> (what the finding calls it, MindSpore's word: statement | expression, MindSpore's node name)
_STATEMENTS: dict[type, tuple[str, str]] = {
    ast.Try: ("try statement", "Try"),
    ast.Delete: ("del statement", "Delete"),
    ast.Nonlocal: ("nonlocal statement", "Nonlocal"),
    ast.Import: ("import statement", "Import"),
    ast.ImportFrom: ("import statement", "ImportFrom"),
    ast.ClassDef: ("class definition", "ClassDef"),
    ast.AsyncFunctionDef: ("async function", "AsyncFunctionDef"),
    ast.Match: ("match statement", "Match"),
}
if hasattr(ast, "TryStar"):
    _STATEMENTS[ast.TryStar] = ("try statement", "TryStar")
_EXPRESSIONS: dict[type, tuple[str, str]] = {
    ast.Yield: ("yield", "Yield"),
    ast.YieldFrom: ("yield from", "YieldFrom"),
    ast.NamedExpr: (":= expression", "NamedExpr"),
    ast.Set: ("set literal", "Set"),
    ast.SetComp: ("set comprehension", "SetComp"),
}
_KEYWORDS = {
    ast.Try: "try",
    ast.Delete: "del",
    ast.Nonlocal: "nonlocal",
    ast.Import: "import",
    ast.ImportFrom: "from",
    ast.ClassDef: "class",
    ast.AsyncFunctionDef: "async",
    ast.Match: "match",
}
SUBCELL_METHODS = frozenset(
    {"cells", "cells_and_names", "name_cells", "children", "named_children", "modules", "named_modules"}
)
_GRAPH_ENTRY = {"construct", "forward"}


def _imports(tree: ast.Module) -> dict[str, str]:
    """Module-level import aliases: local name -> dotted module or object name."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _full_name(node: ast.expr, imports: dict[str, str]) -> str | None:
    dotted = dotted_name(node)
    if dotted is None:
        return None
    root, _, rest = dotted.partition(".")
    base = imports.get(root)
    return None if base is None else (f"{base}.{rest}" if rest else base)


def _is_cell_base(ctx, base: ast.expr, imports: dict[str, str], known: set[str]) -> bool:
    if isinstance(base, ast.Name) and base.id in known:
        return True
    name = _full_name(base, imports) or ""
    return (name.startswith("mindspore.") and name.rpartition(".")[2][:1].isupper()) or is_module_base(
        ctx, base
    )


def network_classes(ctx, imports: dict[str, str]) -> list[ast.ClassDef]:
    """Classes of the file deriving from a MindSpore class or a torch module, also through each other."""
    classes = [node for node in ast.walk(ctx.tree) if isinstance(node, ast.ClassDef)]
    known: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in classes:
            if node.name not in known and any(_is_cell_base(ctx, b, imports, known) for b in node.bases):
                known.add(node.name)
                changed = True
    return [node for node in classes if node.name in known]


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a function's body, nested functions and lambdas included, nested classes' bodies not."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))


def compiled_functions(
    ctx, imports: dict[str, str]
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``(qualified name, function)`` of every function GRAPH_MODE compiles, entry points first."""
    module_functions = {n.name: n for n in ctx.tree.body if isinstance(n, ast.FunctionDef)}
    found: dict[int, tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for cls in network_classes(ctx, imports):
        methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        pending = [methods[name] for name in ("construct", "forward") if name in methods]
        while pending:
            function = pending.pop(0)
            if id(function) in found:
                continue
            owner = f"{cls.name}.{function.name}" if function in methods.values() else function.name
            found[id(function)] = (owner, function)
            for node in _own_nodes(function):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "self"
                    and func.attr in methods
                ):
                    pending.append(methods[func.attr])
                elif isinstance(func, ast.Name) and func.id in module_functions:
                    pending.append(module_functions[func.id])
    return list(found.values())


def compiled_nodes(
    ctx, imports: dict[str, str], kind: type | tuple[type, ...]
) -> Iterator[tuple[str, ast.AST]]:
    """``(owner, node)`` of every node of type ``kind`` in the functions GRAPH_MODE compiles, each node once
    (a function reached from two entry points is walked twice by :func:`compiled_functions`)."""
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        for node in ast.walk(function):
            if isinstance(node, kind) and id(node) not in seen:
                seen.add(id(node))
                yield owner, node


def _keyword_range(ctx, node: ast.stmt) -> tuple[int, int, int, int]:
    keyword = _KEYWORDS.get(type(node), "")
    return (node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1 + len(keyword))


def _jit_classes(tree: ast.Module, imports: dict[str, str]) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if (_full_name(target, imports) or dotted_name(target) or "").endswith("jit_class"):
                    found.add(node.name)
    return found


def _manager_is_jit_class(item: ast.withitem, jit_classes: set[str]) -> bool:
    expr = item.context_expr
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in jit_classes


def check(ctx) -> Iterable[Finding]:
    if "def construct" not in ctx.source and "def forward" not in ctx.source:
        return []
    imports = _imports(ctx.tree)
    jit_classes = _jit_classes(ctx.tree, imports)
    names_torch = any(name.split(".")[0] == "torch" for name in imports.values())
    found: list[Finding] = []
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        for node in _own_nodes(function):
            if id(node) in seen:
                continue
            seen.add(id(node))
            ctx.cancel.check()
            found.extend(_findings(ctx, node, owner, jit_classes))
            if isinstance(node, ast.Call):
                found.extend(_form(ctx, node, owner, names_torch))
                found.extend(_einops(ctx, node, owner, imports, EINOPS_FUNCTIONS, "finding.MSM705"))
    for cls in network_classes(ctx, imports):  # a layer held by the cell runs in its construct
        for node in ast.walk(cls):
            if isinstance(node, ast.Call):
                found.extend(_einops(ctx, node, cls.name, imports, EINOPS_LAYERS, "finding.MSM705.layer"))
    return sorted(found, key=lambda f: (f.line, f.column))


def _einops(ctx, call: ast.Call, owner: str, imports: dict[str, str], names: frozenset[str],
            key: str) -> list[Finding]:
    """MSM705: a call of einops (or of the helper module's einops adapter) named in ``names``."""
    written = dotted_name(call.func)
    full = _full_name(call.func, imports) or written or ""
    module, _, name = full.rpartition(".")
    # the helper module's einsum is torch.einsum's composition, not einops' (graph_helpers.py, MSM707)
    adapter = module.endswith("ms_compat") and name != "einsum"
    if name not in names or not (module.split(".")[0] == "einops" or adapter):
        return []
    return [new_finding(GRAPH_EINOPS, ctx.node_range(call.func), key, {"name": name, "function": owner})]


def _findings(ctx, node: ast.AST, owner: str, jit_classes: set[str]) -> list[Finding]:
    kind = type(node)
    if kind in _STATEMENTS:
        what, name = _STATEMENTS[kind]
        return [
            new_finding(
                GRAPH_SYNTAX,
                _keyword_range(ctx, node),
                "finding.MSM701",
                {"what": what, "function": owner, "kind": "statement", "node": name},
            )
        ]
    if kind in _EXPRESSIONS:
        what, name = _EXPRESSIONS[kind]
        return [
            new_finding(
                GRAPH_SYNTAX,
                ctx.node_range(node),
                "finding.MSM701",
                {"what": what, "function": owner, "kind": "expression", "node": name},
            )
        ]
    if isinstance(node, ast.With | ast.AsyncWith):
        # at the keyword: the manager's own position keeps its API finding (torch.no_grad and its fix)
        keyword = "async with" if isinstance(node, ast.AsyncWith) else "with"
        span = (node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1 + len(keyword))
        return [
            new_finding(
                GRAPH_WITH,
                span,
                "finding.MSM702",
                {"manager": ast.get_source_segment(ctx.source, item.context_expr) or "…", "function": owner},
            )
            for item in node.items
            if not _manager_is_jit_class(item, jit_classes)
        ]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in SUBCELL_METHODS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and not node.args
    ):
        return [
            new_finding(
                GRAPH_SUBCELLS,
                ctx.node_range(node),
                "finding.MSM703",
                {"method": node.func.attr, "function": owner},
            )
        ]
    return []


def _form(ctx, call: ast.Call, owner: str, names_torch: bool) -> list[Finding]:
    """MSM704: a Tensor method in a form GRAPH_MODE does not run on CPU. In torch code only where the
    analysis reported the torch Tensor method there; in MindSpore code (no torch import) by its form."""
    func = call.func
    if not isinstance(func, ast.Attribute) or any(isinstance(a, ast.Starred) for a in call.args):
        return []
    form = failing_form(func.attr, len(call.args), {k.arg for k in call.keywords if k.arg})
    if form is None:
        return []
    if names_torch and usage_at(ctx, attribute_range(ctx, func), [f"torch.Tensor.{func.attr}"]) is None:
        return []
    # at the arguments that choose the form: the method's own position keeps its API finding and fix
    chosen = [k for k in call.keywords if k.arg == form.keyword] if form.keyword else call.args
    first, last = ctx.node_range(chosen[0]), ctx.node_range(chosen[-1])
    span = (first[0], first[1], last[2], last[3])
    args = {"method": func.attr, "function": owner, "error": form.error}
    key = "finding.MSM704"
    if form.alternative:
        key, args = "finding.MSM704.alternative", {**args, "alternative": form.alternative}
    return [new_finding(GRAPH_FORM, span, key, args, fixable=form.alternative is not None)]


CHECKERS = [check]
