"""``msmigrate convert-weights`` on real files: torch writes the checkpoint, the command converts it in its
workers, MindSpore loads the result into the hand-migrated model and computes torch's numbers. Bad input
(a pickle that would run code, a pickled module, a missing file, a model that raises, imports torch or
kills its worker, shapes that do not fit) gets its message and nothing is written."""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from support import copy_models, needs_frameworks, run_cli

from msmigrate.i18n import t
from msmigrate.weights.convert import ConvertOptions, convert_weights
from msmigrate.weights.session import SideWorker, WeightsError

pytestmark = [pytest.mark.slow, needs_frameworks]

TORCH_SAVE = """
import sys, numpy as np, torch
sys.path.insert(0, {folder!r})
from tnet import Net
torch.manual_seed(0)
model = Net()
model.bn.running_mean.uniform_(-0.5, 0.5)
model.bn.running_var.uniform_(0.5, 1.5)
model.eval()
state = {{"module." + k: v for k, v in model.state_dict().items()}}
torch.save({{"epoch": 3, "model": {{"state_dict": state}}}}, {path!r})
ids = torch.from_numpy(np.random.default_rng(0).integers(0, 10, (2, 7)))
np.save({folder!r} + "/ids.npy", ids.numpy())
np.save({folder!r} + "/expected.npy", model(ids).detach().numpy())
"""

MINDSPORE_LOAD = """
import sys, numpy as np, mindspore as ms
sys.path.insert(0, {folder!r})
from msnet import Net
net = Net()
net.set_train(False)
print(ms.load_param_into_net(net, ms.load_checkpoint({path!r}), strict_load=True))
ids = ms.Tensor(np.load({folder!r} + "/ids.npy").astype(np.int32))
np.save({folder!r} + "/actual.npy", net(ids).asnumpy())
"""


def _python(code: str) -> None:
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("small")
    copy_models(folder)
    _python(TORCH_SAVE.format(folder=str(folder), path=str(folder / "small.pt")))
    return folder


def test_converted_checkpoint_loads_strictly_and_computes_torchs_numbers(saved: Path) -> None:
    out = saved / "small.ckpt"
    run = run_cli(
        "convert-weights",
        str(saved / "small.pt"),
        "-o",
        str(out),
        "--json",
        "--model",
        f"{saved / 'msnet.py'}:Net()",
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert (report["status"], report["source_key"], report["torch_prefix"], report["tensors"]) == (
        "written",
        "model/state_dict",
        "module.",
        17,
    )
    assert {p["torch"]: (p["mindspore"], p["layout"]) for p in report["parameters"]} == {
        "module.emb.weight": ("emb.embedding_table", "same"),
        "module.conv.weight": ("conv.weight", "insert_axis:2"),
        "module.conv.bias": ("conv.bias", "same"),
        "module.bn.weight": ("bn.gamma", "same"),
        "module.bn.bias": ("bn.beta", "same"),
        "module.bn.running_mean": ("bn.moving_mean", "same"),
        "module.bn.running_var": ("bn.moving_variance", "same"),
        "module.act.weight": ("act.w", "same"),
        "module.rnn.weight_ih_l0": ("rnn.weight_ih_l0", "same"),
        "module.rnn.weight_hh_l0": ("rnn.weight_hh_l0", "same"),
        "module.rnn.bias_ih_l0": ("rnn.bias_ih_l0", "same"),
        "module.rnn.bias_hh_l0": ("rnn.bias_hh_l0", "same"),
        "module.norm.weight": ("norm.gamma", "same"),
        "module.norm.bias": ("norm.beta", "same"),
        "module.head.weight": ("head.weight", "same"),
        "module.head.bias": ("head.bias", "same"),
    }
    assert report["dropped"] == [
        {"torch": "module.bn.num_batches_tracked", "reason": "weights.dropped.step_counter"}
    ]
    assert report["ignored"] == []
    _python(MINDSPORE_LOAD.format(folder=str(saved), path=str(out)))
    expected, actual = np.load(saved / "expected.npy"), np.load(saved / "actual.npy")
    assert expected.shape == actual.shape == (2, 5, 3) and expected.std() > 1e-2
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4)


