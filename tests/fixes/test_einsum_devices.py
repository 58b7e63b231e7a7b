"""torch.einsum (knowledge/device_targets.DEVICE_ONLY): MindSpore 2.10 runs mint.einsum (2.6 table) on
Ascend only and ops.einsum (2.4 table) on GPU only; no MindSpore API computes it on CPU, which lookup and
hover say instead of the general "no replacement verified" note."""

from __future__ import annotations

from msmigrate.fixes.api import fix_all
from msmigrate.knowledge.device_targets import runnable_target, without_kernel
from msmigrate.knowledge.lookup import lookup

SOURCE = "import torch\ny = torch.einsum('ij,jk->ik', a, b)\n"


def test_each_table_writes_the_target_of_the_device_it_runs_on(kb24, kb26) -> None:
    assert fix_all(SOURCE, "m.py", kb26, device="Ascend")[0] == (
        "import mindspore\ny = mindspore.mint.einsum('ij,jk->ik', a, b)\n")
    assert fix_all(SOURCE, "m.py", kb26, device="GPU")[0] == (
        "import mindspore\ny = mindspore.ops.einsum('ij,jk->ik', a, b)\n")
    assert fix_all(SOURCE, "m.py", kb24, device="Ascend")[0] == (
        "import mindspore\ny = mindspore.mint.einsum('ij,jk->ik', a, b)\n")
    assert fix_all(SOURCE, "m.py", kb24, device="GPU")[0] == (
        "import mindspore\ny = mindspore.ops.einsum('ij,jk->ik', a, b)\n")
    _, (fix, *_) = fix_all(SOURCE, "m.py", kb26, device="GPU")
    assert fix.title("en") == (
        "Replace torch.einsum with mindspore.ops.einsum (MindSpore 2.10 runs einsum on one device only: "
        "mindspore.mint.einsum on Ascend, mindspore.ops.einsum on GPU, neither on CPU; mindspore.mint.einsum "
        "fails on GPU, this target, from the 2.4 table, runs there)")


def test_on_cpu_nothing_replaces_it_and_lookup_says_why(kb24, kb26) -> None:
    for version in ("2.4", "2.6"):
        assert runnable_target("torch.einsum", version, "CPU") is None
    assert without_kernel("torch.einsum", "2.6", "CPU") == "mindspore.mint.einsum"
    assert lookup("torch.einsum", kb26, device="CPU").notes("en")[-1] == (
        "MindSpore 2.10 runs mindspore.mint.einsum on Ascend only, and mindspore.ops.einsum (the 2.4 table's "
        "target) on GPU only: no MindSpore API computes it on CPU, the call will fail there (write it with "
        "other operators by hand).")
    assert lookup("torch.einsum", kb24, device="CPU").notes("zh")[-1] == (
        "MindSpore 2.10 仅在 GPU 上运行 mindspore.ops.einsum，mindspore.mint.einsum（2.6 映射表的目标）仅在 "
        "Ascend 上运行：没有 MindSpore 接口能在 CPU 上计算它，该调用在此设备上会失败"
        "（请用其他算子手工改写）。")
