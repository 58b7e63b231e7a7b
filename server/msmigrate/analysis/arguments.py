"""Bind a call's arguments to a signature of the inventories (positional + keyword, with overloads).

``bind(call, signatures, kind_of)`` returns every overload the call fits, each as a :class:`Binding`
(parameter name → argument expression). Where several overloads fit by count and names, the kinds of the
arguments decide (``torch.max(x, 1)``: ``1`` is an integer, so it is ``dim``, not ``other``; ``1 / r`` is
not an integer, so ``torch.max(r, 1 / r)`` is the two-tensor form). :func:`bound` gives the argument bound
to a parameter in every remaining overload, or ``None`` when the overloads disagree.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from msmigrate.knowledge.param_facts import param_kind

Param = dict[str, Any]
Signature = Sequence[Param]
KindOf = Callable[[ast.expr], str | None]

POSITIONAL = ("positional_only", "positional_or_keyword")
INT, FLOAT, STR, BOOL, NONE, TENSOR, NOT_INT = "int", "float", "str", "bool", "none", "tensor", "not_int"

_CONVERSIONS = {"int": INT, "len": INT, "float": FLOAT, "str": STR, "bool": BOOL}
_REJECTS = {
    "int": frozenset({FLOAT, STR, TENSOR, NOT_INT}),
    "tensor": frozenset({INT, STR, BOOL}),
}


@dataclass(frozen=True, slots=True)
class Binding:
    """One overload a call fits: ``arguments`` by parameter name, ``positional`` the names bound by
    position (in order); ``complete`` is False when the call unpacks ``*args`` / ``**kwargs``."""

    index: int
    signature: tuple[Param, ...]
    arguments: dict[str, ast.expr]
    positional: tuple[str, ...]
    complete: bool

    def names(self) -> tuple[str, ...]:
        return tuple(p["name"] for p in self.signature)


def bind(call: ast.Call, signatures: Sequence[Signature], kind_of: KindOf | None = None) -> list[Binding]:
    """The overloads of ``signatures`` the call fits (for a method, signatures without ``self``)."""
    fits = [b for i, sig in enumerate(signatures) if (b := _bind_one(call, i, sig)) is not None]
    if len(fits) > 1 and kind_of is not None:
        typed = [b for b in fits if _kinds_fit(b, kind_of)]
        if typed:
            fits = typed
    return fits


def bound(bindings: Sequence[Binding], *names: str) -> ast.expr | None:
    """The argument bound to one of ``names`` in every binding (the same node), else ``None``."""
    found: ast.expr | None = None
    for binding in bindings:
        node = next((binding.arguments[n] for n in names if n in binding.arguments), None)
        if node is None or (found is not None and node is not found):
            return None
        found = node
    return found


def argument_kind(node: ast.expr, is_tensor: Callable[[ast.expr], bool] | None = None) -> str | None:
    """What an argument is, as far as the source shows: ``int`` (also a tuple of ints), ``float``,
    ``str``, ``bool``, ``none``, ``tensor``, ``not_int`` (a true division), or ``None`` (unknown)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None:
            return NONE
        return {bool: BOOL, int: INT, float: FLOAT, str: STR}.get(type(value))
    if isinstance(node, ast.Tuple | ast.List) and node.elts:
        kinds = {argument_kind(e) for e in node.elts}
        return INT if kinds == {INT} else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONVERSIONS:
        return _CONVERSIONS[node.func.id]
    if is_tensor is not None and is_tensor(node):
        return TENSOR
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return NOT_INT
    return None


def _bind_one(call: ast.Call, index: int, signature: Signature) -> Binding | None:
    params = list(signature)
    positional = [p for p in params if p.get("kind") in POSITIONAL]
    var_positional = any(p.get("kind") == "var_positional" for p in params)
    var_keyword = any(p.get("kind") == "var_keyword" for p in params)
    by_name = {p["name"]: p for p in params if p.get("kind") not in ("var_positional", "var_keyword")}
    arguments: dict[str, ast.expr] = {}
    names: list[str] = []
    complete = True
    for position, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            complete = False
            break
        if position < len(positional):
            name = positional[position]["name"]
            arguments[name] = arg
            names.append(name)
        elif not var_positional:
            return None
    for keyword in call.keywords:
        if keyword.arg is None:
            complete = False
            continue
        param = by_name.get(keyword.arg)
        if param is None or param.get("kind") == "positional_only":
            if var_keyword:
                continue
            return None
        if keyword.arg in arguments:
            return None
        arguments[keyword.arg] = keyword.value
    if complete:
        for param in params:
            if "default" not in param and param.get("kind") not in ("var_positional", "var_keyword") \
                    and param["name"] not in arguments:
                return None
    return Binding(index, tuple(params), arguments, tuple(names), complete)


def _kinds_fit(binding: Binding, kind_of: KindOf) -> bool:
    for name, node in binding.arguments.items():
        expected = param_kind(name)
        if expected is not None and kind_of(node) in _REJECTS[expected]:
            return False
    return True
