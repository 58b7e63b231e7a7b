"""MSM520: ``getattr(<torch module>, name)`` — the names it can take, read from the code, and the MindSpore
spelling of the access when every one of them maps.

The names come from the code around the call: a string literal; a dict or list of literals indexed or
iterated (``{"relu": "ReLU"}[act]``, ``for name in ["ReLU", "GELU"]``); for a name in a function, its
default and the literals assigned to it, narrowed by an ``in`` test against literals (``assert rnn_type
in ("LSTM", "GRU")``). When every name's target lies in one MindSpore module under the same name
(``torch.nn.LSTM`` → ``mindspore.nn.LSTM``), the module is replaced (``getattr(mindspore.nn, rnn_type)``);
otherwise the access becomes a dict of the targets (``{"ReLU": mindspore.mint.nn.ReLU, ...}[act]``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding


@dataclass(frozen=True)
class Targets:
    """The MindSpore target of each name a ``getattr`` on a torch module can take."""

    module: str  # the torch module (canonical)
    names: tuple[str, ...]
    targets: tuple[str | None, ...]  # None: no MindSpore counterpart (or one that takes other arguments)
    safe: bool = False  # every target's own rewrite is safe (fixes/safety.py)

    @property
    def missing(self) -> list[str]:
        return [n for n, t in zip(self.names, self.targets, strict=True) if t is None]

    def common_module(self) -> str | None:
        """The MindSpore module holding every target under the torch name, if there is one."""
        modules = {t.rpartition(".")[0] for t in self.targets if t}
        if len(modules) != 1 or any(t.rpartition(".")[2] != n for n, t in zip(self.names, self.targets,
                                                                                strict=True) if t):
            return None
        return modules.pop()


def getattr_parts(call: ast.Call) -> tuple[ast.expr, ast.expr, ast.expr | None] | None:
    """(object, name, default) of ``getattr(object, name[, default])``."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "getattr") or call.keywords:
        return None
    if len(call.args) not in (2, 3) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return call.args[0], call.args[1], call.args[2] if len(call.args) == 3 else None


def possible_names(name: ast.expr, parents: dict[int, ast.AST]) -> list[str] | None:
    """Every string ``name`` (the name argument of a ``getattr``) can hold, known from the code; None when
    some value is not known."""
    if isinstance(name, ast.Constant):
        return [name.value] if isinstance(name.value, str) else None
    if isinstance(name, ast.Subscript) and isinstance(name.value, ast.Dict):
        return _literals(name.value.values)
    if not isinstance(name, ast.Name):
        return None
    scope = _scope(name, parents)
    values: list[str] = []
    narrowed: list[str] | None = None
    for node in ast.walk(scope):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and node is not scope:
            continue  # (another scope's names; its nodes are still walked: names there are rare)
        if isinstance(node, ast.Assign) and any(_is_name(t, name.id) for t in node.targets):
            found = _value_names(node.value)
            if found is None:
                return None
            values += found
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.NamedExpr) and \
                isinstance(node.target, ast.Name) and node.target.id == name.id:
            found = _value_names(node.value) if node.value is not None else None
            if found is None:
                return None
            values += found
        elif isinstance(node, ast.For | ast.comprehension) and isinstance(node.target, ast.Name) \
                and node.target.id == name.id:
            iterated = node.iter
            found = _literals(iterated.elts) if isinstance(iterated, ast.List | ast.Tuple | ast.Set) else None
            if found is None:
                return None
            values += found
        elif isinstance(node, ast.Compare) and _is_name(node.left, name.id) and len(node.ops) == 1 \
                and isinstance(node.ops[0], ast.In) and _narrows(node, name, parents):
            collection = node.comparators[0]
            if isinstance(collection, ast.List | ast.Tuple | ast.Set):
                narrowed = _literals(collection.elts)
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        default = _parameter_default(scope.args, name.id)
        if default is False:
            pass  # not a parameter
        elif default is None or not (isinstance(default, ast.Constant) and isinstance(default.value, str)):
            if narrowed is None:
                return None  # a parameter without a literal default: any caller's value
        else:
            values.append(default.value)
    if narrowed is not None:
        return list(dict.fromkeys(narrowed))
    return list(dict.fromkeys(values)) or None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _narrows(compare: ast.Compare, at: ast.expr, parents: dict[int, ast.AST]) -> bool:
    """``assert x in (...)`` (at module level: in the access's own top-level statement), or ``if x in
    (...):`` whose body holds the access ``at``."""
    holder = parents.get(id(compare))
    if isinstance(holder, ast.Assert):
        module_level = isinstance(parents.get(id(holder)), ast.Module)
        return not module_level or _top(holder, parents) is _top(at, parents)
    return isinstance(holder, ast.If) and holder.test is compare and any(
        node is at for statement in holder.body for node in ast.walk(statement))


def _top(node: ast.AST, parents: dict[int, ast.AST]) -> ast.AST:
    """The top-level statement holding ``node``."""
    while not isinstance(parents.get(id(node)), ast.Module | None):
        node = parents[id(node)]
    return node


