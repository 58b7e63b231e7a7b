"""Quick-fixes of the initialization idioms (rules/framework/msm518_init_helpers.py,
msm519_truncated_normal.py):

* MSM518: ``nn.init.calculate_gain("relu")`` → the gain itself (``math.sqrt(2.0)``);
  ``nn.init._calculate_fan_in_and_fan_out(w)`` → the two products of ``w.shape``;
* MSM519: a hand-written truncated normal (``t.uniform_(…)``, ``t.erfinv_()``, ``t.mul_(std * …)``,
  ``t.add_(mean)``, ``t.clamp_(min=a, max=b)``) → ``t.assign_value(initializer(TruncatedNormal(...)))``;
* MSM503 where the tensor is a slice of a parameter (``nn.init.normal_(w[:, :3])``: the slice is
  assigned) or a tensor made in place (``nn.init.trunc_normal_(torch.zeros(1, n, d), std=.02)``: the
  initializer's data of that shape).
"""

from __future__ import annotations

import ast

from msmigrate.analysis.import_names import package_name
from msmigrate.fixes.blocks import block_of, remove_lines
from msmigrate.fixes.context import FixContext, plain_reference
from msmigrate.fixes.init_fixes import initializer_arguments, parameter_text
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.initializers import INITIALIZER_MODULE
from msmigrate.model.finding import Finding

