"""MSM512 for downloaded weights (the corpus's pretrainedmodels and efficientnet-pytorch load theirs with
``torch.utils.model_zoo.load_url``): the call becomes the helper module's ``load_url``, which downloads a
MindSpore checkpoint and reads it; applied with ``--unsafe-fixes`` only, as the file must be converted. The
fixed code runs in MindSpore (torch blocked) on a checkpoint of the same values as torch's file and returns
them; a torch file's URL is refused with the command that converts it."""

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

ROOT = Path(__file__).resolve().parents[2]
TORCH = '''\
import torch.utils.model_zoo as model_zoo
from torch.hub import load_state_dict_from_url


def load(url, folder):
    state = model_zoo.load_url(url, model_dir=folder, progress=False)
    again = load_state_dict_from_url(url, folder)
    return [state[k] for k in sorted(state)] + [again[k] for k in sorted(again)]
'''
# the helper takes torch's parameters: the calls keep their arguments
FIXED = '''\
import ms_compat


def load(url, folder):
    state = ms_compat.load_url(url, model_dir=folder, progress=False)
    again = ms_compat.load_url(url, folder)
    return [state[k] for k in sorted(state)] + [again[k] for k in sorted(again)]
'''


def test_the_downloads_are_msm512_findings_fixed_only_with_unsafe_fixes(tmp_path: Path) -> None:
    result = analyze_source(TORCH, "model.py", get_knowledge_base("2.6"))
    assert [(f.line, f.column, f.rule, f.message_key, f.fixable) for f in result.findings] == [
        (6, 13, "MSM512", "finding.MSM512.url", True), (7, 13, "MSM512", "finding.MSM512.url", True)]
    (tmp_path / "model.py").write_text(TORCH, encoding="utf-8")
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == TORCH  # safe fixes only: left
    fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=True))
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == FIXED
    assert (tmp_path / "ms_compat.py").read_text(encoding="utf-8") == module_text(["load_url"])
    assert "\nimport os\nimport urllib.request\n" in module_text(["load_url"])


needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)
WEIGHT = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
BIAS = np.array([0.5, -1.0, 2.0], dtype=np.float32)


@pytest.mark.slow
@needs_frameworks
def test_the_fixed_download_reads_the_converted_checkpoint(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "conversion"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "tests" / "conversion"))
    np.savez(tmp_path / "values.npz", weight=WEIGHT, bias=BIAS)
    saves = {  # the same values: torch's file, and the checkpoint converted from it
        "torch": f"v = np.load({str(tmp_path / 'values.npz')!r})\n"
                 "torch.save({'fc.weight': torch.from_numpy(v['weight']),"
                 f" 'fc.bias': torch.from_numpy(v['bias'])}}, {str(tmp_path / 'w.pth')!r})\n",
        "mindspore": f"v = np.load({str(tmp_path / 'values.npz')!r})\n"
                     "mindspore.save_checkpoint([{'name': 'fc.weight',"
                     " 'data': mindspore.Tensor(v['weight'])},"
                     " {'name': 'fc.bias',"
                     " 'data': mindspore.Tensor(v['bias'])}],"
                     f" {str(tmp_path / 'w.ckpt')!r})\n",
    }
    urls = {"torch": (tmp_path / "w.pth").as_uri(), "mindspore": (tmp_path / "w.ckpt").as_uri()}
    for framework in ("torch", "mindspore"):
        (tmp_path / framework).mkdir()
        (tmp_path / framework / "model.py").write_text(TORCH, encoding="utf-8")
    fix_paths([str(tmp_path / "mindspore")], FixOptions(mindspore_version="2.6", unsafe=True))
    outputs = {}
    for framework in ("torch", "mindspore"):
        cache = tmp_path / f"cache-{framework}"
        program = RUNNER.format(folder=str(tmp_path / framework), setup=SETUP[framework] + saves[framework],
                                module="model", expression=f"load({urls[framework]!r}, {str(cache)!r})")
        outcome = harness.run_programs(framework, [("model", program)], tmp_path / f"run-{framework}")
        assert outcome["model"]["ok"], outcome["model"]
        with np.load(tmp_path / f"run-{framework}" / "model.npz", allow_pickle=False) as data:
            outputs[framework] = [data[f"arr_{i}"] for i in range(len(data.files))]
    assert len(outputs["torch"]) == len(outputs["mindspore"]) == 4
    for want, got in zip(outputs["torch"], outputs["mindspore"], strict=True):
        np.testing.assert_array_equal(got, want)
    refused = RUNNER.format(folder=str(tmp_path / "mindspore"), setup=SETUP["mindspore"], module="model",
                            expression=f"load({urls['torch']!r}, {str(tmp_path / 'cache')!r})")
    outcome = harness.run_programs("mindspore", [("refused", refused)], tmp_path / "run-refused")["refused"]
    assert not outcome["ok"] and "names no MindSpore checkpoint" in outcome["error"], outcome
    assert "msmigrate convert-weights" in outcome["error"]
