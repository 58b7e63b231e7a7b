"""Shared code of the dynamic-shape rules MSM301–MSM307 (tensor shapes that depend on the data, which
MindSpore's graph mode compiles as dynamic shapes): their sites, found in one walk per file, scope by scope
(each rule module reports its own, ``findings``). Host code around the network is not checked
(``rules/host_code.py``)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.arguments import Binding, argument_kind, bind, bound
from msmigrate.model.finding import Finding
from msmigrate.model.rule import Rule
from msmigrate.rules.dynamic_shape._operations import (
    AXIS_FUNCTIONS,
    BOOL_FUNCTIONS,
    BOOL_METHODS,
    CALL_NAMES,
    DYNAMIC_METHODS,
    DYNAMIC_OUTPUT_FUNCTIONS,
    GATHERS,
    GROWING,
    SHAPE_PRESERVING,
)
from msmigrate.rules.dynamic_shape._shapes import StaticShapes, assignments, shapes_differ
from msmigrate.rules.host_code import is_host_scope
from msmigrate.rules.sites import Site, new_findings, sites_of
from msmigrate.rules.support import (
    Flow,
    call_argument,
    method_receiver_ok,
    reference_range,
    short,
    tree_index,
    usages_by_start,
)

DOC = "https://www.mindspore.cn/docs/en/r2.3.1/migration_guide/dynamic_shape.html"


def findings(ctx, rule: Rule) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    """``rule``'s findings, new ones: the API finding at the same place (its replacement and fix) stays."""
    return new_findings(rule, sites_of(ctx, rule, "dynamic_shape_sites", _walk))


def _walk(ctx) -> list[Site]:  # noqa: ANN001 - the analysis context
    found: list[Site] = []
    index = tree_index(ctx)
    checkers: dict[int, _ScopeChecker] = {}
    scope_of, values = index.scope_of, ctx.values
    check = ctx.cancel.raise_if_cancelled
    for node in index.nodes(ast.Call, ast.Subscript, ast.If, ast.While):
        check()
        kind = type(node)
        if kind is ast.Call and _op_name(node, values) not in CALL_NAMES:
            continue  # no check applies to this call (a cheap test before the full one)
        if kind is ast.Subscript and (type(node.ctx) is not ast.Load or not ctx.is_tensor(node.value)):
            continue
        scope = scope_of[id(node)]
        checker = checkers.get(id(scope))
        if checker is None:
            if is_host_scope(ctx, scope):
                continue  # eager Python around the network (rules/host_code.py): no graph-mode shapes
            flow = Flow(ctx, index.assigned[id(scope)])
            checker = checkers[id(scope)] = _ScopeChecker(ctx, flow, found, scope)
        checker.visit(node)
    return found


def _op_name(call: ast.Call, values: dict) -> str | None:
    """The name :meth:`_ScopeChecker.tensor_op` would give, before checking the receiver."""
    func = call.func
    name = values.get(func)
    if type(name) is str:
        return name[6:] if name.startswith("torch.") and name.count(".") == 1 else None
    return func.attr if type(func) is ast.Attribute else None


