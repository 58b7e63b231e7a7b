"""MSM521: a parameter read by its torch name on a cell whose MindSpore class names it otherwise —
``self.head.weight = self.embed.weight`` (weight tying) when ``self.embed`` becomes a
``mindspore.nn.Embedding``, whose parameter is ``embedding_table``; ``self.bn.weight`` of a
``mindspore.nn.BatchNorm2d`` is ``gamma`` (``knowledge/cell_parameters.py``).

The cell's class is read from ``self.<name> = Class(...)`` in the class, an enclosing
``if isinstance(name, Class):``, or ``name = Class(...)`` in the same function. The rename waits for the
class: it is written once ``Class`` is the MindSpore class (the fix of the class comes first, and
``msmigrate fix`` analyses the file again after it), so a file whose class is left in torch keeps torch's
name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.add_module_fixes import add_module
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.instance_calls import parents
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.cell_parameters import parameter_name, renamed_parameters
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._add_module import add_module_findings
from msmigrate.rules.support import BEFORE_MISSING_API, attribute_range, new_finding

RULE = Rule("MSM521", C.FRAMEWORK_PATTERN, S.INFORMATION,
                      "https://www.mindspore.cn/docs/en/r2.6.0/api_python/nn/mindspore.nn.Embedding.html",
                      fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM521.title": ("Parameter names of MindSpore cells", "MindSpore Cell 的参数名"),
    "rule.MSM521.explanation": (
        "Some MindSpore cells name their parameters otherwise than the torch modules they replace: "
        "mindspore.nn.Embedding's weight is embedding_table, the batch and layer norms' weight and bias "
        "are gamma and beta (running_mean and running_var: moving_mean and moving_variance), PReLU's weight "
        "is w. Code that reads or ties a parameter by its torch name (self.head.weight = self.embed.weight) "
        "must use the MindSpore name; the quick-fix renames the access once the cell's class is the "
        "MindSpore class.",
        "部分 MindSpore Cell 的参数名与其替代的 torch 模块不同：mindspore.nn.Embedding 的 weight 为 "
        "embedding_table，BatchNorm、LayerNorm 的 weight 和 bias 为 gamma 和 beta（running_mean、"
        "running_var 为 moving_mean、moving_variance），PReLU 的 weight 为 w。按 torch 名称读取或共享参数的"
        "代码（self.head.weight = self.embed.weight）必须使用 MindSpore 的名称；当该 Cell 的类已是 "
        "MindSpore 类时，快速修复会重命名该访问。",
    ),
    "finding.MSM521": (
        "{param} of {owner}: MindSpore's {cls} calls this parameter {name}",
        "{owner} 的 {param}：MindSpore 的 {cls} 将该参数命名为 {name}",
    ),
    "finding.MSM521.after": (
        "{param} of {owner}: once {owner} is a {cls}, this parameter is called {name}",
        "{owner} 的 {param}：{owner} 改为 {cls} 后，该参数名为 {name}",
    ),
    "fix.cell_parameter": ("Use {name}, {cls}'s name for it", "改用 {cls} 的参数名 {name}"),
    "finding.MSM521.add_module": (
        "{api} → mindspore.nn.Cell.insert_child_to_cell does not name the child's parameters by their path "
        "(the checkpoint keys differ from torch's) and a SequentialCell does not run the child: the helper "
        "module's add_module adds it as torch does",
        "{api} → mindspore.nn.Cell.insert_child_to_cell 不会按路径为子 Cell 的参数命名"
        "（检查点键与 torch 不同），SequentialCell 也不会执行该子 Cell：辅助模块的 add_module 以与 torch "
        "相同的方式添加它",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM521": (
        "import mindspore\nimport torch.nn as nn\n\n\nclass LM(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.embed = mindspore.nn.Embedding(10, 4)\n"
        "        self.head = nn.Linear(4, 10, bias=False)\n        self.head.weight = self.embed.weight\n",
        "import mindspore\nimport torch.nn as nn\n\n\nclass LM(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.embed = mindspore.nn.Embedding(10, 4)\n"
        "        self.head = nn.Linear(4, 10, bias=False)\n"
        "        self.head.weight = self.embed.embedding_table\n",
        [(10, 39)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    add_module_findings(ctx)  # (first: it was its own checker, run before this one)
    renamed = renamed_parameters()
    if not any(name in ctx.source for name in renamed):
        return []
    up: dict[int, ast.AST] | None = None
    found = []
    for node in ctx.nodes_of(ast.Attribute):
        if node.attr not in renamed or not isinstance(node.value, ast.Attribute | ast.Name | ast.Subscript):
            continue
        ctx.cancel.raise_if_cancelled()
        up = up if up is not None else parents(ctx.tree)
        cls = cell_class(ctx.tree, node.value, up)
        if cls is None:
            continue
        mindspore_class = mindspore_name(ctx.tree, ast.unparse(cls))
        candidates = [mindspore_class] if mindspore_class else _targets(ctx, cls)
        names = {parameter_name(c, node.attr) for c in candidates if c}
        names.discard(node.attr)
        if len(names) != 1:
            continue
        args = {"param": node.attr, "owner": ast.unparse(node.value), "name": names.pop(),
                "cls": mindspore_class or candidates[0]}
        key = "finding.MSM521" if mindspore_class else "finding.MSM521.after"
        found.append(new_finding(RULE, attribute_range(ctx, node), key, args,
                                 fixable=bool(mindspore_class)))
    return found


def _targets(ctx, cls: ast.expr) -> list[str]:
    """The MindSpore classes a torch class expression may become (the table's, the CPU replacement)."""
    from msmigrate.knowledge.device_targets import runnable_target

    name = ctx.qualified_name(cls)
    if not name:
        return []
    api = ctx.kb.canonical(name)
    row = ctx.kb.mapping(api)
    replacement = runnable_target(api, ctx.kb.version, "CPU") if row is not None else None
    return [t for t in ((replacement.row if replacement else row).mindspore_api if row else None,) if t]


def cell_class(tree: ast.Module, owner: ast.expr, up: dict[int, ast.AST]) -> ast.expr | None:
    """The class expression of ``self.<name> = Class(...)`` (in the enclosing class) or of ``name =
    Class(...)`` (the one assignment of the name in the enclosing function)."""
    if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "self":
        scope = _enclosing(owner, up, ast.ClassDef)
        for node in ast.walk(scope) if scope is not None else ():
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(t := node.targets[0], ast.Attribute) and t.attr == owner.attr
                    and isinstance(t.value, ast.Name) and t.value.id == "self"
                    and isinstance(node.value, ast.Call)):
                return node.value.func
        return None
    if isinstance(owner, ast.Subscript):
        return _element_class(tree, owner, up)
    if isinstance(owner, ast.Name):
        narrowed = _narrowed_class(owner, up)
        if narrowed is not None:
            return narrowed
        scope = _enclosing(owner, up, ast.FunctionDef) or tree
        values = [node.value for node in ast.walk(scope) if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == owner.id for t in node.targets)]
        if len(values) == 1 and isinstance(values[0], ast.Call):
            return values[0].func
    return None