def _value_names(value: ast.expr) -> list[str] | None:
    if isinstance(value, ast.Constant):
        return [value.value] if isinstance(value.value, str) else None
    if isinstance(value, ast.IfExp):
        body, orelse = _value_names(value.body), _value_names(value.orelse)
        return None if body is None or orelse is None else body + orelse
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Dict):
        return _literals(value.value.values)
    return None


def _literals(nodes: list) -> list[str] | None:
    if not nodes or not all(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in nodes):
        return None
    return [n.value for n in nodes]


def _scope(node: ast.AST, parents: dict[int, ast.AST]) -> ast.AST:
    current = parents.get(id(node))
    while current is not None and not isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                                                 | ast.Module):
        current = parents.get(id(current))
    return current if current is not None else node


def _parameter_default(arguments: ast.arguments, name: str) -> ast.expr | None | bool:
    """The default of parameter ``name`` (None: a parameter without one; False: no such parameter)."""
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    for arg, default in zip(positional, defaults, strict=True):
        if arg.arg == name:
            return default
    for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        if arg.arg == name:
            return default
    return False


def resolve_targets(kb, module: str, names: list[str], called: ast.Call | None,
                    device: str = "CPU") -> Targets:
    """The MindSpore API each name of ``module`` becomes: its resolution's target on ``device``
    (``knowledge/resolution.py``, what the name's own fix writes), when the fix writes it as a name and it
    takes the arguments of ``called`` (the call of the ``getattr`` result, when it is called right away);
    else None. Safe when every name's resolution is."""
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.knowledge.resolution import resolve_name
    from msmigrate.model.resolution import Safety, Write

    targets: list[str | None] = []
    safe = True
    for name in names:
        api = kb.canonical(f"{module}.{name}")
        resolution = resolve_name(api, kb, device)
        row_kb = get_knowledge_base(resolution.row_version) if resolution.row_version else kb
        row = row_kb.mapping(resolution.row_api or api)
        target = resolution.target
        ok = (target is not None and row is not None and resolution.write is Write.NAME
              and _same_arguments(kb, api, row, target, called))
        targets.append(target if ok else None)
        safe = safe and ok and resolution.safety is Safety.SAFE
    return Targets(module, tuple(names), tuple(targets), safe)


def _same_arguments(kb, api: str, row, target: str, called: ast.Call | None) -> bool:
    """Whether ``target`` takes the call's arguments as torch does: no keyword renamed or torch-only,
    and the positional arguments land on parameters of the same names (no call seen: a consistent row)."""
    if called is None:
        return row.category.value == "consistent" and not row.param_renames
    keywords = {k.arg for k in called.keywords}
    if None in keywords or keywords & (set(row.param_renames) | set(row.torch_only_params)):
        return False
    count = len(called.args)
    if count == 0:
        return True
    torch_names = [[p["name"] for p in sig if p.get("name") != "self"] for sig in kb.torch_signatures(api)]
    ms_names = [[p["name"] for p in sig if p.get("name") != "self"]
                for sig in kb.mindspore_signatures(target)]
    return any(t[:count] == m[:count] and len(t) >= count for t in torch_names for m in ms_names)


def dynamic_attribute_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """``getattr(nn, name)`` → ``getattr(mindspore.nn, name)``, or ``{...}[name]`` of the targets."""
    call = ctx.call_of(finding)
    parts = getattr_parts(call) if call is not None else None
    module = finding.message_args.get("module")
    if parts is None or call is None or not module:
        return None
    owner, name, default = parts
    names = possible_names(name, ctx.parents)
    if not names:
        return None
    parent = ctx.parents.get(id(call))
    called = parent if isinstance(parent, ast.Call) and parent.func is call else None
    found = resolve_targets(ctx.kb, module, names, called, ctx.device)
    if found.missing and default is None:
        return None
    if len(found.missing) == len(found.names) and default is not None:  # MindSpore has none of them
        text = ctx.text(default)
        atomic = isinstance(default, ast.Name | ast.Attribute | ast.Constant | ast.Call | ast.Subscript)
        return Fix("MSM520", "fix.dynamic_attribute.default",
                   [TextEdit(*ctx.node_range(call), text if atomic else f"({text})")], {})
    common = found.common_module()
    if common is not None and not found.missing:
        text, imports = ctx.mindspore_reference(common, call.lineno)
        edit = TextEdit(*ctx.node_range(owner), text)
        return Fix("MSM520", "fix.dynamic_attribute.module", [edit, *imports], {"module": common},
                   by_hand=not found.safe)
    entries, imports = [], []
    for key, target in zip(found.names, found.targets, strict=True):
        if target is None:
            continue  # (a name MindSpore lacks gives the default)
        text, more = ctx.mindspore_reference(target, call.lineno)
        entries.append(f"{key!r}: {text}")
        imports += more
    table = "{" + ", ".join(entries) + "}"
    key = ctx.text(name)
    text = f"{table}[{key}]" if default is None else f"{table}.get({key}, {ctx.text(default)})"
    return Fix("MSM520", "fix.dynamic_attribute.table", [TextEdit(*ctx.node_range(call), text), *imports], {},
               by_hand=not found.safe)
