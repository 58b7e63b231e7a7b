"""MSM503 where the cell classes of an ``isinstance`` test name the parameter differently: torchvision's
``elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)): nn.init.ones_(m.weight)`` — on CPU the BatchNorm
becomes ``mindspore.nn.BatchNorm2d`` (``gamma``), the GroupNorm ``mindspore.mint.nn.GroupNorm``
(``weight``). ``init_rewrite`` cannot write one name; this fix writes one ``set_data`` per name, chosen by
the same ``isinstance`` test on the classes that use it::

    if isinstance(m, mindspore.nn.BatchNorm2d):
        m.gamma.set_data(initializer(One(), m.gamma.shape, m.gamma.dtype))
    else:
        m.weight.set_data(initializer(One(), m.weight.shape, m.weight.dtype))

Only for a call standing as a statement on lines of its own, on a parameter of a name narrowed by the
innermost enclosing ``isinstance`` whose classes are all known.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.init_fixes import _mindspore_class, _narrowed, initializer_arguments
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.cell_parameters import parameter_name, renamed_parameters
from msmigrate.knowledge.initializers import INITIALIZER_MODULE
from msmigrate.model.finding import Finding


def init_by_class(ctx: FixContext, finding: Finding) -> Fix | None:
    found = initializer_arguments(ctx, finding)
    if found is None:
        return None
    call, tensor, initializer, keywords = found
    if not (isinstance(tensor, ast.Attribute) and isinstance(tensor.value, ast.Name)
            and tensor.attr in renamed_parameters()):
        return None
    statement = ctx.parents.get(id(call))
    if not isinstance(statement, ast.Expr) or ctx.lines[call.lineno - 1][: call.col_offset].strip():
        return None
    classes = [_mindspore_class(ctx, c) for c in _narrowed(ctx, tensor.value, tensor)]
    if not classes or not all(classes):
        return None
    by_name: dict[str, list[str]] = {}
    for cls in classes:
        by_name.setdefault(parameter_name(cls, tensor.attr), []).append(cls)  # type: ignore[arg-type]
    if len(by_name) < 2:
        return None
    make, edits = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.initializer", call.lineno)
    init, more = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.{initializer}", call.lineno)
    indent = " " * call.col_offset
    owner = ctx.text(tensor.value)
    lines: list[str] = []
    names = list(by_name.items())
    for i, (name, members) in enumerate(names):
        parameter = f"{owner}.{name}"
        body = f"{parameter}.set_data({make}({init}({keywords}), {parameter}.shape, {parameter}.dtype))"
        if i == len(names) - 1:
            lines += [f"{indent}else:", f"{indent}    {body}"]
            continue
        written = []
        for cls in members:
            text, imports = ctx.mindspore_reference(cls, call.lineno)
            written.append(text)
            edits += imports
        test = written[0] if len(written) == 1 else f"({', '.join(written)})"
        lines += [f"{indent}{'if' if i == 0 else 'elif'} isinstance({owner}, {test}):", f"{indent}    {body}"]
    text = "\n".join(lines)[len(indent):]
    edit = TextEdit(*ctx.node_range(call), text)
    return Fix("MSM503", "fix.pattern.initializer", [edit, *edits, *more],
               {"initializer": f"{INITIALIZER_MODULE}.{initializer}"})

