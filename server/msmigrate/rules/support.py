"""Helpers shared by the rule checkers: ranges, findings, usage refinement and a small local data flow."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from msmigrate.analysis.cancel import NEVER, CancelToken
from msmigrate.analysis.source_text import segment
from msmigrate.analysis.values import ASSUMED_TENSOR
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.rule import Rule

if TYPE_CHECKING:
    from msmigrate.analysis.context import AnalysisContext

Range = tuple[int, int, int, int]

# Expressions whose value is static in graph mode even though they come from a tensor.
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "device", "T", "mT"})
STATIC_METHODS = frozenset(
    {"size", "dim", "ndimension", "numel", "nelement", "element_size", "is_contiguous"}
)
SCALAR_METHODS = frozenset({"item", "tolist"})


def attribute_range(ctx: AnalysisContext, node: ast.Attribute) -> Range:
    """The range of the attribute name alone (``cuda`` of ``x.cuda``), as the analyzer reports members."""
    _, _, end_line, end_column = ctx.node_range(node)
    return (end_line, end_column - len(node.attr), end_line, end_column)


def reference_range(ctx: AnalysisContext, func: ast.expr) -> Range:
    """Where a usage of ``func`` is reported: the whole name for a torch name (``torch.sparse.mm``),
    the member name alone for a method of an object (``coalesce`` of ``adj.coalesce``)."""
    if isinstance(func, ast.Attribute) and ctx.qualified_name(func) is None:
        return attribute_range(ctx, func)
    return ctx.node_range(func)


def new_finding(
    rule: Rule,
    span: Range,
    message_key: str,
    args: dict[str, Any] | None = None,
    *,
    torch_api: str | None = None,
    mindspore_api: str | None = None,
    fixable: bool = False,
    usage: UsageKind = UsageKind.PATTERN,
) -> Finding:
    line, column, end_line, end_column = span
    return Finding(
        line,
        column,
        end_line,
        end_column,
        torch_api,
        mindspore_api,
        rule.category,
        rule.id,
        rule.severity,
        message_key,
        dict(args or {}),
        fixable,
        usage,
    )


def usages_by_start(ctx: AnalysisContext) -> dict[tuple[int, int], list[Finding]]:
    """The analyzer's findings by start position, built once per file (again if usages were added)."""
    memo = ctx.memo
    if memo.get("usage_count") != len(ctx.usages):
        index: dict[tuple[int, int], list[Finding]] = {}
        for finding in ctx.usages:
            index.setdefault((finding.line, finding.column), []).append(finding)
        memo["usage_count"], memo["usages_by_start"] = len(ctx.usages), index
    return memo["usages_by_start"]


def usage_at(ctx: AnalysisContext, span: Range, apis: Iterable[str] | None = None) -> Finding | None:
    """The API finding the analyzer reported at ``span`` (optionally only for one of ``apis``)."""
    wanted = set(apis) if apis is not None else None
    for finding in usages_by_start(ctx).get((span[0], span[1]), ()):
        if wanted is None or finding.torch_api in wanted:
            return finding
    return None


def report(
    ctx: AnalysisContext,
    rule: Rule,
    span: Range,
    message_key: str,
    args: dict[str, Any],
    *,
    apis: Iterable[str] | None = None,
    convertible: frozenset[str] = frozenset(),
    fixable: bool = False,
    torch_api: str | None = None,
) -> Finding | None:
    """Turn the analyzer's finding at ``span`` into this rule's finding when its rule is one of
    ``convertible`` (so one site gets one diagnostic); otherwise return a new finding."""
    existing = usage_at(ctx, span, apis)
    if existing is not None and existing.rule in convertible:
        existing.rule = rule.id
        existing.category = rule.category
        existing.severity = rule.severity
        existing.message_key = message_key
        existing.message_args = dict(args)
        existing.fixable = fixable
        return None
    return new_finding(
        rule,
        span,
        message_key,
        args,
        torch_api=torch_api or (existing.torch_api if existing else None),
        fixable=fixable,
    )


# the rules that refine an unmapped API's finding (MSM200) into a missing-API rule with its replacement: a
# detector that takes the API finding over as it was reported (its MindSpore target the table's) runs
# before them (``DETECT_BEFORE = BEFORE_MISSING_API``)
BEFORE_MISSING_API = ("MSM201", "MSM202", "MSM203", "MSM204")
# rules whose findings a more specific rule may take over at the same site
TAKEN_OVER_API_RULES = frozenset({"MSM200", "MSM201", "MSM202", "MSM203", "MSM204", "MSM102"})
# an idiom rule whose rewrite replaces whatever the API finding at its site says (a mapping of the name
# that does not fit the idiom: ``torch.no_grad`` → ``ops.stop_gradient``, an unknown name such as
# ``torch.__version__``)
IDIOM_TAKE_OVER = TAKEN_OVER_API_RULES | {"MSM100", "MSM101", "MSM103", "MSM600"}


def text(ctx: AnalysisContext, node: ast.AST) -> str:
    return segment(ctx.source, node)


