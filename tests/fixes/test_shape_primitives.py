"""A torch function written as a MindSpore Primitive called with its output shape
(knowledge/value_forms.OUTPUT_SHAPE_PRIMITIVES, fixes/shape_primitives.py): 2.6's
``mint.nn.functional.conv_transpose2d`` (and ``ops.conv_transpose2d``) have no CPU kernel (ConvTranspose2D);
``ops.Conv2DTranspose``, called with the shape torch computes, passed the derived check on CPU."""

from __future__ import annotations

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.device_targets import runnable_target


def test_the_cpu_alternative_is_the_primitive(kb26, kb24) -> None:
    for api in ("torch.nn.functional.conv_transpose2d", "torch.conv_transpose2d"):  # either spelling
        found = runnable_target(api, "2.6")
        assert (found.row.mindspore_api, found.verified, found.replaced) == (
            "mindspore.ops.Conv2DTranspose", True, "mindspore.mint.nn.functional.conv_transpose2d")
    # 2.4's derived mapping of torch.conv_transpose2d (mint's, no CPU kernel either) gets it too
    found = runnable_target("torch.conv_transpose2d", "2.4")
    assert found.row.mindspore_api == "mindspore.ops.Conv2DTranspose"


def test_a_layer_calling_conv_transpose2d(kb26) -> None:
    source = (
        "import torch.nn.functional as F\n\n\n"
        "def up(x, weight, bias):\n"
        "    return F.conv_transpose2d(x, weight, bias, stride=2, padding=1, output_padding=1)\n\n\n"
        "def grouped(self, x):\n"
        "    return F.conv_transpose2d(x, self.w, None, (2, 1), (1, 0), (1, 0), 2, (1, 3)) * 2\n\n\n"
        "def plain(x, w):\n"
        "    return F.conv_transpose2d(input=x, weight=w)\n"
    )
    new, _applied = fix_all(source, "m.py", kb26)
    assert new == (
        "import mindspore\n\n\n"
        "def up(x, weight, bias):\n"
        # (H - 1) * 2 - 2 * 1 + (kH - 1) + 1 + 1 = (H - 1) * 2 + kH - 1
        "    return (mindspore.ops.Conv2DTranspose(weight.shape[0], weight.shape[2:], pad_mode='pad', pad=1, "
        "stride=2)(x, weight, (x.shape[0], weight.shape[1], (x.shape[2] - 1) * 2 + weight.shape[2] - 1, "
        "(x.shape[3] - 1) * 2 + weight.shape[3] - 1)) + bias.reshape(1, -1, 1, 1))\n\n\n"
        "def grouped(self, x):\n"
        # width: (W - 1) * 1 - 0 + 3 * (kW - 1) + 0 + 1 = W + 3 * (kW - 1); channels: out per group * groups
        "    return mindspore.ops.Conv2DTranspose(self.w.shape[0], self.w.shape[2:], pad_mode='pad', "
        "pad=(1, 1, 0, 0), stride=(2, 1), dilation=(1, 3), group=2)(x, self.w, (x.shape[0], "
        "self.w.shape[1] * 2, (x.shape[2] - 1) * 2 + self.w.shape[2] - 1, "
        "x.shape[3] + 3 * (self.w.shape[3] - 1))) * 2\n\n\n"
        "def plain(x, w):\n"
        "    return mindspore.ops.Conv2DTranspose(w.shape[0], w.shape[2:], pad_mode='pad')(x, w, "
        "(x.shape[0], w.shape[1], x.shape[2] + w.shape[2] - 1, x.shape[3] + w.shape[3] - 1))\n"
    )


def test_title_and_safety(kb26) -> None:
    source = "import torch\ny = torch.conv_transpose2d(x, w)\n"
    findings = [f for f in analyze_source(source, "m.py", kb26).findings
                if f.torch_api == "torch.conv_transpose2d"]
    (fix,) = [f for f in fixes_for(source, "m.py", findings, kb26) if f.edits]
    assert fix.title("en") == (
        "Write torch.conv_transpose2d as the Primitive mindspore.ops.Conv2DTranspose, built from the call's "
        "numbers and called with its tensors and the output shape torch computes (the input must be "
        "batched: N, C, H, W) (mindspore.mint.nn.functional.conv_transpose2d has no CPU kernel in MindSpore "
        "2.10; this target, a derived mapping, was verified on CPU)"
    )
    assert fix.title("zh").startswith("将 torch.conv_transpose2d 写为原语 mindspore.ops.Conv2DTranspose")
    assert not is_safe(findings[0], kb26)  # batched inputs only: applied with --unsafe-fixes


def test_calls_whose_arguments_the_shape_cannot_be_written_from_are_left_alone(kb26) -> None:
    """A tensor that is an expression (read more than once), a number that is not a literal, ``*args``:
    no fix (the table's target stays unwritten rather than a wrong or twice-evaluated rewrite)."""
    source = (
        "import torch.nn.functional as F\n"
        "a = F.conv_transpose2d(f(x), w)\n"
        "b = F.conv_transpose2d(x, w, stride=s)\n"
        "c = F.conv_transpose2d(x, w, b0 + 1)\n"
        "d = F.conv_transpose2d(*args)\n"
    )
    findings = [f for f in analyze_source(source, "m.py", kb26).findings
                if f.torch_api == "torch.conv_transpose2d"]
    assert len(findings) == 4
    assert [f for f in fixes_for(source, "m.py", findings, kb26) if f.edits] == []
