"""`msmigrate fix examples/resnet_torch --unsafe-fixes` gives a ResNet-50 that imports only MindSpore in
models/, builds, and computes what the torch model computes (issue 13, item 4).

The torch model runs in one subprocess, the fixed model in another where torch cannot be imported (the
conversion suite's runner, tests/conversion/run_programs.py); the torch checkpoint it saved is converted by
``msmigrate convert-weights --model`` (the command a user runs), and the fixed model loads that MindSpore
checkpoint with ``load_param_into_net(strict_load=True)``."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from idiom_support import harness, imported_roots, needs_frameworks

from msmigrate.fixes.project import FixOptions, fix_paths

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "resnet_torch"

def _fixed_models(tmp_path: Path, version: str) -> Path:
    """A copy of the example after ``msmigrate fix models --unsafe-fixes --mindspore-version <version>``."""
    copy = tmp_path / "resnet_ms"
    shutil.copytree(EXAMPLE, copy)
    result = fix_paths([str(copy / "models")], FixOptions(mindspore_version=version, unsafe=True))
    assert {f.rel: f.status.value for f in result.files} == {"__init__.py": "unchanged", "resnet.py": "fixed"}
    return copy


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_fixed_models_import_only_mindspore_and_name_no_torch(tmp_path: Path, version: str) -> None:
    models = _fixed_models(tmp_path, version) / "models"
    source = (models / "resnet.py").read_text(encoding="utf-8")
    assert imported_roots(source) == {"typing", "mindspore"}
    names = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    assert not names & {"torch", "nn", "F", "Tensor"}
    # the BatchNorm momentum stays MindSpore's default (torch 0.1 == MindSpore 0.9), never momentum=0.1
    assert "momentum" not in source
    assert source.count("mindspore.nn.BatchNorm2d(") == 5
    assert "m.gamma.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer." \
           "Constant(1), m.gamma.shape, m.gamma.dtype))" in source
    assert "m.bn3.gamma.set_data(" in source
    assert "from . import ms_compat\n" in source  # the helper module, in the package
    assert "for m in ms_compat.modules(self):" in source
    assert "def modules(input):" in (models / "ms_compat.py").read_text(encoding="utf-8")


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
torch.save({{"epoch": 90, "state_dict": model.state_dict()}}, {weights!r})
x = torch.from_numpy(np.random.default_rng(1).standard_normal((2, 3, 64, 64)).astype(np.float32))
with torch.no_grad():
    result = model(x)
"""

MINDSPORE_PROGRAM = """
import sys
import numpy as np
import mindspore
sys.path.insert(0, {fixed!r})
from models import resnet50

model = resnet50(num_classes=10)
model.set_train(False)
not_loaded, unused = mindspore.load_param_into_net(model, mindspore.load_checkpoint({checkpoint!r}),
                                                   strict_load=True)
assert not not_loaded and not unused, (not_loaded, unused)
x = mindspore.Tensor(np.random.default_rng(1).standard_normal((2, 3, 64, 64)).astype(np.float32))
result = model(x)
"""


@pytest.mark.slow
@needs_frameworks
@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_fixed_resnet50_computes_what_the_torch_model_computes(tmp_path: Path, version: str) -> None:
    runner = harness()
    fixed = _fixed_models(tmp_path, version)
    weights, checkpoint = tmp_path / "resnet50.pth", tmp_path / "resnet50.ckpt"
    torch_work, ms_work = tmp_path / "torch", tmp_path / "mindspore"
    torch_out = runner.run_programs(
        "torch", [("resnet50", TORCH_PROGRAM.format(example=str(EXAMPLE), weights=str(weights)))], torch_work)
    assert torch_out["resnet50"]["ok"], torch_out["resnet50"]
    converted = subprocess.run(
        [sys.executable, "-m", "msmigrate", "convert-weights", str(weights), "-o", str(checkpoint), "--json",
         "--model", f"{fixed / 'models' / 'resnet.py'}:resnet50(num_classes=10)"],
        capture_output=True, text=True, timeout=900)
    assert converted.returncode == 0, converted.stdout + converted.stderr
    report = json.loads(converted.stdout)
    assert (report["status"], report["source_key"]) == ("written", "state_dict")
    assert len(report["parameters"]) == 267
    assert len(report["dropped"]) == 53 and not report["unused"] and not report["missing"]
    assert {(p["torch"], p["mindspore"]) for p in report["parameters"]} >= {
        ("bn1.weight", "bn1.gamma"), ("layer4.2.bn3.running_var", "layer4.2.bn3.moving_variance"),
        ("fc.weight", "fc.weight")}
    ms_out = runner.run_programs(
        "mindspore", [("resnet50", MINDSPORE_PROGRAM.format(fixed=str(fixed), checkpoint=str(checkpoint)))],
        ms_work)
    assert ms_out["resnet50"]["ok"], ms_out["resnet50"]
    with np.load(torch_work / "resnet50.npz") as t, np.load(ms_work / "resnet50.npz") as m:
        expected, actual = t["arr_0"], m["arr_0"]
    assert actual.shape == expected.shape == (2, 10)
    assert expected.std() > 1e-2  # numbers that tell models apart, not a constant
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4)