_CONTAINERS = ("ModuleList", "CellList", "Sequential", "SequentialCell")


def _element_class(tree: ast.Module, owner: ast.Subscript, up: dict[int, ast.AST]) -> ast.expr | None:
    """The one class of the cells in ``self.<name>[i]`` when ``self.<name> = ModuleList(<cells>)`` and the
    cells are a list (or a comprehension) of calls of one class, written there or assigned to a name just
    before (segment-anything: ``point_embeddings = [nn.Embedding(1, d) for i in range(4)]``)."""
    holder = owner.value
    if not (isinstance(holder, ast.Attribute) and isinstance(holder.value, ast.Name)
            and holder.value.id == "self"):
        return None
    scope = _enclosing(owner, up, ast.ClassDef)
    for node in ast.walk(scope) if scope is not None else ():
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(t := node.targets[0], ast.Attribute) and t.attr == holder.attr
                and isinstance(node.value, ast.Call) and len(node.value.args) == 1
                and ast.unparse(node.value.func).endswith(_CONTAINERS)):
            cells = node.value.args[0]
            if isinstance(cells, ast.Name):
                function = _enclosing(node, up, ast.FunctionDef)
                values = [n.value for n in ast.walk(function) if isinstance(n, ast.Assign)
                          and any(isinstance(x, ast.Name) and x.id == cells.id for x in n.targets)] \
                    if function is not None else []
                cells = values[0] if len(values) == 1 else None
            calls = [cells.elt] if isinstance(cells, ast.ListComp) else \
                list(cells.elts) if isinstance(cells, ast.List) else []
            classes = {ast.unparse(c.func) for c in calls if isinstance(c, ast.Call)}
            if len(classes) == 1 and len(calls) == sum(isinstance(c, ast.Call) for c in calls):
                return next(c.func for c in calls if isinstance(c, ast.Call))
            return None
    return None


