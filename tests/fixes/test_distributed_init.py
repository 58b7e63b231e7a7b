"""torch.distributed.init_process_group's backend names a device's collective library (gloo, nccl); the
fix writes the value MindSpore's API accepts for it (param_facts.VALUE_MEANINGS)."""

from __future__ import annotations

from dataclasses import replace

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.device_targets import runnable_target, without_kernel
from msmigrate.knowledge.lookup import lookup
from msmigrate.knowledge.param_facts import means_absent, mindspore_value
from msmigrate.model.finding import UsageKind

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


def test_init_process_group_2_6_on_ascend_writes_the_only_backend_mint_accepts(kb26):
    fixed, _ = fix_all(SOURCE, "m.py", kb26, device="Ascend")
    assert fixed == ("import torch.distributed as dist\n"
                     "import mindspore\n"
                     "mindspore.mint.distributed.init_process_group('hccl')\n"
                     "mindspore.mint.distributed.init_process_group(backend='hccl')\n"
                     "dist.init_process_group(\"mpi\")\n"
                     "dist.init_process_group(name)\n"
                     "mindspore.mint.distributed.init_process_group()\n")


def test_init_process_group_2_6_off_ascend_writes_communication_init(kb26):
    # mint.distributed.init_process_group takes 'hccl' only, which communication.init rejects off Ascend
    # (device_targets.DEVICE_ONLY): on CPU and GPU the fix writes the 2.4 table's target
    expected = ("import torch.distributed as dist\n"
                "import mindspore\n"
                "mindspore.communication.init(None)\n"
                "mindspore.communication.init(backend_name=None)\n"
                "dist.init_process_group(\"mpi\")\n"
                "dist.init_process_group(name)\n"
                "mindspore.communication.init()\n")
    assert fix_all(SOURCE, "m.py", kb26)[0] == expected
    assert fix_all(SOURCE, "m.py", kb26, device="GPU")[0] == expected


def test_off_ascend_title_says_why(kb26):
    _, (fix, *_) = fix_all("import torch.distributed as dist\ndist.init_process_group()\n", "m.py", kb26)
    assert fix.title("en") == (
        "Replace torch.distributed.init_process_group with mindspore.communication.init (then review the "
        "documented differences) (mindspore.mint.distributed.init_process_group takes only backend 'hccl', "
        "Ascend's collective library, and fails on CPU in MindSpore 2.10; this target, from the 2.4 table, "
        "initializes the library of the device MindSpore runs on)")
    assert fix.title("zh") == (
        "将 torch.distributed.init_process_group 替换为 mindspore.communication.init"
        "（替换后请核对文档所列差异）"
        "（mindspore.mint.distributed.init_process_group 只接受 backend 'hccl'（Ascend 的集合通信库），"
        "在 MindSpore 2.10 的 CPU 上会失败；该目标来自 2.4 映射表，初始化 MindSpore 所在设备的通信库）")


def test_device_only_target_and_lookup_note(kb26):
    found = runnable_target("torch.distributed.init_process_group", "2.6", "CPU")
    assert found is not None
    assert (found.row.mindspore_api, found.version, found.replaced, found.reason) == (
        "mindspore.communication.init", "2.4", "mindspore.mint.distributed.init_process_group",
        "fix.device_only.hccl")
    assert runnable_target("torch.distributed.init_process_group", "2.6", "Ascend") is None
    assert without_kernel("torch.distributed.init_process_group", "2.6", "Ascend") is None
    assert runnable_target("torch.distributed.init_process_group", "2.4", "CPU") is None  # already init
    note = lookup("torch.distributed.init_process_group", kb26, device="CPU").notes("en")[-1]
    assert note == ("mindspore.mint.distributed.init_process_group takes only backend 'hccl', Ascend's "
                    "collective library, and fails on CPU in MindSpore 2.10; this target, from the 2.4 "
                    "table, initializes the library of the device MindSpore runs on: on CPU the quick-fix "
                    "writes mindspore.communication.init instead of "
                    "mindspore.mint.distributed.init_process_group.")


