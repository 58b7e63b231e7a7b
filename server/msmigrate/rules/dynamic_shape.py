"""MSM3xx: code whose tensor shapes depend on the data (dynamic shapes in MindSpore graph mode)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.arguments import Binding, argument_kind, bind, bound
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.ast_literals import before, constant_int, is_number
from msmigrate.rules.host_code import is_host_scope
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

# The family's texts (en, zh): rule titles and explanations, finding messages. The message catalogue
# (i18n.py) reads this literal without importing the module.
MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM301.title": (
        "Operation whose output shape depends on the data",
        "输出形状取决于数据的操作",
    ),
    "rule.MSM301.explanation": (
        "masked_select, nonzero, argwhere, unique, unique_consecutive and torch.where with one argument "
        "return as many elements as the data selects. In graph mode MindSpore compiles shapes ahead of "
        "time, so such a result makes every later shape dynamic: slower or unsupported. Keep a fixed "
        "maximum size and a mask instead (for example torch.where(mask, x, 0) followed by a masked sum).",
        "masked_select、nonzero、argwhere、unique、unique_consecutive 以及单参数的 torch.where "
        "返回的元素个数由数据决定。"
        "MindSpore 图模式在编译时确定形状，这类结果会使后续所有形状变为动态，导致性能下降或不被支持。"
        "请改为固定最大长度并配合掩码（例如先 torch.where(mask, x, 0) 再做带掩码的求和）。",
    ),
    "rule.MSM302.title": ("Boolean-mask indexing", "布尔掩码索引"),
    "rule.MSM302.explanation": (
        "x[mask] with a boolean tensor keeps only the selected elements, so the result's shape depends on "
        "the data, exactly like masked_select. In graph mode replace it with a fixed-shape computation: "
        "torch.where(mask, x, fill) or multiply by the mask and reduce.",
        "用布尔张量做 x[mask] 只保留被选中的元素，结果形状取决于数据，与 masked_select 相同。"
        "在图模式下请改为固定形状的计算：torch.where(mask, x, fill)，或乘以掩码后再归约。",
    ),
    "rule.MSM303.title": ("top-k with a non-constant k", "k 不是常量的 top-k"),
    "rule.MSM303.explanation": (
        "When k is computed from tensor values, the output shape changes from step to step. Take the "
        "top-k of a fixed maximum k and mask out the entries beyond the wanted count.",
        "当 k 由张量的值计算得到时，输出形状会随步骤变化。"
        "请按固定的最大 k 取 top-k，再用掩码去掉多余的部分。",
    ),
    "rule.MSM304.title": ("Slice with data-dependent bounds", "边界取决于数据的切片"),
    "rule.MSM304.explanation": (
        "x[:n] with n computed from tensor values gives a result whose length changes with the data, so "
        "the shapes after it are dynamic in graph mode. Slice to a fixed maximum and carry a mask, or pad "
        "inputs to a few bucket sizes.",
        "x[:n] 中 n 由张量的值计算得到时，结果长度随数据变化，图模式下其后的形状都变为动态。"
        "请切片到固定的最大长度并携带掩码，或把输入填充到少数几个分桶长度。",
    ),
    "rule.MSM305.title": ("Gather with an index of data-dependent length", "索引长度取决于数据的 gather"),
    "rule.MSM305.explanation": (
        "The index comes from an operation with a data-dependent shape (nonzero, a boolean mask, unique …), "
        "so gather/index_select returns a dynamic shape too. Use a fixed-length index padded to a maximum "
        "and mask the padded positions.",
        "索引来自形状取决于数据的操作（nonzero、布尔掩码、unique 等），因此 gather/index_select "
        "的结果形状同样是动态的。"
        "请使用填充到最大长度的定长索引，并对填充位置做掩码。",
    ),
    "rule.MSM306.title": (
        "Reduction or transpose over axes computed from tensor values",
        "归约或转置的轴由张量值计算得到",
    ),
    "rule.MSM306.explanation": (
        "The axis argument is computed from tensor data, so the output rank or layout is unknown when the "
        "graph is compiled. Use constant axes (Python ints, or attributes set in __init__).",
        "轴参数由张量数据计算得到，编译计算图时无法确定输出的维数或布局。请使用常量轴（Python 整数或在 "
        "__init__ 中设置的属性）。",
    ),
    "rule.MSM307.title": (
        "Tensor-dependent control flow with branches of different shapes",
        "依赖张量值的控制流，且各分支形状不同",
    ),
    "rule.MSM307.explanation": (
        "The condition depends on tensor values and the branches produce results of different shapes (or "
        "the loop grows a tensor). In graph mode both branches are compiled and must agree on shapes. "
        "Compute both results with the same shape and pick one with select/where, or bound the loop.",
        "条件依赖张量的值，而各分支产生的结果形状不同（或循环不断增大张量）。图模式下两个分支都会被编译，"
        "形状必须一致。"
        "请让两个分支计算出相同形状的结果，再用 select/where 选择，或为循环设置固定上限。",
    ),
    "finding.MSM301": (
        "{api} returns a data-dependent shape (dynamic shape in graph mode); use a fixed size and a mask",
        "{api} 返回的形状取决于数据（图模式下为动态 shape）；请使用固定大小并配合掩码",
    ),
    "finding.MSM302": (
        "Boolean-mask indexing {expr} has a data-dependent shape; use where(mask, x, fill) instead",
        "布尔掩码索引 {expr} 的形状取决于数据；请改用 where(mask, x, fill)",
    ),
    "finding.MSM303": (
        "topk with k={k} computed from tensor values gives a dynamic shape; use a fixed maximum k and a mask",
        "topk 的 k={k} 由张量值计算得到，会产生动态 shape；请使用固定的最大 k 并配合掩码",
    ),
    "finding.MSM304": (
        "Slice bound {bound} is computed from tensor values; the slice has a dynamic shape",
        "切片边界 {bound} 由张量值计算得到；切片结果为动态 shape",
    ),
    "finding.MSM305": (
        "{api} with index {index} of data-dependent length gives a dynamic shape",
        "{api} 的索引 {index} 长度取决于数据，结果为动态 shape",
    ),
    "finding.MSM306": (
        "{api} with axis {axis} computed from tensor values; use a constant axis",
        "{api} 的轴 {axis} 由张量值计算得到；请使用常量轴",
    ),
    "finding.MSM307": (
        "Condition depends on tensor values and the branches give '{name}' different shapes; compute both "
        "and "
        "use select",
        "条件依赖张量的值，且各分支中 '{name}' 的形状不同；请两路都计算后用 select 选择",
    ),
    "finding.MSM307.loop": (
        "Loop on a tensor condition grows '{name}'; its shape is dynamic in graph mode — bound the loop",
        "依赖张量条件的循环不断增大 '{name}'；图模式下其形状为动态 —— 请为循环设置固定上限",
    ),
}

# rule id → (example that triggers the rule, counter-example that does not, the (line, column) of the
# rule's findings in the example)
EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM301": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    return torch.masked_select(x, x > 0)\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    return torch.where(x > 0, x, 0)\n",
        [(4, 12)],
    ),
    "MSM302": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    return x[x > 0]\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    x[x < 0] = 0\n    return x\n",
        [(4, 12)],
    ),
    "MSM303": (
        "import torch\n\ndef best(x: torch.Tensor):\n    k = int((x > 0.5).sum())\n"
        "    return torch.topk(x, k)\n",
        "import torch\n\ndef best(x: torch.Tensor):\n    return torch.topk(x, 5)\n",
        [(5, 26)],
    ),
    "MSM304": (
        "import torch\n\ndef head(x: torch.Tensor, n: torch.Tensor):\n    return x[: n.item()]\n",
        "import torch\n\ndef head(x: torch.Tensor):\n    return x[: x.shape[0] // 2]\n",
        [(4, 16)],
    ),
    "MSM305": (
        "import torch\n\ndef rows(x: torch.Tensor):\n    idx = torch.nonzero(x[:, 0]).squeeze(1)\n"
        "    return torch.index_select(x, 0, idx)\n",
        "import torch\n\ndef rows(x: torch.Tensor):\n    idx = torch.arange(4)\n"
        "    return torch.index_select(x, 0, idx)\n",
        [(5, 37)],
    ),
    "MSM306": (
        "import torch\n\ndef reduce(x: torch.Tensor, axis: torch.Tensor):\n"
        "    return torch.sum(x, int(axis))\n",
        "import torch\n\ndef reduce(x: torch.Tensor):\n    return torch.sum(x, -1)\n",
        [(4, 25)],
    ),
    "MSM307": (
        "import torch\n\ndef pick(x: torch.Tensor):\n    if x.sum() > 0:\n"
        "        y = torch.masked_select(x, x > 0)\n"
        "    else:\n        y = torch.zeros_like(x)\n    return y\n",
        "import torch\n\ndef pick(x: torch.Tensor):\n    if x.sum() > 0:\n        y = x * 2\n    else:\n"
        "        y = torch.zeros_like(x)\n    return y\n",
        [(4, 8)],
    ),
}

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

# --- static shapes, to tell whether two branches leave a tensor with different shapes -------------------
# factories whose shape is their size arguments
_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"})
# functions and methods whose result has the shape of the tensor they are applied to (first argument)
_LIKE_FUNCTIONS = frozenset(
    {"torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.full_like", "torch.rand_like",
     "torch.randn_like", "torch.randint_like", "torch.clone", "torch.abs", "torch.neg", "torch.exp",
     "torch.log", "torch.sqrt", "torch.sigmoid", "torch.tanh", "torch.relu", "torch.clamp", "torch.clip"}
)
_SAME_SHAPE_METHODS = frozenset(
    {"clone", "detach", "contiguous", "float", "double", "half", "bfloat16", "long", "int", "bool", "to",
     "cpu", "cuda", "abs", "neg", "exp", "log", "sqrt", "sigmoid", "tanh", "relu", "clamp", "clip",
     "zero_", "fill_", "requires_grad_"}
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
    check = ctx.cancel.check
    for node in index.nodes(ast.Call, ast.Subscript, ast.If, ast.While):
        check()
        kind = type(node)
        if kind is ast.Call and _op_name(node, values) not in _CALL_NAMES:
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
    def __init__(self, ctx, flow: Flow, found: list[Finding | None], scope: ast.AST) -> None:
        self.ctx = ctx
        self.flow = flow
        self.found = found
        self.scope = scope
        self._entry_shapes: dict[tuple[str, int, int], tuple] = {}

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
        api = f"torch.Tensor.{name}" if is_method else f"torch.{name}"
        bindings = self._bindings(call, api)
        if name == "topk":
            k = self._argument(call, bindings, 1 - shift, "k")
            if k is not None and self.flow.data_dependent(k):
                self._add(TOPK_VARIABLE_K, ctx.node_range(k), "finding.MSM303", {"k": short(ctx, k)})
        elif name in _GATHERS:
            function_pos, method_pos, keyword = _GATHERS[name]
            index = self._argument(call, bindings, method_pos if is_method else function_pos, keyword)
            if index is not None and self.is_dynamic_shaped(index):
                args = {"api": api, "index": short(ctx, index)}
                self._add(DYNAMIC_GATHER, ctx.node_range(index), "finding.MSM305", args, api)
        elif name in _AXIS_FUNCTIONS:
            positions, keywords = _AXIS_FUNCTIONS[name]
            if bindings is None:
                axes = [call_argument(call, p - shift, *keywords) for p in positions]
            else:  # by the torch signature: torch.max(r, 1 / r) passes no axis, x.sum(1) does
                axes = [bound(bindings, keyword) for keyword in keywords if keyword != "axis"]
            if name == "permute" and is_method:
                axes = list(call.args)
            for axis in axes:
                if axis is not None and self.flow.data_dependent(axis):
                    args = {"api": api, "axis": short(ctx, axis)}
                    self._add(VARIABLE_AXIS, ctx.node_range(axis), "finding.MSM306", args, api)
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
        """A name the branches leave with different shapes: one side data-dependent, or both static and
        different (``x[:2]`` against ``x``). A name assigned in one branch only keeps, on the other
        side, the value it had before the ``if`` (``if x.sum() > 0: x = x[:2]`` has two shapes of x)."""
        if not self._tensor_condition(node.test):
            return
        body, orelse = _assignments(node.body), _assignments(node.orelse)
        shapes: list[dict[str, tuple | None]] = []  # of the body and of the orelse, when first needed
        for name in sorted(set(body) | set(orelse)):
            left, right = body.get(name), orelse.get(name)
            if (left is None or right is None) and (name == "return" or not self._bound_before(name, node)):
                continue
            if not any(value is not None and self.is_dynamic_shaped(value) for value in (left, right)):
                if not shapes:
                    shapes = [self._branch_shapes(node.body, node), self._branch_shapes(node.orelse, node)]
                if not _shapes_differ(*(self._shape_after(name, branch, node) for branch in shapes)):
                    continue
            span = self.ctx.node_range(node.test)
            self._add(SHAPE_CHANGING_BRANCH, span, "finding.MSM307", {"name": name})
            return

    # --- static shapes (see _shapes_differ) ----------------------------------------------------------
    def _bound_before(self, name: str, node: ast.AST) -> bool:
        """``name`` is a parameter of the scope or assigned before ``node``."""
        if isinstance(self.scope, ast.FunctionDef | ast.AsyncFunctionDef):
            args = self.scope.args
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if arg is not None and arg.arg == name:
                    return True
        return any(before(value, node) for value in self.flow.values(name))

    def _branch_shapes(self, body: list[ast.stmt], at: ast.AST) -> dict[str, tuple | None]:
        """The shape of each name bound in ``body`` at its end (``None``: unknown); names read before
        they are bound here have their value from before ``at``."""
        shapes: dict[str, tuple | None] = {}
        for stmt in body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
            if isinstance(target, ast.Name):
                shapes[target.id] = self._shape(stmt.value, shapes, at)  # type: ignore[union-attr]
            else:  # bound another way (nested block, augmented or tuple assignment): not followed
                for sub in ast.walk(stmt):
                    if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                        shapes[sub.id] = None
        return shapes

    def _shape_after(self, name: str, shapes: dict[str, tuple | None], at: ast.AST) -> tuple | None:
        return shapes[name] if name in shapes else self._entry_shape(name, at)

    def _entry_shape(self, name: str, at: ast.AST, depth: int = 0) -> tuple | None:
        """The shape of ``name`` just before ``at``: static when every earlier assignment gives the same
        one, else symbolic (``("of", name, ())``, the same for every use of that value)."""
        key = (name, at.lineno, at.col_offset)  # type: ignore[attr-defined]
        found = self._entry_shapes.get(key)
        if found is None:
            found = self._entry_shapes[key] = ("of", name, ())
            if depth <= 6:
                earlier = {self._shape(v, {}, v, depth + 1) for v in self.flow.values(name) if before(v, at)}
                if len(earlier) == 1:
                    [shape] = earlier
                    if shape is not None and shape[0] == "dims":
                        found = self._entry_shapes[key] = shape
        return found

    def _shape(self, node: ast.expr, shapes: dict[str, tuple | None], at: ast.AST,
               depth: int = 0) -> tuple | None:
        """``("dims", (4, 3))``, ``("of", name, subscripts)`` (the shape of ``name`` before ``at`` after
        those constant subscripts), or ``None`` when unknown."""
        if depth > 6:
            return None
        ctx = self.ctx
        if isinstance(node, ast.Name):
            return shapes[node.id] if node.id in shapes else self._entry_shape(node.id, at, depth + 1)
        if isinstance(node, ast.Subscript):
            if not ctx.is_tensor(node.value):
                return None
            return _index_shape(self._shape(node.value, shapes, at, depth + 1), node.slice)
        if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):  # -x, ~x
            return self._shape(node.operand, shapes, at, depth + 1)
        if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.MatMult):
            # element-wise with a number, or between two tensors of the same shape
            numbers = [is_number(side) for side in (node.left, node.right)]
            if all(numbers):
                return None
            sides = {self._shape(side, shapes, at, depth + 1)
                     for side, number in zip((node.left, node.right), numbers, strict=True) if not number}
            return sides.pop() if len(sides) == 1 else None
        if not isinstance(node, ast.Call):
            return None
        name = ctx.qualified_name(node.func)
        if name in _FACTORIES:
            return _factory_shape(node)
        if name in _LIKE_FUNCTIONS and node.args:
            return self._shape(node.args[0], shapes, at, depth + 1)
        func = node.func
        if (name is None and isinstance(func, ast.Attribute) and func.attr in _SAME_SHAPE_METHODS
                and ctx.is_tensor(func.value)):
            return self._shape(func.value, shapes, at, depth + 1)
        return None

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


def _factory_shape(call: ast.Call) -> tuple | None:
    """``torch.zeros(4, 3)``, ``torch.zeros((4, 3))``, ``torch.zeros(size=[4, 3])`` → ``("dims", (4, 3))``."""
    sizes: list[ast.expr] = list(call.args)
    for keyword in call.keywords:
        if keyword.arg == "size":
            sizes.append(keyword.value)
        elif keyword.arg is None:
            return None
    if len(sizes) == 1 and isinstance(sizes[0], ast.Tuple | ast.List):
        sizes = list(sizes[0].elts)
    dims = tuple(constant_int(size) for size in sizes)
    if not dims or None in dims or any(d < 0 for d in dims):  # type: ignore[operator]
        return None
    return ("dims", dims)


def _index_shape(shape: tuple | None, index: ast.expr) -> tuple | None:
    """The shape after indexing with constants (ints, constant slices, ``None``, ``...``); ``None`` for
    any other index."""
    if shape is None:
        return None
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    kinds = []
    for part in parts:
        if isinstance(part, ast.Slice):
            bounds = (part.lower, part.upper, part.step)
            if any(b is not None and constant_int(b) is None for b in bounds) or constant_int(part.step) == 0:
                return None
            kinds.append(("slice", *(constant_int(b) for b in bounds)))
        elif constant_int(part) is not None:
            kinds.append(("int",))
        elif isinstance(part, ast.Constant) and part.value is None:
            kinds.append(("new",))
        elif isinstance(part, ast.Constant) and part.value is Ellipsis:
            kinds.append(("rest",))
        else:
            return None
    if all(k == ("slice", None, None, None) or k == ("rest",) for k in kinds):
        return shape  # x[:], x[...]: the whole tensor
    if shape[0] == "of":
        return ("of", shape[1], (*shape[2], tuple(kinds)))
    dims, out = list(shape[1]), []
    consumed = sum(1 for k in kinds if k[0] in ("slice", "int"))
    if consumed > len(dims) or sum(1 for k in kinds if k[0] == "rest") > 1:
        return None
    skipped = len(dims) - consumed  # the dimensions ``...`` stands for
    for kind in kinds:
        if kind[0] == "new":
            out.append(1)
        elif kind[0] == "rest":
            out += dims[:skipped]
            dims = dims[skipped:]
        else:
            size = dims.pop(0)
            if kind[0] == "slice":
                out.append(len(range(size)[slice(*kind[1:])]))
    return ("dims", (*out, *dims))


def _shapes_differ(a: tuple | None, b: tuple | None) -> bool:
    """Two static shapes that are known to differ: different dimensions, or the same value with and
    without further constant subscripts (``x[:2]``, ``x[0]``, ``x[None]`` against ``x``)."""
    if a is None or b is None or a == b:
        return False
    if a[0] == "dims" and b[0] == "dims":
        return True
    if a[0] == "of" and b[0] == "of" and a[1] == b[1]:
        shorter, longer = sorted((a[2], b[2]), key=len)
        return longer[: len(shorter)] == shorter
    return False


def _assignments(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """The last value assigned to each plain name at the top level of a branch (``return`` counts too)."""
    found: dict[str, ast.expr] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            found[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            found["return"] = stmt.value
    return found