def test_safetensors_in_and_out(saved: Path, tmp_path: Path) -> None:
    """A hand-written .safetensors file (F32 and BF16) becomes a MindSpore safetensors checkpoint."""
    source = tmp_path / "w.safetensors"
    weight = np.arange(6, dtype=np.float32).reshape(2, 3)
    half = np.array([1.5, -2.0], dtype=np.float32)
    bf16 = (half.view(np.uint32) >> 16).astype(np.uint16)
    header = {
        "__metadata__": {"format": "pt"},
        "layer.weight": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
        "norm.running_mean": {"dtype": "BF16", "shape": [2], "data_offsets": [24, 28]},
        "norm.running_var": {"dtype": "F32", "shape": [2], "data_offsets": [28, 36]},
    }
    text = json.dumps(header).encode()
    source.write_bytes(
        struct.pack("<Q", len(text))
        + text
        + weight.tobytes()
        + bf16.tobytes()
        + np.ones(2, np.float32).tobytes()
    )
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "w.safetensors"
    misnamed = convert_weights(ConvertOptions(source, tmp_path / "w.ckpt", format="safetensors"))
    assert misnamed.error == (
        "weights.error.suffix",
        {
            "path": str(tmp_path / "w.ckpt"),
            "format": "safetensors",
            "suggest": str(tmp_path / "w.safetensors"),
        },
    )
    report = convert_weights(ConvertOptions(source, target))
    assert report.status == "written", report.error
    assert report.read_format == "safetensors"
    assert [(a.torch, a.mindspore, a.dtype) for a in report.plan.assignments] == [
        ("layer.weight", "layer.weight", "float32"),
        ("norm.running_mean", "norm.moving_mean", "bfloat16"),
        ("norm.running_var", "norm.moving_variance", "float32"),
    ]
    _python(f"""
import numpy as np, mindspore as ms
d = ms.load_checkpoint({str(target)!r}, format="safetensors")
assert sorted(d) == ["layer.weight", "norm.moving_mean", "norm.moving_variance"], sorted(d)
assert d["norm.moving_mean"].dtype == ms.bfloat16
assert np.array_equal(d["layer.weight"].asnumpy(), np.arange(6, dtype=np.float32).reshape(2, 3))
assert d["norm.moving_mean"].astype(ms.float32).asnumpy().tolist() == [1.5, -2.0]
""")


class Payload:
    """Unpickled, it would create ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _malicious(kind: str, path: Path, marker: Path) -> None:
    if kind == "zip":  # torch.save's own format, its data.pkl carrying the call
        _python(f"""
import os, torch
class Payload:
    def __reduce__(self):
        return (os.system, ("touch {marker}",))
torch.save({{"w": torch.ones(2), "evil": Payload()}}, {str(path)!r})
""")
    else:
        payload = {"weight": [1.0], "evil": Payload(marker)}
        path.write_bytes(pickle.dumps(payload, protocol=2 if kind == "raw2" else 4))


@pytest.mark.parametrize("kind", ["raw2", "raw4", "zip"])
def test_a_pickle_that_would_run_code_is_refused_and_never_run(tmp_path: Path, kind: str) -> None:
    marker, source, out = tmp_path / "PWNED", tmp_path / "evil.pt", tmp_path / "evil.ckpt"
    _malicious(kind, source, marker)
    assert not marker.exists()
    run = run_cli("convert-weights", str(source), "-o", str(out), "--json")
    assert run.returncode == 2, run.stdout + run.stderr
    error = json.loads(run.stdout)["error"]
    if kind == "raw4":  # protocol 4 stops at an instruction the restricted unpickler does not take
        assert error["key"] == "weights.error.pickled_code"
    else:
        assert (error["key"], error["fields"]["name"]) == ("weights.error.pickled_object", "posix.system")
    assert "refused, nothing of it was run" in error["message"]
    assert not marker.exists() and not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evil.pt"]


def test_a_pickled_module_names_its_class_in_both_languages(saved: Path, tmp_path: Path) -> None:
    source = tmp_path / "whole.pt"
    _python(f"""
