"""MSM533's fix safety per form (``rules/framework/_inplace_safety.py``): a form is safe where the tensor
the in-place call changes is a new one nothing else holds, so the out-of-place form computes the same. The
safe forms, fixed with safe fixes only, run in MindSpore as torch runs them; the forms kept unsafe (a view,
another name for the tensor, the caller's tensor, a loop, a module that gives its input back, a write-back
into a view or into a tensor a view was taken of) are negative controls: their fix, applied anyway, gives
what torch does not, so the check that passes the safe forms can fail."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from run_support import assert_same, needs_frameworks, run_both

from msmigrate.fixes.project import FixOptions, fix_paths

SAFE = '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        y = F.relu(self.fc1(x), inplace=True)
        h = self.bn(x)
        out = F.silu(h, inplace=True)
        doubled = x * 2 - 1
        clipped = F.hardtanh(doubled, inplace=True)
        return y, out, clipped, x


def masks(n):
    causal = torch.empty(n, n).fill_(-1.5).triu_(1)
    lower = torch.ones(n, n).tril_(-1)
    scale = torch.zeros((1, 1, n)).fill_(0.25)
    cleared = torch.ones(n).float().zero_()
    return causal, lower, scale, cleared


def draws():
    return torch.empty(300, 300).normal_(std=0.5), torch.zeros(300, 300).uniform_(-2.0, 3.0)


def causal(n):
    mask = torch.empty(n, n)
    mask.fill_(-2.0)
    mask.triu_(1)
    return mask
'''
# as msmigrate fix writes it with safe fixes only: every MSM533 form here is safe
SAFE_FIXED = '''\
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = mindspore.mint.nn.Linear(4, 4)
        self.bn = mindspore.nn.BatchNorm1d(4)

    def construct(self, x):
        y = mindspore.mint.nn.functional.relu(self.fc1(x))
        h = self.bn(x)
        out = mindspore.mint.nn.functional.silu(h)
        doubled = x * 2 - 1
        clipped = mindspore.ops.hardtanh(doubled)
        return y, out, clipped, x


def masks(n):
    causal = mindspore.ops.full_like(mindspore.mint.empty(n, n), -1.5).triu(1)
    lower = mindspore.mint.ones((n, n)).tril(-1)
    scale = mindspore.ops.full_like(mindspore.mint.zeros((1, 1, n)), 0.25)
    cleared = mindspore.ops.zeros_like(mindspore.mint.ones(n).float())
    return causal, lower, scale, cleared


def draws():
    return mindspore.ops.normal((300, 300), 0.0, 0.5), mindspore.ops.uniform((300, 300), ''' \
    '''mindspore.tensor(float(-2.0)), mindspore.tensor(float(3.0)))


def causal(n):
    mask = mindspore.mint.empty(n, n)
    mask.assign_value(mindspore.ops.full_like(mask, -2.0))
    mask.assign_value(mask.triu(1))
    return mask
'''

UNSAFE = '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


def view(z):
    x = z * 1
    v = x.view(-1)
    out = F.relu(v, inplace=True)
    return out, x


def alias(z):
    x = z * 1
    kept = x
    out = F.relu(x, inplace=True)
    return out, kept


def param(x):
    return F.relu(x, inplace=True)


def caller(z):
    x = z * 1
    y = param(x)
    return y, x


def loop(z):
    x = z * 1
    seen = []
    for _ in range(2):
        seen.append(x * 1)
        y = F.relu(x, inplace=True)
    return seen[0], seen[1], y


class Passing(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(nn.Identity())

    def forward(self, x):
        s = self.seq(x)
        return F.relu(s, inplace=True), x


def viewed_receiver(z):
    x = z * 1
    cleared = x.view(2, 3).zero_()
    return cleared, x


def write_back(z):
    x = z * 1
    row = x[0]
    row.fill_(0.5)
    return row, x


def kept_row(z):
    mask = z * 1
    keep = mask[0]
    mask.fill_(2.0)
    return keep, mask
'''
UNSAFE_REASONS = [  # (the fix's title key, the input it names): every one unsafe
    ("fix.inplace_argument.unsafe.unknown", "v"),  # v is a view of x
    ("fix.inplace_argument.unsafe.shared", "x"),  # kept is x
    ("fix.inplace_argument.unsafe.parameter", "x"),  # the caller's x
    ("fix.inplace_argument.unsafe.loop", "x"),  # seen.append(x * 1) on the next pass
    ("fix.inplace_argument.unsafe.unknown", "s"),  # nn.Sequential may give its input back (here it does)
    ("fix.inplace_method.unsafe.unknown", "x.view(2, 3)"),  # x's storage
    ("fix.inplace_method.unsafe.statement", "row"),  # a view of x
    ("fix.inplace_method.unsafe.statement", "mask"),  # keep is a view of it
]


def _applied(tmp_path: Path, source: str, unsafe: bool) -> list[tuple[str, str, str]]:
    """(title key, the input named, safety) of each MSM533 fix ``msmigrate fix`` applied."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "model.py").write_text(source, encoding="utf-8")
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6", unsafe=unsafe))
    return sorted((fix.title_key, fix.title_args["input"], str(fix.safety)) for record in result.files
                  for fix in record.applied if fix.rule == "MSM533")


