"""The arguments of ``self.register_buffer(...)``: read by MSM532 (a persistent buffer,
``rules/framework/msm532_persistent_buffers.py``) and MSM405 (a sparse tensor as a buffer)."""

from __future__ import annotations

import ast


def buffer_arguments(call: ast.Call) -> tuple[str, ast.expr | None, ast.expr | None] | None:
    """(name, value, persistent) of ``self.register_buffer("name", value[, persistent])`` (by position or
    keyword; the name a string literal that is an identifier), else None."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "register_buffer"
            and isinstance(func.value, ast.Name) and func.value.id == "self"):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    bound = dict(zip(("name", "tensor", "persistent"), call.args, strict=False))
    bound |= {k.arg: k.value for k in call.keywords if k.arg}
    name = bound.get("name")
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value.isidentifier()):
        return None
    return name.value, bound.get("tensor"), bound.get("persistent")
