"""MSM507: torch's gradient-mode switches taken away by ``msmigrate fix``
(rules/framework/msm507_grad_mode.py, fixes/grad_mode_fixes.py): the exact rewritten source, and the
rewrite run in MindSpore against torch — outputs and, where the switch stops a gradient inside a network,
the gradients of the weights."""

from __future__ import annotations

from pathlib import Path

import pytest
from idiom_support import Case, assert_fixed, assert_same, fixed, needs_frameworks, run_cases

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fixes_by_finding
from msmigrate.knowledge.base import get_knowledge_base

W = "[[0.5, -0.2, 0.1], [0.3, 0.8, -0.6]]"
B = "[0.1, -0.3]"
X = "[[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]]"

TORCH_WEIGHTS = f"""
import numpy as np
model = Teacher()
model.fc.weight.data = torch.tensor({W})
model.fc.bias.data = torch.tensor({B})
x = torch.tensor({X})
"""
MS_WEIGHTS = f"""
import numpy as np
model = Teacher()
model.fc.weight.set_data(mindspore.Tensor(np.array({W}, np.float32)))
model.fc.bias.set_data(mindspore.Tensor(np.array({B}, np.float32)))
x = mindspore.Tensor(np.array({X}, np.float32))
"""
TORCH_GRADS = TORCH_WEIGHTS + """
loss = model(x)
loss.backward()
result = [loss, model.fc.weight.grad, model.fc.bias.grad]
"""
MS_GRADS = MS_WEIGHTS + """
loss, grads = mindspore.value_and_grad(model, None, model.trainable_params())(x)
result = [loss, *grads]
"""

