"""Run a torch source and its ``msmigrate fix`` output side by side (the MindSpore run cannot import torch:
the conversion suite's runner), for the tests of the fixes met on the model corpus."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from composition_models import RUNNER, SETUP

from msmigrate.fixes.project import FixOptions, fix_paths

ROOT = Path(__file__).resolve().parents[2]
needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


def fixed(tmp_path: Path, source: str, unsafe: bool = True, name: str = "model.py") -> str:
    """``source`` fixed by ``msmigrate fix`` (table 2.6, CPU) in a project of its own."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(source, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=unsafe))
    return (tmp_path / name).read_text(encoding="utf-8")


def applied_fixes(tmp_path: Path, source: str, unsafe: bool) -> list:
    """The fixes ``msmigrate fix`` (table 2.6, CPU) applied to ``source`` in a project of its own."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "model.py").write_text(source, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=unsafe))
    return [fix for record in result.files for fix in record.applied]


def run_both(tmp_path: Path, source: str, expression: str, unsafe: bool = True,
             setup: dict[str, str] | None = None, paths: tuple[str, ...] = (),
             files: dict[str, str] | None = None) -> dict[str, list[np.ndarray]]:
    """framework → the arrays ``expression`` gives in ``model.py`` (torch: ``source``; MindSpore: it fixed);
    ``setup``: extra lines per framework after :data:`composition_models.SETUP`; ``paths``: folders put on
    ``sys.path`` first (installed third-party packages); ``files``: other files of the project (name → torch
    source), fixed with it."""
    sys.path.insert(0, str(ROOT / "tests" / "conversion"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "tests" / "conversion"))
    outputs = {}
    for framework in ("torch", "mindspore"):
        folder = tmp_path / framework
        folder.mkdir(parents=True)
        (folder / "model.py").write_text(source, encoding="utf-8")
        for name, text in (files or {}).items():
            (folder / name).write_text(text, encoding="utf-8")
        if framework == "mindspore":
            fix_paths([str(folder)], FixOptions(mindspore_version="2.6", unsafe=unsafe))
        lines = "".join(f"sys.path.insert(0, {p!r})\n" for p in paths)
        lines += SETUP[framework] + (setup or {}).get(framework, "")
        program = RUNNER.format(folder=str(folder), setup=lines, module="model", expression=expression)
        outcome = harness.run_programs(framework, [("model", program)], tmp_path / f"run-{framework}")
        assert outcome["model"]["ok"], outcome["model"]  # torch cannot be imported in the MindSpore run
        with np.load(tmp_path / f"run-{framework}" / "model.npz", allow_pickle=False) as data:
            outputs[framework] = [data[f"arr_{i}"] for i in range(len(data.files))]
    return outputs


def assert_same(outputs: dict[str, list[np.ndarray]], tolerance: float = 1e-4) -> None:
    """The MindSpore arrays are torch's: as many, same shapes and dtypes, values within ``tolerance``."""
    assert len(outputs["torch"]) == len(outputs["mindspore"]) >= 1
    for want, got in zip(outputs["torch"], outputs["mindspore"], strict=True):
        assert (got.shape, got.dtype) == (want.shape, want.dtype)
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)


def same_arrays(outputs: dict[str, list[np.ndarray]]) -> list[bool]:
    """For each output, whether MindSpore's array equals torch's exactly (the negative controls' check)."""
    return [bool(np.array_equal(a, b)) for a, b in zip(outputs["torch"], outputs["mindspore"], strict=True)]
