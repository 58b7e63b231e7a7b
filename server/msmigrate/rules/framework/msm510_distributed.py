"""MSM510: torch's distributed data-parallel setup is ``mindspore.communication.init`` with
``set_auto_parallel_context``.

``init_process_group`` and ``DistributedDataParallel`` become the communication init and the data-parallel
context; a ``DistributedSampler`` becomes ``mindspore.dataset.DistributedSampler(num_shards, shard_id)``
given to the dataset (its own message). Advice only: no fix.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._call_advice import distributed_key
from msmigrate.rules.framework._patterns import DOCS, TAKE_OVER, references
from msmigrate.rules.support import reference_range, report

RULE = Rule(
    "MSM510",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    DOCS + "api_python/mindspore/mindspore.set_auto_parallel_context.html",
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM510.title": ("Distributed data-parallel setup", "分布式数据并行设置"),
    "rule.MSM510.explanation": (
        "Call mindspore.communication.init() and mindspore.set_auto_parallel_context(parallel_mode="
        '"data_parallel", gradients_mean=True) instead of init_process_group and wrapping the model in '
        "DistributedDataParallel; shard the dataset with num_shards/shard_id (get_group_size(), get_rank()).",
        "请调用 mindspore.communication.init() 和 "
        'mindspore.set_auto_parallel_context(parallel_mode="data_parallel", '
        "gradients_mean=True)，替代 init_process_group 和用 DistributedDataParallel 包装模型；数据集通过 "
        "num_shards/shard_id（get_group_size()、get_rank()）切分。",
    ),
    "finding.MSM510": (
        "{api}: use mindspore.communication.init and set_auto_parallel_context for data parallelism",
        "{api}：数据并行请使用 mindspore.communication.init 与 set_auto_parallel_context",
    ),
    "finding.MSM510.sampler": (
        "{api}: use mindspore.dataset.DistributedSampler(num_shards=get_group_size(), shard_id=get_rank()) "
        "and give it to the dataset as sampler=; it takes no dataset (passed first, the dataset would be "
        "read as num_shards)",
        "{api}：请使用 mindspore.dataset.DistributedSampler(num_shards=get_group_size(), "
        "shard_id=get_rank())，并通过 sampler= 传给数据集；它不接收数据集参数"
        "（若把数据集作为第一个参数传入，会被当作 num_shards）",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM510": (
        "import torch.distributed as dist\ndist.init_process_group('nccl')\n",
        "import torch.distributed as dist\nrank = dist.get_rank()\n",
        [(2, 1)],
    ),
}


DISTRIBUTED_APIS = frozenset(
    {
        "torch.distributed.init_process_group",
        "torch.nn.parallel.DistributedDataParallel",
        "torch.utils.data.distributed.DistributedSampler",
        "torch.utils.data.DistributedSampler",
    }
)


def detect(ctx) -> Iterable[Finding]:
    found = []
    for node in references(ctx):
        ctx.cancel.raise_if_cancelled()
        name = ctx.qualified_name(node)
        if name in DISTRIBUTED_APIS:
            found.append(report(ctx, RULE, reference_range(ctx, node), distributed_key(name), {"api": name},
                                apis=[name], convertible=TAKE_OVER, torch_api=name))
    return [finding for finding in found if finding is not None]


FIXERS = ()
