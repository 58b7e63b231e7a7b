"""When MSM533's out-of-place form computes exactly what torch's in-place call does.

The out-of-place form gives the same value; it differs only in leaving the input tensor as it was. That is
exact when nothing can read the input again: it is a *new tensor* no other reference holds.

* A new tensor: arithmetic (``a * b``; not ``+a``, which torch gives back as ``a`` itself), a constructor
  (``torch.empty(…)``, ``mint.zeros(…)``, ``ops.full_like(…)``, …), a call of a layer the class assigns to
  ``self.<name>`` whose torch forward always allocates its output (``nn.Linear``, ``nn.Conv2d``,
  ``nn.BatchNorm2d``, …; not ``nn.Sequential``, ``nn.Identity`` or ``nn.Dropout``, which may give their input
  back), or a method called on a new tensor (its result is that tensor, a view of it or another new one).
* A name is one when its last binding, in the same block just before the call, is ``name = <new tensor>``,
  nothing in between mentions it, the call's own statement reads it nowhere else, no nested function reads
  it, it is not a parameter, and the call is in no loop (where a read earlier in the body would see torch's
  change on the next pass).

Everything else may be a view of, or the same tensor as, one read elsewhere: the fix stays unsafe and its
title says which of these holds (``UNSAFE_REASONS``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Protocol

from msmigrate.analysis.source_text import dotted_name
from msmigrate.fixes.context import FixContext
from msmigrate.rules.tree_view import in_loop


class Tree(Protocol):
    """What these checks read: the file's tree and each node's parent (a ``FixContext``, a ``TreeView``)."""

    tree: ast.Module

    @property
    def parents(self) -> dict[int, ast.AST]: ...


_PREFIXES = ("torch.", "torch.nn.functional.", "mindspore.", "mindspore.mint.", "mindspore.ops.",
             "mindspore.numpy.")
CONSTRUCTORS = frozenset({
    "empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange", "linspace", "eye", "tensor",
    "empty_like", "zeros_like", "ones_like", "full_like", "rand_like", "randn_like", "normal", "uniform",
})
# torch layers whose forward always returns a tensor it allocates (never its input, never a view)
_LAYERS = frozenset({
    "Linear", "Dense", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "BatchNorm1d", "BatchNorm2d",
    "BatchNorm3d", "LayerNorm", "GroupNorm", "Embedding",
})
_LAYER_MODULES = ("torch.nn.", "mindspore.nn.", "mindspore.mint.nn.")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_NESTED = (*_FUNCTIONS, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)  # scopes of their own

# reason → why the out-of-place form may differ at this call (the fix title's key suffix)
UNSAFE_REASONS = ("unknown", "parameter", "shared", "loop", "later", "statement")


def _aliases(ctx: Tree) -> dict[str, str]:
    """Name bound by the file's imports → the module or object it stands for."""
    found = ctx.__dict__.get("_msm533_aliases")
    if found is None:
        found = {}
        for node in ast.walk(ctx.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        ctx.__dict__["_msm533_aliases"] = found
    return found


def qualified(ctx: Tree, node: ast.expr) -> str | None:
    """The full name ``node`` refers to through the file's imports (``nn.Linear`` → ``torch.nn.Linear``)."""
    name = dotted_name(node)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    base = _aliases(ctx).get(head)
    return None if base is None else f"{base}.{rest}" if rest else base


def arithmetic(node: ast.BinOp | ast.UnaryOp) -> bool:
    """Whether the operator makes a new value (``+a`` gives ``a`` itself back in torch)."""
    return not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd))


def is_new_tensor(ctx: Tree, node: ast.expr) -> bool:
    """Whether ``node`` evaluates to a tensor no other reference holds (see the module doc)."""
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        return arithmetic(node)
    if not isinstance(node, ast.Call):
        return False
    name = qualified(ctx, node.func)
    if name is not None:
        return any(name == f"{prefix}{c}" for prefix in _PREFIXES for c in CONSTRUCTORS)
    if not isinstance(node.func, ast.Attribute):
        return False
    if _is_self(node.func.value):
        return _allocating_layer(ctx, node.func)
    return is_new_tensor(ctx, node.func.value)  # a method of a new tensor


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _allocating_layer(ctx: Tree, attribute: ast.Attribute) -> bool:
    """Whether every assignment of ``self.<attr>`` in the class holding ``attribute`` is a layer of
    ``_LAYERS`` (and there is one)."""
    holder = _enclosing(ctx, attribute, (ast.ClassDef,))
    if holder is None:
        return False
    values = [n.value for n in ast.walk(holder) if isinstance(n, ast.Assign | ast.AnnAssign)
              for target in (n.targets if isinstance(n, ast.Assign) else [n.target])
              if isinstance(target, ast.Attribute) and _is_self(target.value)
              and target.attr == attribute.attr]
    stored = [n for n in ast.walk(holder) if isinstance(n, ast.Attribute) and _is_self(n.value)
              and n.attr == attribute.attr and isinstance(n.ctx, ast.Store)]
    if not values or len(values) != len(stored):  # also bound otherwise (augmented, unpacked, …)
        return False
    for value in values:
        name = qualified(ctx, value.func) if isinstance(value, ast.Call) else None
        if name is None or not any(name == f"{m}{layer}" for m in _LAYER_MODULES for layer in _LAYERS):
            return False
    return True


def _enclosing(ctx: Tree, node: ast.AST, kinds: tuple[type, ...]) -> ast.AST | None:
    current = ctx.parents.get(id(node))
    while current is not None and not isinstance(current, kinds):
        current = ctx.parents.get(id(current))
    return current


