"""The inputs of ``msmigrate compare``: tensor specs (:class:`InputSpec`) and, around them, tuples, lists,
dicts, ``None`` and constants, passed positionally or by keyword (:class:`Keyword`).

Text form (``--input`` and string entries of ``inputs = [...]``), read with :func:`ast.parse`, never run::

    2x3x64x64:float32:-1:1              the older form: SHAPE[:DTYPE[:LOW:HIGH][:MINDSPORE_DTYPE]]
    f32[2, 3, 64, 64]                   a tensor: dtype[shape]; f32 f16 f64 bf16 i64 i32 i16 i8 u8 bool
    i64[2, 7](0, 10, ms=i32)            with its range [low, high) and the dtype MindSpore gets
    points=(f32[1, 2, 2](0, 64), i64[1, 2](0, 2))    a keyword input holding a tuple
    boxes=None                          ``None``; inside a structure also True/False, numbers and strings

A request to a worker carries the tensors flattened in order (``inputs``) and the arguments with each tensor
replaced by its index (``arguments``, :func:`layout`); the worker rebuilds the call with
:func:`msmigrate.compare.worker_common.arrange`, so torch and MindSpore get the same values.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from msmigrate.weights.session import WeightsError

DTYPES = ("float32", "float16", "float64", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")
SHORT = {
    "f32": "float32", "f16": "float16", "f64": "float64", "bf16": "bfloat16", "i64": "int64",
    "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8",
}
SHORT_OF = {v: k for k, v in SHORT.items()}
MAX_TEXT = 4000
_OLD_FORM = re.compile(
    r"(?P<shape>\d+(?:x\d+)*)(?::(?P<dtype>\w+)(?::(?P<low>-?[\d.]+):(?P<high>-?[\d.]+))?"
    r"(?::(?P<ms>\w+))?)?"
)
_KEYWORD = re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\s*=(?!=)(?P<body>.*)", re.S)


@dataclass(frozen=True, slots=True)
class InputSpec:
    shape: tuple[int, ...]
    dtype: str = "float32"
    low: float = -1.0
    high: float = 1.0
    mindspore_dtype: str | None = None  # the dtype MindSpore gets, when it differs (int32 class indices)

    def to_json(self) -> dict[str, Any]:
        return {
            "shape": list(self.shape),
            "dtype": self.dtype,
            "low": self.low,
            "high": self.high,
            "mindspore_dtype": self.mindspore_dtype or self.dtype,
        }

    def __str__(self) -> str:
        return f"[{', '.join(map(str, self.shape))}] {self.dtype}"


@dataclass(frozen=True, slots=True)
class Keyword:
    """A keyword input of both forwards: ``name=value`` (value: a tensor spec, a structure, None)."""

    name: str
    value: Any

    def __str__(self) -> str:
        return f"{self.name}={render(self.value, nested=True)}"


def render(value: Any, nested: bool = False) -> str:
    """The text of an input: a tensor as ``[2, 3] float32``, inside a structure or keyword as ``f32[2, 3]``;
    structures in Python's notation."""
    if isinstance(value, InputSpec):
        dims = ", ".join(map(str, value.shape)) if value.shape else "()"
        return f"{SHORT_OF.get(value.dtype, value.dtype)}[{dims}]" if nested else str(value)
    if isinstance(value, Keyword):
        return str(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(render(v, True) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(render(v, True) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {render(v, True)}" for k, v in value.items()) + "}"
    return repr(value)


def _bad(where: str, detail: str) -> WeightsError:
    return WeightsError("compare.error.config", where=where, detail=detail)


def input_spec(value: Any, where: str) -> InputSpec:
    """A tensor from a table ``{shape = [...], dtype = ..., low, high, mindspore_dtype}``."""
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("shape"), list)
        or not all(type(d) is int and d >= 0 for d in value["shape"])
    ):
        raise _bad(where, "an input is a table with shape = [non-negative integers]")
    dtype = value.get("dtype", "float32")
    ms_dtype = value.get("mindspore_dtype")
    for name in (dtype, ms_dtype):
        if name is not None and name not in DTYPES:
            raise _bad(where, f"dtype {name!r}: one of {', '.join(DTYPES)}")
    integer = dtype.startswith(("int", "uint"))
    low, high = value.get("low", 0 if integer else -1.0), value.get("high", 10 if integer else 1.0)
    if not all(isinstance(v, int | float) and type(v) is not bool for v in (low, high)) or low >= high:
        raise _bad(where, "low and high are numbers, low < high")
    return InputSpec(tuple(value["shape"]), dtype, float(low), float(high), ms_dtype)


class _Bad(Exception):
    """Where a structured input is not understood: a message key and the part."""

    def __init__(self, key: str, part: ast.AST | str) -> None:
        super().__init__(key)
        self.key, self.part = key, part if isinstance(part, str) else ast.unparse(part)


