"""MSM512 quick-fixes: loading weights the MindSpore way.

``torch.load(path, map_location=…)`` → ``mindspore.load_checkpoint(path)`` (placement arguments
dropped: MindSpore places parameters itself) and ``net.load_state_dict(sd)`` →
``mindspore.load_param_into_net(net, sd, strict_load=True)`` (torch's ``strict`` defaults to True,
MindSpore's ``strict_load`` to False). The file read must then be a MindSpore checkpoint: the fix title
and the finding name the command that converts it (``msmigrate convert-weights``).
"""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding

# torch.load's arguments that may be dropped: where tensors go, and how much of the pickle is trusted
_LOAD_DROPPED = frozenset({"map_location", "weights_only"})


def checkpoint(ctx: FixContext, finding: Finding) -> Fix | None:
    call = ctx.call_of(finding)
    if call is None or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    if finding.torch_api == "torch.load":
        return _load(ctx, call)
    if isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict":
        return _load_state_dict(ctx, call)
    return None


def _load(ctx: FixContext, call: ast.Call) -> Fix | None:
    keywords = {k.arg: k.value for k in call.keywords}
    file = call.args[0] if len(call.args) == 1 else keywords.get("f")
    if file is None or len(call.args) > 1 or any(k.arg not in (*_LOAD_DROPPED, "f") for k in call.keywords):
        return None
    name, imports = ctx.mindspore_reference("mindspore.load_checkpoint", call.lineno)
    edit = TextEdit(*ctx.node_range(call), f"{name}({ctx.text(file)})")
    return Fix("MSM512", "fix.pattern.checkpoint_load", [edit, *imports],
               {"function": "mindspore.load_checkpoint"})


def _load_state_dict(ctx: FixContext, call: ast.Call) -> Fix | None:
    names = ("state_dict", "strict")
    if len(call.args) > len(names) or any(k.arg not in names for k in call.keywords):
        return None
    bound = dict(zip(names, call.args, strict=False)) | {k.arg: k.value for k in call.keywords if k.arg}
    if "state_dict" not in bound:
        return None
    strict = ctx.text(bound["strict"]) if "strict" in bound else "True"
    net = ctx.text(call.func.value)  # type: ignore[attr-defined]
    name, imports = ctx.mindspore_reference("mindspore.load_param_into_net", call.lineno)
    text = f"{name}({net}, {ctx.text(bound['state_dict'])}, strict_load={strict})"
    return Fix("MSM512", "fix.pattern.checkpoint", [TextEdit(*ctx.node_range(call), text), *imports],
               {"function": "mindspore.load_param_into_net"})

