"""MSM504 on ``torch.device("cpu")`` as a parameter's default (open_clip's
``def trace_model(model, batch_size=256, device=torch.device('cpu'))``): the default becomes the string,
``device="cpu"``. MindSpore places every tensor on the one device ``mindspore.set_device`` selects, and the
fixes drop the ``device=`` arguments and ``.to(device)`` moves, so the value is only passed along. The fix
applies when the function reads no attribute of the parameter (``device.type`` would fail on a string)."""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding


def device_default(ctx: FixContext, finding: Finding) -> Fix | None:
    if finding.torch_api != "torch.device":
        return None
    call = ctx.call_of(finding)
    if call is None or call.keywords or len(call.args) != 1:
        return None
    value = call.args[0]
    if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
        return None
    parameter = _parameter_defaulting_to(ctx, call)
    if parameter is None:
        return None
    name, function = parameter
    if any(isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name
           for node in ast.walk(function)):
        return None
    return Fix(finding.rule, "fix.device_default", [TextEdit(*ctx.node_range(call), ctx.text(value))],
               {"value": ctx.text(value)})


def _parameter_defaulting_to(ctx: FixContext, call: ast.Call) -> tuple[str, ast.AST] | None:
    """(parameter name, function) when ``call`` is the default of a parameter of a function or lambda."""
    arguments = ctx.parents.get(id(call))
    if not isinstance(arguments, ast.arguments):
        return None
    function = ctx.parents.get(id(arguments))
    if function is None:
        return None
    positional = [*arguments.posonlyargs, *arguments.args]
    for parameter, default in zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults,
                                  strict=True):
        if default is call:
            return parameter.arg, function
    for parameter, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        if default is call:
            return parameter.arg, function
    return None

