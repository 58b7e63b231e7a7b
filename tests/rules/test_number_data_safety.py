"""Which ``torch.Tensor(data)`` (MSM535) and ``torch.FloatTensor(data)`` (MSM201) calls get a safe fix: the
data is Python numbers (``rules/number_data.py``). Each safe form next to the neighbours that stay unsafe;
the runs under torch and MindSpore: ``tests/fixes/test_number_data.py``."""

from __future__ import annotations

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.fixes.api import fixes_by_finding
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.base import get_knowledge_base

SOURCE = '''\
from typing import List, Tuple

import torch

SCALE = 2.0
BIG = 2 ** 70


def cct(n_channels: int, dim: int):
    return torch.FloatTensor([[p / (10000 ** (2 * (i // 2) / dim)) for i in range(dim)]
                              for p in range(n_channels)])


def cct_unannotated(n_channels, dim):
    return torch.FloatTensor([[p / (10000 ** (2 * (i // 2) / dim)) for i in range(dim)]
                              for p in range(n_channels)])


def sam(mean: List[float] = [1.0], std: Tuple[float, ...] = (2.0,), plain=[1.0],
        ts: List[torch.Tensor] = []):
    return torch.Tensor(mean).view(-1, 1, 1), torch.Tensor(std), torch.Tensor(plain), torch.Tensor(ts)


def scalars(x: float, k: int, t):
    half = 0.5
    return (torch.Tensor([x * SCALE, half]), torch.Tensor([k, 1]), torch.FloatTensor([k / 2, 1]),
            torch.FloatTensor([2 ** i for i in range(k)]), torch.Tensor([(-x) ** 0.5]), torch.Tensor([BIG]),
            torch.FloatTensor([t, 1.0]), torch.FloatTensor([t * i for i in range(3)]), torch.Tensor(k),
            torch.FloatTensor([[i for i in range(j)] for j in range(3)]),
            torch.FloatTensor([i for i in range(3) if i]),
            torch.LongTensor([1, 2]), torch.FloatTensor([i * 0.5 for i in range(3)]))


def changed(mean: List[float], x: float):
    mean.append(3.0)
    x = x + 1
    return torch.Tensor(mean), torch.FloatTensor([x])
'''
# (line, torch API, rule, safe): read from the source above and rules/number_data.py's forms
EXPECTED = [
    (10, "torch.FloatTensor", "MSM201", True),  # vit-pytorch cct's form, its parameters annotated int
    (15, "torch.FloatTensor", "MSM201", False),  # cct as written: dim, n_channels may be anything
    (21, "torch.Tensor", "MSM535", True),  # SAM's pixel_mean: List[float]
    (21, "torch.Tensor", "MSM535", True),  # Tuple[float, ...]
    (21, "torch.Tensor", "MSM100", False),  # a default only: the caller may pass a tensor (shared)
    (21, "torch.Tensor", "MSM100", False),  # a list of tensors
    (26, "torch.Tensor", "MSM535", True),  # float parameter times a module float constant, a local float
    (26, "torch.Tensor", "MSM100", False),  # an int parameter as an element: may not fit in 64 bits
    (26, "torch.FloatTensor", "MSM201", True),  # k / 2 is a float
    (27, "torch.FloatTensor", "MSM201", False),  # 2 ** i: an int of any size
    (27, "torch.Tensor", "MSM100", False),  # (-x) ** 0.5 may be complex
    (27, "torch.Tensor", "MSM100", False),  # a module int of 71 bits
    (28, "torch.FloatTensor", "MSM201", False),  # t: not known
    (28, "torch.FloatTensor", "MSM201", False),  # t * i: not known
    (28, "torch.Tensor", "MSM100", False),  # torch.Tensor(k): k uninitialised elements
    (29, "torch.FloatTensor", "MSM201", False),  # rows as long as the outer variable: ragged
    (30, "torch.FloatTensor", "MSM201", False),  # a condition
    (31, "torch.LongTensor", "MSM201", False),  # int64: not checked
    (31, "torch.FloatTensor", "MSM201", True),  # range variable times a float
    (37, "torch.Tensor", "MSM100", False),  # the list changed in place before the call
    (37, "torch.FloatTensor", "MSM201", False),  # the parameter rebound
]


CALLS = ("torch.Tensor", "torch.FloatTensor", "torch.LongTensor")


def _fixed_calls() -> list[tuple]:
    """(finding, its fix) of each constructor call of SOURCE, in source order."""
    kb = get_knowledge_base("2.6")
    result = analyze_source(SOURCE, "model.py", kb, AnalysisOptions(use_jedi=False))
    calls = [f for f in result.findings if f.torch_api in CALLS and f.usage.value == "call"]
    fixes = dict((id(f), fix) for f, fix in fixes_by_finding(SOURCE, "model.py", calls, kb))
    return [(f, fixes.get(id(f))) for f in sorted(calls, key=lambda f: (f.line, f.column))]


def test_each_data_form_is_safe_or_unsafe_as_proven():
    kb = get_knowledge_base("2.6")
    got = [(f.line, f.torch_api, f.rule, fix is not None and is_safe(f, kb, fix))
           for f, fix in _fixed_calls()]
    assert got == EXPECTED


def test_the_fixes_say_at_the_call_whether_they_are_exact():
    got = {(f.line, f.column): (fix.title_key, fix.safety and fix.safety.value)
           for f, fix in _fixed_calls() if f.rule in ("MSM201", "MSM535") and f.line in (10, 15, 21, 31)}
    assert got == {
        (10, 12): ("fix.pattern.typed_tensor", "safe"),
        (15, 12): ("fix.pattern.typed_tensor.unsafe", "unsafe"),
        (21, 12): ("fix.tensor_from_data", None),  # MSM535: every fix safe (FIX_SAFETY)
        (21, 47): ("fix.tensor_from_data", None),
        (31, 13): ("fix.pattern.typed_tensor.unsafe", "unsafe"),
        (31, 39): ("fix.pattern.typed_tensor", "safe"),
    }
