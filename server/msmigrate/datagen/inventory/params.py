"""Parameter records of the inventory schema, built from ``ast`` stubs or ``inspect`` signatures."""

from __future__ import annotations

import ast
import inspect
import json
import re
from typing import Any

Param = dict[str, str]
Signature = list[Param]

_KIND_NAMES: dict[Any, str] = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.VAR_POSITIONAL: "var_positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}

_ADDRESS = re.compile(r" (?:at|object at) 0x[0-9a-fA-F]+|0x[0-9a-fA-F]{6,}")
_MODULE_FILE = re.compile(r"(<module '[^']*') from '[^']*'>")
_MAX_DEFAULT_LEN = 120


def param(name: str, kind: str, default: str | None = None) -> Param:
    """One parameter record; ``default`` is absent when the parameter is required."""
    record = {"name": name, "kind": kind}
    if default is not None:
        record["default"] = default
    return record


def stable_repr(value: object) -> str:
    """``repr`` without memory addresses and bounded in length, so regeneration is byte-identical."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not stop the inventory
        text = f"<{type(value).__name__}>"
    text = _MODULE_FILE.sub(r"\1>", _ADDRESS.sub("", text))
    if len(text) > _MAX_DEFAULT_LEN:
        text = text[: _MAX_DEFAULT_LEN - 3] + "..."
    return text


def from_ast(args: ast.arguments, drop_first: bool = False) -> Signature:
    """Parameters of a ``def`` node (stub or parsed docstring), in declaration order."""
    positional = [*args.posonlyargs, *args.args]
    missing = len(positional) - len(args.defaults)
    pos_defaults: list[ast.expr | None] = [None] * missing + list(args.defaults)
    records: Signature = []
    for index, (arg, default) in enumerate(zip(positional, pos_defaults, strict=True)):
        kind = "positional_only" if index < len(args.posonlyargs) else "positional_or_keyword"
        records.append(param(arg.arg, kind, _unparse(default)))
    if args.vararg is not None:
        records.append(param(args.vararg.arg, "var_positional"))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        records.append(param(arg.arg, "keyword_only", _unparse(default)))
    if args.kwarg is not None:
        records.append(param(args.kwarg.arg, "var_keyword"))
    if drop_first and records and records[0]["kind"] in ("positional_only", "positional_or_keyword"):
        records = records[1:]
    return records


def _unparse(node: ast.expr | None) -> str | None:
    if node is None:
        return None
    text = ast.unparse(node)
    return text if len(text) <= _MAX_DEFAULT_LEN else text[: _MAX_DEFAULT_LEN - 3] + "..."


def from_inspect(signature: inspect.Signature, drop_first: bool = False) -> Signature:
    """Parameters of an ``inspect.Signature``."""
    records: Signature = []
    for p in signature.parameters.values():
        default = None if p.default is inspect.Parameter.empty else stable_repr(p.default)
        records.append(param(p.name, _KIND_NAMES[p.kind], default))
    if drop_first and records and records[0]["kind"] in ("positional_only", "positional_or_keyword"):
        records = records[1:]
    return records


def is_generic(signature: Signature) -> bool:
    """``(*args, **kwargs)``: a wrapper that hides the real parameters."""
    kinds = [p["kind"] for p in signature]
    return bool(kinds) and set(kinds) <= {"var_positional", "var_keyword"}


def dedupe(signatures: list[Signature]) -> list[Signature]:
    """Drop repeated overloads, keeping the first occurrence's order."""
    seen: set[str] = set()
    unique: list[Signature] = []
    for sig in signatures:
        key = json.dumps(sig, sort_keys=True)
        if key not in seen:
            seen.add(key)
            unique.append(sig)
    return unique
