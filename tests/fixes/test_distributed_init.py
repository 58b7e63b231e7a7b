"""torch.distributed.init_process_group's backend names a device's collective library (gloo, nccl); the
fix writes the value MindSpore's API accepts for it (param_facts.VALUE_MEANINGS)."""

from __future__ import annotations

from msmigrate.fixes.api import fix_all
from msmigrate.knowledge.param_facts import mindspore_value

SOURCE = ("import torch.distributed as dist\n"
          "dist.init_process_group('gloo')\n"
          "dist.init_process_group(backend=\"nccl\")\n"
          "dist.init_process_group(\"mpi\")\n"
          "dist.init_process_group(name)\n"
          "dist.init_process_group()\n")


def test_backend_values():
    assert mindspore_value("mindspore.communication.init", "backend_name", "'gloo'") == "None"
    assert mindspore_value("mindspore.communication.init", "backend_name", "'nccl'") == "None"
    assert mindspore_value("mindspore.communication.init", "backend_name", "'mpi'") is None
    assert mindspore_value("mindspore.mint.distributed.init_process_group", "backend", "'gloo'") == "'hccl'"
    assert mindspore_value("mindspore.mint.distributed.init_process_group", "backend", "name") is None


def test_init_process_group_2_4_lets_mindspore_pick_the_devices_library(kb24):
    # communication.init('gloo') raises RuntimeError (hccl, nccl or mccl only); None is the device's own
    fixed, _ = fix_all(SOURCE, "m.py", kb24)
    assert fixed == ("import torch.distributed as dist\n"
                     "import mindspore\n"
                     "mindspore.communication.init(None)\n"
                     "mindspore.communication.init(backend_name=None)\n"
                     "dist.init_process_group(\"mpi\")\n"  # no MindSpore library means MPI
                     "dist.init_process_group(name)\n"  # a value the fix cannot read
                     "mindspore.communication.init()\n")


def test_init_process_group_2_6_writes_the_only_backend_mint_accepts(kb26):
    fixed, _ = fix_all(SOURCE, "m.py", kb26)
    assert fixed == ("import torch.distributed as dist\n"
                     "import mindspore\n"
                     "mindspore.mint.distributed.init_process_group('hccl')\n"
                     "mindspore.mint.distributed.init_process_group(backend='hccl')\n"
                     "dist.init_process_group(\"mpi\")\n"
                     "dist.init_process_group(name)\n"
                     "mindspore.mint.distributed.init_process_group()\n")
