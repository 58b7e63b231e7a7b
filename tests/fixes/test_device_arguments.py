"""A call passing ``inplace=True`` to a MindSpore function that keeps it is not a safe fix on CPU
(``knowledge/pair_facts.DEVICE_ARGUMENTS``, ``analysis/usage_claims.py``).

The pair ``F.relu`` → ``mint.nn.functional.relu`` passed its numeric check on CPU with ``inplace`` left False;
torchvision's DenseNet calls ``F.relu(features, inplace=True)``, which the safe rename wrote as
``mint.nn.functional.relu(features, inplace=True)``: MindSpore 2.10 runs that on the InplaceReLU kernel,
which it does not have on CPU. The program below, run on CPU, is the fact; the fix tests check the rename is
no longer safe there (nor by position), while ``inplace=False`` and a class's ``inplace`` (dropped) stay so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from run_support import fixed, needs_frameworks

# every function of mint.nn.functional and mindspore.ops taking ``inplace``, called with it on CPU
PROGRAM = '''
import inspect
import mindspore
import numpy as np
from mindspore import mint, ops

mindspore.runtime.launch_blocking()  # an error belongs to the call that raised it
x = mindspore.tensor(np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4))
extra = {"threshold": (0.5, 0.0)}
for prefix, module in (("mindspore.mint.nn.functional", mint.nn.functional), ("mindspore.ops", ops)):
    for name in sorted(dir(module)):
        function = getattr(module, name)
        if name.startswith("_") or inspect.isclass(function) or not callable(function):
            continue
        try:
            if "inplace" not in inspect.signature(function).parameters:
                continue
        except (TypeError, ValueError):
            continue
        for flag in (False, True):
            try:
                function(x.copy(), *extra.get(name, ()), inplace=flag).asnumpy()
                outcome = "ok"
            except Exception as error:  # noqa: BLE001 - the kernel's error is the outcome
                outcome = "unregistered" if "unregistered" in str(error) else "error"
            print(f"{prefix}.{name} {flag} {outcome}")
'''

DENSENET = '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 4))
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        features = self.features(x)
        out = F.relu(features, inplace=True)
        out = F.relu(out, True)
        out = F.relu(out, inplace=False)
        return self.act(out)
'''
# safe fixes only: the two calls passing inplace=True keep torch (MSM533's form is unsafe for them: an
# nn.Sequential may give back its input); inplace=False is renamed, nn.ReLU's inplace dropped
DENSENET_SAFE = '''\
import torch.nn.functional as F
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = mindspore.nn.SequentialCell([mindspore.mint.nn.Linear(4, 4)])
        self.act = mindspore.mint.nn.ReLU()

    def construct(self, x):
        features = self.features(x)
        out = F.relu(features, inplace=True)
        out = F.relu(out, True)
        out = mindspore.mint.nn.functional.relu(out, inplace=False)
        return self.act(out)
'''


@pytest.mark.slow
@needs_frameworks
def test_inplace_true_runs_no_kernel_on_cpu() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=600,
                          check=True)
    lines = sorted(line for line in done.stdout.splitlines() if line.startswith("mindspore."))
    outcomes = {tuple(line.split()[:2]): line.split()[2] for line in lines}
    names = sorted({name for name, _flag in outcomes})
    functional = ("dropout", "dropout2d", "elu", "hardtanh", "relu", "relu6", "silu", "threshold")
    assert names == [*(f"mindspore.mint.nn.functional.{n}" for n in functional), "mindspore.ops.relu"]
    # inplace=True never runs on CPU (InplaceReLU, InplaceSiLU, … or no kernel at all: dropout's)
    assert {name: outcomes[(name, "True")] for name in names} == {
        name: "error" if name.endswith("dropout2d") else "unregistered" for name in names}
    # the form the numeric check ran, inplace=False, runs for the pairs checked on CPU
    checked = ("mint.nn.functional.relu", "mint.nn.functional.silu", "ops.relu")
    assert [outcomes[(f"mindspore.{n}", "False")] for n in checked] == ["ok"] * 3


def test_inplace_true_is_not_a_safe_rename_on_cpu(tmp_path: Path) -> None:
    assert fixed(tmp_path, DENSENET, unsafe=False) == DENSENET_SAFE


def test_the_finding_says_why() -> None:
    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.knowledge.base import get_knowledge_base

    findings = analyze_source(DENSENET, "model.py", get_knowledge_base("2.6")).findings
    relu = sorted((f.line, f.resolution.safety.value, f.resolution.safety_reason) for f in findings
                  if f.torch_api == "torch.nn.functional.relu")
    assert relu == [(14, "unsafe", "no_kernel"), (15, "unsafe", "no_kernel"), (16, "safe", "verified")]
    message = next(f for f in findings if f.line == 14 and f.torch_api).message("en")
    assert ("on CPU, MindSpore 2.10 runs mindspore.mint.nn.functional.relu with inplace=True on an in-place "
            "kernel it does not have there (its check ran it with inplace=False)") in message


# ops.interpolate against torch's F.interpolate on CPU, per mode (the values the pair fact lists as torch's)
INTERPOLATE = '''
import numpy as np
import torch
import torch.nn.functional as F
import mindspore
from mindspore import ops

rng = np.random.default_rng(0)
inputs = {3: rng.standard_normal((2, 3, 77)).astype(np.float32),
          4: rng.standard_normal((2, 3, 7, 9)).astype(np.float32),
          5: rng.standard_normal((1, 2, 4, 5, 6)).astype(np.float32)}
sizes = {3: (100,), 4: (12, 5), 5: (6, 3, 8)}
modes = ((3, "nearest"), (3, "linear"), (4, "bilinear"), (4, "bicubic"), (4, "area"), (5, "trilinear"))
for rank, mode in modes:
    x = inputs[rank]
    want = F.interpolate(torch.from_numpy(x), size=sizes[rank], mode=mode).numpy()
    got = ops.interpolate(mindspore.tensor(x), size=sizes[rank], mode=mode).asnumpy()
    print(mode, float(np.abs(got - want).max()), np.allclose(got, want, rtol=1e-5, atol=1e-6))
'''


@pytest.mark.slow
@needs_frameworks
def test_ops_interpolate_agrees_with_torch_for_the_listed_modes_only() -> None:
    from msmigrate.knowledge.pair_facts import ARGUMENT_VALUES

    done = subprocess.run([sys.executable, "-c", INTERPOLATE], capture_output=True, text=True, timeout=600,
                          check=True)
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()]
    error = {mode: float(value) for mode, value, _close in rows}
    agreed = {mode for mode, _value, close in rows if close == "True"}  # the check's rtol 1e-5, atol 1e-6
    key = ("torch.nn.functional.interpolate", "mindspore.ops.interpolate", "mode")
    assert agreed == ARGUMENT_VALUES[key][0] == {"nearest", "bilinear", "trilinear", "area"}
    assert error["bicubic"] > 0.2 and 1e-5 < error["linear"] < 1e-4


def test_an_interpolate_mode_not_checked_is_not_a_safe_rename() -> None:
    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.knowledge.base import get_knowledge_base

    source = ("import torch.nn.functional as F\n\n\ndef f(x, m):\n"
              "    a = F.interpolate(x, size=(4, 4), mode='bicubic', align_corners=False)\n"
              "    b = F.interpolate(x, size=(4, 4), mode=m)\n"
              "    c = F.interpolate(x, size=(4, 4), mode='bilinear', align_corners=False)\n"
              "    d = F.interpolate(x, scale_factor=2)\n"
              "    return a, b, c, d\n")
    findings = analyze_source(source, "model.py", get_knowledge_base("2.6")).findings
    assert sorted((f.line, f.resolution.safety.value, f.resolution.safety_reason) for f in findings
                  if f.torch_api == "torch.nn.functional.interpolate") == [
        (5, "unsafe", "argument_value"), (6, "unsafe", "argument_value"), (7, "safe", "verified"),
        (8, "safe", "verified")]
    message = next(f for f in findings if f.line == 5).message("en")
    assert ("mindspore.ops.interpolate computes mode='bicubic' otherwise than torch (MindSpore 2.10: bicubic "
            "is up to 0.27 off, linear 2.4e-5); it agrees for area, bilinear, nearest, trilinear") in message
