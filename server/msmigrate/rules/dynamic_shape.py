"""MSM3xx: code whose tensor shapes depend on the data (dynamic shapes in MindSpore graph mode)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.finding import Finding
from msmigrate.analysis.finding import FindingCategory as C
from msmigrate.analysis.finding import Severity as S
from msmigrate.rules.registry import Rule
from msmigrate.rules.support import (
    Flow,
    call_argument,
    method_receiver_ok,
    new_finding,
    reference_range,
    short,
    tree_index,
    usages_by_start,
)

DOC = "https://www.mindspore.cn/docs/en/r2.3.1/migration_guide/dynamic_shape.html"

DATA_DEPENDENT_OUTPUT = Rule("MSM301", C.DYNAMIC_SHAPE, S.WARNING, DOC)
BOOLEAN_MASK_INDEX = Rule("MSM302", C.DYNAMIC_SHAPE, S.WARNING, DOC)
TOPK_VARIABLE_K = Rule("MSM303", C.DYNAMIC_SHAPE, S.WARNING, DOC)
VARIABLE_SLICE = Rule("MSM304", C.DYNAMIC_SHAPE, S.WARNING, DOC)
DYNAMIC_GATHER = Rule("MSM305", C.DYNAMIC_SHAPE, S.WARNING, DOC)
VARIABLE_AXIS = Rule("MSM306", C.DYNAMIC_SHAPE, S.WARNING, DOC)
SHAPE_CHANGING_BRANCH = Rule("MSM307", C.DYNAMIC_SHAPE, S.WARNING, DOC)

RULES = [
    DATA_DEPENDENT_OUTPUT,
    BOOLEAN_MASK_INDEX,
    TOPK_VARIABLE_K,
    VARIABLE_SLICE,
    DYNAMIC_GATHER,
    VARIABLE_AXIS,
    SHAPE_CHANGING_BRANCH,
]

# operations whose output length is decided by the data
DYNAMIC_FUNCTIONS = frozenset(
    {
        "torch.masked_select",
        "torch.nonzero",
        "torch.argwhere",
        "torch.unique",
        "torch.unique_consecutive",
        "torch.nonzero_static",
    }
)
DYNAMIC_METHODS = frozenset({"masked_select", "nonzero", "argwhere", "unique", "unique_consecutive"})
_DYNAMIC_FUNCTIONS = DYNAMIC_FUNCTIONS - {"torch.nonzero_static"}

# methods through which a data-dependent shape propagates (x.nonzero().squeeze(1) is still dynamic)
_SHAPE_PRESERVING = frozenset(
    {
        "squeeze",
        "unsqueeze",
        "view",
        "reshape",
        "flatten",
        "long",
        "int",
        "float",
        "to",
        "contiguous",
        "clone",
        "detach",
        "t",
        "transpose",
        "permute",
        "cpu",
        "cuda",
        "type",
        "abs",
        "neg",
    }
)
BOOL_METHODS = frozenset(
    {
        "eq",
        "ne",
        "gt",
        "lt",
        "ge",
        "le",
        "isnan",
        "isinf",
        "isfinite",
        "bool",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "isin",
    }
)
BOOL_FUNCTIONS = frozenset(f"torch.{name}" for name in BOOL_METHODS - {"bool"})

# reductions and transposes: (function positions of axis arguments, method positions, keyword names)
_AXIS_FUNCTIONS = {
    "sum": ((1,), ("dim", "axis")),
    "mean": ((1,), ("dim", "axis")),
    "amax": ((1,), ("dim",)),
    "amin": ((1,), ("dim",)),
    "max": ((1,), ("dim",)),
    "min": ((1,), ("dim",)),
    "prod": ((1,), ("dim",)),
    "std": ((1,), ("dim",)),
    "var": ((1,), ("dim",)),
    "logsumexp": ((1,), ("dim",)),
    "argmax": ((1,), ("dim",)),
    "argmin": ((1,), ("dim",)),
    "all": ((1,), ("dim",)),
    "any": ((1,), ("dim",)),
    "norm": ((2,), ("dim",)),
    "cumsum": ((1,), ("dim",)),
    "softmax": ((1,), ("dim",)),
    "transpose": ((1, 2), ("dim0", "dim1")),
    "swapaxes": ((1, 2), ("axis0", "axis1")),
    "movedim": ((1, 2), ("source", "destination")),
    "permute": ((1,), ("dims",)),
    "squeeze": ((1,), ("dim",)),
}
_GATHERS = {  # name: (function position of the index, method position, keyword)
    "gather": (2, 1, "index"),
    "index_select": (2, 1, "index"),
    "take": (1, 0, "index"),
    "take_along_dim": (1, 0, "indices"),
}
_GROWING = frozenset(
    {"torch.cat", "torch.concat", "torch.concatenate", "torch.stack", "torch.hstack", "torch.vstack"}
)


# the operation names (``torch.<name>`` or a tensor's ``.<name>``) a call must have to matter here
_CALL_NAMES = frozenset(
    {"where", "topk", *DYNAMIC_METHODS, *(name.split(".", 1)[1] for name in DYNAMIC_FUNCTIONS), *_GATHERS,
     *_AXIS_FUNCTIONS}
)


def check(ctx) -> Iterable[Finding]:
    found: list[Finding | None] = []
    index = tree_index(ctx)
    checkers: dict[int, _ScopeChecker] = {}
    scope_of, values = index.scope_of, ctx.values
    for node in index.nodes(ast.Call, ast.Subscript, ast.If, ast.While):
        kind = type(node)
        if kind is ast.Call and _op_name(node, values) not in _CALL_NAMES:
            continue  # no check applies to this call (a cheap test before the full one)
        if kind is ast.Subscript and (type(node.ctx) is not ast.Load or not ctx.is_tensor(node.value)):
            continue
        scope = scope_of[id(node)]
        checker = checkers.get(id(scope))
        if checker is None:
            flow = Flow(ctx, index.assigned[id(scope)])
            checker = checkers[id(scope)] = _ScopeChecker(ctx, flow, found)
        checker.visit(node)
    return [f for f in found if f is not None]


def _op_name(call: ast.Call, values: dict) -> str | None:
    """The name :meth:`_ScopeChecker.tensor_op` would give, before checking the receiver."""
    func = call.func
    name = values.get(func)
    if type(name) is str:
        return name[6:] if name.startswith("torch.") and name.count(".") == 1 else None
    return func.attr if type(func) is ast.Attribute else None


CHECKERS = [check]


class _ScopeChecker:
    def __init__(self, ctx, flow: Flow, found: list[Finding | None]) -> None:
        self.ctx = ctx
        self.flow = flow
        self.found = found

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
        if not is_method and f"torch.{name}" in _DYNAMIC_FUNCTIONS:
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
                and func.attr in _SHAPE_PRESERVING
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

    def _add(self, rule: Rule, span, key: str, args: dict, torch_api: str | None = None) -> None:
        """A new finding: the API finding at the same place (with its replacement and fix) stays."""
        self.found.append(new_finding(rule, span, key, args, torch_api=torch_api))

    def _call(self, call: ast.Call) -> None:
        ctx = self.ctx
        api = self.is_dynamic_call(call)
        if api:
            span = reference_range(ctx, call.func)
            self._add(DATA_DEPENDENT_OUTPUT, span, "finding.MSM301", {"api": api}, api)
            return
        op = self.tensor_op(call)
        if op is None:
            return
        name, is_method = op
        shift = 1 if is_method else 0
        if name == "topk":
            k = call_argument(call, 1 - shift, "k")
            if k is not None and self.flow.data_dependent(k):
                self._add(TOPK_VARIABLE_K, ctx.node_range(k), "finding.MSM303", {"k": short(ctx, k)})
        elif name in _GATHERS:
            function_pos, method_pos, keyword = _GATHERS[name]
            index = call_argument(call, method_pos if is_method else function_pos, keyword)
            if index is not None and self.is_dynamic_shaped(index):
                api = f"torch.Tensor.{name}" if is_method else f"torch.{name}"
                args = {"api": api, "index": short(ctx, index)}
                self._add(DYNAMIC_GATHER, ctx.node_range(index), "finding.MSM305", args, api)
        elif name in _AXIS_FUNCTIONS:
            positions, keywords = _AXIS_FUNCTIONS[name]
            axes = [call_argument(call, p - shift, *keywords) for p in positions]
            if name == "permute" and is_method:
                axes = list(call.args)
            for axis in axes:
                if axis is not None and self.flow.data_dependent(axis):
                    api = f"torch.Tensor.{name}" if is_method else f"torch.{name}"
                    args = {"api": api, "axis": short(ctx, axis)}
                    self._add(VARIABLE_AXIS, ctx.node_range(axis), "finding.MSM306", args, api)
                    break

    def _subscript(self, node: ast.Subscript) -> None:
        ctx = self.ctx
        if not ctx.is_tensor(node.value):
            return
        if self.is_bool_mask(node.slice):
            self._add(BOOLEAN_MASK_INDEX, ctx.node_range(node), "finding.MSM302", {"expr": short(ctx, node)})
            return
        bounds = self._variable_bounds(node)
        if bounds:
            bound = bounds[0]
            self._add(VARIABLE_SLICE, ctx.node_range(bound), "finding.MSM304", {"bound": short(ctx, bound)})

    def _tensor_condition(self, test: ast.expr) -> bool:
        if isinstance(test, ast.BoolOp):
            return any(self._tensor_condition(v) for v in test.values)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._tensor_condition(test.operand)
        if isinstance(test, ast.Compare) and any(isinstance(op, ast.Is | ast.IsNot) for op in test.ops):
            return False
        return self.ctx.is_tensor(test) or self.flow.data_dependent(test)

    def _branches(self, node: ast.If) -> None:
        if not self._tensor_condition(node.test):
            return
        body, orelse = _assignments(node.body), _assignments(node.orelse)
        for name in sorted(set(body) & set(orelse)):
            left, right = body[name], orelse[name]
            if self.is_dynamic_shaped(left) or self.is_dynamic_shaped(right):
                span = self.ctx.node_range(node.test)
                self._add(SHAPE_CHANGING_BRANCH, span, "finding.MSM307", {"name": name})
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
            if isinstance(value, ast.Call) and self.ctx.qualified_name(value.func) in _GROWING and value.args:
                items = value.args[0]
                if isinstance(items, ast.List | ast.Tuple) and any(
                    isinstance(e, ast.Name) and e.id == name for e in items.elts
                ):
                    span = self.ctx.node_range(node.test)
                    self._add(SHAPE_CHANGING_BRANCH, span, "finding.MSM307.loop", {"name": name})
                    return


def _assignments(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """The last value assigned to each plain name at the top level of a branch (``return`` counts too)."""
    found: dict[str, ast.expr] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            found[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            found["return"] = stmt.value
    return found
