"""Process-group set-up for multi-GPU training (one process per GPU, launched by torchrun)."""

import os

import torch
import torch.distributed as dist


def init_distributed(backend: str = "nccl") -> tuple:
    """Initialise the default process group from torchrun's environment; returns (rank, world size)."""
    if "RANK" not in os.environ or "WORLD_SIZE" not in os.environ:
        return 0, 1
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    torch.cuda.set_device(local_rank)
    dist.init_process_group(backend=backend, init_method="env://", world_size=world_size, rank=rank)
    dist.barrier()
    return rank, world_size


def is_main_process() -> bool:
    return not dist.is_initialized() or dist.get_rank() == 0


def reduce_mean(tensor: torch.Tensor) -> torch.Tensor:
    """Average a metric over all processes."""
    if not dist.is_initialized():
        return tensor
    reduced = tensor.clone()
    dist.all_reduce(reduced, op=dist.ReduceOp.SUM)
    reduced /= dist.get_world_size()
    return reduced


def cleanup() -> None:
    if dist.is_initialized():
        dist.destroy_process_group()