def test_the_safe_forms_are_applied_with_safe_fixes_only(tmp_path: Path) -> None:
    assert _applied(tmp_path, SAFE, unsafe=False) == sorted([
        ("fix.inplace_argument", "self.fc1(x)", "safe"), ("fix.inplace_argument", "h", "safe"),
        ("fix.inplace_argument", "doubled", "safe"),
        ("fix.inplace_method", "mindspore.mint.empty(n, n)", "safe"),  # fill_, then triu_ on its value:
        ("fix.inplace_method", "mindspore.ops.full_like(mindspore.mint.…", "safe"),
        ("fix.inplace_method", "mindspore.mint.ones((n, n))", "safe"),
        ("fix.inplace_method", "mindspore.mint.zeros((1, 1, n))", "safe"),
        ("fix.inplace_method", "mindspore.mint.ones(n).float()", "safe"),
        ("fix.inplace_method", "mindspore.mint.empty(300, 300)", "safe"),
        ("fix.inplace_method", "mindspore.mint.zeros((300, 300))", "safe"),
        ("fix.inplace_method.assign", "mask", "safe"), ("fix.inplace_method.assign", "mask", "safe"),
    ])
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == SAFE_FIXED


def test_the_other_forms_are_unsafe_and_say_why(tmp_path: Path) -> None:
    assert _applied(tmp_path / "safe", UNSAFE, unsafe=False) == []
    assert _applied(tmp_path / "unsafe", UNSAFE, unsafe=True) == [
        (key, name, "unsafe") for key, name in sorted(UNSAFE_REASONS)]


def test_an_input_read_again_gets_no_fix(tmp_path: Path) -> None:
    source = ("import torch.nn.functional as F\n\n\ndef f(z):\n    x = z * 1\n"
              "    y = F.relu(x, inplace=True)\n    return y + x\n")
    assert _applied(tmp_path, source, unsafe=True) == []


def test_the_unsafe_titles_name_the_input() -> None:
    from msmigrate.fixes.model import Fix

    fix = Fix("MSM533", "fix.inplace_argument.unsafe.parameter", [], {"input": "x"})
    assert fix.title("en") == (
        "Compute it out of place (unsafe: x is a parameter of the function; torch's in-place call also "
        "changes the caller's tensor, the out-of-place form does not)")
    assert fix.title("zh").startswith("改为非原地计算（不安全：x 是函数的参数")


@pytest.mark.slow
@needs_frameworks
def test_the_safe_forms_compute_as_torch(tmp_path: Path) -> None:
    setup = {
        "torch": "def run(x):\n    m = Net().eval()\n    with torch.no_grad():\n"
                 "        m.fc1.weight.copy_(torch.eye(4) * 0.5)\n        m.fc1.bias.fill_(0.1)\n"
                 "        return [*m(x), *masks(5), causal(4)]\n\n\n"
                 "def stats():\n    return [tensor(np.array([*a.shape, a.mean(), a.std(), a.min(), a.max()], "
                 "np.float32)) for a in (d.numpy() for d in draws())]\n",
        "mindspore": "def run(x):\n    m = Net()\n    m.set_train(False)\n"
                     "    m.fc1.weight.set_data(tensor(np.eye(4, dtype=np.float32) * 0.5))\n"
                     "    m.fc1.bias.set_data(tensor(np.full(4, 0.1, np.float32)))\n"
                     "    return [*m(x), *masks(5), causal(4)]\n\n\n"
                     "def stats():\n    return [tensor(np.array([*a.shape, a.mean(), a.std(), a.min(), "
                     "a.max()], np.float32)) for a in (d.asnumpy() for d in draws())]\n",
    }
    outputs = run_both(tmp_path / "values", SAFE, "run(t(3, 4))", unsafe=False, setup=setup)
    assert_same(outputs, 1e-5)  # the input x (the last output of Net) unchanged on both sides
    draws = run_both(tmp_path / "draws", SAFE, "stats()", unsafe=False, setup=setup)
    # the same shape, dtype and distribution: N(0, 0.5) and U[-2, 3) (90,000 draws each)
    for want, got in zip(draws["torch"], draws["mindspore"], strict=True):
        assert got.dtype == want.dtype == np.float32
        np.testing.assert_array_equal(got[:2], [300, 300])
        np.testing.assert_allclose(got[2:4], want[2:4], atol=0.02)
    assert draws["mindspore"][1][4] >= -2.0 and draws["mindspore"][1][5] < 3.0
    assert draws["torch"][0][3] == pytest.approx(0.5, abs=0.01)


@pytest.mark.slow
@needs_frameworks
def test_the_unsafe_forms_fixed_anyway_compute_otherwise(tmp_path: Path) -> None:
    """The negative controls: each unsafe form's out-of-place rewrite leaves a tensor torch changed."""
    expression = ("[*view(d([-1.0, 2.0])), *alias(d([-1.0, 2.0])), *caller(d([-1.0, 2.0])), "
                  "*loop(d([-1.0, 2.0])), *Passing()(d([-1.0, 2.0])), "
                  "*viewed_receiver(d([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])), "
                  "*write_back(d([[1.0, 2.0], [3.0, 4.0]])), *kept_row(d([[1.0, 2.0], [3.0, 4.0]]))]")
    outputs = run_both(tmp_path, UNSAFE, expression, unsafe=True)
    same = [bool(np.array_equal(a, b)) for a, b in zip(outputs["torch"], outputs["mindspore"], strict=True)]
    # view: out, x | alias: out, kept | caller: y, x | loop: seen[0], seen[1], y | Passing: out, x |
    # viewed_receiver: cleared, x | write_back: row, x | kept_row: keep, mask
    assert same == [True, False, True, False, True, False, True, False, True, True, False, True, False,
                    True, False, False, True]
