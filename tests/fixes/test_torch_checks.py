"""MSM513 (feature checks on torch) and MSM514 (TorchScript/FX marks, torch backend settings): the exact
source ``msmigrate fix`` writes (rules/framework/msm513_feature_checks.py, msm514_torch_marks.py,
fixes/torch_check_fixes.py, fixes/constant_fold.py) and the rewritten module run in MindSpore against
torch."""

from __future__ import annotations

from pathlib import Path

import pytest
from idiom_support import Case, assert_fixed, assert_same, fixed, needs_frameworks, run_cases

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.knowledge.base import get_knowledge_base

ATTENTION_TORCH = '''import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.jit import Final


class Attention(nn.Module):
    fused: Final[bool]

    def __init__(self, scale: float = 0.5):
        super().__init__()
        self.fused = False
        self.scale = scale

    @torch.jit.ignore
    def no_weight_decay(self):
        return {"scale"}

    def forward(self, q, k, v):
        if hasattr(F, "scaled_dot_product_attention"):  # torch 2
            return F.scaled_dot_product_attention(q, k, v, scale=self.scale)
        if not torch.jit.is_scripting() and q.ndim > 3:
            q = q * 1.0
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1)
        out = attn @ v
        return out * 1.0 if torch.jit.is_tracing() else out


def scaled(x):
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    on_gpu = torch.cuda.is_available()
    new = torch.__version__ >= "1.13"
    if hasattr(torch, "_foreach_mul"):  # a fused path where torch has one
        doubled = torch._foreach_mul([x], 2.0)[0]
    else:
        doubled = x * 2.0
    kept = torch.jit.annotate(list, [])
    return doubled, on_gpu, new, len(kept)


torch.fx.wrap("scaled")
'''
# scaled_dot_product_attention has no MindSpore counterpart in the 2.6 table: the fallback (the same
# computation written out) runs
ATTENTION_MINDSPORE = '''import typing
import mindspore


class Attention(mindspore.nn.Cell):
    fused: typing.Final[bool]

    def __init__(self, scale: float = 0.5):
        super().__init__()
        self.fused = False
        self.scale = scale

    def no_weight_decay(self):
        return {"scale"}

    def construct(self, q, k, v):
        if q.ndim > 3:
            q = q * 1.0
        attn = (q @ k.swapaxes(-2, -1) * self.scale).softmax(axis=-1)
        out = attn @ v
        return out


def scaled(x):
    on_gpu = mindspore.hal.is_available("GPU")
    new = '2.13.0' >= "1.13"
    doubled = x * 2.0
    kept = []
    return doubled, on_gpu, new, len(kept)


'''
INPUTS = ("rng = np.random.default_rng(0)\n"
          "q, k, v = (rng.standard_normal((2, 3, 4)).astype(np.float32) for _ in range(3))\n")
CASES = {
    "attention": Case(
        ATTENTION_TORCH, ATTENTION_MINDSPORE,
        INPUTS + "t = [torch.from_numpy(a) for a in (q, k, v)]\n"
                 "result = [Attention()(*t), *scaled(t[0])[:1], *scaled(t[0])[1:]]\n",
        INPUTS + "t = [mindspore.Tensor(a) for a in (q, k, v)]\n"
                 "result = [Attention()(*t), *scaled(t[0])[:1], *scaled(t[0])[1:]]\n",
    ),
}


def test_the_fix_writes_the_mindspore_module() -> None:
    assert_fixed(CASES["attention"])


@pytest.mark.parametrize(("torch_code", "mindspore_code"), [
    # a neutral first operand goes; a deciding first operand decides
    ("ok = torch.jit.is_scripting() or x > 0\n", "ok = x > 0\n"),
    ("ok = torch.jit.is_tracing() and x > 0\n", "ok = False\n"),
    # not first and not a truth value: the operands before it may be returned, so only the constant
    ("ok = f(x) or torch.jit.is_scripting()\n", "ok = f(x) or False\n"),
    ("ok = f(x) and torch.jit.is_scripting()\n", "ok = f(x) and False\n"),
    # in a test, operands without effects before a deciding one go too
    ("if x and not torch.jit.is_scripting():\n    y = 1\nelse:\n    y = 2\n",
     "if x:\n    y = 1\nelse:\n    y = 2\n"),
    ("if x or not torch.jit.is_scripting():\n    y = 1\nelse:\n    y = 2\n", "y = 1\n"),
    ("if f(x) or not torch.jit.is_scripting():\n    y = 1\n", "if f(x) or True:\n    y = 1\n"),
    ("if f(x) and not torch.jit.is_scripting():\n    y = 1\n", "if f(x):\n    y = 1\n"),
    # an elif becomes the if; an assert that holds goes; a kept block keeps its comments
    ("if torch.jit.is_scripting():\n    y = 0\nelif x:  # eager\n    y = 1\nelse:\n    y = 2\n",
     "if x:  # eager\n    y = 1\nelse:\n    y = 2\n"),
    ("assert not torch.jit.is_scripting(), 'eager'\ny = 1\n", "y = 1\n"),
    ("if not torch.jit.is_scripting():\n    # eager path\n    y = 1\n\n    z = 2\n",
     "# eager path\ny = 1\n\nz = 2\n"),
    # a name MindSpore has: the check is True and its branch stays
    ("if hasattr(torch.nn, 'SiLU'):\n    act = 1\nelse:\n    act = 2\n", "act = 1\n"),
    ("while torch.jit.is_scripting():\n    pass\n", "while False:\n    pass\n"),
])
def test_known_values_fold_where_that_is_exact(torch_code: str, mindspore_code: str) -> None:
    prefix = "import torch\n\nx = 1\n\n\ndef f(v):\n    return v\n\n\n"
    source = fixed(prefix + torch_code)
    assert source == prefix.replace("import torch\n", "", 1) + mindspore_code


def test_determinism_is_set_once_per_process_in_mindspore_so_its_rewrite_is_to_review() -> None:
    source = "import torch\n\n\ndef setup():\n    torch.backends.cudnn.deterministic = True\n"
    assert fixed(source) == source
    assert fixed(source, unsafe=True) == (
        "import mindspore\n\n\ndef setup():\n    mindspore.set_deterministic(True)\n")


def test_a_version_read_for_its_text_is_reported_not_rewritten() -> None:
    source = "import torch\nprint(torch.__version__)\nold = torch.__version__ < '2.0'\n"
    findings = [f for f in analyze_source(source, "m.py", get_knowledge_base("2.6")).findings
                if f.rule == "MSM513"]
    assert [(f.line, f.message_key, f.fixable) for f in findings] == [
        (2, "finding.MSM513.version_read", False), (3, "finding.MSM513.version", True)]
    assert fixed(source) == "import torch\nprint(torch.__version__)\nold = '2.13.0' < '2.0'\n"


@pytest.mark.slow
@needs_frameworks
def test_the_rewritten_module_computes_what_torch_computes(tmp_path: Path) -> None:
    [(expected, actual)] = run_cases(CASES, tmp_path).values()
    assert len(expected) == 5  # the attention output, x * 2, is_available, the version test, 0
    assert_same(expected, actual)
