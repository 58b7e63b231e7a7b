"""MSM530: einops in a migrated file (issue 24, item 4: the corpus's vit-pytorch models). The fix imports
einops' torch layers and functions from the project's helper module, whose adapters give einops a MindSpore
backend; the fixed model runs in MindSpore, where torch cannot be imported, and computes what the torch
model computes with einops' own torch layers. einops is installed at test time (the model corpus's pinned
dependency, ``--no-deps``), never copied into the repository."""

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
from msmigrate.knowledge.compositions.helper_module import module_text
from msmigrate.rules.framework.msm530_einops_layers import from_helper_module

ROOT = Path(__file__).resolve().parents[2]

TORCH = '''\
import torch
from torch import nn
from einops import rearrange, repeat, EinopsError
from einops.layers.torch import Rearrange, Reduce


class Patches(nn.Module):
    def __init__(self, dim, patch):
        super().__init__()
        self.to_patches = Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=patch, p2=patch)
        self.embed = nn.Linear(3 * patch * patch, dim)
        self.pool = Reduce("b n d -> b d", "mean")

    def forward(self, img, cls):
        x = self.embed(self.to_patches(img))
        cls = repeat(cls, "d -> b 1 d", b=x.shape[0])
        x = torch.cat((cls, x), dim=1)
        heads = rearrange(x, "b n (h d) -> b h n d", h=2)
        return self.pool(rearrange(heads, "b h n d -> b n (h d)")), heads
'''
# written from einops' and MindSpore's documentation: the names with an adapter come from the helper module,
# EinopsError (no tensor) still from einops; ``import mindspore`` goes after the file's imports
FIXED = '''\
from ms_compat import rearrange, repeat
from einops import EinopsError
from ms_compat import Rearrange, Reduce
import mindspore


class Patches(mindspore.nn.Cell):
    def __init__(self, dim, patch):
        super().__init__()
        self.to_patches = Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=patch, p2=patch)
        self.embed = mindspore.mint.nn.Linear(3 * patch * patch, dim)
        self.pool = Reduce("b n d -> b d", "mean")

    def construct(self, img, cls):
        x = self.embed(self.to_patches(img))
        cls = repeat(cls, "d -> b 1 d", b=x.shape[0])
        x = mindspore.mint.cat((cls, x), dim=1)
        heads = rearrange(x, "b n (h d) -> b h n d", h=2)
        return self.pool(rearrange(heads, "b h n d -> b n (h d)")), heads
'''
EXPRESSION = "set_all(Patches(8, 2))(t(2, 3, 4, 6), t(8))"
HELPERS = ["einops_backend", "Rearrange", "Reduce", "rearrange", "repeat"]


def test_the_findings_name_the_imports_and_the_layers_uses(tmp_path: Path) -> None:
    result = analyze_source(TORCH, "model.py", get_knowledge_base("2.6"))
    found = [(f.line, f.column, f.message_key, f.fixable) for f in result.findings if f.rule == "MSM530"]
    assert found == [(3, 1, "finding.MSM530", True), (4, 1, "finding.MSM530", True),
                     (10, 27, "finding.MSM530.use", False), (12, 21, "finding.MSM530.use", False)]
    assert not [f for f in result.findings if f.rule == "MSM104"]  # every torch leftover has its rule


def test_msmigrate_fix_imports_einops_from_the_helper_module(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(TORCH, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))  # safe fixes only
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == FIXED
    assert result.to_json()["helper_module"]["helpers"] == HELPERS
    assert (tmp_path / "ms_compat.py").read_text(encoding="utf-8") == module_text(HELPERS)
    assert "\nimport einops\n" in module_text(HELPERS)  # the adapter's own import


def test_the_import_follows_how_the_file_reaches_the_helper_module() -> None:
    assert from_helper_module("import ms_compat", "Rearrange") == "from ms_compat import Rearrange"
    assert from_helper_module("from . import ms_compat", "rearrange") == "from .ms_compat import rearrange"
    assert from_helper_module("from .. import ms_compat", "a, b") == "from ..ms_compat import a, b"
    assert from_helper_module("from utils import ms_compat", "a") == "from utils.ms_compat import a"


needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_model_computes_what_einops_computes_on_torch(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "conversion"))
    sys.path.insert(0, str(ROOT / "tests" / "model_corpus"))
    try:
        import corpus_harness
        import harness
    finally:
        sys.path.remove(str(ROOT / "tests" / "conversion"))
        sys.path.remove(str(ROOT / "tests" / "model_corpus"))
    deps = corpus_harness.install().deps  # einops, pinned
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "model.py").write_text(TORCH, encoding="utf-8")
    (tmp_path / "mindspore").mkdir()
    (tmp_path / "mindspore" / "model.py").write_text(TORCH, encoding="utf-8")
    fix_paths([str(tmp_path / "mindspore")], FixOptions(mindspore_version="2.6"))
    outputs = {}
    for framework in ("torch", "mindspore"):
        setup = f"sys.path.insert(0, {str(deps)!r})\n" + SETUP[framework]
        program = RUNNER.format(folder=str(tmp_path / framework), setup=setup, module="model",
                                expression=EXPRESSION)
        outcome = harness.run_programs(framework, [("model", program)], tmp_path / f"run-{framework}")
        assert outcome["model"]["ok"], outcome["model"]  # torch cannot be imported in the MindSpore run
        with np.load(tmp_path / f"run-{framework}" / "model.npz", allow_pickle=False) as data:
            outputs[framework] = [data[f"arr_{i}"] for i in range(len(data.files))]
    assert [a.shape for a in outputs["torch"]] == [(2, 8), (2, 2, 7, 4)]
    for want, got in zip(outputs["torch"], outputs["mindspore"], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
