"""``msmigrate compare`` without frameworks: its configuration, placing a GRAPH_MODE failure in the source
(from the message MindSpore 2.10 printed for a ``with warnings.catch_warnings():`` in ``construct``), the
report's verdict and exit code."""

from __future__ import annotations

from pathlib import Path

import pytest

from msmigrate.compare.config import InputSpec, cli_input, load_specs, select_specs
from msmigrate.compare.graph_errors import frames, place
from msmigrate.compare.report import CompareReport, ModeResult, render_text
from msmigrate.weights.session import WeightsError

PYPROJECT = """
[project]
name = "x"

[[tool.msmigrate.compare]]
name = "resnet50"
torch = "models/resnet.py:resnet50(num_classes=10)"
mindspore = "../ms/models/resnet.py:resnet50(num_classes=10)"
inputs = [{shape = [2, 3, 64, 64]}]
checkpoint = "weights/r.pth"
rtol = 1e-3
modes = ["graph"]

[tool.msmigrate.compare.loss]
torch = "torch.nn.CrossEntropyLoss()"
mindspore = "mindspore.nn.CrossEntropyLoss()"
lr = 0.01
target = {shape = [2], dtype = "int64", low = 0, high = 10, mindspore_dtype = "int32"}

[[tool.msmigrate.compare]]
name = "tiny"
torch = "t.py:Net()"
mindspore = "m.py:Net()"
inputs = [{shape = [2, 7], dtype = "int64", low = 0, high = 10}]
kwargs = {return_all = false}
"""


def test_specs_from_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    first, second = load_specs(tmp_path / "pyproject.toml")
    assert (first.name, first.torch, first.mindspore) == (
        "resnet50",
        f"{tmp_path}/models/resnet.py:resnet50(num_classes=10)",
        f"{tmp_path.parent}/ms/models/resnet.py:resnet50(num_classes=10)",
    )
    assert first.inputs == [InputSpec((2, 3, 64, 64), "float32", -1.0, 1.0, None)]
    assert (first.checkpoint, first.rtol, first.atol, first.modes) == (
        tmp_path / "weights/r.pth",
        1e-3,
        1e-4,
        ("graph",),
    )
    assert (first.loss.torch, first.loss.lr, first.loss.target) == (
        "torch.nn.CrossEntropyLoss()",
        0.01,
        InputSpec((2,), "int64", 0.0, 10.0, "int32"),
    )
    assert (second.modes, second.checkpoint, second.loss) == (("pynative", "graph"), None, None)
    (tmp_path / "sub").mkdir()  # the configuration is found from a subfolder up
    chosen = select_specs(["tiny"], None, None, None, [], mode="pynative", cwd=tmp_path / "sub")
    assert [(s.name, s.modes) for s in chosen] == [("tiny", ("pynative",))]
    assert chosen[0].kwargs == {"return_all": False}
    chosen = select_specs(["tiny"], None, None, None, [], cwd=tmp_path, kwargs=["scale=0.5", "tag='x'"])
    assert chosen[0].kwargs == {"return_all": False, "scale": 0.5, "tag": "x"}
    with pytest.raises(WeightsError) as raised:
        select_specs(["tiny"], None, None, None, [], cwd=tmp_path, kwargs=["scale=open('x')"])
    assert raised.value.fields["where"] == "--kwarg"
    with pytest.raises(WeightsError) as raised:
        select_specs(["nope"], None, None, None, [], cwd=tmp_path)
    assert (raised.value.key, raised.value.fields["names"]) == (
        "compare.error.unknown_name",
        "resnet50, tiny",
    )


def test_command_line_inputs() -> None:
    assert cli_input("2x3x64x64") == InputSpec((2, 3, 64, 64))
    assert cli_input("2x7:int64:0:10:int32") == InputSpec((2, 7), "int64", 0.0, 10.0, "int32")
    assert cli_input("4:int64") == InputSpec((4,), "int64", 0.0, 10.0, None)
    for bad in ("2x3:complex7", "2:float32:1:0"):
        with pytest.raises(WeightsError) as raised:
            cli_input(bad)
        assert raised.value.key == "compare.error.config"


