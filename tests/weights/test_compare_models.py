"""``msmigrate compare`` on real models: the bundled ResNet-50 after ``msmigrate fix`` matches its torch
original at 1e-4 in PyNative and GRAPH_MODE (outputs, every layer, one training step); a migrated copy
with one layer changed (an epsilon, a transposed weight) is reported with exactly that layer as the first
that differs; a ``with`` statement in ``construct`` fails GRAPH_MODE at its line, with its rule; bad input
gets its message."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import copy_models, needs_frameworks, run_cli

from msmigrate.compare.config import CompareSpec, InputSpec
from msmigrate.compare.service import CompareOptions, compare_models
from msmigrate.fixes.project import FixOptions, fix_paths

pytestmark = [pytest.mark.slow, needs_frameworks]

ROOT = Path(__file__).resolve().parents[2]
IDS = [InputSpec((2, 7), "int64", 0, 10, "int32")]

RESNET_CONFIG = """
[[tool.msmigrate.compare]]
name = "resnet50"
torch = "resnet_torch/models/resnet.py:resnet50(num_classes=10)"
mindspore = "resnet_ms/models/resnet.py:resnet50(num_classes=10)"
inputs = [{shape = [2, 3, 32, 32]}]
checkpoint = "resnet50.pth"

[tool.msmigrate.compare.loss]
torch = "torch.nn.CrossEntropyLoss()"
mindspore = "mindspore.nn.CrossEntropyLoss()"
target = {shape = [2], dtype = "int64", low = 0, high = 10, mindspore_dtype = "int32"}
lr = 0.1
"""

SAVE_RESNET = """
import sys, torch
sys.path.insert(0, {example!r})
from models import resnet50
torch.manual_seed(0)
model = resnet50(num_classes=10)
for m in model.modules():
    if isinstance(m, torch.nn.BatchNorm2d):
        m.running_mean.uniform_(-0.5, 0.5)
        m.running_var.uniform_(0.5, 1.5)
        m.weight.data.uniform_(0.2, 0.6)
torch.save({{"state_dict": model.state_dict()}}, {path!r})
"""


@pytest.fixture(scope="module")
def resnet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project: the torch example, its migration (``msmigrate fix --unsafe-fixes``), a torch checkpoint."""
    root = tmp_path_factory.mktemp("resnet")
    shutil.copytree(ROOT / "examples" / "resnet_torch", root / "resnet_torch")
    shutil.copytree(ROOT / "examples" / "resnet_torch", root / "resnet_ms")
    fixed = fix_paths([str(root / "resnet_ms" / "models")], FixOptions(mindspore_version="2.6", unsafe=True))
    assert {f.rel: f.status.value for f in fixed.files} == {"__init__.py": "unchanged", "resnet.py": "fixed"}
    code = SAVE_RESNET.format(example=str(root / "resnet_torch"), path=str(root / "resnet50.pth"))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    (root / "pyproject.toml").write_text(RESNET_CONFIG)
    return root


def test_resnet50_matches_in_pynative_and_graph_mode(resnet: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "msmigrate", "compare", "--json"],
        cwd=resnet,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    (report,) = json.loads(run.stdout)["comparisons"]
    assert (report["status"], report["error"]) == ("match", None)
    assert len(report["conversion"]["parameters"]) == 267 and len(report["conversion"]["dropped"]) == 53
    pynative, graph = report["modes"]
    assert (pynative["mode"], pynative["status"], graph["mode"], graph["status"]) == (
        "pynative",
        "match",
        "graph",
        "match",
    )
    for mode in (pynative, graph):
        assert mode["outputs"]["status"] == "match" and mode["outputs"]["max_abs"] < 1e-4
        training = mode["training"]
        assert training["loss"]["status"] == "match" and training["loss"]["torch"] > 0.1
        assert len(training["gradients"]) == 161 and len(training["updated"]) == 161
        assert {r["status"] for r in training["gradients"] + training["updated"]} == {"match"}
    # every submodule call torch made (conv1 … fc and the model) has its MindSpore counterpart, and matches
    assert len(pynative["layers"]) == 183 and {r["status"] for r in pynative["layers"]} == {"match"}
    assert [r["name"] for r in pynative["layers"][:4]] == ["conv1", "bn1", "relu", "maxpool"]
    assert pynative["first_divergence"] is None and graph["layers"] == []