class _ScopeChecker:
    """The dynamic-shape sites of one scope (``visit`` each node of the scope)."""

    def __init__(self, ctx, flow: Flow, found: list[Site], scope: ast.AST) -> None:  # noqa: ANN001
        self.ctx = ctx
        self.flow = flow
        self.found = found
        self.shapes = StaticShapes(ctx, flow, scope)

    # --- what kind of call is this ---------------------------------------------------------------
    def tensor_op(self, call: ast.Call) -> tuple[str, bool] | None:
        """(``name``, ``is_method``) when ``call`` is ``torch.name(...)`` or a tensor's ``x.name(...)``."""
        name = self.ctx.qualified_name(call.func)
        if name and name.startswith("torch.") and name.count(".") == 1:
            return name[len("torch.") :], False
        if isinstance(call.func, ast.Attribute) and name is None and method_receiver_ok(self.ctx, call.func):
            if self.ctx.is_tensor(call.func.value) or self._usage_is_tensor_method(call.func):
                return call.func.attr, True
        return None

    def _usage_is_tensor_method(self, func: ast.Attribute) -> bool:
        span = reference_range(self.ctx, func)
        found = usages_by_start(self.ctx).get((span[0], span[1]), ())
        return any(f.torch_api == f"torch.Tensor.{func.attr}" for f in found)

    def is_dynamic_call(self, call: ast.Call) -> str | None:
        """The API name when ``call`` returns a data-dependent shape."""
        op = self.tensor_op(call)
        if op is None:
            return None
        name, is_method = op
        if name == "where" and not is_method and len(call.args) == 1 and not call.keywords:
            return "torch.where"
        if is_method and name in DYNAMIC_METHODS:
            return f"torch.Tensor.{name}"
        if not is_method and f"torch.{name}" in DYNAMIC_OUTPUT_FUNCTIONS:
            return f"torch.{name}"
        return None

    def is_bool_mask(self, node: ast.expr, depth: int = 0) -> bool:
        if depth > 6:
            return False
        ctx = self.ctx
        if isinstance(node, ast.Compare):
            return ctx.is_tensor(node) or any(ctx.is_tensor(n) for n in (node.left, *node.comparators))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return self.is_bool_mask(node.operand, depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr | ast.BitXor):
            return self.is_bool_mask(node.left, depth + 1) or self.is_bool_mask(node.right, depth + 1)
        if isinstance(node, ast.Call):
            name = ctx.qualified_name(node.func)
            if name in BOOL_FUNCTIONS:
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr in BOOL_METHODS and name is None:
                return ctx.is_tensor(node.func.value) or node.func.attr == "bool"
            return False
        if isinstance(node, ast.Name):
            return any(self.is_bool_mask(v, depth + 1) for v in self.flow.values(node.id))
        return False

    def is_dynamic_shaped(self, node: ast.expr, depth: int = 0) -> bool:
        if depth > 6:
            return False
        if isinstance(node, ast.Call):
            if self.is_dynamic_call(node):
                return True
            func = node.func
            return (
                isinstance(func, ast.Attribute)
                and func.attr in SHAPE_PRESERVING
                and self.is_dynamic_shaped(func.value, depth + 1)
            )
        if isinstance(node, ast.Subscript):
            if self.is_dynamic_shaped(node.value, depth + 1):
                return True
            return self.ctx.is_tensor(node.value) and (
                self.is_bool_mask(node.slice) or self._variable_bounds(node)
            )
        if isinstance(node, ast.Name):
            return any(self.is_dynamic_shaped(v, depth + 1) for v in self.flow.values(node.id))
        return False

    def _variable_bounds(self, node: ast.Subscript) -> list[ast.expr]:
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        bounds = []
        for part in parts:
            if isinstance(part, ast.Slice):
                for bound in (part.lower, part.upper, part.step):
                    if bound is not None and self.flow.data_dependent(bound):
                        bounds.append(bound)
        return bounds

    # --- the checks ----------------------------------------------------------------------------
    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.Call):
            self._call(node)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            self._subscript(node)
        elif isinstance(node, ast.If):
            self._branches(node)
        elif isinstance(node, ast.While):
            self._loop(node)

    def _add(self, rule: str, span, key: str, args: dict, torch_api: str | None = None) -> None:  # noqa: ANN001
        """A new site: the API finding at the same place (with its replacement and fix) stays."""
        self.found.append(Site(rule, span, key, args, torch_api=torch_api))

    def _call(self, call: ast.Call) -> None:
        ctx = self.ctx
        api = self.is_dynamic_call(call)
        if api:
            span = reference_range(ctx, call.func)
            self._add("MSM301", span, "finding.MSM301", {"api": api}, api)
            return
        op = self.tensor_op(call)
        if op is None:
            return
        name, is_method = op
        shift = 1 if is_method else 0
        api = f"torch.Tensor.{name}" if is_method else f"torch.{name}"
        bindings = self._bindings(call, api)
        if name == "topk":
            k = self._argument(call, bindings, 1 - shift, "k")
            if k is not None and self.flow.data_dependent(k):
                self._add("MSM303", ctx.node_range(k), "finding.MSM303", {"k": short(ctx, k)})
        elif name in GATHERS:
            function_pos, method_pos, keyword = GATHERS[name]
            index = self._argument(call, bindings, method_pos if is_method else function_pos, keyword)
            if index is not None and self.is_dynamic_shaped(index):
                args = {"api": api, "index": short(ctx, index)}
                self._add("MSM305", ctx.node_range(index), "finding.MSM305", args, api)
        elif name in AXIS_FUNCTIONS:
            positions, keywords = AXIS_FUNCTIONS[name]
            if bindings is None:
                axes = [call_argument(call, p - shift, *keywords) for p in positions]
            else:  # by the torch signature: torch.max(r, 1 / r) passes no axis, x.sum(1) does
                axes = [bound(bindings, keyword) for keyword in keywords if keyword != "axis"]
            if name == "permute" and is_method:
                axes = list(call.args)
            for axis in axes:
                if axis is not None and self.flow.data_dependent(axis):
                    args = {"api": api, "axis": short(ctx, axis)}
                    self._add("MSM306", ctx.node_range(axis), "finding.MSM306", args, api)
                    break

    def _bindings(self, call: ast.Call, api: str) -> list[Binding] | None:
        """The overloads of ``api``'s torch signature the call fits (``None``: no signature known, or
        the call fits none of them)."""
        signatures = self.ctx.kb.torch_signatures(api)
        if not signatures:
            return None
        return bind(call, signatures, lambda node: argument_kind(node, self.ctx.is_tensor)) or None

    @staticmethod
    def _argument(call: ast.Call, bindings: list[Binding] | None, position: int,
                  name: str) -> ast.expr | None:
        return call_argument(call, position, name) if bindings is None else bound(bindings, name)

    def _subscript(self, node: ast.Subscript) -> None:
        ctx = self.ctx
        if not ctx.is_tensor(node.value):
            return
        if self.is_bool_mask(node.slice):
            self._add("MSM302", ctx.node_range(node), "finding.MSM302", {"expr": short(ctx, node)})
            return
        bounds = self._variable_bounds(node)
        if bounds:
            bound = bounds[0]
            self._add("MSM304", ctx.node_range(bound), "finding.MSM304", {"bound": short(ctx, bound)})

    def _tensor_condition(self, test: ast.expr) -> bool:
        if isinstance(test, ast.BoolOp):
            return any(self._tensor_condition(v) for v in test.values)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._tensor_condition(test.operand)
        if isinstance(test, ast.Compare) and any(isinstance(op, ast.Is | ast.IsNot) for op in test.ops):
            return False
        return self.ctx.is_tensor(test) or self.flow.data_dependent(test)

    def _branches(self, node: ast.If) -> None:
        """A name the branches leave with different shapes: one side data-dependent, or both static and
        different (``x[:2]`` against ``x``). A name assigned in one branch only keeps, on the other
        side, the value it had before the ``if`` (``if x.sum() > 0: x = x[:2]`` has two shapes of x)."""
        if not self._tensor_condition(node.test):
            return
        body, orelse = assignments(node.body), assignments(node.orelse)
        shapes: list[dict[str, tuple | None]] = []  # of the body and of the orelse, when first needed
        for name in sorted(set(body) | set(orelse)):
            left, right = body.get(name), orelse.get(name)
            one_side = left is None or right is None
            if one_side and (name == "return" or not self.shapes.bound_before(name, node)):
                continue
            if not any(value is not None and self.is_dynamic_shaped(value) for value in (left, right)):
                if not shapes:
                    shapes = [self.shapes.branch_shapes(branch, node) for branch in (node.body, node.orelse)]
                if not shapes_differ(*(self.shapes.shape_after(name, branch, node) for branch in shapes)):
                    continue
            span = self.ctx.node_range(node.test)
            self._add("MSM307", span, "finding.MSM307", {"name": name})
            return

    def _loop(self, node: ast.While) -> None:
        if not self._tensor_condition(node.test):
            return
        for stmt in node.body:
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                continue
            name = stmt.targets[0].id
            value = stmt.value
            if isinstance(value, ast.Call) and self.ctx.qualified_name(value.func) in GROWING and value.args:
                items = value.args[0]
                if isinstance(items, ast.List | ast.Tuple) and any(
                    isinstance(e, ast.Name) and e.id == name for e in items.elts
                ):
                    span = self.ctx.node_range(node.test)
                    self._add("MSM307", span, "finding.MSM307.loop", {"name": name})
                    return
