"""Quick-fixes of the missing-API and pattern rules: exact resulting code, valid Python, same results."""

from __future__ import annotations

import ast

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.fixes.api import fixes_for
from msmigrate.fixes.text import apply_edits
from msmigrate.model.finding import UsageKind

HEAD = (
    "import torch\nimport torch.nn.functional as F\n\n\ndef f(x: torch.Tensor, idx: torch.Tensor):\n    y = "
)

# (expression after ``y = `` in HEAD, the rule whose fix is applied, the expression after the fix)
REWRITES = [
    ("F.adaptive_max_pool2d(x, 1)", "MSM201", "torch.amax(x, dim=(-2, -1), keepdim=True)"),
    ("F.adaptive_max_pool2d(x, (1, 1))", "MSM201", "torch.amax(x, dim=(-2, -1), keepdim=True)"),
    ("F.adaptive_max_pool2d(x, output_size=1)", "MSM201", "torch.amax(x, dim=(-2, -1), keepdim=True)"),
    ("F.adaptive_max_pool1d(x[0], 1)", "MSM201", "torch.amax(x[0], dim=-1, keepdim=True)"),
    ("F.adaptive_avg_pool3d(x, 1)", "MSM201", "torch.mean(x, dim=(-3, -2, -1), keepdim=True)"),
    ("x.squeeze(1)", "MSM201", "torch.squeeze(x, 1)"),
    ("x.unsqueeze(0)", "MSM201", "torch.unsqueeze(x, 0)"),
    ("x.permute(0, 2, 1, 3)", "MSM201", "torch.permute(x, (0, 2, 1, 3))"),
    ("x.transpose(1, 2)", "MSM201", "torch.transpose(x, 1, 2)"),
    ("x.flip(0, 1)", "MSM201", "torch.flip(x, (0, 1))"),
    ("x.amax(dim=1)", "MSM201", "torch.amax(x, dim=1)"),
    ("(x + 1).argsort(dim=-1, descending=True)", "MSM201", "torch.argsort(x + 1, dim=-1, descending=True)"),
    ("x.view(-1, 20)", "MSM201", "x.reshape(-1, 20)"),
    ("x.size()", "MSM201", "x.shape"),
    ("x.size(1)", "MSM201", "x.shape[1]"),
    ("x.size(dim=-1)", "MSM201", "x.shape[-1]"),
    ("(x + 1).contiguous()", "MSM201", "(x + 1)"),
    ("torch.msort(x)", "MSM201", "torch.sort(x, dim=0).values"),
    ("torch.argwhere(x)", "MSM201", "torch.nonzero(x)"),
    ("torch.take(x, idx)", "MSM201", "torch.flatten(x)[idx]"),
    ("torch.clamp_min(x, 0.5)", "MSM201", "torch.clamp(x, min=0.5)"),
    ("x.clamp_max(0.5)", "MSM201", "x.clamp(max=0.5)"),
    ("F.upsample(x, scale_factor=2)", "MSM201", "F.interpolate(x, scale_factor=2)"),
    ("F.upsample_nearest(x, scale_factor=2)", "MSM201", 'F.interpolate(x, scale_factor=2, mode="nearest")'),
    (
        "F.upsample_bilinear(x, size=(8, 8))",
        "MSM201",
        'F.interpolate(x, size=(8, 8), mode="bilinear", align_corners=True)',
    ),
]

# calls whose unmapped API has a replacement that is not exact as written: no quick-fix
NOT_EXACT = [
    ("F.adaptive_max_pool2d(x, 2)", "torch.nn.functional.adaptive_max_pool2d"),
    ("F.adaptive_max_pool2d(x, 1, return_indices=True)", "torch.nn.functional.adaptive_max_pool2d"),
    ("x.view(torch.int32)", "torch.Tensor.view"),
    ("x.size(0, 1)", "torch.Tensor.size"),
    ("x.contiguous(memory_format=torch.channels_last)", "torch.Tensor.contiguous"),
    ("torch.msort(x, out=idx)", "torch.msort"),
    ("F.upsample_nearest(x, None, 2, mode='x')", "torch.nn.functional.upsample_nearest"),
]


def _fixed(source: str, kb, rule: str) -> tuple[str, list]:
    result = analyze_source(source, "t.py", kb, AnalysisOptions(use_jedi=False))
    # the ``x: torch.Tensor`` annotations of the header have their own rename fixes (type references)
    findings = [f for f in result.findings if f.usage is not UsageKind.REFERENCE]
    fixes = [fix for fix in fixes_for(source, "t.py", findings, kb) if fix.rule == rule and fix.edits]
    assert len(fixes) == 1, [(f.rule, f.title()) for f in fixes]
    return apply_edits(source, fixes[0].edits), fixes


