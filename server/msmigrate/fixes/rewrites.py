"""Exact source rewrites of unmapped calls into mapped ones (the MSM201 quick-fixes).

Each rewrite keeps the code valid PyTorch with the same result, built from APIs the mapping table
covers (``x.squeeze(1)`` → ``torch.squeeze(x, 1)``, ``F.adaptive_max_pool2d(x, 1)`` →
``torch.amax(x, dim=(-2, -1), keepdim=True)``); the mapping quick-fixes then migrate it. A rewrite is
offered only when it is exact for the call as written; otherwise the functions return ``None``.

``src`` is any object with ``source``, ``tree`` and ``node_range(node)`` in Finding coordinates (the
analysis context or the fix context). An edit is ``(line, column, end_line, end_column, new_text)``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from msmigrate.analysis.import_names import package_name
from msmigrate.analysis.source_text import segment, source_lines
from msmigrate.knowledge.missing_advice import VARARG_METHODS

Edit = tuple[int, int, int, int, str]

DTYPE_NAMES = frozenset(
    {
        "float",
        "float16",
        "float32",
        "float64",
        "half",
        "double",
        "bfloat16",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "long",
        "short",
        "uint8",
        "bool",
        "complex64",
        "complex128",
        "cfloat",
        "cdouble",
    }
)
_POOL_AXES = {"1d": "-1", "2d": "(-2, -1)", "3d": "(-3, -2, -1)"}


def _text(src: Any, node: ast.AST) -> str:
    return segment(src.source, node)


def _whole(src: Any, node: ast.AST, new_text: str) -> list[Edit]:
    return [(*src.node_range(node), new_text)]


def _plain_call(call: ast.Call) -> bool:
    return not any(isinstance(a, ast.Starred) for a in call.args) and all(k.arg for k in call.keywords)


def _safe_receiver(node: ast.expr) -> bool:
    return not isinstance(node, ast.GeneratorExp | ast.Starred | ast.Yield | ast.YieldFrom | ast.Lambda)


def _argument_texts(src: Any, call: ast.Call) -> tuple[list[str], list[str]]:
    return [_text(src, a) for a in call.args], [_text(src, k) for k in call.keywords]


def function_form(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``x.name(a, b)`` → ``torch.name(x, a, b)`` (sizes given separately are packed into one tuple)."""
    func = call.func
    torch = package_name(src.tree, "torch")
    if not isinstance(func, ast.Attribute) or torch is None or not _safe_receiver(func.value):
        return None
    name = torch_api.rsplit(".", 1)[1]
    if func.attr != name:
        return None
    positional, keywords = _argument_texts(src, call)
    starred = any(isinstance(a, ast.Starred) for a in call.args)
    if name in VARARG_METHODS and (len(call.args) > 1 or starred):
        positional = ["(" + ", ".join(positional) + ("," if len(positional) == 1 else "") + ")"]
    elif starred:
        return None
    receiver = _text(src, func.value)
    arguments = ", ".join([receiver, *positional, *keywords])
    return _whole(src, call, f"{torch}.{name}({arguments})")


def _member_name_edit(src: Any, func: ast.Attribute, new_name: str) -> Edit:
    _, _, end_line, end_column = src.node_range(func)
    return (end_line, end_column - len(func.attr), end_line, end_column, new_name)


