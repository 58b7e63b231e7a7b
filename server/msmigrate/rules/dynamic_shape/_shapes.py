"""Shared code of the dynamic-shape rules: static shapes, to tell whether two branches leave a tensor with
different shapes (MSM307)."""

from __future__ import annotations

import ast

from msmigrate.rules.ast_literals import before, constant_int, is_number
from msmigrate.rules.support import Flow

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


class StaticShapes:
    """The static shapes of the names of one scope (``flow``), as far as constants tell them."""

    def __init__(self, ctx, flow: Flow, scope: ast.AST) -> None:  # noqa: ANN001 - the analysis context
        self.ctx = ctx
        self.flow = flow
        self.scope = scope
        self._entry_shapes: dict[tuple[str, int, int], tuple] = {}

    def bound_before(self, name: str, node: ast.AST) -> bool:
        """``name`` is a parameter of the scope or assigned before ``node``."""
        if isinstance(self.scope, ast.FunctionDef | ast.AsyncFunctionDef):
            args = self.scope.args
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if arg is not None and arg.arg == name:
                    return True
        return any(before(value, node) for value in self.flow.values(name))

    def branch_shapes(self, body: list[ast.stmt], at: ast.AST) -> dict[str, tuple | None]:
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

    def shape_after(self, name: str, shapes: dict[str, tuple | None], at: ast.AST) -> tuple | None:
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


def shapes_differ(a: tuple | None, b: tuple | None) -> bool:
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


def assignments(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """The last value assigned to each plain name at the top level of a branch (``return`` counts too)."""
    found: dict[str, ast.expr] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            found[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            found["return"] = stmt.value
    return found
