"""`msmigrate fix examples/resnet_torch --unsafe-fixes` gives a ResNet-50 that imports only MindSpore in
models/, builds, and computes what the torch model computes (issue 13, item 4).

The torch model runs in one subprocess, the fixed model in another where torch cannot be imported (the
conversion suite's runner, tests/conversion/run_programs.py); the torch weights go over by parameter name,
renamed where MindSpore's cell names them otherwise (knowledge/cell_parameters.py)."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from msmigrate.fixes.project import FixOptions, fix_paths

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "resnet_torch"
SERVER = ROOT / "server"

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


def _harness():
    spec = importlib.util.spec_from_file_location("conversion_harness", ROOT / "tests/conversion/harness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("conversion_harness", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _fixed_models(tmp_path: Path, version: str) -> Path:
    """A copy of the example after ``msmigrate fix models --unsafe-fixes --mindspore-version <version>``."""
    copy = tmp_path / "resnet_ms"
    shutil.copytree(EXAMPLE, copy)
    result = fix_paths([str(copy / "models")], FixOptions(mindspore_version=version, unsafe=True))
    assert {f.rel: f.status.value for f in result.files} == {"__init__.py": "unchanged", "resnet.py": "fixed"}
    return copy


def _imported_modules(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add((node.module or "").split(".")[0])
    return found


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_fixed_models_import_only_mindspore_and_name_no_torch(tmp_path: Path, version: str) -> None:
    models = _fixed_models(tmp_path, version) / "models"
    source = (models / "resnet.py").read_text(encoding="utf-8")
    assert _imported_modules(source) == {"typing", "mindspore"}
    names = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    assert not names & {"torch", "nn", "F", "Tensor"}
    # the BatchNorm momentum stays MindSpore's default (torch 0.1 == MindSpore 0.9), never momentum=0.1
    assert "momentum" not in source
    assert source.count("mindspore.nn.BatchNorm2d(") == 5
    assert "m.gamma.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer." \
           "Constant(1), m.gamma.shape, m.gamma.dtype))" in source
    assert "m.bn3.gamma.set_data(" in source
    assert "for m in (cell for _, cell in self.cells_and_names()):" in source


TORCH_PROGRAM = """
import sys
import numpy as np
import torch
sys.path.insert(0, {example!r})
from models import resnet50

torch.manual_seed(0)
model = resnet50(num_classes=10)
rng = np.random.default_rng(0)
for m in model.modules():
    if isinstance(m, torch.nn.BatchNorm2d):  # statistics and affine values other than the initial ones
        c = m.num_features
        m.running_mean.copy_(torch.from_numpy(rng.normal(0, 0.1, c).astype(np.float32)))
        m.running_var.copy_(torch.from_numpy(rng.uniform(0.5, 1.5, c).astype(np.float32)))
        m.weight.data.copy_(torch.from_numpy(rng.uniform(0.2, 0.6, c).astype(np.float32)))
        m.bias.data.copy_(torch.from_numpy(rng.normal(0, 0.1, c).astype(np.float32)))
model.eval()
np.savez({weights!r}, **{{k: v.numpy() for k, v in model.state_dict().items()
                         if not k.endswith("num_batches_tracked")}})
x = torch.from_numpy(np.random.default_rng(1).standard_normal((2, 3, 64, 64)).astype(np.float32))
with torch.no_grad():
    result = model(x)
"""

MINDSPORE_PROGRAM = """
import sys
import numpy as np
import mindspore
sys.path.insert(0, {server!r})
sys.path.insert(0, {fixed!r})
from models import resnet50
from msmigrate.knowledge.cell_parameters import parameter_name

model = resnet50(num_classes=10)
model.set_train(False)
weights = np.load({weights!r})
cells = dict(model.cells_and_names())
params = dict(model.parameters_and_names())
loaded = set()
for key in weights.files:
    prefix, _, name = key.rpartition(".")
    cell = cells[prefix]
    target = f"{{prefix}}.{{parameter_name('mindspore.nn.' + type(cell).__name__, name)}}"
    params[target].set_data(mindspore.Tensor(weights[key]))
    loaded.add(target)
assert loaded == set(params), sorted(set(params) - loaded)[:5]
x = mindspore.Tensor(np.random.default_rng(1).standard_normal((2, 3, 64, 64)).astype(np.float32))
result = model(x)
"""


@pytest.mark.slow
@needs_frameworks
@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_fixed_resnet50_computes_what_the_torch_model_computes(tmp_path: Path, version: str) -> None:
    harness = _harness()
    fixed = _fixed_models(tmp_path, version)
    weights = str(tmp_path / "weights.npz")
    torch_work, ms_work = tmp_path / "torch", tmp_path / "mindspore"
    torch_out = harness.run_programs(
        "torch", [("resnet50", TORCH_PROGRAM.format(example=str(EXAMPLE), weights=weights))], torch_work)
    assert torch_out["resnet50"]["ok"], torch_out["resnet50"]
    ms_out = harness.run_programs(
        "mindspore", [("resnet50", MINDSPORE_PROGRAM.format(server=str(SERVER), fixed=str(fixed),
                                                              weights=weights))], ms_work)
    assert ms_out["resnet50"]["ok"], ms_out["resnet50"]
    with np.load(torch_work / "resnet50.npz") as t, np.load(ms_work / "resnet50.npz") as m:
        expected, actual = t["arr_0"], m["arr_0"]
    assert actual.shape == expected.shape == (2, 10)
    assert expected.std() > 1e-2  # numbers that tell models apart, not a constant
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4)
