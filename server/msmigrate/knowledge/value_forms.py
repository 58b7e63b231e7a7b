"""Values a MindSpore API takes or returns in another form than torch's, and how a call is adapted.

The facts per MindSpore API are data (``knowledge/facts/mindspore_calls.toml``, read by ``mindspore_calls``).

Reviewed against MindSpore 2.10 and checked on CPU with the conversion suite (``tests/conversion``);
``ops.multilabel_margin_loss`` has no CPU kernel: its int32 target is what its TypeError states.

- :data:`ARGUMENT_FORMS`: MindSpore parameters that take a value of another type than torch's argument.
  ``INT32``: an index tensor MindSpore accepts as int32 only (torch's are int64; int64 raises a
  TypeError): the fix writes ``index.int()``, the same values for any index below 2**31. ``TENSOR``: a
  Python number or tuple MindSpore takes as a Tensor (``window_length``, polygamma's ``n``):
  ``mindspore.tensor(value)``; ``TENSOR_PAIR`` the same for a size where torch's int ``n`` means
  ``(n, n)``. ``LIST``: a tensor list torch takes on the root rank only (``None`` elsewhere) that
  MindSpore wants as a list on every rank
  (``mint.distributed.gather``/``scatter`` raise "Expected list or tuple" for ``None``; an empty list on
  the other ranks gave torch's results on CPU, 2 ranks): ``value or []``. ``TUPLE``: a sequence MindSpore
  takes as a tuple only, where torch also takes a list (``mint.permute(x, [0, 2, 3, 1])`` raises "Failed
  calling TransposeView … input_perm=List" in MindSpore 2.10; ``Tensor.permute``, ``ops.permute``,
  ``mint.flip``, ``mint.reshape`` take a list): ``tuple(value)`` unless it is written as a tuple.
- :data:`CALL_FORMS`: arguments of the call of a MindSpore class's instance (its ``construct``) taken in
  another form than torch's. ``CLASS_INDICES``: class-index labels MindSpore accepts as int32 only
  (``nn.CrossEntropyLoss``'s ``labels``: int64 raises a TypeError at the call), where torch's target may
  also be float class probabilities, which MindSpore takes as they are (checked on CPU): integer labels
  are written ``labels.int()``, float ones are left alone, and labels whose dtype the source does not
  show are written ``labels if labels.is_floating_point() else labels.int()`` when reading them twice
  reads the same value (``fixes/instance_calls.py``).
- :data:`RESULT_FORMS`: results MindSpore returns in another form. ``FIRST_OUTPUT``: a tuple whose first
  item is torch's result (``ops.ctc_loss`` also returns ``log_alpha``): ``call[0]``. ``INT64``: float
  counts where torch returns int64 (``bincount`` without weights): ``call.long()``. ``PYTHON_BOOL``: a bool
  tensor of shape () where torch returns a Python bool (``numpy.array_equal``): ``bool(call)``.
  ``SORTED_FIRST_OUTPUT``: a tuple whose first item holds torch's values in another order (``ops.unique``
  returns (values in first-seen order, indices); torch sorts them): ``mindspore.ops.sort(call[0])[0]``.
  A form applies unless the call passes one of the parameters listed with it (with weights, torch's
  counts are floats too; with ``return_inverse`` torch's indices point into the sorted values).
  :data:`CHECKED_FORMS` are the forms the numeric check applies itself, as the fix writes them (they
  change values, so no note can tell that they correct the difference); the others only change the
  result's type or structure (:func:`corrects`).
- :data:`OUTPUT_SHAPE_PRIMITIVES`: a torch function MindSpore computes on a device where its function has
  no kernel with a Primitive whose attributes are the call's numbers and whose call takes the tensors
  and the shape of the result, which torch computes itself (``ops.Conv2DTranspose``, the gradient of a
  convolution: the transposed convolution's output shape is its ``input_size``); ``fixes/shape_primitives.py``
  writes the call.
- :data:`DTYPE_FROM`: a MindSpore ``dtype`` whose default is fixed where torch infers the dtype from
  another argument (``ops.full``'s default is int64 whatever ``fill_value`` is; torch's ``full`` follows
  ``fill_value``: float32 for a float): the fix passes torch's dtype when that argument is a literal.
"""

from __future__ import annotations

import ast

from msmigrate.knowledge.mindspore_calls import mindspore_calls

_calls = mindspore_calls()  # knowledge/facts/mindspore_calls.toml: the reviewed facts, with their reasons

