"""A torch function whose MindSpore counterpart is a Primitive class (``ops.L2Normalize``): the call is
written ``Primitive(<its parameters>)(<the inputs>)``.

The class's parameters (its ``__init__``: the inventory signature) take the torch arguments renamed to them
(the row's renames), in MindSpore's meaning (``param_facts.VALUE_MEANINGS``: L2Normalize's ``epsilon`` is
torch's ``eps ** 2``), plus the companions the pair needs (``param_facts.PAIR_COMPANIONS``: torch's
defaults where MindSpore's differ); the other arguments (the tensors) are passed to the call, in torch's
order. A torch-only argument is dropped where its value means what MindSpore computes
(``param_facts.ABSENT_MEANS``: ``p=2``); any other blocks the rewrite, with an explanation.

Only the reviewed pairs of :data:`PRIMITIVE_CALLS` are written so: many older table rows map a torch
function to a Primitive whose call differs in more than that (``torch.argsort`` → ``ops.Sort`` returns
values and indices; ``torch.distributed.all_reduce`` changes its tensor in place, ``ops.AllReduce``
returns a new one).
"""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext, bound_arguments
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.model import MappingRow
from msmigrate.knowledge.param_facts import (
    POSITIONAL,
    PRIMARY_INPUTS,
    TENSOR_PARAMS,
    companions,
    means_absent,
    mindspore_value,
    pair_renames,
)
from msmigrate.knowledge.primitive_pairs import PRIMITIVE, PRIMITIVE_CALLS, is_primitive_call  # noqa: F401
from msmigrate.model.finding import Finding


def primitive_call(ctx: FixContext, finding: Finding, call: ast.Call, row: MappingRow | None,
                   mindspore_api: str, review: bool) -> Fix | None:
    """The fix writing the torch function's ``call`` as a call of the Primitive ``mindspore_api``; an
    explaining fix (no edits) where an argument has no MindSpore counterpart; None where the call is not
    rewritten mechanically (``*args``, an unknown keyword, several torch overloads)."""
    torch_api = finding.torch_api or ""
    signatures = ctx.kb.torch_signatures(torch_api)
    init = ctx.kb.mindspore_signatures(mindspore_api)
    if row is None or len(signatures) != 1 or len(init) != 1:
        return None
    names = [p["name"] for p in signatures[0]]
    passed = bound_arguments(call, names, [p["name"] for p in signatures[0] if p["kind"] in POSITIONAL])
    if passed is None:
        return None
    renames = {**row.input_renames, **row.param_renames, **pair_renames(torch_api, mindspore_api)}
    init_names = [p["name"] for p in init[0]]
    parameters: dict[str, str] = {}
    inputs: list[str] = []
    changes: list[str] = []
    for name in names:
        if name not in passed:
            continue
        value = passed[name]
        target = renames.get(name, name)
        if target in init_names:
            text = mindspore_value(mindspore_api, target, ctx.text(value))
            if text is None:
                return _explain(finding, mindspore_api, name)
            parameters[target] = text
        elif name in row.torch_only_params:
            if not means_absent(mindspore_api, name, ast.unparse(value)):
                return _explain(finding, mindspore_api, name)
            changes.append(f"−{name}")
        elif name in TENSOR_PARAMS or target in PRIMARY_INPUTS:
            inputs.append(ctx.text(value))
        else:  # neither a parameter of the class nor a tensor of the call
            return _explain(finding, mindspore_api, name)
    for target, text, _default in companions(mindspore_api, init[0], set(parameters), torch_api):
        parameters[target] = text
    written, imports = ctx.mindspore_reference(mindspore_api, call.lineno)
    arguments = ", ".join(f"{n}={parameters[n]}" for n in init_names if n in parameters)
    edits = [TextEdit(*ctx.node_range(call), f"{written}({arguments})({', '.join(inputs)})"), *imports]
    changes.insert(0, f"→ {written.rpartition('.')[2]}({arguments})(…)")
    key = "fix.replace_api_with_args_review" if review else "fix.replace_api_with_args"
    return Fix(finding.rule, key, edits, {"torch_api": torch_api, "mindspore_api": mindspore_api,
                                          "changes": ", ".join(changes)})


def _explain(finding: Finding, mindspore_api: str, param: str) -> Fix:
    return Fix(finding.rule, "fix.blocked.unsupported", [],
               {"torch_api": finding.torch_api, "mindspore_api": mindspore_api, "param": param})