def argument_reason(ctx: FixContext, call: ast.Call, first: ast.expr) -> str | None:
    """Why ``f(first, inplace=True)`` → ``f(first)`` may differ from torch (``None``: it cannot)."""
    if not isinstance(first, ast.Name):
        return None if is_new_tensor(ctx, first) else "unknown"
    return name_reason(ctx, call, first, is_new_tensor)


def name_reason(ctx: Tree, call: ast.Call, first: ast.Name, fresh: Callable[[Tree, ast.expr], bool]
                ) -> str | None:
    """Why the value of the name ``first``, an argument of ``call``, may be held by other code (``None``:
    its last binding, just before in the same block, is a value ``fresh`` accepts, and nothing else reads
    it: see the module doc); ``"later"`` when the function reads it after the call."""
    name = first.id
    function = _enclosing(ctx, call, _FUNCTIONS)
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return "unknown"  # a module-level name or a lambda's: other code may hold it
    if in_loop(ctx, call, function):
        return "loop"
    if any(isinstance(n, ast.Global | ast.Nonlocal) and name in n.names for n in ast.walk(function)):
        return "unknown"
    nested = [n for n in ast.walk(function) if n is not function and isinstance(n, _NESTED)]
    if any(_mentions(n, name) for n in nested):
        return "shared"
    end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
    if any(isinstance(n, ast.Name) and n.id == name and (n.lineno, n.col_offset) > end
           and not _rebinding(ctx, n) for n in ast.walk(function)):
        return "later"  # read or changed (x += 1) after the call
    statement, block = _statement_in_block(ctx, call, function)
    if statement is None or block is None:
        return "unknown"
    if any(n is not first and isinstance(n, ast.Name) and n.id == name for n in ast.walk(statement)):
        return "shared"
    for earlier in reversed(block[:block.index(statement)]):
        if not _mentions(earlier, name):
            continue
        value = bound_value(earlier, name)
        if value is not None:
            return None if fresh(ctx, value) else "unknown"
        return "shared" if not _binds(earlier, name) else "unknown"
    arguments = function.args
    if name in {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                *filter(None, [arguments.vararg, arguments.kwarg])]}:
        return "parameter"  # not bound again before the call: the caller's tensor
    return "unknown"


def bound_value(statement: ast.stmt, name: str) -> ast.expr | None:
    """The value of ``statement`` when it is ``name = <value>`` (one target, the bare name), else None."""
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == name):
        return statement.value
    return None


def _rebinding(ctx: Tree, name: ast.Name) -> bool:
    """Whether ``name`` is the whole target of an assignment (a new value, the old one not read)."""
    parent = ctx.parents.get(id(name))
    return isinstance(name.ctx, ast.Store) and (
        (isinstance(parent, ast.Assign) and name in parent.targets)
        or (isinstance(parent, ast.AnnAssign) and parent.target is name))


def statement_is_new(ctx: Tree, statement: ast.stmt, name: str, methods: frozenset[str]) -> bool:
    """Whether ``name.<method>(…)``, the statement ``statement``, changes a tensor nothing else holds: the
    last binding of ``name``, in the same block, is ``name = <new tensor>``, and the statements between
    only change it in place (``name.fill_(…)``, ``name.assign_value(…)``) reading it no other way. Its
    write-back with ``assign_value`` then changes what torch's call changes: the one object, no view."""
    function = _enclosing(ctx, statement, _FUNCTIONS)
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    if any(isinstance(n, ast.Global | ast.Nonlocal) and name in n.names for n in ast.walk(function)):
        return False
    here, block = _statement_in_block(ctx, statement, function)
    if here is None or block is None or not _changes_in_place(statement, name, methods):
        return False
    for earlier in reversed(block[:block.index(here)]):
        if not _mentions(earlier, name):
            continue
        value = bound_value(earlier, name)
        if value is not None:
            return is_new_tensor(ctx, value) and not _mentions(value, name)
        if not _changes_in_place(earlier, name, methods):
            return False
    return False


_READS = frozenset({"shape", "dtype", "triu", "tril"})  # a read of the tensor that keeps no reference
_LIKE = frozenset({"full_like", "zeros_like"})


def _changes_in_place(statement: ast.stmt, name: str, methods: frozenset[str]) -> bool:
    """``name.<method>(…)`` (an in-place method, or its ``assign_value`` write-back) as a statement whose
    arguments read ``name`` only as ``name.shape``, ``name.triu(…)``, ``ops.full_like(name, …)``."""
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return False
    call = statement.value
    if not (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
            and call.func.value.id == name and call.func.attr in methods | {"assign_value"}):
        return False
    allowed: set[int] = set()
    arguments = [*call.args, *(k.value for k in call.keywords)]
    for node in (n for a in arguments for n in ast.walk(a)):
        if isinstance(node, ast.Attribute) and node.attr in _READS and isinstance(node.value, ast.Name):
            allowed.add(id(node.value))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name) and node.args
              and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) in _LIKE):
            allowed.add(id(node.args[0]))
    return all(id(n) in allowed for a in arguments for n in ast.walk(a)
               if isinstance(n, ast.Name) and n.id == name)


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _binds(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store | ast.Del)
               for n in ast.walk(node))


def _statement_in_block(ctx: Tree, node: ast.AST, function: ast.AST
                        ) -> tuple[ast.stmt | None, list[ast.stmt] | None]:
    """The statement holding ``node`` and the statement list it is in (within ``function``)."""
    current: ast.AST | None = node
    while current is not None and current is not function:
        parent = ctx.parents.get(id(current))
        if isinstance(current, ast.stmt) and parent is not None:
            for field in ("body", "orelse", "finalbody"):
                block = getattr(parent, field, None)
                if isinstance(block, list) and current in block:
                    return current, block
        current = parent
    return None, None
