"""Structured inputs of ``msmigrate compare``: tuples, lists, dicts and ``None`` around tensor specs,
positional or by keyword, parsed from their text (never run), laid out for the workers, rejected with a
clear message in English and Chinese; and a real comparison of a model whose forward takes a tuple, a
``None`` and a keyword tensor (like segment-anything's ``PromptEncoder(points=(coords, labels), boxes=None,
masks=...)``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import needs_frameworks, run_cli

from msmigrate.compare.config import CompareSpec, InputSpec, Keyword, cli_input, load_specs, select_specs
from msmigrate.compare.inputs import layout, render
from msmigrate.compare.service import compare_models
from msmigrate.i18n import t
from msmigrate.weights.session import WeightsError

COORDS = InputSpec((1, 2, 2), "float32", 0.0, 64.0)
LABELS = InputSpec((1, 2), "int64", 0.0, 2.0)


@pytest.mark.parametrize(
    "text, value",
    [
        ("f32[2, 3, 64, 64]", InputSpec((2, 3, 64, 64))),
        ("i64[2,7](0, 10, ms=i32)", InputSpec((2, 7), "int64", 0.0, 10.0, "int32")),
        ("int64[4]", InputSpec((4,), "int64", 0.0, 10.0)),
        ("bf16[()](low=-2, high=2.5)", InputSpec((), "bfloat16", -2.0, 2.5)),
        ("u8[3](mindspore_dtype=int32)", InputSpec((3,), "uint8", 0.0, 10.0, "int32")),
        ("points=(f32[1,2,2](0, 64), i64[1,2](0, 2))", Keyword("points", (COORDS, LABELS))),
        ("boxes=None", Keyword("boxes", None)),
        ("None", None),
        ("masks = 1x1x16x16", Keyword("masks", InputSpec((1, 1, 16, 16)))),
        ("[f32[2], (None, True, -1, 0.5, 'x'), {'a': f32[1]}]",
         [InputSpec((2,)), (None, True, -1, 0.5, "x"), {"a": InputSpec((1,))}]),
        ("(f32[2],)", (InputSpec((2,)),)),
        ("2x7:int64:0:10:int32", InputSpec((2, 7), "int64", 0.0, 10.0, "int32")),
    ],
)
def test_inputs_are_parsed(text: str, value: object) -> None:
    assert cli_input(text) == value


@pytest.mark.parametrize(
    "text, key, part",
    [
        ("points=(f32[1, 2], c64[2])", "compare.error.input_dtype", "c64"),
        ("f32[2, -1]", "compare.error.input_shape", "f32[2, -1]"),
        ("f32[n]", "compare.error.input_shape", "f32[n]"),
        ("(f32, i64[2])", "compare.error.input_shape", "f32"),
        ("i64[2](10, 0)", "compare.error.input_range", "i64[2](10, 0)"),
        ("f32[2](ms=c64)", "compare.error.input_dtype", "c64"),
        ("f32[2](0, 1, seed=3)", "compare.error.input_range", "f32[2](0, 1, seed=3)"),
        ("(f32[2], open('x'))", "compare.error.input_syntax", "open('x')"),
        ("x=(f32[2]", "compare.error.input_syntax", "(f32[2]"),
        ("True", "compare.error.input_syntax", "True"),
        ("2x", "compare.error.input_syntax", "2x"),
        ("boxes=", "compare.error.input_syntax", "boxes="),
    ],
)
def test_bad_inputs_name_the_part_not_understood(text: str, key: str, part: str) -> None:
    with pytest.raises(WeightsError) as raised:
        cli_input(text)
    assert (raised.value.key, raised.value.fields) == (key, {"where": "--input", "text": text, "part": part})


def test_a_bad_input_reads_in_english_and_chinese() -> None:
    with pytest.raises(WeightsError) as raised:
        cli_input("points=(f32[1, 2], c64[2])")
    fields = raised.value.fields
    assert t(raised.value.key, "en", **fields) == (
        "--input: in the input points=(f32[1, 2], c64[2]), c64 is not a dtype; use one of f32 f16 f64 bf16 "
        "i64 i32 i16 i8 u8 bool (or float32, int64, ...)"
    )
    assert t(raised.value.key, "zh", **fields) == (
        "--input：输入 points=(f32[1, 2], c64[2]) 中的 c64 不是数据类型；请使用 f32 f16 f64 bf16 i64 i32 "
        "i16 i8 u8 bool 之一（或 float32、int64 等）"
    )
    run = run_cli("compare", "--torch", "t.py:N()", "--mindspore", "m.py:N()", "--input", "f32[2](5, 1)",
                  "--lang", "zh")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "输入 f32[2](5, 1) 中的 f32[2](5, 1) 不是有效的取值范围" in run.stderr


def test_the_workers_get_tensors_in_order_and_the_call_around_them() -> None:
    inputs = [InputSpec((1, 3)), Keyword("points", (COORDS, LABELS)), Keyword("boxes", None),
              Keyword("extra", {"k": [COORDS, 2]})]
    flat, arguments = layout(inputs)
    assert flat == [
        {"shape": [1, 3], "dtype": "float32", "low": -1.0, "high": 1.0, "mindspore_dtype": "float32"},
        {"shape": [1, 2, 2], "dtype": "float32", "low": 0.0, "high": 64.0, "mindspore_dtype": "float32"},
        {"shape": [1, 2], "dtype": "int64", "low": 0.0, "high": 2.0, "mindspore_dtype": "int64"},
        {"shape": [1, 2, 2], "dtype": "float32", "low": 0.0, "high": 64.0, "mindspore_dtype": "float32"},
    ]
    assert arguments == [
        {"name": None, "value": {"tensor": 0}},
        {"name": "points", "value": {"tuple": [{"tensor": 1}, {"tensor": 2}]}},
        {"name": "boxes", "value": {"none": True}},
        {"name": "extra", "value": {"dict": [["k", {"list": [{"tensor": 3}, {"value": 2}]}]]}},
    ]
    from msmigrate.compare.worker_common import arrange

    assert arrange(arguments, ["a", "b", "c", "d"], {"flag": True}) == (
        ["a"], {"points": ("b", "c"), "boxes": None, "extra": {"k": ["d", 2]}, "flag": True}
    )
    assert [render(i) for i in inputs] == [
        "[1, 3] float32", "points=(f32[1, 2, 2], i64[1, 2])", "boxes=None", "extra={'k': [f32[1, 2, 2], 2]}"
    ]


def test_text_inputs_in_pyproject_and_a_keyword_given_twice(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[[tool.msmigrate.compare]]\nname = 'prompt'\ntorch = 't.py:P()'\nmindspore = 'm.py:P()'\n"
        "inputs = [{shape = [1, 3]}, 'points=(f32[1, 2, 2](0, 64), i64[1, 2](0, 2))', 'boxes=None']\n"
        "kwargs = {boxes = 1}\n"
    )
    (spec,) = load_specs(tmp_path / "pyproject.toml")
    assert spec.inputs == [InputSpec((1, 3)), Keyword("points", (COORDS, LABELS)), Keyword("boxes", None)]
    with pytest.raises(WeightsError) as raised:
        select_specs([], None, None, None, [], cwd=tmp_path)
    assert (raised.value.key, raised.value.fields) == (
        "compare.error.input_twice", {"name": "boxes", "comparison": "prompt"}
    )


TORCH_PROMPT = '''
import torch
from torch import nn


class Prompt(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(2, 4)
        self.proj = nn.Linear(2, 4)
        self.mask = nn.Linear(3, 4)

    def forward(self, points, boxes, masks):
        coords, labels = points
        out = self.proj(coords / 64.0) + self.embed(labels)
        if boxes is not None:
            out = out + 1.0
        return out, self.mask(masks)
'''

MS_PROMPT = '''
import mindspore
from mindspore import nn


class Prompt(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(2, 4)
        self.proj = nn.Dense(2, 4)
        self.mask = nn.Dense(3, 4)

    def construct(self, points, boxes, masks):
        coords, labels = points
        out = self.proj(coords / 64.0) + self.embed(labels)
        if boxes is not None:
            out = out + 1.0
        return out, self.mask(masks)
'''


@pytest.mark.slow
@needs_frameworks
def test_a_model_taking_a_tuple_and_none_is_compared_in_both_modes(tmp_path: Path) -> None:
    (tmp_path / "tprompt.py").write_text(TORCH_PROMPT)
    (tmp_path / "mprompt.py").write_text(MS_PROMPT)
    run = run_cli(
        "compare", "--torch", f"{tmp_path}/tprompt.py:Prompt()",
        "--mindspore", f"{tmp_path}/mprompt.py:Prompt()",
        "--input", "points=(f32[1, 2, 2](0, 64), i64[1, 2](0, 2, ms=i32))", "--input", "boxes=None",
        "--input", "masks=f32[1, 3]", "--json",
    )
    assert run.returncode == 0, run.stdout + run.stderr
    (report,) = json.loads(run.stdout)["comparisons"]
    assert report["inputs"] == ["points=(f32[1, 2, 2], i64[1, 2])", "boxes=None", "masks=f32[1, 3]"]
    assert [(m["mode"], m["status"], m["outputs"]["shapes"]) for m in report["modes"]] == [
        ("pynative", "match", [[1, 2, 4], [1, 4]]),
        ("graph", "match", [[1, 2, 4], [1, 4]]),
    ]
    # the same tuple with boxes given: the branch taken differs from None, and both sides take it
    spec = CompareSpec(
        "boxes", f"{tmp_path}/tprompt.py:Prompt()", f"{tmp_path}/mprompt.py:Prompt()",
        [Keyword("points", (COORDS, InputSpec((1, 2), "int64", 0, 2, "int32"))),
         Keyword("boxes", InputSpec((1, 4))), Keyword("masks", InputSpec((1, 3)))],
        modes=("pynative",),
    )
    assert compare_models(spec).status == "match"


TORCH_EMPTY = '''
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        # uninitialized memory a checkpoint would fill (whisper's positional_embedding): here NaN and huge
        self.positional = nn.Parameter(torch.empty(3, 4))
        with torch.no_grad():
            self.positional[0, 0] = float("nan")
            self.positional[1, 1] = 1e30
        self.register_buffer("mask", torch.full((3, 3), float("-inf")).triu(1), persistent=False)
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        scores = (x + self.positional) @ (x + self.positional).transpose(-1, -2) + self.mask
        return self.proj(scores.softmax(-1) @ x)
'''

MS_EMPTY = '''
import numpy
import mindspore
from mindspore import mint, nn


class Decoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.positional = mindspore.Parameter(mint.zeros((3, 4)))
        self.mask = mindspore.Tensor(numpy.triu(numpy.full((3, 3), -numpy.inf, numpy.float32), 1))
        self.proj = mint.nn.Linear(4, 4)

    def construct(self, x):
        scores = (x + self.positional) @ (x + self.positional).swapaxes(-1, -2) + self.mask
        return self.proj(mint.softmax(scores, -1) @ x)
'''


@pytest.mark.slow
@needs_frameworks
def test_parameters_left_uninitialized_get_defined_values_and_buffers_keep_theirs(tmp_path: Path) -> None:
    """Without a checkpoint, a NaN or huge value in a torch parameter (uninitialized memory) would make both
    runs compare garbage; it gets seeded values, while the causal mask of -inf (a buffer) stays."""
    (tmp_path / "tempty.py").write_text(TORCH_EMPTY)
    (tmp_path / "mempty.py").write_text(MS_EMPTY)
    spec = CompareSpec("empty", f"{tmp_path}/tempty.py:Decoder()", f"{tmp_path}/mempty.py:Decoder()",
                       [InputSpec((3, 4))], modes=("pynative",))
    result = compare_models(spec)
    assert result.status == "match", result
    outputs = result.to_json()["modes"][0]["outputs"]
    assert outputs["max_abs"] is not None and outputs["max_abs"] < 1e-4  # numbers, not NaN against NaN


@needs_frameworks
def test_which_parameters_get_defined_values() -> None:
    import torch

    from msmigrate.compare.worker_torch import define_uninitialized

    namespace: dict = {}
    exec(compile(TORCH_EMPTY, "tempty.py", "exec"), namespace)  # noqa: S102 - the test's own model text
    model = namespace["Decoder"]()
    assert define_uninitialized(torch, model, 0) == ["positional"]
    positional = model.positional.detach()
    assert bool(torch.isfinite(positional).all()) and float(positional.abs().max()) < 1.0
    assert model.mask[0, 1].item() == float("-inf") and model.mask[1, 0].item() == 0.0