# torch.nn.init.calculate_gain(nonlinearity): its value, as code (``{math}``: how math is written)
GAINS = {
    **dict.fromkeys(("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                     "conv_transpose3d", "sigmoid"), "1"),
    "tanh": "5.0 / 3",
    "relu": "{math}.sqrt(2.0)",
    "selu": "3.0 / 4",
}
LEAKY_RELU = "{math}.sqrt(2.0 / (1 + {slope} ** 2))"
CREATORS = frozenset({"torch.empty", "torch.zeros", "torch.ones", "torch.randn", "torch.rand",
                      "torch.Tensor", "torch.FloatTensor"})
_FLOAT32 = frozenset({"torch.float32", "torch.float"})


def gain_value(call: ast.Call) -> tuple[str, str | None] | None:
    """(the gain as code, the slope's text for leaky_relu) of ``calculate_gain(nonlinearity, param)``."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    bound = dict(zip(("nonlinearity", "param"), call.args, strict=False))
    bound.update({k.arg: k.value for k in call.keywords if k.arg})
    nonlinearity, param = bound.get("nonlinearity"), bound.get("param")
    if not (isinstance(nonlinearity, ast.Constant) and isinstance(nonlinearity.value, str)) or len(bound) > 2:
        return None
    name = nonlinearity.value
    if name == "leaky_relu":
        if param is None or (isinstance(param, ast.Constant) and param.value is None):
            return LEAKY_RELU, "0.01"
        if isinstance(param, ast.Constant) and isinstance(param.value, bool):
            return None  # torch refuses a bool slope
        return LEAKY_RELU, None
    return (GAINS[name], None) if name in GAINS else None


GAIN = "torch.nn.init.calculate_gain"
FAN = "torch.nn.init._calculate_fan_in_and_fan_out"


def init_helper_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM518: the helper written as what it computes."""
    return gain_fix(ctx, finding) if finding.torch_api == GAIN else fan_fix(ctx, finding)


def gain_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM518: ``calculate_gain("relu")`` → ``math.sqrt(2.0)``."""
    call = ctx.call_of(finding)
    value = gain_value(call) if call is not None else None
    if call is None or value is None:
        return None
    template, slope = value
    edits: list[TextEdit] = []
    math = "math"
    if "{math}" in template:
        found = ctx.module_reference("math", "sqrt", call.lineno)
        if found is None:
            return None
        math = found[0].rpartition(".")[0] or "math"
        if found[0] == "sqrt":  # ``from math import sqrt``
            template, math = template.replace("{math}.sqrt", "sqrt"), ""
        edits += found[1]
    if slope is None and "{slope}" in template:
        argument = call.args[1] if len(call.args) > 1 else \
            next(k.value for k in call.keywords if k.arg == "param")
        slope = ctx.text(argument)
        slope = slope if isinstance(argument, ast.Name | ast.Constant | ast.Attribute) else f"({slope})"
    text = template.format(math=math, slope=slope)
    parent = ctx.parents.get(id(call))
    if " / " in text and not text.startswith(math) and (
            isinstance(parent, ast.BinOp | ast.UnaryOp | ast.Attribute | ast.Subscript)
            or (isinstance(parent, ast.Call) and parent.func is call)):
        text = f"({text})"  # 5.0 / 3 where an operator binds more tightly
    return Fix("MSM518", "fix.init_helper.gain", [TextEdit(*ctx.node_range(call), text), *edits],
               {"value": text})


def fan_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM518: ``_calculate_fan_in_and_fan_out(w)`` → ``(w.shape[1] * math.prod(w.shape[2:]), w.shape[0] *
    math.prod(w.shape[2:]))`` (torch's own definition, for tensors of two dimensions or more)."""
    call = ctx.call_of(finding)
    if call is None or len(call.args) != 1 or call.keywords or not plain_reference(call.args[0]):
        return None
    found = ctx.module_reference("math", "prod", call.lineno)
    if found is None:
        return None
    prod, imports = found
    w = ctx.text(call.args[0])
    text = f"({w}.shape[1] * {prod}({w}.shape[2:]), {w}.shape[0] * {prod}({w}.shape[2:]))"
    return Fix("MSM518", "fix.init_helper.fan", [TextEdit(*ctx.node_range(call), text), *imports], {})


def slice_or_new_tensor_init(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM503 for a tensor argument ``init_rewrite`` leaves: a slice of a parameter, assigned; a tensor
    made by the call itself (``torch.zeros(3, 4)``), made by the initializer instead."""
    found = initializer_arguments(ctx, finding)
    if found is None:
        return None
    call, tensor, initializer, keywords = found
    make, edits = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.initializer", call.lineno)
    cls, more = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.{initializer}", call.lineno)
    args = {"initializer": f"{INITIALIZER_MODULE}.{initializer}"}
    if isinstance(tensor, ast.Subscript) and plain_reference(tensor.value) and _pure(tensor.slice):
        statement = ctx.parents.get(id(call))
        base = parameter_text(ctx, tensor.value)
        if not isinstance(statement, ast.Expr) or base is None:
            return None  # the call's value is used: an assignment cannot stand there
        target = f"{base}[{ctx.text(tensor.slice)}]"
        text = f"{target} = {make}({cls}({keywords}), {target}.shape, {base}.dtype).init_data()"
        edit = TextEdit(*ctx.node_range(call), text)
        return Fix("MSM503", "fix.pattern.initializer", [edit, *edits, *more], args)
    shape = _created_shape(ctx, tensor)
    if shape is None:
        return None
    dtype, dtype_edits = ctx.mindspore_reference("mindspore.float32", call.lineno)
    text = f"{make}({cls}({keywords}), {shape}, {dtype}).init_data()"
    return Fix("MSM503", "fix.pattern.initializer",
               [TextEdit(*ctx.node_range(call), text), *edits, *more, *dtype_edits], args)


def _pure(node: ast.expr) -> bool:
    """An index without effects (read again by the rewrite): names, constants, slices, tuples of them."""
    return all(isinstance(n, ast.Name | ast.Constant | ast.Slice | ast.Tuple | ast.UnaryOp | ast.BinOp
                          | ast.Load | ast.operator | ast.unaryop | ast.Attribute)
               for n in ast.walk(node))


def _created_shape(ctx: FixContext, tensor: ast.expr) -> str | None:
    """The shape, as code, of ``torch.zeros(3, 4)`` / ``torch.empty((3, 4))`` made in float32 (device and
    requires_grad aside); None for any other tensor."""
    if not isinstance(tensor, ast.Call):
        return None
    name = _torch_name(ctx, tensor.func)
    if name not in CREATORS:
        return None
    for keyword in tensor.keywords:
        if keyword.arg == "dtype":
            if _torch_name(ctx, keyword.value) not in _FLOAT32:
                return None
        elif keyword.arg not in ("device", "requires_grad"):
            return None
    args = tensor.args
    if not args or any(isinstance(a, ast.Starred) for a in args):
        return None
    if len(args) == 1:
        only = args[0]
        if isinstance(only, ast.Tuple | ast.List):
            items = [ctx.text(e) for e in only.elts]
            return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"
        if isinstance(only, ast.Constant) and isinstance(only.value, int):
            return f"({only.value},)"
        return None  # one value: a size or a shape, as the caller has it
    return "(" + ", ".join(ctx.text(a) for a in args) + ")"


def _torch_name(ctx: FixContext, node: ast.expr) -> str | None:
    """The torch name written (``torch.zeros``, ``th.zeros`` for ``import torch as th``)."""
    alias = package_name(ctx.tree, "torch") or "torch"
    text = ctx.text(node)
    if text == alias or text.startswith(alias + "."):
        return "torch" + text[len(alias):]
    return None


# --- MSM519: a hand-written truncated normal -----------------------------------------------------------
_STEPS = ("uniform_", "erfinv_", "mul_", "add_", "clamp_")


def truncated_normal_steps(body: list[ast.stmt]) -> tuple[str, list[ast.stmt], dict[str, ast.expr]] | None:
    """(the tensor's name, the five statements, sigma/mean/a/b) of the in-place recipe
    ``t.uniform_(…)``, ``t.erfinv_()``, ``t.mul_(std * math.sqrt(2.))``, ``t.add_(mean)``,
    ``t.clamp_(min=a, max=b)`` as consecutive statements of ``body``."""
    for start in range(len(body) - len(_STEPS) + 1):
        statements = body[start : start + len(_STEPS)]
        calls = [_method_call(s) for s in statements]
        if any(c is None for c in calls):
            continue
        names = {c[0] for c in calls if c is not None}
        if len(names) != 1 or [c[1] for c in calls if c is not None] != list(_STEPS):
            continue
        mul, add, clamp = (c[2] for c in calls[2:] if c is not None)
        values = _recipe_values(mul, add, clamp)
        if values is not None:
            return names.pop(), statements, values
    return None


def _method_call(statement: ast.stmt) -> tuple[str, str, ast.Call] | None:
    value = statement.value if isinstance(statement, ast.Expr) else None
    func = value.func if isinstance(value, ast.Call) else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and isinstance(value, ast.Call):
        return func.value.id, func.attr, value
    return None


def _recipe_values(mul: ast.Call, add: ast.Call, clamp: ast.Call) -> dict[str, ast.expr] | None:
    """sigma from ``mul_(std * math.sqrt(2.))``, mean from ``add_(mean)``, a/b from ``clamp_``."""
    if len(mul.args) != 1 or mul.keywords or len(add.args) != 1 or add.keywords:
        return None
    product = mul.args[0]
    if not (isinstance(product, ast.BinOp) and isinstance(product.op, ast.Mult)
            and isinstance(product.right, ast.Call) and ast.unparse(product.right.func).endswith("sqrt")
            and len(product.right.args) == 1 and isinstance(product.right.args[0], ast.Constant)
            and product.right.args[0].value == 2):
        return None
    bounds = dict(zip(("min", "max"), clamp.args, strict=False))
    bounds.update({k.arg: k.value for k in clamp.keywords if k.arg})
    if set(bounds) != {"min", "max"}:
        return None
    return {"sigma": product.left, "mean": add.args[0], "a": bounds["min"], "b": bounds["max"]}


def truncated_normal_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM519: the five in-place statements → one ``assign_value`` of MindSpore's truncated normal (the
    first statement becomes it, the four others go; comments stay)."""
    reference = ctx.reference_of(finding)
    call = ctx.parents.get(id(reference)) if reference is not None else None
    statement = ctx.parents.get(id(call)) if isinstance(call, ast.Call) else None
    block = block_of(ctx.tree, statement) if isinstance(statement, ast.Expr) else None
    if block is None:
        return None
    found = truncated_normal_steps(block[block.index(statement):])
    if found is None or found[1][0] is not statement:
        return None
    name, statements, values = found
    make, edits = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.initializer", statement.lineno)
    cls, more = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.TruncatedNormal", statement.lineno)
    keywords = ", ".join(f"{k}={ctx.text(v)}" for k, v in values.items())
    text = f"{name}.assign_value({make}({cls}({keywords}), {name}.shape, {name}.dtype).init_data())"
    removed = [remove_lines(ctx, s, block) for s in statements[1:]]
    if any(edit is None for edit in removed):
        return None
    return Fix("MSM519", "fix.init_helper.truncated_normal",
               [TextEdit(*ctx.node_range(statement), text), *(e for e in removed if e), *edits, *more], {})
