"""``x.detach()`` → ``mindspore.ops.stop_gradient(x)`` (MSM201) is safe per call
(``rules/missing/_detach_safety.py``): where ``x`` is a new tensor nothing else holds (whisper's
``qk = qk.detach()`` after ``qk = qk.float()`` and ``F.softmax(qk)``; its kv-cache's
``torch.cat([...]).detach()``). MindSpore 2.10's Tensor has no ``detach``. The safe forms, fixed with safe
fixes only, give torch's values and gradients (none through the detached value); the forms kept unsafe are
negative controls: torch's detached tensor shares the input's memory, and so does MindSpore's for a write
by index (``y[0] = 5.0``), but the in-place method fixed anyway (``y.fill_(5.0)`` →
``y.assign_value(ops.full_like(y, 5.0))``) gives ``y`` new memory: the change reaches ``x`` in torch only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from run_support import applied_fixes, assert_same, needs_frameworks, run_both

SAFE = '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(4, 4)

    def forward(self, x, mask=None):
        q = self.q(x)
        qk = q @ q.transpose(-1, -2)
        if mask is not None:
            qk = qk + mask
        qk = qk.float()
        w = F.softmax(qk, dim=-1)
        out = w @ q
        qk = qk.detach()
        return out, qk


def cached(a, b):
    return torch.cat([a, b], dim=1).detach()


def weighted(x: torch.Tensor):
    y = x * x
    z = y.detach()
    return (z * x).sum()
'''
SAFE_FIXED_LINES = (
    "        qk = mindspore.ops.stop_gradient(qk)\n",
    "    return mindspore.ops.stop_gradient(mindspore.mint.cat([a, b], dim=1))\n",
    "    z = mindspore.ops.stop_gradient(y)\n",
)
UNSAFE = '''\
import torch


def shared(z: torch.Tensor):
    x = z * 1
    y = x.detach()
    y.fill_(5.0)
    return x, y


def param(x: torch.Tensor):
    return x.detach()


def looped(z: torch.Tensor):
    x = z * 1
    out = []
    for _ in range(2):
        out.append(x.detach())
    return out


def viewed(z: torch.Tensor):
    x = z.view(-1)
    return x.detach()
'''
UNSAFE_REASONS = [  # (title key, the receiver named)
    ("fix.pattern.receiver_function.unsafe.held", "x"),  # x is read after: it shares y's memory in torch
    ("fix.pattern.receiver_function.unsafe.parameter", "x"),  # the caller's tensor
    ("fix.pattern.receiver_function.unsafe.loop", "x"),
    ("fix.pattern.receiver_function.unsafe.held", "x"),  # a view of z
]


def _applied(tmp_path: Path, source: str, unsafe: bool) -> list[tuple[str, str]]:
    """(title key, safety) of each ``.detach()`` fix ``msmigrate fix`` applied, and the receiver named."""
    return sorted((fix.title_key, fix.title_args.get("input", ""), str(fix.safety))
                  for fix in applied_fixes(tmp_path, source, unsafe)
                  if fix.title_key.startswith("fix.pattern.receiver_function"))


def test_the_safe_forms_are_applied_with_safe_fixes_only(tmp_path: Path) -> None:
    assert _applied(tmp_path, SAFE, unsafe=False) == [("fix.pattern.receiver_function", "", "safe")] * 3
    text = (tmp_path / "model.py").read_text(encoding="utf-8")
    assert all(line in text for line in SAFE_FIXED_LINES) and "torch" not in text


def test_the_other_forms_are_unsafe_and_say_why(tmp_path: Path) -> None:
    assert _applied(tmp_path / "safe", UNSAFE, unsafe=False) == []
    assert _applied(tmp_path / "unsafe", UNSAFE, unsafe=True) == [
        (key, name, "unsafe") for key, name in sorted(UNSAFE_REASONS)]


def test_the_unsafe_titles_say_why() -> None:
    from msmigrate.fixes.model import Fix

    fix = Fix("MSM201", "fix.pattern.receiver_function.unsafe.held", [],
              {"method": "detach", "name": "mindspore.ops.stop_gradient", "input": "x"})
    assert fix.title("en") == (
        "Rewrite .detach() as mindspore.ops.stop_gradient(…) (unsafe: x may be held by other code; torch's "
        "detach shares its memory, and an in-place change through one, written back with assign_value in "
        "MindSpore, is not seen through the other)")
    assert fix.title("zh").startswith("将 .detach() 改写为 mindspore.ops.stop_gradient(…)（不安全：x 可能被")


@pytest.mark.slow
@needs_frameworks
def test_the_safe_forms_compute_as_torch(tmp_path: Path) -> None:
    setup = {
        "torch": "def gradient(x):\n    x = x.clone().requires_grad_()\n    weighted(x).backward()\n"
                 "    return x.grad\n\n\n"
                 "def run(x, mask):\n    m = set_all(Attention()).eval()\n"
                 "    return [*m(x), *m(x, mask), cached(x, mask), weighted(x), x * x, gradient(x)]\n",
        "mindspore": "def gradient(x):\n    return mindspore.grad(weighted)(x)\n\n\n"
                     "def run(x, mask):\n    m = set_all(Attention())\n    m.set_train(False)\n"
                     "    return [*m(x), *m(x, mask), cached(x, mask), weighted(x), x * x, gradient(x)]\n",
    }
    outputs = run_both(tmp_path, SAFE, "run(t(3, 4), t(3, 3))", unsafe=False, setup=setup)
    assert_same(outputs, 1e-5)
    for side in ("torch", "mindspore"):  # d/dx sum(stop(x²)·x) = x², not 3x²: none through the detached x²
        np.testing.assert_allclose(outputs[side][-1], outputs[side][-2], rtol=1e-6)


@pytest.mark.slow
@needs_frameworks
def test_the_unsafe_forms_fixed_anyway_compute_otherwise(tmp_path: Path) -> None:
    outputs = run_both(tmp_path, UNSAFE, "shared(d([1.0, 2.0]))", unsafe=True)
    (x_t, y_t), (x_m, y_m) = outputs["torch"], outputs["mindspore"]
    np.testing.assert_array_equal(y_t, [5.0, 5.0])
    np.testing.assert_array_equal(y_m, [5.0, 5.0])
    np.testing.assert_array_equal(x_t, [5.0, 5.0])  # torch: the write through y reaches x
    np.testing.assert_array_equal(x_m, [1.0, 2.0])  # MindSpore: assign_value gave y new memory