def test_an_epsilon_changed_in_the_migrated_resnet_is_the_first_divergence(
    resnet: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "resnet_eps"
    shutil.copytree(resnet / "resnet_ms", copy)
    source = copy / "models" / "resnet.py"
    text = source.read_text()
    assert text.count("self.bn1 = mindspore.nn.BatchNorm2d(self.inplanes)") == 1
    source.write_text(
        text.replace(
            "self.bn1 = mindspore.nn.BatchNorm2d(self.inplanes)",
            "self.bn1 = mindspore.nn.BatchNorm2d(self.inplanes, eps=1e-2)",
        )
    )
    spec = CompareSpec(
        "eps",
        f"{resnet}/resnet_torch/models/resnet.py:resnet50(num_classes=10)",
        f"{copy}/models/resnet.py:resnet50(num_classes=10)",
        [InputSpec((2, 3, 32, 32))],
        checkpoint=resnet / "resnet50.pth",
        modes=("pynative",),
    )
    report = compare_models(spec)
    assert (report.status, report.exit_code) == ("diverge", 1)
    (mode,) = report.modes
    first = mode.first_divergence
    assert (first["name"], first["call"], first["torch_class"], first["mindspore_class"]) == (
        "bn1",
        0,
        "BatchNorm2d",
        "BatchNorm2d",
    )
    assert [r["status"] for r in mode.layers[:2]] == ["match", "diverge"]  # conv1 before it matches
    # after it: layers that differ too (downstream) or match; none is run alone again
    assert {r["status"] for r in mode.layers[2:]} == {"match", "downstream"}
    assert not any("alone" in r for r in mode.layers[2:])


def _variant(folder: Path, old: str, new: str, extra: str = "") -> Path:
    _tnet, msnet = copy_models(folder)
    text = msnet.read_text()
    assert text.count(old) == 1
    msnet.write_text(text.replace(old, new) + extra)
    return msnet


TRANSPOSED = '''

class TransposedDense(nn.Cell):
    """A Dense whose construct uses the weight as stored (x @ W) where torch's Linear uses x @ W.T."""

    def __init__(self, size):
        super().__init__()
        self.weight = mindspore.Parameter(mindspore.ops.zeros((size, size), mindspore.float32), name="weight")
        self.bias = mindspore.Parameter(mindspore.ops.zeros((size,), mindspore.float32), name="bias")

    def construct(self, x):
        return mindspore.ops.matmul(x, self.weight) + self.bias
'''


@pytest.mark.parametrize("change, layer", [("epsilon", "norm"), ("transposed", "head")])
def test_one_changed_layer_is_named_as_the_first_divergence(tmp_path: Path, change: str, layer: str) -> None:
    if change == "epsilon":
        msnet = _variant(tmp_path, "nn.LayerNorm((6,), epsilon=1e-5)", "nn.LayerNorm((6,), epsilon=1e-3)")
    else:
        msnet = _variant(
            tmp_path, "self.head = nn.Dense(6, classes)", "self.head = TransposedDense(6)", TRANSPOSED
        )
        msnet.write_text("import mindspore\n" + msnet.read_text())
    spec = CompareSpec(
        change, f"{tmp_path}/tnet.py:Net(classes=6)", f"{msnet}:Net(classes=6)", IDS, modes=("pynative",)
    )
    report = compare_models(spec)
    assert report.status == "diverge", report.to_json()
    (mode,) = report.modes
    assert mode.first_divergence["name"] == layer
    names = [r["name"] for r in mode.layers]
    assert names == ["emb", "conv", "bn", "act", "rnn", "norm", "head", ""]
    before = names.index(layer)
    # the layers after it differ too, and are not run alone again
    after = ["downstream"] * (len(names) - before - 1)
    assert [r["status"] for r in mode.layers] == ["match"] * before + ["diverge"] + after
    assert mode.first_divergence["alone"]["status"] == "diverge"
    assert [r.get("alone") is not None for r in mode.layers] == [n == layer for n in names]


def test_a_with_statement_in_construct_fails_graph_mode_at_its_line(tmp_path: Path) -> None:
    msnet = _variant(
        tmp_path,
        "        x = self.act(self.bn(self.conv(x)))\n",
        "        with warnings.catch_warnings():\n            x = self.act(self.bn(self.conv(x)))\n",
    )
    msnet.write_text("import warnings\n" + msnet.read_text())
    line = msnet.read_text().splitlines().index("        with warnings.catch_warnings():") + 1
    run = run_cli(
        "compare",
        "--torch",
        f"{tmp_path}/tnet.py:Net()",
        "--mindspore",
        f"{msnet}:Net()",
        "--input",
        "2x7:int64:0:10:int32",
        "--json",
    )
    assert run.returncode == 1, run.stdout + run.stderr
    (report,) = json.loads(run.stdout)["comparisons"]
    pynative, graph = report["modes"]
    assert pynative["status"] == "match"
    assert graph["status"] == "graph_error"
    assert graph["graph_error"] == {
        "message": "Only support jit_class instance, but got PythonObject("
        "type: <class 'warnings.catch_warnings'>, "
        "value: catch_warnings())",
        "type": "TypeError",
        "file": str(msnet),
        "line": line,
        "end_line": line + 1,
        "source": "with warnings.catch_warnings():",
        "rule": "MSM702",
        "during": "forward",
    }


def test_bad_input_is_reported(tmp_path: Path) -> None:
    tnet, msnet = copy_models(tmp_path)
    raising = CompareSpec("raises", f"{tnet}:Net(classes='x')", f"{msnet}:Net()", IDS)
    report = compare_models(raising)
    assert report.exit_code == 2 and report.error[0] == "weights.error.model_constructor"
    assert report.error[1]["where"].startswith(f"{tnet}:")
    missing = compare_models(
        CompareSpec("m", f"{tnet}:Net()", f"{msnet}:Net()", IDS, checkpoint=tmp_path / "none.pth")
    )
    assert missing.error == ("weights.error.source_missing", {"path": str(tmp_path / "none.pth")})
    other = compare_models(CompareSpec("shape", f"{tnet}:Net()", f"{msnet}:Net(classes=4)", IDS))
    assert other.error == ("compare.error.conversion", {"missing": 0, "unused": 0, "mismatched": 2})
    assert [m["mindspore"] for m in other.to_json()["conversion"]["mismatched"]] == [
        "head.weight",
        "head.bias",
    ]


def test_a_hanging_model_is_stopped(tmp_path: Path) -> None:
    tnet, msnet = copy_models(tmp_path)
    tnet.write_text(
        tnet.read_text().replace(
            "    def forward(self, ids):\n",
            "    def forward(self, ids):\n        import time\n        time.sleep(3600)\n",
        )
    )
    report = compare_models(
        CompareSpec("hang", f"{tnet}:Net()", f"{msnet}:Net()", IDS), CompareOptions(timeout=40)
    )
    assert report.error == ("weights.error.timeout", {"side": "torch", "seconds": "40", "detail": "40"})
