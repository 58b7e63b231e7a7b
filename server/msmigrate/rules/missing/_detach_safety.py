"""When ``x.detach()`` → ``mindspore.ops.stop_gradient(x)`` (MSM201) computes exactly what torch does.

Both give ``x``'s values with no gradient flowing back (MindSpore 2.10: ``ops.stop_gradient`` under
``mindspore.grad``), and both results share ``x``'s memory for a write by index (PyNative). They differ where
``x`` or the result is changed in place: torch's in-place methods write the shared memory, while MindSpore's
own write-backs (``assign_value``, which the in-place fixes write) give the tensor new memory, so the change
is not seen through the other. The rewrite is exact where nothing else can hold ``x``: the receiver is a
*new tensor* no other reference holds (``_inplace_safety.py``, and the calls of :data:`ALLOCATING`, which
always return a tensor of their own), or a name whose value is one:

* its last binding before the call, walking back through the same block, is ``name = <new tensor>``;
  ``name = name.float()`` (and the other methods of :data:`SELF_OR_COPY`, which give ``name`` itself or a
  copy) passes the question on to the binding before; an ``if`` whose branches only bind ``name`` to new
  tensors is passed too (the branch not taken keeps the binding before);
* the statements between read it only where no reference is kept: an operand of arithmetic, the first
  argument of an :data:`ALLOCATING` call, ``.shape`` / ``.dtype``;
* after the call, it is not read, unless the call's statement binds it again (``qk = qk.detach()``:
  whisper's attention); no nested function mentions it, and the call is in no loop.

Otherwise the fix stays unsafe and its title says why (``REASONS``).
"""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix
from msmigrate.fixes.receiver_function_fixes import receiver_call
from msmigrate.model.finding import Finding
from msmigrate.model.resolution import Safety
from msmigrate.rules.framework._inplace_safety import (
    Tree,
    _binds,
    _enclosing,
    _mentions,
    _statement_in_block,
    bound_value,
    is_new_tensor,
    qualified,
)
from msmigrate.rules.tree_view import in_loop

# torch / MindSpore functions that always return a tensor they allocate (never an input, never a view)
ALLOCATING = frozenset({"cat", "concat", "stack", "matmul", "bmm", "softmax", "log_softmax"})
SELF_OR_COPY = frozenset({"float", "double", "half", "bfloat16", "contiguous", "to", "type"})
_READS = frozenset({"shape", "dtype", "ndim"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_NESTED = (*_FUNCTIONS, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
REASONS = ("parameter", "loop", "held")


def with_safety(ctx: FixContext, finding: Finding, fix: Fix) -> Fix:
    """The ``x.detach()`` fix with its safety at this call: safe where :func:`detach_reason` finds nothing,
    else unsafe with a title saying why."""
    call = ctx.call_of(finding)
    receiver = receiver_call(call)
    if call is None or receiver is None or fix.title_args.get("method") != "detach":
        return fix  # the rule's own safety
    reason = detach_reason(ctx, call, receiver)
    if reason is None:
        fix.safety = Safety.SAFE
    else:
        fix.safety = Safety.UNSAFE
        fix.title_key = f"fix.pattern.receiver_function.unsafe.{reason}"
        fix.title_args = {**fix.title_args, "input": ast.unparse(receiver)[:40]}
    return fix


def fresh(ctx: Tree, node: ast.expr) -> bool:
    """A tensor no other reference holds: ``_inplace_safety.is_new_tensor`` or an :data:`ALLOCATING` call."""
    if is_new_tensor(ctx, node):
        return True
    if not isinstance(node, ast.Call):
        return False
    name = qualified(ctx, node.func) or ""
    return name.startswith(("torch.", "mindspore.")) and name.rpartition(".")[2] in ALLOCATING


def detach_reason(ctx: Tree, call: ast.Call, receiver: ast.expr) -> str | None:
    """Why ``receiver.detach()`` → ``ops.stop_gradient(receiver)`` may differ from torch (None: it cannot)."""
    if not isinstance(receiver, ast.Name):
        return None if fresh(ctx, receiver) else "held"
    name = receiver.id
    function = _enclosing(ctx, call, _FUNCTIONS)
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return "held"
    if in_loop(ctx, call, function):
        return "loop"
    if any(isinstance(n, ast.Global | ast.Nonlocal) and name in n.names for n in ast.walk(function)) or any(
            n is not function and isinstance(n, _NESTED) and _mentions(n, name) for n in ast.walk(function)):
        return "held"
    statement, block = _statement_in_block(ctx, call, function)
    if statement is None or block is None:
        return "held"
    rebinds = bound_value(statement, name) is not None
    others = [n for n in ast.walk(statement) if isinstance(n, ast.Name) and n.id == name and n is not receiver
              and not (rebinds and n is statement.targets[0])]  # type: ignore[union-attr]
    end = (statement.end_lineno or statement.lineno, statement.end_col_offset or 0)
    later = any(isinstance(n, ast.Name) and n.id == name and (n.lineno, n.col_offset) > end
                for n in ast.walk(function))
    if others or (later and not rebinds):
        return "held"
    return _origin(ctx, block[:block.index(statement)], name, function)


def _origin(ctx: Tree, before: list[ast.stmt], name: str, function: ast.FunctionDef | ast.AsyncFunctionDef
            ) -> str | None:
    """Walking back through ``before``: whether ``name``'s value is a new tensor nothing else holds."""
    for earlier in reversed(before):
        if not _mentions(earlier, name):
            continue
        value = bound_value(earlier, name)
        if value is not None:
            if fresh(ctx, value):
                return None
            if not _self_or_copy(value, name):
                return "held"
            continue  # name = name.float(): the same question for the binding before
        if isinstance(earlier, ast.If) and not _mentions(earlier.test, name) and all(
                _binds_fresh(ctx, s, name) for s in [*earlier.body, *earlier.orelse]):
            continue  # each branch binds it to a new tensor, or leaves the binding before
        if _binds(earlier, name) or not _reads_only(ctx, earlier, name):
            return "held"
    arguments = function.args
    if name in {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                *filter(None, [arguments.vararg, arguments.kwarg])]}:
        return "parameter"
    return "held"


def _binds_fresh(ctx: Tree, statement: ast.stmt, name: str) -> bool:
    """A statement of a branch: it does not mention ``name``, or binds it to a new tensor."""
    if not _mentions(statement, name):
        return True
    value = bound_value(statement, name)
    return value is not None and fresh(ctx, value)


def _self_or_copy(value: ast.expr, name: str) -> bool:
    """``name.float()``, ``name.to(dtype)``: ``name`` itself or a copy (arguments not reading ``name``)."""
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id == name
            and value.func.attr in SELF_OR_COPY
            and not any(_mentions(a, name) for a in [*value.args, *(k.value for k in value.keywords)]))


def _reads_only(ctx: Tree, statement: ast.stmt, name: str) -> bool:
    """Every read of ``name`` in ``statement`` keeps no reference: an operand of arithmetic, the first
    argument of an :data:`ALLOCATING` call, ``name.shape``."""
    parents = ctx.parents
    for node in ast.walk(statement):
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.BinOp) or (isinstance(parent, ast.Attribute) and parent.attr in _READS):
            continue
        if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node and fresh(ctx, parent):
            continue
        return False
    return True
