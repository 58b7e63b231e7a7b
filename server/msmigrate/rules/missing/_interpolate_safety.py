"""The safety of MSM205's ``interpolate`` composition at one call (``F.interpolate(…, antialias=…)``).

The helper (``knowledge/compositions/templates/interpolate.py.txt``) computes ``antialias=True`` with
``ops.ScaleAndTranslate`` (bilinear and bicubic, align_corners False: checked against torch, every case of
``composition_cases.toml``), and otherwise calls ``ops.interpolate``, the pair's own target, which computes
bicubic and linear otherwise than torch (``knowledge/pair_facts.ARGUMENT_VALUES``). So the fix is safe where
the call's literals show that path is exact: ``mode`` one of the modes ``ops.interpolate`` computes as torch,
or ``'bicubic'`` with ``antialias=True``; ``align_corners`` absent, ``None`` or ``False`` (with True the
anti-aliased path is not composed). Elsewhere (open_clip's ``mode=interpolation, antialias=antialias``) the
fix is unsafe and its title says why.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.model import Fix
from msmigrate.knowledge.pair_facts import argument_values
from msmigrate.model.resolution import Safety

API = "torch.nn.functional.interpolate"
_TARGET = "mindspore.ops.interpolate"
_ANTIALIASED = frozenset({"bilinear", "bicubic"})
_PLACES = ("input", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor", "antialias")


def _argument(call: ast.Call, name: str) -> ast.expr | None:
    index = _PLACES.index(name)
    if index < len(call.args):
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _literal(node: ast.expr | None, default: object) -> object:
    """The literal value of an argument (``default`` when absent; a marker when not a literal)."""
    if node is None:
        return default
    return node.value if isinstance(node, ast.Constant) else _literal


def with_interpolate_safety(call: ast.Call | None, fix: Fix) -> Fix:
    """The composition fix of ``F.interpolate`` with its safety at ``call`` (see the module doc)."""
    if call is None or any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords):
        exact = False
    else:
        agreed, _key = argument_values(API, _TARGET)["mode"]
        mode = _literal(_argument(call, "mode"), "nearest")
        antialias = _literal(_argument(call, "antialias"), False)
        corners = _literal(_argument(call, "align_corners"), None)
        exact = corners in (None, False) and (mode in agreed or (antialias is True and mode in _ANTIALIASED))
    fix.safety = Safety.SAFE if exact else Safety.UNSAFE
    if not exact:
        fix.title_key = "fix.composition.unsafe.interpolate"
    return fix
