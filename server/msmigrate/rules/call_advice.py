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