CASES = {
    # inside a network the values of the block stop the gradient: (fc(x) * target).sum() differentiates
    # to target * x (target constant), not 2 * fc(x) * x
    "block_in_network": Case(
        "import torch\nimport torch.nn as nn\n\n\nclass Teacher(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 2)\n\n"
        "    def forward(self, x):\n"
        "        with torch.no_grad():\n"
        "            # the target carries no gradient\n"
        "            target = self.fc(x)  # same weights\n"
        "        return (self.fc(x) * target).sum()\n",
        "import mindspore\n\n\nclass Teacher(mindspore.nn.Cell):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.fc = mindspore.mint.nn.Linear(3, 2)\n\n"
        "    def construct(self, x):\n"
        "        # the target carries no gradient\n"
        "        target = mindspore.ops.stop_gradient(self.fc(x))  # same weights\n"
        "        return (self.fc(x) * target).sum()\n",
        TORCH_GRADS, MS_GRADS,
    ),
    # a decorated method of a network: its returned value stops the gradient
    "decorator_in_network": Case(
        "import torch\nimport torch.nn as nn\n\n\nclass Teacher(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 2)\n\n"
        "    @torch.no_grad()\n    def target(self, x):\n        return self.fc(x)\n\n"
        "    def forward(self, x):\n        return (self.fc(x) * self.target(x)).sum()\n",
        "import mindspore\n\n\nclass Teacher(mindspore.nn.Cell):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.fc = mindspore.mint.nn.Linear(3, 2)\n\n"
        "    def target(self, x):\n        return mindspore.ops.stop_gradient(self.fc(x))\n\n"
        "    def construct(self, x):\n        return (self.fc(x) * self.target(x)).sum()\n",
        TORCH_GRADS, MS_GRADS,
    ),
    # evaluation code: the block, the decorator, set_grad_enabled and a second with-item simply go
    "evaluation_code": Case(
        "import contextlib\n\nimport torch\n\n\n@torch.no_grad()\ndef evaluate(batches, scale):\n"
        "    total = 0.0\n    with torch.set_grad_enabled(False):\n        for x in batches:\n"
        "            total = total + (x * scale).sum()\n    return total\n\n\n"
        "def infer(x):\n    torch.set_grad_enabled(False)\n"
        "    with torch.inference_mode(), contextlib.suppress(ValueError):\n        y = x * 3\n"
        "    with torch.enable_grad(): y = y + 1\n    return y\n",
        "import contextlib\n\n\n\ndef evaluate(batches, scale):\n"
        "    total = 0.0\n    for x in batches:\n        total = total + (x * scale).sum()\n"
        "    return total\n\n\n"
        "def infer(x):\n"
        "    with contextlib.suppress(ValueError):\n        y = x * 3\n"
        "    y = y + 1\n    return y\n",
        f"batches = [torch.tensor({X}), torch.tensor({B})]\n"
        "result = [evaluate(batches, 2.0), infer(batches[0])]\n",
        "import numpy as np\n"
        f"batches = [mindspore.Tensor(np.array({X}, np.float32)),\n"
        f"           mindspore.Tensor(np.array({B}, np.float32))]\n"
        "result = [evaluate(batches, 2.0), infer(batches[0])]\n",
    ),
    # a switch kept as a value: contextlib.nullcontext, which takes the same calls
    "switch_as_value": Case(
        "import torch\n\n\ndef features(x, frozen):\n"
        "    guard = torch.no_grad if frozen else torch.enable_grad\n"
        "    with guard():\n        return x * 2\n",
        "import contextlib\n\n\ndef features(x, frozen):\n"
        "    guard = contextlib.nullcontext if frozen else contextlib.nullcontext\n    with guard():\n"
        "        return x * 2\n",
        f"result = [features(torch.tensor({X}), True), features(torch.tensor({X}), False)]\n",
        f"import numpy as np\nx = mindspore.Tensor(np.array({X}, np.float32))\n"
        "result = [features(x, True), features(x, False)]\n",
    ),
    # a block doing more than assigning inside a network: unwrapped only with --unsafe-fixes (to review)
    "loop_in_network_unsafe": Case(
        "import torch\nimport torch.nn as nn\n\n\nclass Teacher(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 2)\n\n"
        "    def forward(self, x):\n        total = 0\n        with torch.no_grad():\n"
        "            for _ in range(2):\n                total = total + self.fc(x)\n"
        "        return total.sum()\n",
        "import mindspore\n\n\nclass Teacher(mindspore.nn.Cell):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.fc = mindspore.mint.nn.Linear(3, 2)\n\n"
        "    def construct(self, x):\n        total = 0\n"
        "        for _ in range(2):\n            total = total + self.fc(x)\n"
        "        return total.sum()\n",
        TORCH_WEIGHTS + "result = model(x)\n", MS_WEIGHTS + "result = model(x)\n",
        unsafe=True,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_fix_writes_the_mindspore_module(name: str) -> None:
    assert_fixed(CASES[name])


def test_a_block_that_does_more_inside_a_network_is_left_in_safe_mode() -> None:
    case = CASES["loop_in_network_unsafe"]
    assert "with torch.no_grad():" in fixed(case.torch_module, case.version, unsafe=False)
    kb = get_knowledge_base("2.6")
    findings = analyze_source(case.torch_module, "m.py", kb).findings
    [(finding, fix)] = [(f, x) for f, x in fixes_by_finding(case.torch_module, "m.py", findings, kb)
                        if f.rule == "MSM507"]
    assert finding.message_args["scope"] == "grad" and fix.by_hand
    assert fix.title("en") == ("Remove the torch.no_grad block (to review: a gradient may pass through it "
                               "here; stop it with ops.stop_gradient where needed)")


def test_a_with_block_holding_an_indented_multiline_string_is_not_unwrapped() -> None:
    source = ('import torch\n\n\ndef f(x):\n    with torch.no_grad():\n        text = """a\n        b"""\n'
              "        return x, text\n")
    assert "with torch.no_grad():" in fixed(source)


@pytest.mark.slow
@needs_frameworks
def test_the_rewritten_modules_compute_what_torch_computes(tmp_path: Path) -> None:
    for name, (expected, actual) in run_cases(CASES, tmp_path).items():
        assert expected, name
        assert_same(expected, actual)