@pytest.mark.parametrize(("before", "rule", "after"), REWRITES)
def test_rewrite_gives_exact_code(kb, before, rule, after):
    source = HEAD + before + "\n    return y\n"
    new_source, _ = _fixed(source, kb, rule)
    assert new_source == HEAD + after + "\n    return y\n"
    ast.parse(new_source)


@pytest.mark.parametrize(("before", "api"), NOT_EXACT)
def test_no_fix_when_not_exact(kb, before, api):
    source = HEAD + before + "\n    return y\n"
    result = analyze_source(source, "t.py", kb, AnalysisOptions(use_jedi=False))
    findings = [f for f in result.findings if f.torch_api == api]
    assert len(findings) == 1 and findings[0].rule == "MSM201" and not findings[0].fixable
    assert [fix for fix in fixes_for(source, "t.py", findings, kb) if fix.edits] == []


@pytest.mark.filterwarnings("ignore:`nn.functional.upsample:UserWarning")
def test_rewrites_compute_the_same_values():
    torch = pytest.importorskip("torch")
    functional = torch.nn.functional
    torch.manual_seed(0)
    env = {"torch": torch, "F": functional, "x": torch.randn(2, 3, 4, 5), "idx": torch.tensor([0, 7, 19])}
    for before, _rule, after in REWRITES:
        expected = eval(before, dict(env))  # test data written above
        actual = eval(after, dict(env))
        if isinstance(expected, torch.Tensor):
            assert torch.equal(expected, actual), before
        else:
            assert tuple(expected) == tuple(actual) if isinstance(expected, tuple) else expected == actual


def test_alias_of_torch_is_used(kb):
    source = "import torch as th\n\n\ndef f(x: th.Tensor):\n    return x.unsqueeze(0)\n"
    new_source, fixes = _fixed(source, kb, "MSM201")
    assert new_source == "import torch as th\n\n\ndef f(x: th.Tensor):\n    return th.unsqueeze(x, 0)\n"
    assert fixes[0].title("en") == "Rewrite as torch.unsqueeze(x, ...)"
    assert fixes[0].title("zh") == "改写为 torch.unsqueeze(x, ...)"


MODULE = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.body = nn.Sequential(nn.ReLU(), nn.Dropout(0.1))\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.body(x)\n"
    "\n"
    "    def twice(self, x):\n"
    "        return self.forward(self.forward(x))\n"
)


def test_forward_becomes_construct(kb):
    new_source, fixes = _fixed(MODULE, kb, "MSM501")
    assert new_source == MODULE.replace("def forward", "def construct").replace(
        "self.forward(self.forward(x))", "self.construct(self.construct(x))"
    )
    assert fixes[0].title("en") == "Rename forward to construct"
    ast.parse(new_source)


def test_no_rename_when_construct_exists(kb):
    source = MODULE + "\n    def construct(self, x):\n        return x\n"
    result = analyze_source(source, "t.py", kb, AnalysisOptions(use_jedi=False))
    findings = [f for f in result.findings if f.rule == "MSM501"]
    assert len(findings) == 1
    assert [fix for fix in fixes_for(source, "t.py", findings, kb) if fix.edits] == []


def test_sequential_becomes_sequential_cell(kb):
    new_source, _ = _fixed(MODULE, kb, "MSM502")
    assert new_source == (
        "import torch\nimport torch.nn as nn\nimport mindspore\n"
        + MODULE[len("import torch\nimport torch.nn as nn\n") :].replace(
            "nn.Sequential(nn.ReLU(), nn.Dropout(0.1))",
            "mindspore.nn.SequentialCell([nn.ReLU(), nn.Dropout(0.1)])",
        )
    )


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("nn.Sequential(*layers)", "ms.nn.SequentialCell([*layers])"),
        ("nn.Sequential(OrderedDict(items))", "ms.nn.SequentialCell(OrderedDict(items))"),
        ("nn.Sequential()", "ms.nn.SequentialCell()"),
        ("torch.nn.Sequential(a,\n    b)", "ms.nn.SequentialCell([a,\n    b])"),  # the layout is kept
    ],
)
def test_sequential_variants_reuse_the_mindspore_import(kb, call, expected):
    head = (
        "import mindspore as ms\nimport torch\nimport torch.nn as nn\nfrom collections import OrderedDict\n"
    )
    new_source, _ = _fixed(head + "seq = " + call + "\n", kb, "MSM502")
    assert new_source == head + "seq = " + expected + "\n"