def short(ctx: AnalysisContext, node: ast.AST, limit: int = 40) -> str:
    value = " ".join(text(ctx, node).split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


class Flow:
    """Assignments to plain names in one scope (module or function), for simple data-flow questions;
    ``assigned`` is the scope's entry of :attr:`TreeIndex.assigned`."""

    def __init__(self, ctx: AnalysisContext, assigned: dict[str, list[ast.expr]]) -> None:
        self.ctx = ctx
        self.assigned = assigned

    def values(self, name: str) -> list[ast.expr]:
        return self.assigned.get(name, [])

    # --- is this a value computed from tensor data (not a static shape)? -----------------------
    def data_dependent(self, node: ast.expr, depth: int = 0) -> bool:
        if depth > 8:
            return False
        ctx = self.ctx
        if isinstance(node, ast.Constant):
            return False
        if isinstance(node, ast.Attribute):
            if node.attr in STATIC_ATTRIBUTES or _is_self_attribute(node):
                return False
            return ctx.is_tensor(node)
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Attribute) and node.value.attr in STATIC_ATTRIBUTES:
                return False
            return ctx.is_tensor(node) or ctx.is_tensor(node.value)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                if func.attr in STATIC_METHODS:
                    return False
                if func.attr in SCALAR_METHODS:
                    return True
            if isinstance(func, ast.Name) and func.id in {
                "int",
                "float",
                "round",
                "max",
                "min",
                "abs",
                "sum",
            }:
                return any(self.data_dependent(arg, depth + 1) for arg in node.args)
            if isinstance(func, ast.Name) and func.id == "len":
                return False
            return ctx.is_tensor(node)
        if isinstance(node, ast.BinOp):
            return self.data_dependent(node.left, depth + 1) or self.data_dependent(node.right, depth + 1)
        if isinstance(node, ast.UnaryOp):
            return self.data_dependent(node.operand, depth + 1)
        if isinstance(node, ast.Name):
            if ctx.values.get(node) is ASSUMED_TENSOR and not self.values(node.id):
                return False  # a forward parameter without annotation: not known to be tensor data
            if ctx.is_tensor(node):
                return True
            return any(self.data_dependent(value, depth + 1) for value in self.values(node.id))
        return False


def _record_assignment(node: ast.AST, assigned: dict[str, list[ast.expr]]) -> None:
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                assigned.setdefault(target.id, []).append(node.value)
    elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and isinstance(node.target, ast.Name):
        if node.value is not None:
            assigned.setdefault(node.target.id, []).append(node.value)


class TreeIndex:
    """One walk of a module: its nodes of the types the checkers ask for (:data:`INDEXED`, in source
    order), the scope (module or function) of the nodes the data flow asks about, and the plain-name
    assignments of each scope. Shared by the checkers of one file. Names, attributes and constants (the
    most common nodes) are not walked: :func:`named_nodes` gives the names and attributes that refer to
    torch objects."""

    def __init__(self, tree: ast.Module, cancel: CancelToken = NEVER) -> None:
        self.by_type: dict[type, list[ast.AST]] = {}
        self.scope_of: dict[int, ast.AST] = {}  # for the nodes of _SCOPED types
        self.assigned: dict[int, dict[str, list[ast.expr]]] = {id(tree): {}}
        self._sorted: set[type] = set()
        by_type, scope_of, assigned = self.by_type, self.scope_of, self.assigned
        getters, indexed, scoped = _CHILD_GETTERS, INDEXED, _SCOPED
        recorded, functions = _RECORDED, _FUNCTIONS
        leaves, attribute = _LEAVES, ast.Attribute
        units: list[ast.AST] = [tree]  # the module, then each function (walked with its own scope)
        stack: list[ast.AST] = []
        push = stack.append
        pop = stack.pop
        while units:
            cancel.raise_if_cancelled()  # per function
            scope = node = units.pop()
            scope_assigned = assigned[id(scope)]
            while True:
                kind = type(node)
                if node is not scope:
                    if kind in indexed:
                        found = by_type.get(kind)
                        if found is None:
                            by_type[kind] = [node]
                        else:
                            found.append(node)
                    if kind in scoped:
                        scope_of[id(node)] = scope
                        if kind in recorded:
                            _record_assignment(node, scope_assigned)
                    if kind in functions:  # its decorators, defaults and body belong to its own scope
                        assigned[id(node)] = {}
                        units.append(node)
                        if not stack:
                            break
                        node = pop()
                        continue
                getter = getters.get(kind)
                if getter is None:
                    getter = _child_getter(kind)
                for value in getter(node):  # the child fields' values, in field order
                    if value is None:
                        continue
                    if type(value) is list:
                        for item in value:
                            while type(item) is attribute:  # attributes are not indexed: down the chain
                                item = item.value
                            if item is not None and type(item) not in leaves:
                                push(item)
                    else:
                        while type(value) is attribute:
                            value = value.value
                        if type(value) not in leaves:
                            push(value)
                if not stack:
                    break
                node = pop()

    def nodes(self, *types: type) -> list[ast.AST]:
        """The nodes of ``types`` (each one of :data:`INDEXED`), type by type, each in source order."""
        found: list[ast.AST] = []
        for kind in types:
            if kind not in INDEXED:
                raise ValueError(f"TreeIndex does not index {kind.__name__}")
            nodes = self.by_type.get(kind)
            if nodes:
                if kind not in self._sorted:  # sorted on first use (stable: ties keep walk order)
                    nodes.sort(key=_sort_key(kind))
                    self._sorted.add(kind)
                found.extend(nodes)
        return found


