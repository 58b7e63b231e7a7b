"""Values torch takes as separate arguments where MindSpore takes one tuple.

torch reads the sizes of ``torch.zeros(n, 51)``, ``x.new_zeros(2, 3)`` or ``x.repeat(2, 1)`` (and the
values of ``*shape`` unpacked into them) as one parameter, ``*size``; the same call also takes them as one
tuple (``torch.zeros((n, 51))``). A MindSpore target whose signature (``mindspore_inventory.json``) has one
positional parameter there (``mindspore.mint.zeros(size, *, dtype)``) takes only the tuple: two arguments
are a TypeError there, and ``mindspore.ops.zeros(size, dtype)`` reads the second as the dtype. A target
with ``*shape`` there (``Tensor.view``, ``ops.randn``) takes them as they are. :func:`packed_from` says
where the call's arguments are written as one tuple (``ArgPlan.packed``); ``fixes/api_fixes.py`` writes it.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from msmigrate.analysis.arguments import Binding
from msmigrate.knowledge.param_facts import POSITIONAL, Signature


def var_position(signature: Signature) -> int | None:
    """The position of ``*name`` among the signature's parameters passed by position (None: no such)."""
    position = 0
    for param in signature:
        kind = param.get("kind")
        if kind == "var_positional":
            return position
        if kind in POSITIONAL:
            position += 1
    return None


def packed_from(call: ast.Call, bindings: Sequence[Binding], mindspore_signatures: Sequence[Signature],
                skip: int = 0) -> int | None:
    """The positional index from which ``call``'s arguments, the separate values of torch's ``*name``,
    are written as one tuple for the one parameter MindSpore's overloads have at that place (``skip``:
    leading MindSpore parameters the call does not pass by position, a method's tensor written as the
    function's first argument); None where the call passes one value there (or none), where torch may
    read its arguments otherwise, or where a MindSpore overload takes them separately too."""
    position = _torch_position(bindings)
    if position is None or position >= len(call.args):
        return None
    values = call.args[position:]
    if len(values) < 2 and not any(isinstance(v, ast.Starred) for v in values):
        return None  # one value: the tuple, or one size, which the MindSpore parameter takes as it is
    places = {_place(signature[skip:], position) for signature in mindspore_signatures}
    return position if places == {"one"} or places == {"one", None} else None


def _torch_position(bindings: Sequence[Binding]) -> int | None:
    """Where every overload the call fits reads the rest of its positional arguments as ``*name``: the
    ``*name`` overload, or one that takes the same values as one parameter ``name`` there (torch's parser
    reads a size given as several arguments so, whatever the stubs list after it: ``x.new_ones(2, 3)``)."""
    found: set[int] = set()
    names: set[str] = set()
    for binding in bindings:
        position = var_position(binding.signature)
        if position is not None:
            found.add(position)
            names.add(next(p["name"] for p in binding.signature if p.get("kind") == "var_positional"))
    if len(found) != 1 or len(names) != 1:
        return None
    position, name = found.pop(), names.pop()
    for binding in bindings:
        if var_position(binding.signature) is not None:
            continue
        positional = [p["name"] for p in binding.signature if p.get("kind") in POSITIONAL]
        if positional[position:position + 1] != [name]:  # Tensor.view(dtype): another reading of the argument
            return None
    return position


def _place(signature: Signature, position: int) -> str | None:
    """What ``signature`` has at positional index ``position``: ``"one"`` parameter, ``"var"`` (``*name``
    there or before it), or None (fewer parameters taken by position)."""
    seen = 0
    for param in signature:
        kind = param.get("kind")
        if kind == "var_positional":
            return "var"
        if kind in POSITIONAL:
            if seen == position:
                return "one"
            seen += 1
    return None


def packed_text(call: ast.Call, index: int) -> str:
    """The tuple written for the call's arguments from ``index`` (``(n, 51)``, ``(*shape,)``)."""
    values = [ast.unparse(value) for value in call.args[index:]]
    return "(" + ", ".join(values) + ("," if len(values) == 1 else "") + ")"
