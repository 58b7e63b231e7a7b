"""MSM511: a torch ``Dataset`` subclass and ``DataLoader`` are a ``mindspore.dataset.GeneratorDataset``
pipeline.

A map-style dataset is wrapped unchanged in ``GeneratorDataset``; the loader's options become pipeline
calls (``.batch``, ``num_parallel_workers``). Reported on a ``Dataset`` base class and on a ``DataLoader``
call. Advice only: no fix.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._patterns import DOCS, TAKE_OVER, calls
from msmigrate.rules.support import reference_range, report, tree_index

RULE = Rule(
    "MSM511",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    DOCS + "api_python/dataset/mindspore.dataset.GeneratorDataset.html",
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM511.title": ("Dataset and DataLoader", "Dataset 与 DataLoader"),
    "rule.MSM511.explanation": (
        "A map-style Dataset (with __getitem__ and __len__) can be wrapped unchanged in "
        "mindspore.dataset.GeneratorDataset(source, column_names=[...], shuffle=...). DataLoader options "
        "become pipeline calls: .batch(batch_size, drop_remainder=...) and num_parallel_workers. Return "
        "NumPy "
        "arrays from __getitem__, not tensors.",
        "map 式 Dataset（实现 __getitem__ 和 __len__）可原样包装进 mindspore.dataset.GeneratorDataset(source,"
        " "
        "column_names=[...], shuffle=...)。DataLoader 的选项变为数据管道调用：.batch(batch_size, "
        "drop_remainder=...) "
        "和 num_parallel_workers。__getitem__ 应返回 NumPy 数组而非张量。",
    ),
    "finding.MSM511": (
        "{api}: wrap the dataset in mindspore.dataset.GeneratorDataset and batch it with .batch()",
        "{api}：请用 mindspore.dataset.GeneratorDataset 包装数据集，并用 .batch() 组批",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM511": (
        "from torch.utils.data import DataLoader\nloader = DataLoader(data, batch_size=32)\n",
        "from torch.utils.data import random_split\nparts = random_split(data, [8, 2])\n",
        [(2, 10)],
    ),
}


DATASET_CLASSES = frozenset(
    {
        "torch.utils.data.Dataset",
        "torch.utils.data.IterableDataset",
        "torch.utils.data.dataset.Dataset",
        "torch.utils.data.dataset.IterableDataset",
    }
)
DATALOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})


def detect(ctx) -> Iterable[Finding]:
    found = []
    for node in tree_index(ctx).nodes(ast.ClassDef):
        ctx.cancel.raise_if_cancelled()
        for base in node.bases:
            name = ctx.qualified_name(base)
            if name in DATASET_CLASSES:
                found.append(_report(ctx, base, name))
    for call, name in calls(ctx):
        if name in DATALOADERS:
            found.append(_report(ctx, call.func, name))
    return [finding for finding in found if finding is not None]


def _report(ctx, node: ast.expr, name: str) -> Finding | None:
    return report(ctx, RULE, reference_range(ctx, node), "finding.MSM511", {"api": name}, apis=[name],
                  convertible=TAKE_OVER, torch_api=name)


FIXERS = ()
