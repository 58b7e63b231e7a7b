"""Whether the data given to a float32 tensor constructor is Python numbers only, rectangular (MSM535's
``torch.Tensor(data)``, MSM201's ``torch.FloatTensor(data)``): then torch's tensor and
``mindspore.tensor(data, dtype=mindspore.float32)`` hold the same values (docs/per-form-safety.md).

The data forms proven (``tests/fixes/test_number_data.py`` runs them under torch and MindSpore):

* a list or tuple display of numbers, nested alike (``[[1, -2], [3, 4.5]]``);
* a list comprehension over ``range(…)`` without conditions, whose element is a number or such data, and
  whose ranges do not depend on another loop's variable (so the rows are as long as each other):
  ``[[p / (10000 ** (2 * (i // 2) / dim)) for i in range(dim)] for p in range(n)]``;
* a parameter annotated as a list or tuple of floats or ints (``pixel_mean: List[float]``), never rebound
  in its function.

A *number* is an int or float literal (not a bool), a ``range`` loop variable, a name every binding of
which (in its function, or at module level) is an int or float literal, a parameter annotated ``int`` or
``float`` and never rebound, and ``+ - * / // % **`` of those and unary minus. An int element must fit in 64
bits, as MindSpore reads ints through int64/uint64 (torch rounds any int to float32): int literals, and
``range`` variables of such bounds, do; int arithmetic (``2 ** i``) may not, so it is a number only once a
float or ``/`` makes it a float. ``**`` counts only where its result cannot be complex (an int-literal
exponent, or a non-negative literal base). Arithmetic raising an error (``1 / 0``) raises it before the
constructor is called, alike on both sides.
"""

from __future__ import annotations

import ast
from enum import Enum
from typing import Any

from msmigrate.rules.tree_view import in_loop, tree_view

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_LIST_TYPES = frozenset({"List", "list", "Tuple", "tuple", "typing.List", "typing.Tuple"})
_INT64 = 2 ** 63


class Kind(Enum):
    """What a number expression yields: a float; an int within 64 bits; an int or float of any size."""

    FLOAT = "float"
    INT = "int"
    NUMBER = "number"


def _join(kinds: list[Kind]) -> Kind:
    return kinds[0] if len(set(kinds)) == 1 else Kind.NUMBER


def _literal(node: ast.expr) -> Kind | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    if not isinstance(node, ast.Constant):
        return None
    if type(node.value) is float:
        return Kind.FLOAT
    if type(node.value) is int:
        return Kind.INT if abs(node.value) < _INT64 else Kind.NUMBER
    return None