def test_no_configuration_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(WeightsError) as raised:
        select_specs([], None, None, None, [], cwd=tmp_path)
    assert raised.value.key == "compare.error.no_config"
    with pytest.raises(WeightsError) as raised:
        select_specs([], None, "t.py:Net()", None, ["2x3"], cwd=tmp_path)
    assert raised.value.fields["detail"] == "all three are needed together"


# MindSpore 2.10's message for the model of tests/weights/test_compare_models.py with
# ``with warnings.catch_warnings():`` in Block.construct (the path replaced)
GRAPH_MESSAGE = """Only support jit_class instance, but got PythonObject(\
type: <class 'warnings.catch_warnings'>, \
value: catch_warnings())

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/ccsrc/frontend/jit/ps/static_analysis/prim.cc:4700 EvalPrim

----------------------------------------------------
- The Traceback of Net Construct Code:
----------------------------------------------------
# 0 In file {path}:14, 15~24
        return self.b(x) + 1
               ^~~~~~~~~
# 1 In file {path}:8~10, 8~25
        with warnings.catch_warnings():
        ^
 (See file 'rank_0/om/analyze_fail.ir' for more details.)"""

GNET = """import warnings
import mindspore.nn as nn


class Block(nn.Cell):
    def construct(self, x):
        y = x
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = self.a(x)
        return y


class Net(nn.Cell):
    def construct(self, x):
        return self.b(x) + 1
"""


def test_a_graph_failure_is_placed_at_its_line_with_its_rule(tmp_path: Path) -> None:
    path = tmp_path / "gnet.py"
    path.write_text(GNET)
    message = GRAPH_MESSAGE.format(path=path)
    assert frames(message) == [(str(path), 14, 14), (str(path), 8, 10)]
    error = place({"type": "TypeError", "message": message})
    assert error.to_json() == {
        "message": "Only support jit_class instance, but got PythonObject("
        "type: <class 'warnings.catch_warnings'>, "
        "value: catch_warnings())",
        "type": "TypeError",
        "file": str(path),
        "line": 8,
        "end_line": 10,
        "source": "with warnings.catch_warnings():",
        "rule": "MSM702",
        "during": "forward",
    }


def test_verdict_and_exit_code() -> None:
    report = CompareReport("n", "t.py:Net()", "m.py:Net()", ["[2, 3] float32"], None, 1e-4, 1e-4)
    match = {"status": "match", "max_abs": 1e-6, "max_rel": 1e-5}
    layers = [
        {
            "name": "a",
            "call": 0,
            "torch_class": "Linear",
            "mindspore_class": "Dense",
            "status": "match",
            "max_abs": 1e-7,
            "max_rel": 1e-6,
        },
        {
            "name": "b",
            "call": 1,
            "torch_class": "ReLU",
            "mindspore_class": "ReLU",
            "status": "diverge",
            "max_abs": 0.5,
            "max_rel": 0.2,
            "alone": {"status": "diverge", "max_abs": 0.25, "max_rel": 0.1},
        },
    ]
    report.modes = [ModeResult("pynative", match, layers[:1]), ModeResult("graph", match)]
    assert (report.status, report.exit_code) == ("match", 0)
    report.modes[0] = ModeResult("pynative", {**match, "status": "diverge"}, layers)
    assert (report.status, report.exit_code) == ("diverge", 1)
    assert report.modes[0].first_divergence["name"] == "b"
    text = render_text(report, "en")
    assert "first layer that differs by its own error: b (call 2; torch ReLU, MindSpore Dense" not in text
    assert (
        "first layer that differs by its own error: b (call 2; torch ReLU, MindSpore ReLU): max abs error "
        "5.00e-01 in the whole model, 2.50e-01 alone on torch's input (DIFFER)" in text
    )
    assert text.endswith("Result: the models DIFFER.")
    # a layer whose difference comes from its input leaves the verdict a match; one not checked alone not
    accumulated = {**layers[1], "status": "accumulated", "alone": {"status": "match", "max_abs": 1e-7}}
    report.modes[0] = ModeResult("pynative", match, [layers[0], accumulated])
    assert (report.status, report.exit_code, report.modes[0].first_divergence) == ("match", 0, None)
    unchecked = {**layers[1], "status": "unchecked",
                 "alone": {"status": "unchecked", "why": "input", "position": "x", "type": "list"}}
    report.modes[0] = ModeResult("pynative", match, [layers[0], unchecked])
    assert (report.status, report.exit_code, report.modes[0].first_divergence) == ("diverge", 1, None)
    assert render_text(report, "en").splitlines()[2:5] == [
        "  PyNative: outputs match (max abs error 1.00e-06, max rel error 1.00e-05)",
        "    2 layer outputs compared: 1 differ in the whole model, 0 have no MindSpore cell of that name",
        "    1 of them could not be checked alone, so their own error is not known: b #2 (its input x is a "
        "list, not a tensor, None or a number)",
    ]
    report.modes[0] = ModeResult("pynative", {**match, "status": "diverge"}, layers)
    report.modes.append(
        ModeResult("graph", error=("weights.error.timeout", {"side": "mindspore", "seconds": "9"}))
    )
    assert (report.status, report.exit_code) == ("error", 2)