INT32 = "int32"
TENSOR = "tensor"
TENSOR_PAIR = "tensor_pair"
FIRST_OUTPUT = "first_output"
INT64 = "int64"
PYTHON_BOOL = "python_bool"
CLASS_INDICES = "class_indices"
SORTED_FIRST_OUTPUT = "sorted_first_output"
LIST = "list"
TUPLE = "tuple"

# MindSpore API → {parameter: form} (the forms above)
ARGUMENT_FORMS: dict[str, dict[str, str]] = _calls.argument_forms

# MindSpore class → {parameter of its ``construct``: form}
CALL_FORMS: dict[str, dict[str, str]] = _calls.call_forms

# MindSpore API → (form, the parameters whose passing means no form)
RESULT_FORMS: dict[str, tuple[str, tuple[str, ...]]] = _calls.result_forms

# forms the check worker applies to MindSpore's result before comparing (``check/worker.py``), and the
# MindSpore function each one writes
CHECKED_FORMS: dict[str, str] = {SORTED_FIRST_OUTPUT: "mindspore.ops.sort"}

# (torch API as the table spells it, MindSpore Primitive) → the writer in ``fixes/shape_primitives.py``
OUTPUT_SHAPE_PRIMITIVES: dict[tuple[str, str], str] = _calls.output_shape_primitives


def output_shape_primitive(torch_api: str | None, mindspore_api: str | None) -> str | None:
    """The writer of ``torch_api`` as the Primitive ``mindspore_api`` called with its output shape."""
    return OUTPUT_SHAPE_PRIMITIVES.get((torch_api or "", mindspore_api or ""))


# check notes (``knowledge/facts/check_specs.toml``) recording a difference that a result form corrects: the
# form
CORRECTED_BY: dict[str, str] = {"bincount_float_output": INT64, "bool_tensor_result": PYTHON_BOOL}


def corrects(mindspore_api: str, note: str | None, reason: str | None) -> bool:
    """Whether the fix's result form for ``mindspore_api`` (:data:`RESULT_FORMS`) turns the one difference
    the check recorded (``note``, with the values equal: ``reason`` dtype_mismatch) into torch's result
    (float counts → ``.long()``, a bool tensor → ``bool(…)``)."""
    form = CORRECTED_BY.get(note or "")
    return (form is not None and reason == "dtype_mismatch"
            and RESULT_FORMS.get(mindspore_api, ("", ()))[0] == form)


# MindSpore API → (its dtype parameter, the parameter torch infers the dtype from, the dtype MindSpore
# uses when none is passed)
DTYPE_FROM: dict[str, tuple[str, str, str]] = _calls.dtype_from

# torch's dtype of a tensor made from a Python literal (its default float dtype being float32)
_LITERAL_DTYPES = {bool: "mindspore.bool_", int: "mindspore.int64", float: "mindspore.float32",
                   complex: "mindspore.complex64"}


def argument_form(mindspore_api: str, param: str | None) -> str | None:
    """The form MindSpore's ``param`` of ``mindspore_api`` takes its value in, if not torch's."""
    return ARGUMENT_FORMS.get(mindspore_api, {}).get(param or "")


def call_forms(mindspore_class: str) -> dict[str, str]:
    """{parameter of the instance call: form} for the MindSpore class ``mindspore_class``
    (:data:`CALL_FORMS`)."""
    return CALL_FORMS.get(mindspore_class, {})


def class_indices_wrapping(text: str, node: ast.expr, dtype_class: str | None,
                           rereadable: bool) -> tuple[str, str] | None:
    """The text written before and after the labels ``node`` (source ``text``) for ``CLASS_INDICES``:
    ``.int()`` for integer labels (``dtype_class`` "int"), nothing for float ones ("float"), for labels
    of a dtype the source does not show the int32 cast of integers only (``rereadable``: reading the
    labels twice reads the same value); None where the labels cannot be adapted."""
    if dtype_class == "float":
        return "", ""
    if dtype_class == "int":
        return wrapping(INT32, node)
    if not rereadable:
        return None
    return f"{text} if {text}.is_floating_point() else ", ".int()"


def result_form(mindspore_api: str, passed: set[str]) -> str | None:
    """The form of ``mindspore_api``'s result to turn into torch's, for a call passing the MindSpore
    parameters ``passed``."""
    form, unless = RESULT_FORMS.get(mindspore_api, ("", ()))
    if not form or set(unless) & passed:
        return None
    return form


_CONVERSIONS = {"float": float, "int": int, "bool": bool, "complex": complex}
_MATH_FLOATS = frozenset({"inf", "nan", "pi", "e", "tau"})


