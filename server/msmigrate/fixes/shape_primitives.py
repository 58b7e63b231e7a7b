"""Calls of a torch function written as a MindSpore Primitive built from the call's numbers and called
with its tensors and the shape of the result (``knowledge/value_forms.OUTPUT_SHAPE_PRIMITIVES``), where
the MindSpore function has no kernel on the device and the Primitive passed the numeric check there.

``F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)`` →
``(mindspore.ops.Conv2DTranspose(w.shape[0], w.shape[2:], pad_mode='pad', pad=1, stride=2)(x, w,
(x.shape[0], w.shape[1], (x.shape[2] - 1) * 2 + w.shape[2] - 1, (x.shape[3] - 1) * 2 + w.shape[3] - 1))
+ b.reshape(1, -1, 1, 1))``: ``Conv2DTranspose`` is the gradient of a convolution with torch's
transposed-convolution weight layout (in, out / groups, kH, kW); its ``input_size`` is the output shape
torch computes, ``(H - 1) * stride - 2 * padding + dilation * (kH - 1) + output_padding + 1``. Written only
when the tensors are names or attributes (each is read more than once) and the numbers are int literals
or pairs of them; the input must be batched (N, C, H, W), as the Primitive's is.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from msmigrate.fixes.context import plain_reference

Text = Callable[[ast.AST], str]


def _int(node: ast.expr | None, default: int) -> int | None:
    if node is None:
        return default
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _pair(node: ast.expr | None, default: int) -> tuple[int, int] | None:
    """An int or a pair of ints written as literals (None otherwise)."""
    if isinstance(node, ast.Tuple | ast.List):
        items = [_int(item, default) for item in node.elts] if len(node.elts) == 2 else []
        return (items[0], items[1]) if len(items) == 2 and None not in items else None  # type: ignore[return-value]
    value = _int(node, default)
    return None if value is None else (value, value)


def _is_none(node: ast.expr | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and node.value is None)


def _one_or_pair(a: int, b: int) -> str:
    return str(a) if a == b else f"({a}, {b})"


def _size(x: str, w: str, axis: int, stride: int, padding: int, output_padding: int, dilation: int) -> str:
    """``(H - 1) * stride - 2 * padding + dilation * (kH - 1) + output_padding + 1``, its constants summed."""
    constant = output_padding + 1 - 2 * padding
    if stride == 1:
        text, constant = f"{x}.shape[{axis}]", constant - 1
    else:
        text = f"({x}.shape[{axis}] - 1) * {stride}"
    if dilation == 1:
        text, constant = f"{text} + {w}.shape[{axis}]", constant - 1
    else:
        text = f"{text} + {dilation} * ({w}.shape[{axis}] - 1)"
    if constant:
        text += f" + {constant}" if constant > 0 else f" - {-constant}"
    return text


def transposed_convolution(bound: dict[str, ast.expr], text: Text, primitive: str) -> str | None:
    """``F.conv_transpose2d``'s call as ``ops.Conv2DTranspose`` (see the module doc), or None."""
    x, w, bias = bound.get("input"), bound.get("weight"), bound.get("bias")
    if x is None or w is None or not plain_reference(x) or not plain_reference(w):
        return None
    if not _is_none(bias) and not plain_reference(bias):  # type: ignore[arg-type]
        return None
    stride, padding = _pair(bound.get("stride"), 1), _pair(bound.get("padding"), 0)
    output_padding, dilation = _pair(bound.get("output_padding"), 0), _pair(bound.get("dilation"), 1)
    groups = _int(bound.get("groups"), 1)
    if stride is None or padding is None or output_padding is None or dilation is None or groups is None:
        return None
    xs, ws = text(x), text(w)
    attributes = [f"{ws}.shape[0]", f"{ws}.shape[2:]", "pad_mode='pad'"]
    if padding != (0, 0):
        attributes.append("pad=" + (str(padding[0]) if padding[0] == padding[1] else
                                    f"({padding[0]}, {padding[0]}, {padding[1]}, {padding[1]})"))
    if stride != (1, 1):
        attributes.append(f"stride={_one_or_pair(*stride)}")
    if dilation != (1, 1):
        attributes.append(f"dilation={_one_or_pair(*dilation)}")
    if groups != 1:
        attributes.append(f"group={groups}")
    channels = f"{ws}.shape[1]" + (f" * {groups}" if groups != 1 else "")
    sizes = [_size(xs, ws, 2 + i, stride[i], padding[i], output_padding[i], dilation[i]) for i in (0, 1)]
    shape = f"({xs}.shape[0], {channels}, {sizes[0]}, {sizes[1]})"
    result = f"{primitive}({', '.join(attributes)})({xs}, {ws}, {shape})"
    if _is_none(bias):
        return result
    return f"({result} + {text(bias)}.reshape(1, -1, 1, 1))"  # type: ignore[arg-type]


WRITERS: dict[str, Callable[[dict[str, ast.expr], Text, str], str | None]] = {
    "transposed_convolution": transposed_convolution,
}