# Fields that never hold a node (names, flags, constants), operators and expression contexts.
_NOT_CHILDREN = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "name", "kind", "type_comment", "level", "module", "is_async",
     "conversion", "simple", "n", "s", "kwd_attrs", "tag", "asname", "rest", "lineno"}
)
_SCALAR_FIELDS: dict[type, frozenset[str]] = {
    ast.Constant: frozenset({"value"}),
    ast.MatchSingleton: frozenset({"value"}),
    ast.Global: frozenset({"names"}),
    ast.Nonlocal: frozenset({"names"}),
}
_CHILD_GETTERS: dict[type, Callable[[ast.AST], tuple]] = {}
_LEAVES = frozenset({ast.Name, ast.Constant})
_FUNCTIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef})
# the nodes whose scope is recorded: what the data flow of the checkers asks about, and assignments
_SCOPED = frozenset({ast.Call, ast.Subscript, ast.If, ast.While, ast.Assign, ast.AnnAssign, ast.NamedExpr})
_RECORDED = frozenset({ast.Assign, ast.AnnAssign, ast.NamedExpr})


# the node types the checkers ask for (dynamic_shape, patterns, sparse): only these are recorded
INDEXED = frozenset({ast.Call, ast.Subscript, ast.If, ast.While, ast.ClassDef, ast.For, ast.AsyncFor,
                     ast.comprehension, ast.Assign, ast.AugAssign, ast.AnnAssign})


def _no_children(node: ast.AST) -> tuple:
    return ()


def _child_getter(kind: type) -> Callable[[ast.AST], tuple]:
    """A function giving the values of ``kind``'s child fields as a tuple (one C call for the fields)."""
    scalars = _SCALAR_FIELDS.get(kind, frozenset())
    names = tuple(name for name in kind._fields if name not in _NOT_CHILDREN and name not in scalars)
    if not names or kind in (ast.Import, ast.ImportFrom):  # import aliases hold no indexed node
        getter: Callable[[ast.AST], tuple] = _no_children
    elif len(names) == 1:
        single = operator.attrgetter(names[0])

        def getter(node: ast.AST) -> tuple:
            return (single(node),)
    else:
        getter = operator.attrgetter(*names)
    _CHILD_GETTERS[kind] = getter
    return getter


def named_nodes(ctx: AnalysisContext, kind: type) -> list[ast.AST]:
    """The nodes of ``kind`` (``ast.Name``, ``ast.Attribute``) that name a torch object, in source order
    (an enclosing attribute before the one it contains)."""
    by_kind = ctx.memo.get("named_nodes")
    if by_kind is None:  # one pass over the values for every kind
        by_kind = ctx.memo["named_nodes"] = {}
        for node, value in ctx.values.items():
            if type(value) is str:
                found = by_kind.get(type(node))
                if found is None:
                    by_kind[type(node)] = [node]
                else:
                    found.append(node)
        for found in by_kind.values():
            found.sort(key=outer_first)
    return list(by_kind.get(kind, ()))


def attributes_named(tree: ast.Module, attr: str) -> list[ast.Attribute]:
    """Every ``x.<attr>`` of the tree (a full walk: only for rare names, after a test of the source)."""
    return [node for node in ast.walk(tree) if type(node) is ast.Attribute and node.attr == attr]


def outer_first(node: ast.AST) -> tuple[int, int, int, int]:
    return (node.lineno, node.col_offset, -(node.end_lineno or 0), -(node.end_col_offset or 0))


def _position_or_zero(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _sort_key(kind: type):
    """The source position of nodes of ``kind`` (``(0, 0)`` for node types without one)."""
    return _position if "lineno" in getattr(kind, "_attributes", ()) else _position_or_zero


_position = operator.attrgetter("lineno", "col_offset")


def tree_index(ctx: AnalysisContext) -> TreeIndex:
    """The :class:`TreeIndex` of the context's module, built once per file. It lives in the context, so
    the tree is freed with it (before the analyzer lets the cycle collector run again)."""
    index = ctx.memo.get("tree_index")
    if index is None:
        index = ctx.memo["tree_index"] = TreeIndex(ctx.tree, ctx.cancel)
    return index


def _is_self_attribute(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}


def call_argument(call: ast.Call, position: int, *names: str) -> ast.expr | None:
    """The argument at ``position`` or given by one of the keyword ``names``."""
    for keyword in call.keywords:
        if keyword.arg in names:
            return keyword.value
    if position < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return call.args[position]
    return None


def method_receiver_ok(ctx: AnalysisContext, func: ast.Attribute) -> bool:
    """The receiver of ``x.m(...)`` may be a tensor: it is one, or its kind is unknown."""
    kind = ctx.receiver_kind(func.value)
    return kind in (None, "tensor") and ctx.qualified_name(func.value) is None