def literal_dtype(node: ast.expr) -> str | None:
    """The MindSpore dtype torch infers for ``node`` when its Python type shows in the source (a literal
    ``1.5``, ``-2``, ``float('-inf')``, ``math.pi``), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONVERSIONS:
        return _LITERAL_DTYPES[_CONVERSIONS[node.func.id]]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "math":
        return _LITERAL_DTYPES[float] if node.attr in _MATH_FLOATS else None
    if not isinstance(node, ast.Constant):
        return None
    return _LITERAL_DTYPES.get(type(node.value))


def inferred_dtype(mindspore_api: str, passed: dict[str, ast.expr]) -> tuple[str, str | None] | None:
    """(MindSpore dtype parameter, dtype to pass) for a call of ``mindspore_api`` that leaves the dtype
    out where torch infers it from another argument (``passed``: MindSpore name → value) and gets
    another dtype than MindSpore's; the dtype is ``None`` where the source does not show the value's
    type (a name: MindSpore's dtype is right only for an int)."""
    found = DTYPE_FROM.get(mindspore_api)
    if found is None or found[0] in passed or found[1] not in passed:
        return None
    dtype = literal_dtype(passed[found[1]])
    if dtype is None:
        return found[0], None
    return (found[0], dtype) if dtype != found[2] else None


def fixed_dtype(mindspore_api: str) -> str | None:
    """The dtype ``mindspore_api`` uses when none is passed, where torch infers one (:data:`DTYPE_FROM`)."""
    found = DTYPE_FROM.get(mindspore_api)
    return found[2] if found else None


def needed(form: str, node: ast.expr, is_tensor: bool) -> bool:
    """Whether the argument ``node`` must be adapted to ``form``: an int32 index only when it is no
    literal (a literal is no tensor: torch would have refused it), a Tensor only when it is not one, a list
    only when it is not written as one (nor as ``None``: ``param_facts.VALUE_MEANINGS`` writes ``[]``)."""
    if form == LIST:
        return not isinstance(node, ast.List | ast.Tuple | ast.ListComp | ast.Constant)
    if form == TUPLE:
        return not isinstance(node, ast.Tuple)
    if form == INT32:
        return not isinstance(node, ast.Constant | ast.List | ast.Tuple | ast.Dict | ast.Set)
    return not is_tensor


def adapted(form: str, text: str, node: ast.expr, tensor: str = "mindspore.tensor") -> str:
    """``text`` (the source of ``node``: an argument, or a call for a result form) in ``form``;
    ``tensor``: how ``mindspore.tensor`` is spelled where it is written."""
    prefix, suffix = wrapping(form, node, tensor)
    return prefix + text + suffix


def wrapping(form: str, node: ast.expr, tensor: str = "mindspore.tensor",
             function: str | None = None) -> tuple[str, str]:
    """The text written before and after ``node`` to put it in ``form``. ``TENSOR_PAIR``: an int literal
    ``n`` is ``(n, n)``; a value that may be an int or a pair becomes a pair either way
    (``.reshape(-1).broadcast_to((2,))``). ``function``: how the form's function (:data:`CHECKED_FORMS`)
    is spelled where it is written."""
    if form == SORTED_FIRST_OUTPUT:
        return f"{function or CHECKED_FORMS[form]}(", "[0])[0]"
    if form == TENSOR_PAIR and isinstance(node, ast.Constant) and type(node.value) is int:
        return f"{tensor}((", f", {node.value}))"
    if form == TENSOR_PAIR and not isinstance(node, ast.Tuple | ast.List):
        return f"{tensor}(", ").reshape(-1).broadcast_to((2,))"
    if form in (TENSOR, TENSOR_PAIR):
        return f"{tensor}(", ")"
    if form == PYTHON_BOOL:
        return "bool(", ")"
    if form == TUPLE:
        return "tuple(", ")"
    if form == LIST:
        loose = isinstance(node, ast.IfExp | ast.Lambda | ast.NamedExpr)  # binds less tightly than ``or``
        return ("(", ") or []") if loose else ("", " or []")
    suffix = {INT32: ".int()", INT64: ".long()", FIRST_OUTPUT: "[0]"}[form]
    return ("(", ")" + suffix) if _needs_parentheses(node) else ("", suffix)


def _needs_parentheses(node: ast.expr) -> bool:
    """Whether ``node``'s text needs parentheses before ``.method()`` or ``[i]`` is written after it."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float | complex)
    return not isinstance(node, ast.Name | ast.Attribute | ast.Call | ast.Subscript | ast.List | ast.Tuple)