def _narrowed_class(owner: ast.Name, up: dict[int, ast.AST]) -> ast.expr | None:
    """The one class of the innermost ``if isinstance(owner, Class):`` whose body holds ``owner``
    (``for m in self.modules(): ... elif isinstance(m, nn.BatchNorm2d): m.weight``)."""
    child: ast.AST = owner
    current = up.get(id(owner))
    while current is not None and not isinstance(current, ast.FunctionDef | ast.ClassDef):
        test = current.test if isinstance(current, ast.If) and child in current.body else None
        if (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
                and len(test.args) == 2 and isinstance(test.args[0], ast.Name)
                and test.args[0].id == owner.id):
            return test.args[1] if not isinstance(test.args[1], ast.Tuple) else None
        child, current = current, up.get(id(current))
    return None


def _enclosing(node: ast.AST, up: dict[int, ast.AST], kind: type) -> ast.AST | None:
    current = up.get(id(node))
    while current is not None and not isinstance(current, kind):
        current = up.get(id(current))
    return current


def mindspore_name(tree: ast.Module, text: str) -> str | None:
    """The MindSpore name ``text`` spells through the file's imports (``mindspore.nn.Embedding``,
    ``ms.nn.Embedding`` after ``import mindspore as ms``); None for anything else."""
    head, _, rest = text.partition(".")
    for statement in tree.body:
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                root = alias.name.split(".")[0]
                if (alias.asname or root) == head and root == "mindspore":
                    base = alias.name if alias.asname else "mindspore"
                    return f"{base}.{rest}" if rest else base
        elif isinstance(statement, ast.ImportFrom) and statement.level == 0 and statement.module \
                and statement.module.split(".")[0] == "mindspore":
            for alias in statement.names:
                if (alias.asname or alias.name) == head:
                    base = f"{statement.module}.{alias.name}"
                    return f"{base}.{rest}" if rest else base
    return None


def cell_parameter_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    if finding.message_key != "finding.MSM521":
        return None
    name, param = finding.message_args.get("name"), finding.message_args.get("param")
    line = ctx.lines[finding.line - 1] if finding.line <= len(ctx.lines) else ""
    written = line[finding.column - 1 : finding.end_column - 1]
    if not name or finding.line != finding.end_line or written != param:
        return None
    edit = TextEdit(finding.line, finding.column, finding.end_line, finding.end_column, name)
    return Fix("MSM521", "fix.cell_parameter", [edit], {"name": name, "cls": finding.message_args.get("cls")})


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (add_module, cell_parameter_fix)
FIX_SAFETY = Safety.SAFE  # the parameters keep torch's names: the same checkpoint keys
