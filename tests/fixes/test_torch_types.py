"""torch's type objects named in model code and its typed tensor constructors (MSM201,
rules/missing/msm201_equivalent.py; the corpus's open_clip, segment-anything and vit-pytorch cct name them):
the exact rewritten source, and the fixed code run in MindSpore (torch blocked) against torch."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from composition_models import RUNNER, SETUP

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.project import FixOptions, fix_paths
from msmigrate.knowledge.base import get_knowledge_base

ROOT = Path(__file__).resolve().parents[2]
TORCH = '''\
from typing import Optional

import torch


def sinusoidal(n, dim):
    pe = torch.FloatTensor([[p / (10000 ** (2 * (i // 2) / dim)) for i in range(dim)] for p in range(n)])
    return pe, torch.LongTensor([3, -1]), torch.BoolTensor((True, False))


def cast(x, dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    return x if dtype is None else x.to(dtype)


def is_dtype(d) -> bool:
    return isinstance(d, torch.dtype)


def device_of(x) -> torch.device:
    return x.device
'''
# written from the MindSpore 2.10 documentation of mindspore.tensor, mindspore.dtype and Tensor.device
FIXED = '''\
from typing import Optional

import mindspore


def sinusoidal(n, dim):
    pe = mindspore.tensor([[p / (10000 ** (2 * (i // 2) / dim)) for i in range(dim)] for p in range(n)], \
dtype=mindspore.float32)
    return pe, mindspore.tensor([3, -1], dtype=mindspore.int64), mindspore.tensor((True, False), \
dtype=mindspore.bool)


def cast(x, dtype: Optional[mindspore.Type] = None) -> mindspore.Tensor:
    return x if dtype is None else x.to(dtype)


def is_dtype(d) -> bool:
    return isinstance(d, mindspore.Type)


def device_of(x) -> str:
    return x.device
'''


def test_the_findings_and_the_fixes(tmp_path: Path) -> None:
    result = analyze_source(TORCH, "model.py", get_knowledge_base("2.6"))
    found = [(f.line, f.column, f.torch_api, f.message_key) for f in result.findings if f.rule == "MSM201"]
    lines = TORCH.splitlines()

    def at(line: int, name: str, start: int = 0) -> tuple[int, int]:
        return line, lines[line - 1].index(name, start) + 1

    typed, named = "finding.MSM201.typed_tensor", "finding.MSM201.reference"
    assert found == [(*at(7, "torch.FloatTensor"), "torch.FloatTensor", typed),
                     (*at(8, "torch.LongTensor"), "torch.LongTensor", typed),
                     (*at(8, "torch.BoolTensor"), "torch.BoolTensor", typed),
                     (*at(11, "torch.dtype"), "torch.dtype", named),
                     (*at(16, "torch.dtype"), "torch.dtype", named),
                     (*at(19, "torch.device"), "torch.device", named)]
    (tmp_path / "model.py").write_text(TORCH, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))  # safe: the types named only
    safe = (tmp_path / "model.py").read_text(encoding="utf-8")
    assert "torch.FloatTensor([[" in safe and "dtype: Optional[mindspore.Type]" in safe
    assert "-> str:" in safe and "isinstance(d, mindspore.Type)" in safe
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=True))
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == FIXED.replace("\\\n", "")


needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_code_builds_the_same_tensors_in_mindspore(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "conversion"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "tests" / "conversion"))
    expression = ("(*sinusoidal(4, 6), cast(t(2), fw.float16), is_dtype(fw.float32), is_dtype(3),"
                  " isinstance(device_of(t(1)), str))")
    outputs = {}
    for framework in ("torch", "mindspore"):
        (tmp_path / framework).mkdir()
        (tmp_path / framework / "model.py").write_text(TORCH, encoding="utf-8")
        if framework == "mindspore":
            fix_paths([str(tmp_path / framework)], FixOptions(mindspore_version="2.6", unsafe=True))
        program = RUNNER.format(folder=str(tmp_path / framework), setup=SETUP[framework], module="model",
                                expression=expression)
        outcome = harness.run_programs(framework, [("model", program)], tmp_path / f"run-{framework}")
        assert outcome["model"]["ok"], outcome["model"]
        with np.load(tmp_path / f"run-{framework}" / "model.npz", allow_pickle=False) as data:
            outputs[framework] = [data[f"arr_{i}"] for i in range(len(data.files))]
    torch_out, ms_out = outputs["torch"], outputs["mindspore"]
    assert [a.dtype.name for a in torch_out[:4]] == ["float32", "int64", "bool", "float16"]
    assert len(torch_out) == len(ms_out) == 7
    for want, got in zip(torch_out[:6], ms_out[:6], strict=True):  # the tensors, then the two dtype tests
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert [bool(v) for v in torch_out[4:6]] == [True, False]
    assert bool(ms_out[6]) and not bool(torch_out[6])  # MindSpore names a device by a str, torch by an object
