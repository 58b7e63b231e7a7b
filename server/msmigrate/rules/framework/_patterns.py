"""What the framework-pattern rules (MSM501–MSM512) share: the sites they look at, found once per file
(the calls of a torch name or of a method of interest, the torch names referred to), the names that make a
receiver look like a model or an optimizer, the optimizer a torch one becomes, device moves.

Where the analyzer already reported the same site as an unmapped API (``MSM200``–``MSM204``, ``MSM102``)
or as data processing (``MSM600``), a pattern rule takes that finding over (:data:`TAKE_OVER`), so a site
gets one diagnostic; at mapped sites the pattern finding comes in addition to the mapping finding.
"""

from __future__ import annotations

import ast
import re

from msmigrate.rules.framework._param_groups import param_groups_written
from msmigrate.rules.support import TAKEN_OVER_API_RULES, named_nodes, outer_first, tree_index

DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/"
TUTORIALS = "https://www.mindspore.cn/tutorials/en/r2.3.1/"
TAKE_OVER = TAKEN_OVER_API_RULES | {"MSM600"}
DEVICE_METHODS = frozenset({"cuda", "cpu"})
METHODS = DEVICE_METHODS | {"to", "train", "eval", "backward", "load_state_dict"}  # see method_calls
MODEL_NAME = re.compile(r"(model|net|module|classifier|backbone|encoder|decoder)", re.IGNORECASE)
OPTIMIZER_NAME = re.compile(r"(optim|opt$|^opt)", re.IGNORECASE)
_DEVICE_NAME = re.compile(r"(^|_)(device|dev)$", re.IGNORECASE)


def calls(ctx) -> list[tuple[ast.Call, str | None]]:
    """The calls of a torch name or of a method in :data:`METHODS`, each with the torch name it calls
    (other calls concern none of the pattern rules); found once per file."""
    found = ctx.memo.get("framework_calls")
    if found is None:
        found = ctx.memo["framework_calls"] = []
        values, check = ctx.values, ctx.cancel.raise_if_cancelled
        for node in tree_index(ctx).nodes(ast.Call):
            check()
            func = node.func
            if type(values.get(func)) is str or (type(func) is ast.Attribute and func.attr in METHODS):
                found.append((node, ctx.qualified_name(func)))
    return found


def method_calls(ctx, methods: frozenset[str] | set[str]) -> list[tuple[ast.Call, ast.Attribute]]:
    """The calls of a method in ``methods`` on a receiver that is no torch name and no optimizer."""
    found = []
    for call, name in calls(ctx):
        func = call.func
        if name is None and type(func) is ast.Attribute and func.attr in methods:
            receiver = func.value
            if ctx.receiver_kind(receiver) != "optimizer" and ctx.qualified_name(receiver) is None:
                found.append((call, func))
    return found


def references(ctx) -> list[ast.Attribute | ast.Name]:
    """The names and attributes read that refer to a torch object (not the ``torch.cuda`` inside
    ``torch.cuda.amp.autocast``), and the ``param_groups`` a learning rate is written through."""
    found = ctx.memo.get("framework_references")
    if found is None:
        named = named_nodes(ctx, ast.Attribute)
        inner = {id(n.value) for n in named}
        if "param_groups" in ctx.source:  # the only member without a torch name that matters here
            written = param_groups_written(ctx.tree, tree_index(ctx))
            named = sorted(dict.fromkeys([*named, *written]), key=outer_first)
        found = ctx.memo["framework_references"] = [
            node for node in [*named, *named_nodes(ctx, ast.Name)]
            if type(node.ctx) is ast.Load and id(node) not in inner]
    return found


def looks_like(node: ast.expr, pattern: re.Pattern[str]) -> bool:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        if isinstance(node, ast.Attribute):
            return bool(pattern.search(node.attr))
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and bool(pattern.search(node.id))


def is_device(ctx, node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.split(":")[0] in {"cuda", "cpu", "mps", "xpu", "npu"}
    if isinstance(node, ast.Call):
        return ctx.qualified_name(node.func) == "torch.device"
    if isinstance(node, ast.Attribute) and node.attr == "device":
        return True
    return isinstance(node, ast.Name) and bool(_DEVICE_NAME.search(node.id))


def optimizer_target(kb, optimizer: str) -> str | None:
    """The MindSpore optimizer a torch one becomes: its mapping's (the table row, or a derived mapping:
    ``torch.optim.SGD`` → ``mindspore.experimental.optim.SGD``), else the first catalogued replacement of
    the missing-API advice."""
    row = kb.mapping(optimizer)
    if row is not None:
        return row.mindspore_api or None
    from msmigrate.knowledge.missing_advice import advice_for

    advice = advice_for(optimizer, kb)
    return advice.replacements[0] if advice is not None and advice.replacements else None


def is_optimizer(name: str | None) -> bool:
    """A torch optimizer class (``torch.optim.*``, not a learning-rate scheduler)."""
    return bool(name) and name.startswith("torch.optim.") and not name.startswith("torch.optim.lr_scheduler.")