def test_the_tolerance_scales_with_the_tensor() -> None:
    import numpy as np

    from msmigrate.compare.worker_numbers import compare_all, compare_pair

    t = np.array([100.0, 0.001, -50.0])
    # 5e-3 off next to values of 100: float32 rounding of a sum, within 1e-4 · 100 + 1e-4
    assert compare_pair(t, t + [0.0, 0.005, 0.0], 1e-4, 1e-4) == {
        "status": "match", "reason": None, "max_abs": 0.005, "max_rel": 0.005 / 100.0, "detail": None}
    assert compare_pair(t, t + [0.0, 0.02, 0.0], 1e-4, 1e-4)["status"] == "diverge"
    assert compare_pair(np.array([1.0, np.nan]), np.array([1.0, 2.0]), 1e-4, 1e-4)["reason"] == "nan_inf"
    assert compare_pair(np.ones((2, 3)), np.ones((3, 2)), 1e-4, 1e-4)["detail"] == "shape [2, 3] vs [3, 2]"
    both = compare_all([(np.arange(3), "int64")], [(np.arange(3, dtype=np.int32), "int32")], 1e-4, 1e-4)
    assert (both["status"], both["detail"]) == ("match", "dtype 0: int64 vs int32")
    assert compare_all([(t, "float32")], [], 1e-4, 1e-4)["reason"] == "structure"


DENSE = """import mindspore
from mindspore import nn


class Block(nn.CellDict):
    def construct(self, x):
        for _, layer in self.items():
            x = layer(x)
        return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell([Block(), nn.ReLU()])

    def construct(self, x):
        return self.features(x)
"""

NOT_CALLABLE = """The object is not callable. Please check code.

----------------------------------------------------
- The Traceback of Net Construct Code:
----------------------------------------------------
# 0 In file {path}:18, 15~31
        return self.features(x)
               ^~~~~~~~~~~~~~~~
# 1 In file {lib}/mindspore/nn/layer/container.py:303, 25~41
            input_data = cell(input_data)
"""


def test_a_called_celldict_is_placed_at_its_class_with_msm709(tmp_path: Path) -> None:
    # MindSpore names the call (inside its own SequentialCell), not the class: the class flagged by MSM709
    path = tmp_path / "dense.py"
    path.write_text(DENSE)
    reply = {"type": "ValueError", "message": NOT_CALLABLE.format(path=path, lib=tmp_path / "site")}
    assert place(reply, path).to_json() == {
        "message": "The object is not callable. Please check code.",
        "type": "ValueError",
        "file": str(path),
        "line": 5,
        "end_line": 5,
        "source": "class Block(nn.CellDict):",
        "rule": "MSM709",
        "during": "forward",
    }
    # without such a class, the innermost frame as before, without a rule
    path.write_text(DENSE.replace("nn.CellDict", "nn.Cell"))
    assert (place(reply, path).line, place(reply, path).rule) == (303, None)