def _is_dtype(src: Any, node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in DTYPE_NAMES
    if isinstance(node, ast.Name):
        return node.id in DTYPE_NAMES or "dtype" in node.id.lower()
    return False


def reshape(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``x.view(a, b)`` → ``x.reshape(a, b)`` (not for a view to another dtype)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != "view" or not call.args:
        return None
    if call.keywords or any(_is_dtype(src, a) for a in call.args):
        return None
    return [_member_name_edit(src, func, "reshape")]


def shape(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``x.size()`` → ``x.shape``; ``x.size(d)`` → ``x.shape[d]``."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != "size" or not _plain_call(call):
        return None
    if len(call.args) + len(call.keywords) > 1 or any(k.arg != "dim" for k in call.keywords):
        return None
    dims = [*call.args, *(k.value for k in call.keywords)]
    line, column, _, _, _ = _member_name_edit(src, func, "")
    end_line, end_column = src.node_range(call)[2:]
    new_text = f"shape[{_text(src, dims[0])}]" if dims else "shape"
    return [(line, column, end_line, end_column, new_text)]


def drop_call(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``x.contiguous()`` → ``x``: remove ``.name(...)`` (the dot included)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or call.args or call.keywords:
        return None
    name_line, name_column, _, _, _ = _member_name_edit(src, func, "")
    lines = source_lines(src.source)
    row, col = name_line - 1, name_column - 1
    while True:  # back over blanks and line continuations to the dot
        col -= 1
        while col < 0:
            row -= 1
            if row < 0:
                return None
            col = len(lines[row]) - 1
        if lines[row][col] not in " \t\\\r\n":
            break
    if lines[row][col] != ".":
        return None
    end_line, end_column = src.node_range(call)[2:]
    return [(row + 1, col + 1, end_line, end_column, "")]


def _is_one(node: ast.expr | None, dims: int) -> bool:
    if isinstance(node, ast.Constant) and node.value == 1 and type(node.value) is int:
        return True
    if isinstance(node, ast.Tuple | ast.List) and len(node.elts) in (1, dims):
        return all(_is_one(e, 1) for e in node.elts) and (len(node.elts) == dims or dims == 1)
    return False


def adaptive_pool_1(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``F.adaptive_max_pool2d(x, 1)`` → ``torch.amax(x, dim=(-2, -1), keepdim=True)`` (avg: mean)."""
    torch = package_name(src.tree, "torch")
    name = torch_api.rsplit(".", 1)[1]  # adaptive_max_pool2d
    suffix = name[-2:]
    if torch is None or suffix not in _POOL_AXES or not _plain_call(call):
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    allowed = {"input", "output_size", "return_indices"}
    if set(keywords) - allowed or len(call.args) > 2:
        return None
    values = list(call.args) + [None] * (2 - len(call.args))
    data = values[0] if values[0] is not None else keywords.get("input")
    size = values[1] if values[1] is not None else keywords.get("output_size")
    indices = keywords.get("return_indices")
    if indices is not None and not (isinstance(indices, ast.Constant) and indices.value is False):
        return None
    if data is None or not _is_one(size, int(suffix[0])) or not _safe_receiver(data):
        return None
    reduce = "amax" if "_max_" in name else "mean"
    return _whole(src, call, f"{torch}.{reduce}({_text(src, data)}, dim={_POOL_AXES[suffix]}, keepdim=True)")


def msort(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``torch.msort(x)`` → ``torch.sort(x, dim=0).values``."""
    torch = package_name(src.tree, "torch")
    if torch is None or len(call.args) != 1 or call.keywords or not _plain_call(call):
        return None
    return _whole(src, call, f"{torch}.sort({_text(src, call.args[0])}, dim=0).values")


def argwhere(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``torch.argwhere(x)`` → ``torch.nonzero(x)``."""
    torch = package_name(src.tree, "torch")
    if torch is None or len(call.args) != 1 or call.keywords or not _plain_call(call):
        return None
    return _whole(src, call, f"{torch}.nonzero({_text(src, call.args[0])})")


def take(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``torch.take(x, index)`` → ``torch.flatten(x)[index]``."""
    torch = package_name(src.tree, "torch")
    if torch is None or len(call.args) != 2 or call.keywords or not _plain_call(call):
        return None
    data, index = (_text(src, a) for a in call.args)
    return _whole(src, call, f"{torch}.flatten({data})[{index}]")


def clamp_bound(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``torch.clamp_min(x, v)`` → ``torch.clamp(x, min=v)``; ``x.clamp_max(v)`` → ``x.clamp(max=v)``."""
    name = torch_api.rsplit(".", 1)[1]
    bound = name.rsplit("_", 1)[1]  # min / max
    if not _plain_call(call) or call.keywords and [k.arg for k in call.keywords] != [bound]:
        return None
    is_method = torch_api.startswith("torch.Tensor.")
    values = list(call.args[1:] if not is_method else call.args) + [k.value for k in call.keywords]
    if len(values) != 1 or (not is_method and len(call.args) < 1):
        return None
    value = _text(src, values[0])
    if is_method:
        func = call.func
        if not isinstance(func, ast.Attribute) or not _safe_receiver(func.value):
            return None
        return _whole(src, call, f"{_text(src, func.value)}.clamp({bound}={value})")
    torch = package_name(src.tree, "torch")
    if torch is None:
        return None
    return _whole(src, call, f"{torch}.clamp({_text(src, call.args[0])}, {bound}={value})")


def interpolate(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``F.upsample*(...)`` → ``F.interpolate(..., mode=...)``."""
    func = call.func
    name = torch_api.rsplit(".", 1)[1]
    if not isinstance(func, ast.Attribute) or func.attr != name or not _plain_call(call):
        return None
    if name == "upsample":
        return [_member_name_edit(src, func, "interpolate")]
    if any(k.arg in {"mode", "align_corners"} for k in call.keywords) or len(call.args) > 3:
        return None
    extra = 'mode="nearest"' if name == "upsample_nearest" else 'mode="bilinear", align_corners=True'
    positional, keywords = _argument_texts(src, call)
    arguments = ", ".join([*positional, *keywords, extra])
    return _whole(src, call, f"{_text(src, func.value)}.interpolate({arguments})")


def cell_values(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``net.modules()`` → ``(cell for _, cell in net.cells_and_names())``: MindSpore's ``cells_and_names``
    also yields the cell itself first, then every sub-cell recursively, as torch's ``modules`` does."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != "modules" or call.args or call.keywords:
        return None
    if not _safe_receiver(func.value):
        return None
    return _whole(src, call, f"(cell for _, cell in {_text(src, func.value)}.cells_and_names())")


def cells(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``net.children()`` → ``net.cells()`` (the direct sub-cells, in order)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != "children" or call.args or call.keywords:
        return None
    return [_member_name_edit(src, func, "cells")]


def cell_parameters(src: Any, call: ast.Call, torch_api: str) -> list[Edit] | None:
    """``net.named_parameters()`` → ``net.parameters_and_names()``: (name path, parameter) pairs of the cell
    and its sub-cells; ``prefix``/``recurse`` are ``name_prefix``/``expand``."""
    func = call.func
    keywords = {"prefix": "name_prefix", "recurse": "expand"}
    if not isinstance(func, ast.Attribute) or func.attr != "named_parameters" or call.args \
            or any(k.arg not in keywords for k in call.keywords):
        return None
    edits = [_member_name_edit(src, func, "parameters_and_names")]
    for keyword in call.keywords:
        line, column, _, _ = src.node_range(keyword)
        edits.append((line, column, line, column + len(keyword.arg or ""), keywords[keyword.arg or ""]))
    return edits


REWRITES: dict[str, Callable[[Any, ast.Call, str], list[Edit] | None]] = {
    "function_form": function_form,
    "reshape": reshape,
    "shape": shape,
    "drop_call": drop_call,
    "adaptive_pool_1": adaptive_pool_1,
    "msort": msort,
    "argwhere": argwhere,
    "take": take,
    "clamp_bound": clamp_bound,
    "interpolate": interpolate,
    "cell_values": cell_values,
    "cells": cells,
    "cell_parameters": cell_parameters,
}


def rewrite(kind: str | None, src: Any, call: ast.Call | None, torch_api: str) -> list[Edit] | None:
    """The edits of rewrite ``kind`` for ``call``, or ``None`` when it is not exact for this call."""
    if kind is None or call is None or kind not in REWRITES:
        return None
    try:
        return REWRITES[kind](src, call, torch_api)
    except (ValueError, IndexError, AttributeError):
        return None


def title_args(kind: str, call: ast.Call, torch_api: str, src: Any) -> dict[str, str]:
    """Fields for the quick-fix title of ``kind``."""
    name = torch_api.rsplit(".", 1)[1]
    if kind == "function_form":
        receiver = _text(src, call.func.value) if isinstance(call.func, ast.Attribute) else "x"
        return {"function": f"torch.{name}", "receiver": receiver if len(receiver) <= 20 else "x"}
    if kind == "drop_call":
        return {"method": name}
    if kind == "adaptive_pool_1":
        return {"function": "torch.amax" if "_max_" in name else "torch.mean"}
    if kind == "clamp_bound":
        return {"bound": name.rsplit("_", 1)[1]}
    if kind == "interpolate":
        return {
            "mode": "nearest"
            if name.endswith("nearest")
            else "bilinear"
            if name.endswith("bilinear")
            else "as given"
        }
    return {}