def _old_form(text: str, where: str) -> InputSpec | None:
    found = _OLD_FORM.fullmatch(text.strip())
    if found is None:
        return None
    value: dict[str, Any] = {"shape": [int(d) for d in found["shape"].split("x")]}
    if found["dtype"]:
        value["dtype"] = found["dtype"]
    if found["low"] is not None:
        value["low"], value["high"] = float(found["low"]), float(found["high"])
    if found["ms"]:
        value["mindspore_dtype"] = found["ms"]
    return input_spec(value, where)


def parse_input(text: str, where: str = "--input") -> Any:
    """One input from its text (see the module's docstring): an :class:`InputSpec`, a structure holding
    them, ``None``, or a :class:`Keyword` of one of these. Bad text raises a :class:`WeightsError`."""
    keyword = _KEYWORD.fullmatch(text)
    body = keyword["body"] if keyword else text
    if len(body) > MAX_TEXT:
        raise WeightsError("compare.error.input_syntax", where=where, text=text[:80] + "…", part="…")
    value = _old_form(body, where)
    if value is None:
        try:
            value = _tree(ast.parse(body.strip(), mode="eval").body, top=True)
        except (SyntaxError, RecursionError):
            part = (body.strip() or text) if len(body) < 200 else "…"
            raise WeightsError("compare.error.input_syntax", where=where, text=text, part=part) from None
        except _Bad as bad:
            raise WeightsError(bad.key, where=where, text=text, part=bad.part) from None
    return Keyword(keyword["name"], value) if keyword else value


def _number(node: ast.AST) -> float | int:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _number(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    raise _Bad("compare.error.input_range", node)


def _dtype(node: ast.AST) -> str:
    name = node.id if isinstance(node, ast.Name) else None
    if name in DTYPES:
        return name
    if name in SHORT:
        return SHORT[name]
    raise _Bad("compare.error.input_dtype", node)


def _tensor(node: ast.Subscript, call: ast.Call | None) -> InputSpec:
    dtype = _dtype(node.value)
    dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if not all(isinstance(d, ast.Constant) and type(d.value) is int and d.value >= 0 for d in dims):
        raise _Bad("compare.error.input_shape", node)
    value: dict[str, Any] = {"shape": [d.value for d in dims], "dtype": dtype}  # type: ignore[attr-defined]
    if call is not None:
        names = {"low": "low", "high": "high", "ms": "mindspore_dtype", "mindspore_dtype": "mindspore_dtype"}
        if len(call.args) not in (0, 2) or any(k.arg not in names for k in call.keywords):
            raise _Bad("compare.error.input_range", call)
        if call.args:
            value["low"], value["high"] = _number(call.args[0]), _number(call.args[1])
        for item in call.keywords:
            key = names[str(item.arg)]
            value[key] = _dtype(item.value) if key == "mindspore_dtype" else _number(item.value)
        if "low" in value and "high" in value and not value["low"] < value["high"]:
            raise _Bad("compare.error.input_range", call)
    try:
        return input_spec(value, "")
    except WeightsError:
        raise _Bad("compare.error.input_range", call or node) from None


def _tree(node: ast.AST, top: bool = False) -> Any:
    if isinstance(node, ast.Subscript):
        return _tensor(node, None)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript):
        return _tensor(node.func, node)
    if isinstance(node, ast.Constant) and (node.value is None or not top):
        if node.value is None or type(node.value) in (bool, int, float, str):
            return node.value
    if isinstance(node, ast.UnaryOp) and not top:
        return _number(node)
    if isinstance(node, ast.Tuple):
        return tuple(_tree(e) for e in node.elts)
    if isinstance(node, ast.List):
        return [_tree(e) for e in node.elts]
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                          for k in node.keys):
        return {k.value: _tree(v) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[union-attr]
    if isinstance(node, ast.Name) and (node.id in DTYPES or node.id in SHORT):
        raise _Bad("compare.error.input_shape", node)
    raise _Bad("compare.error.input_syntax", node)


def table_input(value: Any, where: str) -> Any:
    """An entry of ``inputs = [...]``: a table (one tensor) or a string in the text form."""
    return parse_input(value, where) if isinstance(value, str) else input_spec(value, where)


def tensors(value: Any) -> list[InputSpec]:
    """The tensor specs of an input, in order."""
    if isinstance(value, InputSpec):
        return [value]
    if isinstance(value, Keyword):
        return tensors(value.value)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list | tuple) else ()
    return [spec for item in items for spec in tensors(item)]


def layout(inputs: list[Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What a worker request carries: the tensors flattened in order, and the arguments with each tensor
    replaced by ``{"tensor": index}``."""
    flat: list[dict[str, Any]] = []

    def shape(value: Any) -> Any:
        if isinstance(value, InputSpec):
            flat.append(value.to_json())
            return {"tensor": len(flat) - 1}
        if value is None:
            return {"none": True}
        if isinstance(value, tuple | list):
            return {type(value).__name__: [shape(v) for v in value]}
        if isinstance(value, dict):
            return {"dict": [[k, shape(v)] for k, v in value.items()]}
        return {"value": value}

    arguments = [
        {"name": item.name, "value": shape(item.value)} if isinstance(item, Keyword)
        else {"name": None, "value": shape(item)}
        for item in inputs
    ]
    return flat, arguments
