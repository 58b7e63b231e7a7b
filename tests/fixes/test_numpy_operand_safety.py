"""MSM529's fix safety per form (``rules/framework/msm529_numpy_operands.py``): ``L * R`` → ``R * L`` (``+``
alike) is safe where ``L`` is a NumPy float and ``R`` a float32 or integer tensor as the source shows
(whisper's ``-log_timescale_increment * torch.arange(channels // 2)``). The safe forms, fixed with safe fixes
only, give torch's values and dtypes bit for bit under MindSpore 2.10 (100 scalars from 1e-13 to 1e13, both
signs); the forms kept unsafe are negative controls: a float64 tensor (MindSpore rounds the scalar to
float32 first) and a NumPy bool with an integer tensor (another dtype), fixed anyway, compute otherwise."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from run_support import applied_fixes, needs_frameworks, run_both

SAFE = '''\
import numpy as np
import torch


def sinusoids(length, channels, max_timescale=10000):
    log_timescale_increment = np.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
    return inv_timescales


def grid(values):
    out = []
    for v in values:
        s = np.float64(v)
        out.append(s * torch.arange(4000))
        out.append(s + torch.arange(4000))
        out.append(-s * torch.arange(0.5, 400.5))
        out.append(s + torch.arange(0.5, 400.5)[1:])
    return out


class Scale(torch.nn.Module):
    def forward(self, t):
        return np.sqrt(2.0) * t.float(), np.log(3.0) + t.long()
'''
SAFE_FIXED = '''\
import numpy as np
import mindspore


def sinusoids(length, channels, max_timescale=10000):
    log_timescale_increment = np.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = mindspore.mint.exp(mindspore.ops.arange(channels // 2) * -log_timescale_increment)
    return inv_timescales


def grid(values):
    out = []
    for v in values:
        s = np.float64(v)
        out.append(mindspore.ops.arange(4000) * s)
        out.append(mindspore.ops.arange(4000) + s)
        out.append(mindspore.ops.arange(0.5, 400.5) * -s)
        out.append(mindspore.ops.arange(0.5, 400.5)[1:] + s)
    return out


class Scale(mindspore.nn.Cell):
    def construct(self, t):
        return t.float() * np.sqrt(2.0), t.long() + np.log(3.0)
'''
UNSAFE = '''\
import numpy as np
import torch


def wide(t):
    return np.float64(0.3) * torch.arange(4, dtype=torch.float64)


def flag():
    return np.bool_(True) * torch.arange(3)


class Unknown(torch.nn.Module):
    def forward(self, t):
        s = np.log(10000) / 255
        return s * t
'''


def _applied(tmp_path: Path, source: str, unsafe: bool) -> list[tuple[str, str, str]]:
    """(title key, text written, safety) of each MSM529 fix ``msmigrate fix`` applied."""
    return sorted((fix.title_key, fix.title_args["text"], str(fix.safety))
                  for fix in applied_fixes(tmp_path, source, unsafe) if fix.rule == "MSM529")


def test_the_safe_forms_are_applied_with_safe_fixes_only(tmp_path: Path) -> None:
    assert _applied(tmp_path, SAFE, unsafe=False) == sorted([
        ("fix.numpy_operand", "mindspore.ops.arange(channels // 2) * -log_timescale_increment", "safe"),
        ("fix.numpy_operand", "mindspore.ops.arange(4000) * s", "safe"),
        ("fix.numpy_operand", "mindspore.ops.arange(4000) + s", "safe"),
        ("fix.numpy_operand", "mindspore.ops.arange(0.5, 400.5) * -s", "safe"),
        ("fix.numpy_operand", "mindspore.ops.arange(0.5, 400.5)[1:] + s", "safe"),
        ("fix.numpy_operand", "t.float() * np.sqrt(2.0)", "safe"),
        ("fix.numpy_operand", "t.long() + np.log(3.0)", "safe"),
    ])
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == SAFE_FIXED


def test_the_other_forms_are_unsafe_and_say_why(tmp_path: Path) -> None:
    assert _applied(tmp_path / "safe", UNSAFE, unsafe=False) == []
    assert _applied(tmp_path / "unsafe", UNSAFE, unsafe=True) == sorted([
        ("fix.numpy_operand.unsafe.dtype",
         "mindspore.ops.arange(4, dtype=mindspore.float64) * np.float64(0.3)",
         "unsafe"),  # float64: MindSpore rounds 0.3 to float32 first
        ("fix.numpy_operand.unsafe.value", "mindspore.ops.arange(3) * np.bool_(True)", "unsafe"),
        ("fix.numpy_operand.unsafe.dtype", "t * s", "unsafe"),  # t's dtype is not shown
    ])


def test_the_unsafe_titles_say_why() -> None:
    from msmigrate.fixes.model import Fix

    fix = Fix("MSM529", "fix.numpy_operand.unsafe.dtype", [], {"text": "t * s"})
    assert fix.title("en") == (
        "Write the tensor first: t * s (unsafe: the tensor's dtype is not shown; MindSpore rounds the NumPy "
        "value to float32 first, so a float16, bfloat16 or float64 tensor may give other values)")
    assert fix.title("zh").startswith("把张量写在前面：t * s（不安全：看不出张量的 dtype")


_VALUES = "list(np.exp(np.linspace(-30.0, 30.0, 50))) + list(-np.exp(np.linspace(-29.9, 29.9, 50)))"


@pytest.mark.slow
@needs_frameworks
def test_the_safe_forms_compute_as_torch_bit_for_bit(tmp_path: Path) -> None:
    expression = f"[sinusoids(5, 8), *Scale()(d([0.3, -1.7, 2.5])), *grid({_VALUES})]"
    outputs = run_both(tmp_path, SAFE, expression, unsafe=False)
    assert len(outputs["torch"]) == len(outputs["mindspore"]) == 3 + 100 * 4
    for index, (want, got) in enumerate(zip(outputs["torch"], outputs["mindspore"], strict=True)):
        assert (got.shape, got.dtype) == (want.shape, want.dtype)
        if index:  # the operations swapped: bit for bit
            np.testing.assert_array_equal(got, want)
        else:  # sinusoids: the same exponent; MindSpore 2.10 CPU exp is off by up to 2.4e-6 (relative)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=0)
    # sinusoids, Scale (float32 · float, int64 + float), then arange(4000) · s, + s (float32), …
    assert [a.dtype for a in outputs["torch"][:5]] == [np.float32] * 5


@pytest.mark.slow
@needs_frameworks
def test_the_unsafe_forms_fixed_anyway_compute_otherwise(tmp_path: Path) -> None:
    expression = "[wide(None), flag(), Unknown()(tensor(np.array([3.0])))]"  # a float64 input
    outputs = run_both(tmp_path, UNSAFE, expression, unsafe=True)
    (wide_t, flag_t, unknown_t), (wide_m, flag_m, unknown_m) = outputs["torch"], outputs["mindspore"]
    assert wide_t.dtype == wide_m.dtype == np.float64
    assert wide_t[3] == 0.3 * 3 and wide_m[3] == np.float64(np.float32(0.3)) * 3  # another value
    assert (flag_t.dtype, flag_m.dtype) == (np.float32, np.int64)  # the same numbers, another dtype
    np.testing.assert_array_equal(flag_t, flag_m)
    scale = np.log(10000) / 255
    assert unknown_t.dtype == unknown_m.dtype == np.float64
    assert unknown_t[0] == scale * 3 and unknown_m[0] == np.float64(np.float32(scale)) * 3 != scale * 3
