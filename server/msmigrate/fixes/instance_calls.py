"""The calls of a class instance the fix engine can see, and what the source shows of a tensor's dtype.

An instance is seen when its constructor call (or a chain of module methods returning the module,
``.to(device)``) is the whole value of an assignment to a name (its calls
are those of the name in the same scope and the nested scopes that do not bind it again) or to
``self.attr`` in a method (the calls of ``self.attr`` in the methods of the same class). A name or
attribute assigned anywhere else in that scope or class (``criterion = …`` twice, a ``for``, a ``del``)
may hold another object at a call, and an instance used otherwise than called or read a member of
(passed to a function, returned, stored elsewhere) is called out of sight: its calls are not known then.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_RETURNS_SELF = frozenset({"to", "cuda", "cpu", "train", "eval", "requires_grad_"})


def parents(tree: ast.AST) -> dict[int, ast.AST]:
    """id(node) → its parent, for every node of ``tree``."""
    found: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            found[id(child)] = node
    return found


def instance_calls(tree: ast.Module, constructor: ast.Call, whole: bool = True,
                   up: dict[int, ast.AST] | None = None) -> list[ast.Call] | None:
    """The calls of the instance ``constructor`` creates, in source order; None where its calls are not
    all known (not assigned as a whole to a name or ``self.attr``, assigned again, a module-level name
    in a partial ``tree``: ``whole`` False)."""
    up = up if up is not None else parents(tree)
    value: ast.expr = constructor
    while True:  # nn.CrossEntropyLoss().to(device): Module methods that return the module itself
        attribute, call = up.get(id(value)), up.get(id(up.get(id(value))))
        if not (isinstance(attribute, ast.Attribute) and attribute.attr in _RETURNS_SELF
                and isinstance(call, ast.Call) and call.func is attribute):
            break
        value = call
    statement = up.get(id(value))
    if not isinstance(statement, ast.Assign) or statement.value is not value or len(statement.targets) != 1:
        return None
    target = statement.targets[0]
    scope = _scope_of(statement, up)
    if isinstance(target, ast.Name):
        if isinstance(scope, ast.ClassDef) or (isinstance(scope, ast.Module) and not whole):
            return None
        return _name_calls(scope, target.id)
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        owner = up.get(id(scope))
        if not isinstance(scope, _FUNCTIONS) or not isinstance(owner, ast.ClassDef):
            return None
        if _first_parameter(scope) != target.value.id:
            return None
        return _attribute_calls(owner, target.value.id, target.attr)
    return None


def _scope_of(node: ast.AST, up: dict[int, ast.AST]) -> ast.AST:
    parent = up.get(id(node))
    while parent is not None and not isinstance(parent, (*_SCOPES, ast.Module)):
        parent = up.get(id(parent))
    return parent if parent is not None else node


def _first_parameter(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    positional = [*function.args.posonlyargs, *function.args.args]
    return positional[0].arg if positional else None


def _parameters(scope: ast.AST) -> set[str]:
    if not isinstance(scope, (*_FUNCTIONS, ast.Lambda)):
        return set()
    args = scope.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return set(names)


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``scope``'s body, not entering nested scopes (which are yielded themselves)."""
    body = scope.body if isinstance(scope, ast.Module | ast.ClassDef | ast.FunctionDef
                                    | ast.AsyncFunctionDef) else [scope.body]  # type: ignore[attr-defined]
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            # decorators, defaults and bases run in the enclosing scope
            outer = [*getattr(node, "decorator_list", ()), *getattr(node, "bases", ())]
            if not isinstance(node, ast.ClassDef):
                outer += [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
            stack.extend(reversed(outer))
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _binds(node: ast.AST, name: str) -> bool:
    """Whether ``node`` (of a scope's own nodes) binds ``name``."""
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
        return node.name == name
    if isinstance(node, ast.Global | ast.Nonlocal):
        return name in node.names
    if isinstance(node, ast.alias):
        return (node.asname or node.name.partition(".")[0]) == name
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return node.name == name
    return False


def _name_calls(scope: ast.AST, name: str) -> list[ast.Call] | None:
    """The calls of ``name`` bound once in ``scope``, or None where it is bound again."""
    nodes = list(_own_nodes(scope))
    found = _called_only(nodes, _reads(name))
    if found is None:
        return None
    calls = found
    bound = 0
    for node in nodes:
        if _binds(node, name):
            bound += 1
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            return None
        if isinstance(node, _SCOPES) and not isinstance(node, ast.ClassDef):
            inner = _inner_calls(node, name)
            if inner is None:
                return None
            calls.extend(inner)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, _FUNCTIONS):
                    inner = _inner_calls(item, name)
                    if inner is None:
                        return None
                    calls.extend(inner)
    if bound != 1:
        return None
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def _inner_calls(scope: ast.AST, name: str) -> list[ast.Call] | None:
    """The calls of the enclosing scope's ``name`` inside the nested ``scope``: none where ``scope`` binds
    a name of its own; None where it rebinds the outer one (``global`` / ``nonlocal``)."""
    if name in _parameters(scope):
        return []
    nodes = list(_own_nodes(scope))
    if any(isinstance(n, ast.Global | ast.Nonlocal) and name in n.names for n in nodes):
        return None
    if any(_binds(n, name) for n in nodes):
        return []
    calls = _called_only(nodes, _reads(name))
    if calls is None:
        return None
    for node in nodes:
        if isinstance(node, _SCOPES) and not isinstance(node, ast.ClassDef):
            inner = _inner_calls(node, name)
            if inner is None:
                return None
            calls.extend(inner)
    return calls