import sys, torch
sys.path.insert(0, {str(saved)!r})
from tnet import Net
torch.save(Net(), {str(source)!r})
""")
    report = convert_weights(ConvertOptions(source, tmp_path / "whole.ckpt"))
    assert report.exit_code == 2 and not report.written
    assert report.error == ("weights.error.pickled_object", {"path": str(source), "name": "tnet.Net"})
    assert report.error_text("zh").startswith(f"{source} 含有类 tnet.Net 的 pickle 对象")
    assert not (tmp_path / "whole.ckpt").exists()


def test_bad_input_is_named_and_nothing_is_written(saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.ckpt"
    out.write_text("previous")
    missing = convert_weights(ConvertOptions(tmp_path / "nope.pt", out))
    assert missing.error == ("weights.error.source_missing", {"path": str(tmp_path / "nope.pt")})
    no_key = convert_weights(ConvertOptions(saved / "small.pt", out, key="ema"))
    assert no_key.error == ("weights.error.no_key", {"key": "ema", "keys": "epoch, model"})
    link = tmp_path / "link.ckpt"
    link.symlink_to(out)
    refused = convert_weights(ConvertOptions(saved / "small.pt", link))
    assert refused.error == ("weights.error.output_not_file", {"path": str(link)})
    assert out.read_text() == "previous"


def test_shapes_that_do_not_fit_write_nothing(saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.ckpt"
    out.write_text("previous")
    model = f"{saved / 'msnet.py'}:Net(classes=4)"
    report = convert_weights(ConvertOptions(saved / "small.pt", out, model=model))
    assert (report.status, report.exit_code) == ("not_written", 1)
    assert [(m.torch, m.torch_shape, m.shape) for m in report.plan.mismatched] == [
        ("module.head.weight", (3, 6), (4, 6)),
        ("module.head.bias", (3,), (4,)),
    ]
    assert out.read_text() == "previous"
    text = report.render_text("en")
    assert "module.head.weight  head.weight" in text and "torch shape [3, 6], model shape [4, 6]" in text
    assert text.endswith(
        "Nothing written: some parameters of the model get no value or one of another shape (above)."
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.ckpt"]  # no temporary file left


MODELS = {
    "raises": (
        "import mindspore.nn as nn\n\nclass Net(nn.Cell):\n    def __init__(self):\n"
        "        super().__init__()\n        raise ValueError('no config')\n",
        "weights.error.model_constructor",
        "raises.py:6: raise ValueError('no config')",
    ),
    "imports_torch": (
        "import mindspore\nimport torch.nn as nn\n",
        "weights.error.model_imports_torch",
        "imports_torch.py:2: import torch.nn as nn",
    ),
    "crashes": ("import os\nos._exit(7)\n", "weights.error.worker_crash", "exit code 7"),
}


@pytest.mark.parametrize("case", sorted(MODELS))
def test_a_model_that_fails_to_build_is_reported(saved: Path, tmp_path: Path, case: str) -> None:
    source, key, where = MODELS[case]
    (tmp_path / f"{case}.py").write_text(source)
    report = convert_weights(
        ConvertOptions(saved / "small.pt", tmp_path / "o.ckpt", model=f"{tmp_path / case}.py:Net()")
    )
    assert report.exit_code == 2 and report.error is not None and report.error[0] == key
    assert where in report.error_text("en")
    assert not (tmp_path / "o.ckpt").exists()


def test_a_worker_that_hangs_is_stopped_after_the_timeout() -> None:
    with SideWorker("torch", timeout=3, test_kinds=True) as worker:
        with pytest.raises(WeightsError) as raised:
            worker.ask({"kind": "sleep", "seconds": 60})
        pid_gone = worker._worker is None
    assert raised.value.key == "weights.error.timeout" and raised.value.fields["seconds"] == "3"
    assert pid_gone
    assert t(raised.value.key, "en", **raised.value.fields).startswith(
        "the torch worker gave no answer within 3 s and was stopped"
    )


def test_the_cli_says_what_it_refused_in_chinese(tmp_path: Path) -> None:
    run = run_cli(
        "convert-weights", str(tmp_path / "absent.pt"), "-o", str(tmp_path / "x.ckpt"), "--lang", "zh"
    )
    assert run.returncode == 2
    assert run.stdout.strip() == f"错误：{tmp_path / 'absent.pt'}：文件不存在"
    assert "Traceback" not in run.stderr
    assert os.listdir(tmp_path) == []


@needs_frameworks
def test_a_nan_in_the_weights_reads_back_as_itself(tmp_path: Path) -> None:
    """whisper's TextDecoder keeps torch.empty's values in positional_embedding: a NaN there is written and
    verified as the same value (the read-back check once called it different)."""
    source = tmp_path / "w.safetensors"
    weight = np.array([[1.0, np.nan], [np.inf, -2.0]], dtype=np.float32)
    header = {"layer.weight": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}}
    text = json.dumps(header).encode()
    source.write_bytes(struct.pack("<Q", len(text)) + text + weight.tobytes())
    report = convert_weights(ConvertOptions(source, tmp_path / "w.ckpt"))
    assert report.status == "written", report.error
    _python(f"""
import numpy as np, mindspore as ms
d = ms.load_checkpoint({str(tmp_path / "w.ckpt")!r})
assert np.array_equal(d["layer.weight"].asnumpy(), np.array([[1.0, np.nan], [np.inf, -2.0]], np.float32),
                      equal_nan=True)
""")