def test_init_method_env_is_mints_default_on_ascend(kb26):
    # torch's "env://" reads the launcher's environment, mint's None msrun's; mint parses tcp:// only
    source = ("import torch.distributed as dist\n"
              "dist.init_process_group('gloo', init_method='env://')\n"
              "dist.init_process_group(init_method=\"env://\")\n"
              "dist.init_process_group('gloo', init_method='tcp://10.0.0.1:23456', rank=r, world_size=2)\n")
    fixed, _ = fix_all(source, "m.py", kb26, device="Ascend")
    assert fixed == ("import mindspore\n"
                     "mindspore.mint.distributed.init_process_group('hccl', init_method=None)\n"
                     "mindspore.mint.distributed.init_process_group(init_method=None)\n"
                     "mindspore.mint.distributed.init_process_group('hccl', "
                     "init_method='tcp://10.0.0.1:23456', rank=r, world_size=2)\n")
    assert mindspore_value("mindspore.mint.distributed.init_process_group", "init_method", "url") == "url"


MANUAL = ("import torch.distributed as dist\n"
          "group = dist.new_group([0, 1])\n"
          "dist.all_to_all_single(x1, x0)\n"
          "dist.all_to_all([x2, x3], [x0, x1])\n")


def test_2_4_calls_whose_result_moves_are_explained_not_rewritten(kb24):
    # create_group needs a name and returns None; the *_with_output_shape functions return the result
    fixed, applied = fix_all(MANUAL, "m.py", kb24)
    assert fixed == MANUAL and applied == []
    findings = analyze_source(MANUAL, "m.py", kb24).findings
    titles = [f.title("en") for f in fixes_for(MANUAL, "m.py", findings, kb24)]
    assert titles == [
        "No automatic fix for torch.distributed.new_group: mindspore.communication.create_group takes the "
        "new group's name (a str) first and returns None; name the group (create_group('group_0_1', "
        "rank_ids=[0, 1])) and pass that name where the torch code passes the group new_group returned.",
        "No automatic fix for torch.distributed.all_to_all_single: torch writes the result into the output "
        "tensor(s) passed, mindspore.communication.comm_func.all_to_all_single_with_output_shape takes "
        "their shape and returns the result with a handle; write 'output, _ = "
        "mindspore.communication.comm_func.all_to_all_single_with_output_shape(output.shape, ...)' by hand.",
        "No automatic fix for torch.distributed.all_to_all: torch writes the result into the output "
        "tensor(s) passed, mindspore.communication.comm_func.all_to_all_with_output_shape takes their "
        "shape and returns the result with a handle; write 'output, _ = "
        "mindspore.communication.comm_func.all_to_all_with_output_shape(output.shape, ...)' by hand.",
    ]


def test_2_6_targets_of_the_same_calls_are_rewritten(kb26):
    # mint.distributed's new_group / all_to_all* take torch's arguments and write into the outputs
    fixed, _ = fix_all(MANUAL, "m.py", kb26)
    assert fixed == ("import mindspore\n"
                     "group = mindspore.mint.distributed.new_group([0, 1])\n"
                     "mindspore.mint.distributed.all_to_all_single(x1, x0)\n"
                     "mindspore.mint.distributed.all_to_all([x2, x3], [x0, x1])\n")


def test_init_method_env_is_dropped_for_communication_init(kb24, kb26):
    # communication.init has no init_method; torch's "env://" is its own behaviour (ABSENT_MEANS)
    source = ("import torch.distributed as dist\n"
              "dist.init_process_group('gloo', init_method='env://')\n"
              "dist.init_process_group('gloo', init_method='tcp://10.0.0.1:23456')\n")
    expected = ("import torch.distributed as dist\n"
                "import mindspore\n"
                "mindspore.communication.init(None)\n"
                "dist.init_process_group('gloo', init_method='tcp://10.0.0.1:23456')\n")
    assert fix_all(source, "m.py", kb24)[0] == expected
    assert fix_all(source, "m.py", kb26, device="CPU")[0] == expected
    assert means_absent("mindspore.communication.init", "init_method", "'env://'")
    assert not means_absent("mindspore.communication.init", "init_method", "'tcp://10.0.0.1:23456'")


def test_device_only_replacement_is_not_a_safe_fix(kb26):
    # the replacement rests on a reviewed fact, not on a numeric check: an API finding of the call (the
    # MSM510 pattern finding takes this position in a scan) is not a safe fix
    source = "import torch.distributed as dist\ndist.init_process_group()\n"
    (finding,) = [f for f in analyze_source(source, "m.py", kb26).findings
                  if f.torch_api == "torch.distributed.init_process_group"]
    assert is_safe(replace(finding, rule="MSM101", usage=UsageKind.CALL), kb26) is False