def _attribute_calls(owner: ast.ClassDef, self_name: str, attr: str) -> list[ast.Call] | None:
    """The calls of ``self.attr`` in the methods of ``owner``, or None where it is assigned more than
    once there (or deleted)."""
    def is_attr(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) \
            and node.value.id == self_name

    calls: list[ast.Call] = []
    stores = 0
    for method in owner.body:
        if not isinstance(method, _FUNCTIONS) or _first_parameter(method) != self_name:
            continue
        nodes = list(_preorder(method))
        stores += sum(1 for n in nodes if is_attr(n) and not isinstance(n.ctx, ast.Load))  # type: ignore[attr-defined]
        found = _called_only(nodes, lambda n: is_attr(n) and isinstance(n.ctx, ast.Load))  # type: ignore[attr-defined]
        if found is None:
            return None
        calls.extend(found)
    if stores != 1:
        return None
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


# members of an instance read without calling it away from this file's sight (``forward`` is its call)
_CALLED_THROUGH = frozenset({"forward", "construct", "__call__"})


def _called_only(nodes: list[ast.AST], is_reference) -> list[ast.Call] | None:  # noqa: ANN001
    """The calls of the references to the instance among ``nodes`` (parents before children), or None
    where a reference is used otherwise than called or read a member of (passed to a function, returned,
    stored: its calls are out of sight)."""
    allowed: set[int] = set()
    calls: list[ast.Call] = []
    for node in nodes:
        if isinstance(node, ast.Call) and is_reference(node.func):
            allowed.add(id(node.func))
            calls.append(node)
        elif isinstance(node, ast.Attribute) and node.attr not in _CALLED_THROUGH \
                and is_reference(node.value):
            allowed.add(id(node.value))
        elif is_reference(node) and id(node) not in allowed:
            return None
    return calls


def _reads(name: str):  # noqa: ANN202
    """Whether a node reads the variable ``name``."""
    return lambda node: isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)


def _preorder(root: ast.AST):  # noqa: ANN202
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


# --- what the source shows of a tensor's dtype ---------------------------------------------------

_INT_DTYPES = frozenset({"long", "int64", "int", "int32", "int16", "short", "int8", "uint8"})
_FLOAT_DTYPES = frozenset({"float", "float32", "double", "float64", "half", "float16", "bfloat16"})
_INT_METHODS = frozenset({"long", "int", "short"})
_FLOAT_METHODS = frozenset({"float", "double", "half", "bfloat16"})
# functions and methods whose result is an integer / a float tensor, whatever their arguments
_INT_RESULTS = frozenset({"randint", "randint_like", "argmax", "argmin", "argsort", "multinomial",
                          "LongTensor", "IntTensor"})
_FLOAT_RESULTS = frozenset({"softmax", "log_softmax", "sigmoid", "rand", "randn", "rand_like", "randn_like",
                            "FloatTensor"})
_LITERAL_MAKERS = frozenset({"tensor", "as_tensor"})


def dtype_class(node: ast.expr, scope_of_use: ast.AST | None = None) -> str | None:
    """"int" or "float" where the source shows the dtype class of the tensor ``node`` (``y.long()``,
    ``torch.tensor([1, 2])``, ``dtype=torch.float32``, a name assigned once in ``scope_of_use`` from
    such a value), else None."""
    if isinstance(node, ast.Name) and scope_of_use is not None:
        value = _single_value(scope_of_use, node.id)
        return dtype_class(value) if value is not None else None
    if not isinstance(node, ast.Call):
        return None
    for keyword in node.keywords:
        if keyword.arg == "dtype":
            return _dtype_name_class(keyword.value)
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if isinstance(func, ast.Attribute) and name in _INT_METHODS and not node.args:
        return "int"
    if isinstance(func, ast.Attribute) and name in _FLOAT_METHODS and not node.args:
        return "float"
    if name in ("to", "type") and node.args:
        return _dtype_name_class(node.args[0])
    if name in _INT_RESULTS:
        return "int"
    if name in _FLOAT_RESULTS:
        return "float"
    if name in _LITERAL_MAKERS and node.args:
        return _literal_class(node.args[0])
    return None


def _dtype_name_class(node: ast.expr) -> str | None:
    last = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    if last in _INT_DTYPES or last in ("LongTensor", "IntTensor"):
        return "int"
    if last in _FLOAT_DTYPES or last == "FloatTensor":
        return "float"
    return None


def _literal_class(node: ast.expr) -> str | None:
    """"int" / "float" for a literal number or (nested) list/tuple of them, by Python's type."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return "int" if type(node.value) is int else "float"
    if isinstance(node, ast.List | ast.Tuple) and node.elts:
        kinds = {_literal_class(item) for item in node.elts}
        if None in kinds:
            return None
        return "float" if "float" in kinds else "int"
    return None


def _single_value(scope: ast.AST, name: str) -> ast.expr | None:
    """The value of the one assignment of ``name`` in ``scope`` (``y = …``, not a parameter, a loop
    target or a second assignment), else None."""
    if name in _parameters(scope):
        return None
    value = None
    bound = 0
    for node in _own_nodes(scope):
        if _binds(node, name):
            bound += 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == name:
            value = node.value
    return value if bound == 1 else None


def scope_of(node: ast.AST, up: dict[int, ast.AST]) -> ast.AST:
    """The function, lambda, class or module whose own code holds ``node``."""
    return _scope_of(node, up)


def rereadable(node: ast.expr) -> bool:
    """A name, an attribute chain of one, or a subscript of those by a constant (``y``, ``self.y``,
    ``batch["labels"]``): written twice, it reads the same value twice (no call)."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name)
