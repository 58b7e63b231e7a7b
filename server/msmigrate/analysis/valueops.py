"""Small questions about values (see ``values.py``) that the walker asks while it binds and evaluates."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from msmigrate.analysis.tables import FOREIGN_MODULE_BASES, NON_TORCH_PACKAGES
from msmigrate.analysis.values import (
    ASSUMED_TENSOR,
    MODULE,
    TENSOR,
    TENSOR_VALUE,
    UNKNOWN,
    Foreign,
    Instance,
    Opaque,
    TupleValue,
    UserClass,
)

if TYPE_CHECKING:
    from msmigrate.analysis.receivers import TorchFacts


def is_unknown(value: object) -> bool:
    return value is UNKNOWN or type(value) is Opaque


def project_name(name: str) -> bool:
    """A name imported from a module that is not a known non-torch library (likely the user's project)."""
    return name.partition(".")[0] not in NON_TORCH_PACKAGES


def tensorish(value: object) -> bool:
    return type(value) is Instance and value.kind == TENSOR


def identity_op(op: ast.cmpop) -> bool:
    return type(op) in (ast.Is, ast.IsNot, ast.In, ast.NotIn)


def element_of(value: object) -> object:
    """What iterating over (or unpacking) ``value`` yields."""
    if type(value) is TupleValue:
        first = value.items[0] if value.items else UNKNOWN
        return first if all(same_kind(item, first) for item in value.items) else UNKNOWN
    if type(value) is Instance:
        if value is ASSUMED_TENSOR:
            return value  # (H, W = size: as assumed as size)
        if value.kind == TENSOR:
            return TENSOR_VALUE
        if value.kind == MODULE:
            return Instance(MODULE)
    return UNKNOWN  # items of lists, dicts, zip(...) … can be anything, tensors included


def same_kind(a: object, b: object) -> bool:
    return type(a) is Instance and type(b) is Instance and a.kind == b.kind and a.kind is not None


def user_class_of(value: object) -> UserClass | None:
    if type(value) is Instance:
        return value.user_class
    if type(value) is UserClass:
        return value
    return None


def all_args(args: ast.arguments) -> list[ast.arg]:
    found = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if args.vararg is not None:
        found.append(args.vararg)
    if args.kwarg is not None:
        found.append(args.kwarg)
    return found


def class_kind(base: object, facts: TorchFacts) -> str | None:
    if type(base) is str:
        return facts.class_kind(base)
    if type(base) is UserClass:
        return base.kind
    if type(base) is Foreign and base.name in FOREIGN_MODULE_BASES:
        return MODULE
    return None
