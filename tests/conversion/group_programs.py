"""Programs of the ``torch.distributed`` APIs, which need a process group: every rank of a group of
``WORLD`` processes runs the same program, started by the suite as a user's launcher would start it
(torchrun's MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE for torch; msrun's scheduler and MS_ROLE/MS_WORKER_NUM/
MS_SCHED_HOST/MS_SCHED_PORT/MS_NODE_ID for MindSpore, see group_runner.run_group_programs). The program
initializes its own group (``init_process_group("gloo")``: the environment says where the others are)
and its ``result`` is compared rank by rank.

``CALLS``: the API's last name → (input tensor shapes, the lines that call it, the result expression).
``{d}`` stands for ``torch.distributed``; a program that uses ``rank`` gets ``rank = ...get_rank()``.
The suite merges the ranks' results (:func:`merge_ranks`) and retries a program whose converted group setup
failed with the setup MindSpore needs on CPU (:func:`failed_in_setup`, :func:`with_suite_setup`).
"""

from __future__ import annotations

import re
from typing import Any

WORLD = 2
INIT = 'torch.distributed.init_process_group("gloo")'
RANK = "rank = torch.distributed.get_rank()"
# the setup a MindSpore program on CPU needs (the suite's own, for the retry that tells a wrong setup
# conversion apart from a wrong API fix): the device's library (mccl), the launcher's environment
MS_SETUP = "mindspore.communication.init()"

_SEND_RECV = (["if rank == 0:", "    {d}.send(x0, 1)", "else:", "    {d}.recv(x1, 0)"], "x1")
_ISEND_IRECV = (["work = {d}.isend(x0, 1) if rank == 0 else {d}.irecv(x1, 0)", "work.wait()"], "x1")
_BATCH = (["peer = 1 - rank",
           "ops = [{d}.P2POp({d}.isend, x0, peer), {d}.P2POp({d}.irecv, x1, peer)]",
           "for work in {d}.batch_isend_irecv(ops):",
           "    work.wait()"], "x1")

CALLS: dict[str, tuple[tuple[tuple[int, ...], ...], list[str], str]] = {
    "init_process_group": ((), [], "{d}.get_world_size()"),
    "all_reduce": (((4,),), ["{d}.all_reduce(x0)"], "x0"),
    "all_gather": (((4,), (4,), (4,)), ["{d}.all_gather([x1, x2], x0)"], "[x1, x2]"),
    "all_gather_into_tensor": (((4,), (8,)), ["{d}.all_gather_into_tensor(x1, x0)"], "x1"),
    "all_gather_object": ((), ["objects = [None, None]", "{d}.all_gather_object(objects, 7 + rank)"],
                          "objects"),
    "all_to_all": (((2,), (2,), (2,), (2,)), ["{d}.all_to_all([x2, x3], [x0, x1])"], "[x2, x3]"),
    "all_to_all_single": (((4,), (4,)), ["{d}.all_to_all_single(x1, x0)"], "x1"),
    "barrier": (((4,),), ["{d}.barrier()"], "x0"),
    "broadcast": (((4,), (4,)), ["buffer = x0 if rank == 0 else x1", "{d}.broadcast(buffer, 0)"], "buffer"),
    "broadcast_object_list": ((), ["objects = [1, 2] if rank == 0 else [None, None]",
                                   "{d}.broadcast_object_list(objects, 0)"], "objects"),
    "gather": (((4,), (4,), (4,)), ["{d}.gather(x0, [x1, x2] if rank == 0 else None, 0)"], "[x1, x2]"),
    "gather_object": ((), ["objects = [None, None] if rank == 0 else None",
                           "{d}.gather_object(7 + rank, objects, 0)"], "objects or []"),
    "get_backend": ((), [], "{d}.get_backend()"),
    "get_global_rank": ((), ["group = {d}.new_group([0, 1])"], "{d}.get_global_rank(group, 1)"),
    "get_group_rank": ((), ["group = {d}.new_group([0, 1])"], "{d}.get_group_rank(group, 1)"),
    "get_process_group_ranks": ((), ["group = {d}.new_group([0, 1])"], "{d}.get_process_group_ranks(group)"),
    "get_rank": ((), [], "{d}.get_rank()"),
    "get_world_size": ((), [], "{d}.get_world_size()"),
    "send": (((4,), (4,)), *_SEND_RECV),
    "recv": (((4,), (4,)), *_SEND_RECV),
    "isend": (((4,), (4,)), *_ISEND_IRECV),
    "irecv": (((4,), (4,)), *_ISEND_IRECV),
    "P2POp": (((4,), (4,)), *_BATCH),
    "batch_isend_irecv": (((4,), (4,)), *_BATCH),
    "reduce": (((4,),), ["{d}.reduce(x0, 0)"], "x0 if rank == 0 else []"),  # other ranks: unspecified
    "reduce_scatter": (((2,), (2,), (2,)), ["{d}.reduce_scatter(x2, [x0, x1])"], "x2"),
    "reduce_scatter_tensor": (((4,), (2,)), ["{d}.reduce_scatter_tensor(x1, x0)"], "x1"),
    "scatter": (((4,), (4,), (4,)), ["{d}.scatter(x0, [x1, x2] if rank == 0 else None, 0)"], "x0"),
    "scatter_object_list": ((), ["objects = [None]",
                                 "{d}.scatter_object_list(objects, [5, 6] if rank == 0 else None, 0)"],
                            "objects"),
}


def group_call(torch_api: str) -> tuple[tuple[tuple[int, ...], ...], list[str], str] | None:
    """The program parts of a ``torch.distributed`` API, ``None`` for an API without one."""
    module, _, name = torch_api.rpartition(".")
    if module != "torch.distributed" or name not in CALLS:
        return None
    shapes, lines, result = CALLS[name]
    d = "torch.distributed"
    return shapes, [line.format(d=d) for line in lines], result.format(d=d)


def merge_ranks(per_rank: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """One result per program of a process-group run: ok when every rank is, else the first failing
    rank's error (``rank 1: …``); ``ranks`` keeps each rank's own result."""
    merged: dict[str, dict[str, Any]] = {}
    for pid in per_rank[0] if per_rank else {}:
        entries = [results.get(pid, {"ok": False, "error": "not run"}) for results in per_rank]
        failed = [(rank, e) for rank, e in enumerate(entries) if not e.get("ok")]
        merged[pid] = {"id": pid, "ok": not failed, "ranks": entries}
        if failed:
            rank, entry = failed[0]
            merged[pid].update(error=f"rank {rank}: {entry.get('error', '?')}", line=entry.get("line"))
    return merged


_SETUP_LINE = re.compile(r"^[\w.]*(init_process_group|communication\.init)\(.*\)$", re.M)


def with_suite_setup(fixed: str) -> str:
    """A process-group program with its (converted) group setup replaced by the one MindSpore needs on
    CPU under a launcher (``group_programs.MS_SETUP``)."""
    return _SETUP_LINE.sub(MS_SETUP, fixed, count=1)


def failed_in_setup(run: dict[str, Any], fixed: str) -> bool:
    """Whether a process-group program failed in its group setup line (``line``: the program's line the
    error came through last, recorded by the runner)."""
    setup = _SETUP_LINE.search(fixed)
    return setup is not None and run.get("line") == fixed.count("\n", 0, setup.start()) + 1