DEVICE_HEAD = "import torch\n\n\ndef f(x: torch.Tensor, model, device):\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("    return x.cuda()\n", "    return x\n"),
        ("    return x.cpu().numpy()\n", "    return x.numpy()\n"),
        ("    y = x.to(device, non_blocking=True)\n    return y\n", "    y = x\n    return y\n"),
        ("    model.to(device)\n    return model\n", "    return model\n"),
        ("    if model:\n        model.cuda()\n", "    if model:\n        pass\n"),
        # assigned back to the receiver: the statement would become `x = x`, so it goes
        ("    x = x.to(device, non_blocking=True)\n    return x\n", "    return x\n"),
        ("    model.net = model.net.cuda()\n    return model\n", "    return model\n"),
        ("    for x in model:\n        x = x.cuda()\n", "    for x in model:\n        pass\n"),
        ("    x, y = x.cuda(), y\n", "    x, y = x, y\n"),
    ],
)
def test_device_moves_are_removed(kb, body, expected):
    new_source, _ = _fixed(DEVICE_HEAD + body, kb, "MSM504")
    assert new_source == DEVICE_HEAD + expected
    ast.parse(new_source)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("model.train()", "model.set_train(True)"),
        ("model.train(False)", "model.set_train(False)"),
        ("model.eval()", "model.set_train(False)"),
        ("self.net.train(mode=True)", "self.net.set_train(True)"),
        ("model.train(mode=not self.evaluating)", "model.set_train(not self.evaluating)"),
        ("model.train(phase == 'train')", "model.set_train(phase == 'train')"),
    ],
)
def test_train_and_eval_become_set_train(kb, call, expected):
    head = "import torch\n\n\ndef run(model, self):\n    "
    new_source, fixes = _fixed(head + call + "\n", kb, "MSM505")
    assert new_source == head + expected + "\n"


def test_lr_becomes_learning_rate_of_the_mindspore_optimizer(kb):
    # learning_rate= on the torch optimizer would be a TypeError: the optimizer is replaced in the same fix
    source = "import torch\n\nopt = torch.optim.SGD(params, lr=0.1, momentum=0.9)\n"
    new_source, fixes = _fixed(source, kb, "MSM508")
    assert new_source == (
        "import torch\nimport mindspore\n\nopt = mindspore.nn.SGD(params, learning_rate=0.1, momentum=0.9)\n"
    )
    assert fixes[0].title("zh") == "改用 mindspore.nn.SGD，并将 lr 重命名为 learning_rate"
    assert fixes[0].title() == "Use mindspore.nn.SGD and rename lr to learning_rate"


def test_lr_fix_merges_with_the_mapping_fix_in_fix_all():
    from msmigrate.fixes.api import fix_all
    from msmigrate.knowledge.base import get_knowledge_base

    source = "from torch import optim\n\nopt = optim.SGD(params, lr=0.1)\n"
    new_source, applied = fix_all(source, "t.py", get_knowledge_base("1.10"), AnalysisOptions(use_jedi=False))
    assert new_source == (  # optim is no longer used: its import goes
        "import mindspore\n\nopt = mindspore.nn.SGD(params, learning_rate=0.1)\n"
    )
    assert sorted(fix.rule for fix in applied) == ["MSM100", "MSM508", "imports"]


def test_fix_all_applies_rewrites_then_mappings(kb):
    from msmigrate.fixes.api import fix_all

    source = "import torch\n\n\ndef f(x: torch.Tensor):\n    return x.squeeze(1)\n"
    new_source, applied = fix_all(source, "t.py", kb, AnalysisOptions(use_jedi=False))
    assert "MSM201" in [fix.rule for fix in applied]
    assert "mindspore.mint.squeeze(x, 1)" in new_source
    ast.parse(new_source)


def test_dtype_becomes_the_mindspore_dtype(kb):
    source = "import torch\n\n\ndef f(x: torch.Tensor):\n    return x.to(torch.float16)\n"
    new_source, fixes = _fixed(source, kb, "MSM201")
    assert (
        new_source
        == "import torch\nimport mindspore\n\n\ndef f(x: torch.Tensor):\n    return x.to(mindspore.float16)\n"
    )
    assert fixes[0].title("en") == "Replace with mindspore.float16"


def test_dtype_in_an_import_is_not_rewritten(kb):
    source = "from torch import float16\n"
    result = analyze_source(source, "t.py", kb, AnalysisOptions(use_jedi=False))
    assert [f for f in result.findings if f.fixable] == []
