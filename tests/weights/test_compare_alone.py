"""``msmigrate compare`` names a layer as the first divergence only when its own error exceeds the tolerance
on the same input (issue 25, pytorchcv's mixnet_s): each layer whose output differs in the whole model is
run alone on torch's inputs of that call.

The models: ``big`` (a Linear whose first output channel is scaled by 2e4, so its outputs reach ~1e4 while
the other channels stay near 0) feeds a sigmoid, then ``head`` gets ``big · sigmoid``. The migrated
``big`` adds and subtracts 65536 in float32: the values are rounded to float32's spacing there (~3.9e-3),
far inside ``big``'s own tolerance (1e-4 + 1e-4 · max|t| ≈ 0.4), as the rounding of a float32 sum of large
terms is. The sigmoid turns that into ~2.4e-4 at the channels near 0, past the sigmoid's tolerance
(1e-4 + 1e-4 · 1): the former criterion called the sigmoid the first divergence. Alone on torch's input the
sigmoid matches, so it is ``accumulated``, and the models match. A genuine change after it (``head``'s
weight used transposed) is still named; a layer fed a tuple is "not checked alone".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import needs_frameworks

from msmigrate.compare.config import CompareSpec, InputSpec
from msmigrate.compare.markdown import render_markdown
from msmigrate.compare.report import render_text, summary_line

pytestmark = [pytest.mark.slow, needs_frameworks]

INPUTS = [InputSpec((4, 16), "float32", -1.0, 1.0)]

TORCH_NET = '''
import torch
import torch.nn as nn


class Pair(nn.Module):
    def forward(self, pair):
        return pair[0] * pair[1]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.big = nn.Linear(16, 8)
        with torch.no_grad():
            self.big.weight[0] *= 2e4
        self.gate = nn.Sigmoid()
        self.pair = Pair()
        self.head = nn.Linear(8, 8)

    def forward(self, x):
        h = self.big(x)
        return self.head(self.pair((h, self.gate(h))))
'''

MS_NET = '''
import mindspore
import mindspore.nn as nn


class Big(nn.Dense):
    """Dense, its result rounded as a float32 sum of large terms rounds it (within its tolerance)."""

    def construct(self, x):
        return (super().construct(x) + 65536.0) - 65536.0


class TransposedDense(nn.Dense):
    """A genuine migration error: the weight used as stored (x @ W) where torch's Linear uses x @ W.T."""

    def construct(self, x):
        return mindspore.ops.matmul(x, self.weight) + self.bias


class Pair(nn.Cell):
    def construct(self, pair):
        return pair[0] * pair[1] PAIR_CHANGE


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.big = Big(16, 8)
        self.gate = nn.Sigmoid()
        self.pair = Pair()
        self.head = HEAD(8, 8)

    def construct(self, x):
        h = self.big(x)
        return self.head(self.pair((h, self.gate(h))))
'''


def _compare(tmp_path: Path, head: str = "nn.Dense", pair_change: str = "") -> tuple:
    from msmigrate.compare.service import compare_models

    (tmp_path / "tnet.py").write_text(TORCH_NET)
    (tmp_path / "msnet.py").write_text(MS_NET.replace("HEAD", head).replace("PAIR_CHANGE", pair_change))
    spec = CompareSpec("alone", f"{tmp_path}/tnet.py:Net()", f"{tmp_path}/msnet.py:Net()", INPUTS,
                       modes=("pynative",))
    report = compare_models(spec)
    assert report.error is None, report.to_json()
    (mode,) = report.modes
    return report, mode, {row["name"]: row for row in mode.layers}


def test_a_sigmoid_carrying_its_input_error_is_accumulated_not_a_divergence(tmp_path: Path) -> None:
    report, mode, rows = _compare(tmp_path)
    assert [(r["name"], r["status"]) for r in mode.layers] == [
        ("big", "match"), ("gate", "accumulated"), ("pair", "match"), ("head", "match"), ("", "match")]
    gate = rows["gate"]
    # the former criterion: a difference past the sigmoid's own tolerance in the whole model …
    assert gate["max_abs"] > 1e-4 + 1e-4 * 1.0 and gate["reason"] == "values"
    # … that run alone on torch's input is float32 rounding of the sigmoid itself
    assert gate["alone"]["status"] == "match" and gate["alone"]["max_abs"] < 1e-6
    assert rows["big"]["max_abs"] > gate["max_abs"] and "alone" not in rows["big"]  # matched: not re-run
    assert (report.status, report.exit_code, mode.first_divergence) == ("match", 0, None)
    text = render_text(report, "en").splitlines()
    assert text[4] == (
        "    5 layer outputs compared: 1 differ in the whole model, 0 have no MindSpore cell of that name")
    assert text[5] == (
        "    1 of them differ only through their input (float32 rounding carried from earlier layers, not a "
        "divergence): run alone on torch's input of that call, each is within the tolerance: "
        f"gate (max abs error {gate['max_abs']:.2e}, alone {gate['alone']['max_abs']:.2e})")
    assert text[-1] == "Result: the models match."
    zh = render_text(report, "zh")
    assert "其中 1 个仅因输入而不一致" in zh and "结果：两个模型一致。" in zh


def test_a_genuine_change_after_it_is_still_named(tmp_path: Path) -> None:
    report, mode, rows = _compare(tmp_path, head="TransposedDense")
    assert [(r["name"], r["status"]) for r in mode.layers] == [
        ("big", "match"), ("gate", "accumulated"), ("pair", "match"), ("head", "diverge"), ("", "downstream")]
    assert mode.first_divergence is rows["head"] and rows["head"]["alone"]["status"] == "diverge"
    assert "alone" not in rows[""]  # after the first divergence nothing is run again
    assert (report.status, report.exit_code) == ("diverge", 1)
    head = rows["head"]
    line = (
        "first layer that differs by its own error: head (call 1; torch Linear, MindSpore TransposedDense): "
        f"max abs error {head['max_abs']:.2e} in the whole model, {head['alone']['max_abs']:.2e} alone on "
        "torch's input (DIFFER)")
    assert "    " + line in render_text(report, "en").splitlines()
    assert summary_line(report, "en").endswith("first layer that differs by its own error head")
    page = render_markdown(report, "en")
    assert "| 5 | `(model)` | Net | Net |" in page and page.count("differs, after the first") == 1


def test_a_layer_fed_a_tuple_is_not_checked_alone(tmp_path: Path) -> None:
    report, mode, rows = _compare(tmp_path, pair_change="+ 1.0")
    assert [(r["name"], r["status"]) for r in mode.layers] == [
        ("big", "match"), ("gate", "accumulated"), ("pair", "unchecked"), ("head", "accumulated"),
        ("", "diverge")]
    assert rows["pair"]["alone"] == {"status": "unchecked", "why": "input", "position": "1", "type": "tuple"}
    # head matches alone: its difference is pair's; the model as a whole, alone on its own input, is the
    # first layer known to differ by its own error
    assert mode.first_divergence is rows[""] and report.exit_code == 1
    text = render_text(report, "en").splitlines()
    assert ("    1 of them could not be checked alone, so their own error is not known: pair (its input 1 is "
            "a tuple, not a tensor, None or a number)") in text
    assert "    run alone it includes pair, not checked alone: its difference may come from there" in text
    zh = render_text(report, "zh")
    assert ("其中 1 个无法单独检查，因此无法判断误差是否来自其自身："
            "pair（其输入 1 是 tuple，不是张量、None 或数值）") in zh
    assert "单独运行时它包含未能单独检查的 pair：其不一致可能来自那里" in zh