def _bindings(scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.AST] | None:
    """The assignments of ``scope`` (not of its nested functions or classes) binding ``name``; None when
    anything else binds it there (``global``/``nonlocal``, an import, a loop, ``del``, a tuple target, …)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(scope.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            return None
        if isinstance(node, ast.Assign | ast.AnnAssign) and any(
                isinstance(t, ast.Name) and t.id == name
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            found.append(node)
            stack.extend([node.value] if node.value is not None else [])
            continue
        if isinstance(node, _SCOPES):
            if getattr(node, "name", None) == name:
                return None
            continue  # a scope of its own
        if (isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)
                or isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name
                or isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name == name):
            return None
        stack.extend(ast.iter_child_nodes(node))
    return found


def _literals(bindings: list[ast.AST]) -> Kind | None:
    """The kind of the number literals all ``bindings`` assign (None: one assigns something else)."""
    kinds = [_literal(b.value) if isinstance(b, ast.Assign | ast.AnnAssign) and b.value is not None else None
             for b in bindings]
    return None if not kinds or None in kinds else _join(kinds)  # type: ignore[arg-type]


class NumberData:
    """The checks over one file: ``view`` has its ``tree`` and each node's ``parents`` (a ``FixContext``,
    a detector's ``TreeView``)."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.tree: ast.Module = view.tree
        self._range_bound: bool | None = None

    @property
    def parents(self) -> dict[int, ast.AST]:
        return self.view.parents

    def _scopes(self, node: ast.AST) -> list[ast.AST]:
        """The functions and classes around ``node``, innermost first."""
        found = []
        parent = self.parents.get(id(node))
        while parent is not None:
            if isinstance(parent, _SCOPES):
                found.append(parent)
            parent = self.parents.get(id(parent))
        return found

    def _range_free(self) -> bool:
        """``range`` is the builtin: nothing in the file binds the name."""
        if self._range_bound is None:
            self._range_bound = any(
                isinstance(n, ast.Name) and n.id == "range" and not isinstance(n.ctx, ast.Load)
                or isinstance(n, ast.alias) and (n.asname or n.name) == "range"
                or isinstance(n, _SCOPES) and getattr(n, "name", None) == "range"
                or isinstance(n, ast.arg) and n.arg == "range"
                for n in ast.walk(self.tree))
        return not self._range_bound

    def _name(self, call: ast.Call, name: str) -> tuple[ast.arg | None, Kind | None] | None:
        """How ``name`` is bound where ``call`` reads it: (the parameter, None) for a parameter of the
        enclosing function never rebound there; (None, the literals' kind) when every binding, in the
        function or else at module level, is a number literal; None otherwise (a class body, a closure, …)."""
        scopes = self._scopes(call)
        if scopes and not isinstance(scopes[0], ast.FunctionDef | ast.AsyncFunctionDef):
            return None
        for depth, scope in enumerate(scopes):
            if isinstance(scope, ast.Lambda) and any(a.arg == name for a in ast.walk(scope.args)):
                return None
            if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            bindings = _bindings(scope, name)
            arguments = scope.args
            parameters = [a for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
                          if a.arg == name]
            starred = [a for a in (arguments.vararg, arguments.kwarg) if a is not None and a.arg == name]
            if bindings == [] and not parameters and not starred:
                continue  # not this function's name
            if depth or bindings is None or starred:
                return None  # a closure's name, or bound otherwise
            if parameters:
                return (parameters[0], None) if not bindings else None
            kind = _literals(bindings)
            return None if kind is None else (None, kind)
        if any(isinstance(n, ast.Global) and name in n.names for n in ast.walk(self.tree)):
            return None
        bindings = _bindings(self.tree, name)
        kind = None if bindings is None else _literals(bindings)
        return None if kind is None else (None, kind)

    def _name_kind(self, call: ast.Call, name: str) -> Kind | None:
        bound = self._name(call, name)
        if bound is None:
            return None
        parameter, kind = bound
        if parameter is None:
            return kind
        annotation = parameter.annotation
        if isinstance(annotation, ast.Name) and annotation.id in ("int", "float"):
            return Kind.FLOAT if annotation.id == "float" else Kind.NUMBER
        return None

    # numbers
    def kind(self, call: ast.Call, node: ast.expr, loops: dict[str, Kind]) -> Kind | None:
        """The kind of number ``node`` yields (``loops``: the comprehension variables in scope), or None."""
        literal = _literal(node)
        if literal is not None:
            return literal
        if isinstance(node, ast.Name):
            return loops[node.id] if node.id in loops else self._name_kind(call, node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            return self.kind(call, node.operand, loops)
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, _ARITHMETIC):
            return None
        left, right = self.kind(call, node.left, loops), self.kind(call, node.right, loops)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Pow):
            exponent_int = isinstance(node.right, ast.Constant) and type(node.right.value) is int
            base = node.left.value if isinstance(node.left, ast.Constant) else None
            if not exponent_int and not (type(base) in (int, float) and base >= 0):
                return None  # (-8) ** 0.5 is complex
        if isinstance(node.op, ast.Div) or Kind.FLOAT in (left, right):
            return Kind.FLOAT
        return Kind.NUMBER  # int arithmetic: any size

    # data
    def shape(self, call: ast.Call, node: ast.expr, loops: dict[str, Kind] | None = None) -> tuple | None:
        """The shape of data of numbers (a comprehension's length is the comprehension itself), or None; a
        scalar is ``()``."""
        loops = loops or {}
        if isinstance(node, ast.List | ast.Tuple):
            shapes = {self.shape(call, e, loops) for e in node.elts}
            if not node.elts or len(shapes) != 1 or None in shapes:
                return None
            return (len(node.elts), *shapes.pop())  # type: ignore[misc]
        if isinstance(node, ast.ListComp):
            inner = dict(loops)
            for generator in node.generators:
                kind = self._range(call, generator, loops)
                if kind is None:
                    return None
                inner[generator.target.id] = kind  # type: ignore[attr-defined]
            element = self.shape(call, node.elt, inner)
            return None if element is None else (id(node), *element)
        return () if self.kind(call, node, loops) in (Kind.FLOAT, Kind.INT) else None

    def _range(self, call: ast.Call, generator: ast.comprehension, loops: dict[str, Kind]) -> Kind | None:
        """The kind of the variable of ``for v in range(…)`` (no condition; bounds free of loop variables)."""
        iterator = generator.iter
        if (generator.ifs or generator.is_async or not isinstance(generator.target, ast.Name)
                or not isinstance(iterator, ast.Call) or not isinstance(iterator.func, ast.Name)
                or iterator.func.id != "range" or iterator.keywords or not 1 <= len(iterator.args) <= 3
                or not self._range_free()):
            return None
        if any(isinstance(n, ast.Name) and n.id in loops for a in iterator.args for n in ast.walk(a)):
            return None  # ragged rows
        kinds = [self.kind(call, a, {}) for a in iterator.args]
        if None in kinds:
            return None
        return Kind.INT if all(k is Kind.INT for k in kinds) else Kind.NUMBER

    def numbers(self, call: ast.Call, data: ast.expr) -> bool:
        """Whether ``data`` (the one argument of ``call``) is rectangular data of Python numbers."""
        if isinstance(data, ast.Name):
            return self._number_list(call, data.id)
        return self.shape(call, data) not in (None, ())

    def _number_list(self, call: ast.Call, name: str) -> bool:
        """A parameter annotated ``List[float]``, ``list[int]``, ``Tuple[float, ...]``, never rebound and
        read nowhere else before the call (where it could be changed in place)."""
        bound = self._name(call, name)
        parameter = bound[0] if bound is not None else None
        annotation = parameter.annotation if parameter is not None else None
        if not isinstance(annotation, ast.Subscript):
            return False
        function = self._scopes(call)[0]
        looped = in_loop(self, call, function)
        if any(isinstance(n, ast.Name) and n.id == name and n is not call.args[0]
               and (looped or (n.lineno, n.col_offset) < (call.lineno, call.col_offset))
               for n in ast.walk(function)):
            return False  # read before the call (or in a loop around it): it may have been changed in place
        outer = ast.unparse(annotation.value)
        items = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        tuple_type = outer.endswith(("Tuple", "tuple"))
        if tuple_type and len(items) == 2 and ast.unparse(items[1]) == "...":
            items = items[:1]
        return (outer in _LIST_TYPES and (tuple_type or len(items) == 1)
                and all(isinstance(i, ast.Name) and i.id in ("int", "float") for i in items))


def number_data(ctx: Any) -> NumberData:  # noqa: ANN401 - an analysis context
    """The checks over a detector's file, made once per file."""
    found = ctx.memo.get("number_data")
    if found is None:
        found = ctx.memo["number_data"] = NumberData(tree_view(ctx))
    return found
