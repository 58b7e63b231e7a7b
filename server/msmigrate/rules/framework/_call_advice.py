"""The message of a framework-pattern finding chosen by the call it is made on (issue 23: the call decides
the claim): a distributed sampler, a device move that also casts."""

from __future__ import annotations

import ast

SAMPLERS = frozenset({"torch.utils.data.distributed.DistributedSampler",
                      "torch.utils.data.DistributedSampler"})
_DTYPE_PREFIXES = ("torch.", "mindspore.")


def distributed_key(name: str) -> str:
    """MSM510's message: a distributed sampler is mindspore.dataset.DistributedSampler(num_shards,
    shard_id), given to the dataset; the other APIs set up data parallelism."""
    return "finding.MSM510.sampler" if name in SAMPLERS else "finding.MSM510"


def device_move_message(ctx, call: ast.Call, attr: str) -> tuple[str, dict[str, str]]:
    """MSM504's message for ``.to(device, dtype)``: the move is dropped, the cast is kept."""
    dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    if dtype is None and attr == "to" and len(call.args) > 1 and _dtype(ctx, call.args[1]):
        dtype = call.args[1]
    if dtype is None:
        return "finding.MSM504", {"call": f".{attr}()"}
    return "finding.MSM504.cast", {"call": f".{attr}()", "dtype": ast.unparse(dtype)}


def _dtype(ctx, node: ast.expr) -> bool:
    name = ctx.qualified_name(node) or ""
    return (name.startswith(_DTYPE_PREFIXES) and name.rpartition(".")[2][:1].islower()) or (
        isinstance(node, ast.Attribute) and node.attr == "dtype")


def saved_objects(ctx, call: ast.Call) -> str | None:
    """What ``torch.save(obj, f)`` saves when it is plain Python objects, not weights (a tuple, list or
    set display, a literal, a dict display whose values are not tensors): its text; else ``None``."""
    obj = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "obj"), None)
    if obj is None or isinstance(obj, ast.Starred):
        return None
    python = isinstance(obj, ast.Tuple | ast.List | ast.Set | ast.Constant | ast.JoinedStr) or (
        isinstance(obj, ast.Dict) and not any(v is not None and _tensorish(ctx, v) for v in obj.values))
    if not python or any(_tensorish(ctx, e) for e in getattr(obj, "elts", ())):
        return None
    text = ast.unparse(obj)
    return text if len(text) <= 40 else text[:39] + "…"


def _tensorish(ctx, node: ast.expr) -> bool:
    """A tensor, a module or a state dict (``model.state_dict()``): what save_checkpoint stores."""
    if ctx.receiver_kind(node) in ("tensor", "module", "optimizer"):
        return True
    return isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("state_dict", "parameters")


def checkpoint_finding(ctx, rule, span, name: str, call: ast.Call, convertible: frozenset[str]):
    """MSM512 for ``torch.save`` / ``torch.load``: Python objects saved with torch.save are pickled data,
    not a checkpoint (the mapped API finding there is folded into this one, which names no target)."""
    from msmigrate.rules.support import report, usage_at

    saved = saved_objects(ctx, call) if name == "torch.save" else None
    if saved is None:
        return report(ctx, rule, span, "finding.MSM512", {"api": name}, apis=[name], convertible=convertible,
                      fixable=name == "torch.load", torch_api=name)
    existing = usage_at(ctx, span, [name])
    if existing is not None:
        ctx.usages.remove(existing)  # save_checkpoint does not store Python objects: no mapping here
    return report(ctx, rule, span, "finding.MSM512.pickle", {"api": name, "saved": saved}, apis=[name],
                  convertible=convertible, torch_api=name)
