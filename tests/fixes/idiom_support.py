"""Shared by the idiom tests (issue 24, item 3): ``msmigrate fix`` applied to a torch module (safe, or
with ``--unsafe-fixes``), and the torch module and its expected MindSpore rewrite run side by side.

A case is a torch *module* (the code the fix rewrites), the exact MindSpore module the fix must write,
and a *driver* per framework (inputs and weights from NumPy, the outputs and gradients to compare, in
``result``). The torch program runs in one process, the MindSpore one in another where torch cannot be
imported (the conversion suite's runner, tests/conversion/run_programs.py); results are compared at
rtol = atol = 1e-4."""

from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from msmigrate.fixes.project import FixOptions, fix_source
from msmigrate.knowledge.base import get_knowledge_base

ROOT = Path(__file__).resolve().parents[2]

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


@dataclass(frozen=True)
class Case:
    torch_module: str
    mindspore_module: str
    torch_driver: str
    mindspore_driver: str
    unsafe: bool = False  # fixed with --unsafe-fixes
    version: str = "2.6"


def fixed(source: str, version: str = "2.6", unsafe: bool = False, device: str = "CPU") -> str:
    """``source`` after ``msmigrate fix`` (``--unsafe-fixes`` when ``unsafe``)."""
    options = FixOptions(mindspore_version=version, unsafe=unsafe, write=False, device=device)
    data, _record = fix_source(source.encode(), "model.py", get_knowledge_base(version), options)
    return source if data is None else data.decode()


def imported_roots(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add((node.module or "").split(".")[0])
    return found


def assert_fixed(case: Case) -> None:
    """``msmigrate fix`` writes exactly the case's MindSpore module, and it imports no torch."""
    source = fixed(case.torch_module, case.version, case.unsafe)
    assert source == case.mindspore_module
    assert "torch" not in imported_roots(source)


def harness():
    """The conversion suite's harness (tests/conversion/harness.py), loaded by path."""
    spec = importlib.util.spec_from_file_location("conversion_harness", ROOT / "tests/conversion/harness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("conversion_harness", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def run_cases(cases: dict[str, Case], work: Path) -> dict[str, tuple[list[np.ndarray], list[np.ndarray]]]:
    """Run every case's torch program and its MindSpore program (one process per framework); the
    result leaves of each (``AssertionError`` naming the case when a program fails)."""
    runner = harness()
    torch_programs = [(name, f"{c.torch_module}\nimport numpy as np\nimport torch\n{c.torch_driver}")
                      for name, c in cases.items()]
    ms_programs = [(name, f"{c.mindspore_module}\nimport numpy as np\nimport mindspore\n{c.mindspore_driver}")
                   for name, c in cases.items()]
    torch_out = runner.run_programs("torch", torch_programs, work / "torch")
    ms_out = runner.run_programs("mindspore", ms_programs, work / "mindspore")
    results = {}
    for name in cases:
        assert torch_out[name]["ok"], (name, torch_out[name])
        assert ms_out[name]["ok"], (name, ms_out[name])
        results[name] = (_leaves(work / "torch", name), _leaves(work / "mindspore", name))
    return results


def _leaves(folder: Path, name: str) -> list[np.ndarray]:
    with np.load(folder / f"{name}.npz", allow_pickle=False) as data:
        return [data[f"arr_{i}"] for i in range(len(data.files))]


def assert_same(expected: list[np.ndarray], actual: list[np.ndarray]) -> None:
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected, strict=True):
        assert a.shape == e.shape
        np.testing.assert_allclose(a.astype(np.float64), e.astype(np.float64), rtol=1e-4, atol=1e-4)
