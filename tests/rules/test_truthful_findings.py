"""Severities from what a finding says, references, one finding per position, receivers and the known
wrong answers of issue 12 (items 3, 5, 6), with exact (line, column, rule, severity) expectations."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from msmigrate.analysis.project_classes import is_project_module_class, module_class_index
from msmigrate.fixes.api import fixes_for
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.model.finding import FileResult, UsageKind
from msmigrate.rules.examples import CASES as RULE_CASES
from msmigrate.scan import scan_paths
from msmigrate.scan.options import ScanOptions


def quads(result: FileResult) -> list[tuple[int, int, str, str]]:
    return [(f.line, f.column, f.rule, f.severity.value) for f in result.findings]


SEVERITIES = """\
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if isinstance(x, torch.Tensor):
            x = F.leaky_relu(x, 0.2)
        y = F.leaky_relu(x, 0.2, inplace=True)
        a = torch.topk(y, 3)
        b = torch.topk(y, 3, dim=1)
        low, high = torch.aminmax(y)
        return self.fc(torch.abs(a[0] + b[0] + low + high))
"""


def test_severity_follows_what_the_finding_says(analyze):
    # on Ascend the 2.6 table's mint targets are written, so their rows' facts decide (on CPU, where most
    # have no kernel, the 2.4 table's targets are written and their rows decide: see the test below)
    assert quads(analyze(SEVERITIES, device="Ascend")) == [
        (9, 19, "MSM101", "hint"),  # nn.Linear: only MindSpore-only parameters, a rename with a fix
        (11, 9, "MSM501", "information"),  # forward → construct; the nn.Module base (6, 13) folds into it
        (11, 26, "MSM201", "hint"),  # torch.Tensor annotations are references
        (11, 43, "MSM201", "hint"),
        (12, 26, "MSM201", "hint"),  # isinstance(x, torch.Tensor): a reference too
        (13, 17, "MSM100", "hint"),  # leaky_relu without inplace: the row's only difference is not passed
        (14, 13, "MSM101", "warning"),  # inplace=True passed: MindSpore has no such parameter
        (15, 13, "MSM101", "warning"),  # topk leaves dim to its default, which differs
        (16, 13, "MSM101", "hint"),  # dim passed: the default difference does not apply
        (17, 21, "MSM200", "warning"),  # aminmax: MindSpore lacks it
        (18, 24, "MSM100", "hint"),
    ]


def test_on_cpu_the_facts_of_the_target_written_there_decide(analyze):
    """mint.nn.functional.leaky_relu and mint.topk have no CPU kernel in MindSpore 2.10: on CPU the fix
    writes the 2.4 table's ops targets, and the findings state those rows' facts for the call (a diff-page
    mapping is information; ops.topk is consistent, so the call's dim default is no difference)."""
    result = analyze(SEVERITIES)
    found = {(f.line, f.column): (f.rule, f.severity.value, f.mindspore_api) for f in result.findings}
    assert [found[(13, 17)], found[(14, 13)], found[(15, 13)], found[(16, 13)]] == [
        ("MSM101", "information", "mindspore.ops.leaky_relu"),
        ("MSM101", "warning", "mindspore.ops.leaky_relu"),  # inplace=True passed: MindSpore has none
        ("MSM100", "hint", "mindspore.ops.topk"),
        ("MSM100", "hint", "mindspore.ops.topk"),
    ]
    assert all(f.resolution.target == f.mindspore_api for f in result.findings if f.resolution)


def test_references_are_reference_usages(analyze):
    result = analyze(SEVERITIES)
    usages = {(f.line, f.column): f.usage for f in result.findings}
    assert [usages[(11, 26)], usages[(11, 43)], usages[(12, 26)]] == [UsageKind.REFERENCE] * 3
    assert usages[(18, 24)] is UsageKind.CALL


def test_a_type_reference_is_a_rename_not_a_missing_api(analyze, kb):
    source = (
        "import torch\nfrom torch import nn\ndef f(x: torch.Tensor, m: nn.Module):\n"
        "    return isinstance(m, nn.Module)\n"
    )
    result = analyze(source)
    tensor = "torch.Tensor names a type here; in MindSpore it is mindspore.Tensor"
    module = "torch.nn.Module names a type here; in MindSpore it is mindspore.nn.Cell"
    found = [(f.line, f.column, f.rule, f.severity.value, f.fixable, f.message()) for f in result.findings]
    assert found == [
        (3, 10, "MSM201", "hint", True, tensor),
        (3, 27, "MSM201", "hint", True, module),
        (4, 26, "MSM201", "hint", True, module),
    ]
    zh = "torch.Tensor 在此处作为类型引用；在 MindSpore 中为 mindspore.Tensor"
    assert result.findings[0].message("zh") == zh
    fixes = fixes_for(source, "s.py", result.findings, kb)
    assert [[e.new_text for e in fix.edits] for fix in fixes] == [
        ["mindspore.Tensor", "import mindspore\n"], ["mindspore.nn.Cell", "import mindspore\n"],
        ["mindspore.nn.Cell", "import mindspore\n"]]


def test_configured_severities_still_apply(analyze):
    result = analyze(SEVERITIES, severities={"differences": "error", "missing": "off"}, device="Ascend")
    assert quads(result) == [
        (9, 19, "MSM101", "error"),
        (11, 9, "MSM501", "information"),
        (13, 17, "MSM100", "hint"),  # consistent for this call (no inplace passed)
        (14, 13, "MSM101", "error"),
        (15, 13, "MSM101", "error"),
        (16, 13, "MSM101", "error"),
        (18, 24, "MSM100", "hint"),
    ]


# --- one finding per position -----------------------------------------------------------------------
def test_sequential_is_one_pattern_finding_carrying_the_mapping(analyze):
    kb = get_knowledge_base("2.4")  # the 2.4 table maps nn.Sequential (MSM101), the 2.6 table does not
    source = "import torch.nn as nn\nnet = nn.Sequential(nn.ReLU())\n"
    result = analyze(source, version_kb=kb)
    [sequential] = [f for f in result.findings if f.line == 2 and f.column == 7]
    assert (sequential.rule, sequential.severity.value, sequential.mindspore_api) == (
        "MSM502", "information", "mindspore.nn.SequentialCell")
    assert sequential.message() == (
        "nn.Sequential becomes nn.SequentialCell with the layers in a list. Also: torch.nn.Sequential → "
        "mindspore.nn.SequentialCell (see the difference page).")
    assert sequential.message("zh-cn").startswith(
        "nn.Sequential 改为 nn.SequentialCell，各层放入列表。另：torch.nn.Sequential → ")
    assert [fix.rule for fix in fixes_for(source, "s.py", [sequential], kb)] == ["MSM502"]


def test_tensor_to_device_is_one_msm504(analyze):
    result = analyze("import torch\nx = torch.ones(2)\ny = x.to('cuda')\n")
    assert quads(result) == [(2, 5, "MSM100", "hint"), (3, 7, "MSM504", "information")]
    assert result.findings[1].torch_api == "torch.Tensor.to"


def test_module_subclass_is_one_msm501(analyze):
    source = ("import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n"
              "class Plain(nn.Module):\n    pass\n")
    assert quads(analyze(source)) == [(3, 9, "MSM501", "information"), (5, 13, "MSM201", "information")]


def test_merged_finding_keeps_the_quick_fix_of_the_other(analyze, kb):
    source = "import torch\nidx = torch.argwhere(x)\n"
    result = analyze(source)
    assert quads(result) == [(2, 7, "MSM301", "warning")]
    fixes = fixes_for(source, "s.py", result.findings, kb)
    assert [(fix.rule, [e.new_text for e in fix.edits]) for fix in fixes if fix.edits] == [
        ("MSM201", ["torch.nonzero(x)"])]


def _every_snippet() -> list[tuple[str, str]]:
    """The rule examples and counter-examples, the analyzer's case table, the rule fixtures, the examples."""
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("analysis_cases", root / "tests/analysis/analysis_cases.py")
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    ANALYZER_CASES = cases.CASES  # noqa: N806
    snippets = [(f"rule {rule} {kind}", code) for rule, pair in sorted(RULE_CASES.items())
                for kind, code in zip(("positive", "negative"), pair, strict=True)]
    snippets += [(f"analyzer {name}", code) for name, code, _ in ANALYZER_CASES]
    for path in sorted([*(root / "tests" / "rules" / "fixtures").glob("*.py"),
                        *(root / "examples").rglob("*.py")]):
        snippets.append((str(path.relative_to(root)), path.read_text(encoding="utf-8")))
    return snippets


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_no_two_findings_share_a_position(analyze, version):
    kb = get_knowledge_base(version)
    shared = []
    for name, code in _every_snippet():
        positions = [(f.line, f.column) for f in analyze(code, version_kb=kb).findings]
        shared += [(name, p) for p in sorted(set(positions)) if positions.count(p) > 1]
    assert shared == []


# --- receivers -------------------------------------------------------------------------------------
RECEIVERS = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def grow(self):
        self.half()
        return self.training


def run(model, x, device):
    model.to(device)
    model.half()
    x.float()
    net = Net()
    net.double()
    t = torch.ones(2)
    t.half()
    return t.shape, t.dtype, t.device
"""


def test_shared_methods_follow_the_receiver(analyze):
    found = [(f.line, f.column, f.rule, f.torch_api) for f in analyze(RECEIVERS).findings]
    assert found == [
        (5, 11, "MSM201", "torch.nn.Module"),  # no forward: the base stays a finding of its own
        (7, 14, "MSM201", "torch.nn.Module.half"),  # self in a module class; self.training: no finding
        (12, 11, "MSM504", None),  # model: unknown, a module or a tensor
        (16, 9, "MSM200", "torch.nn.Module.double"),  # an instance of the file's module class
        (17, 9, "MSM100", "torch.ones"),
        (18, 7, "MSM100", "torch.Tensor.half"),  # a tensor
        (19, 14, "MSM201", "torch.Tensor.shape"),  # attributes of a known tensor are reported
        (19, 23, "MSM201", "torch.Tensor.dtype"),
        (19, 32, "MSM201", "torch.Tensor.device"),
    ]  # model.half() and x.float() on unknown receivers: no Tensor finding


def test_project_module_classes_across_files(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "model.py").write_text(
        "import torch.nn as nn\nclass Net(nn.Module):\n    pass\nclass Bigger(Net):\n    pass\n"
        "class Plain:\n    pass\n")
    (package / "train.py").write_text(
        "import torch\nfrom .model import Net, Plain\nfrom pkg.model import Bigger\n"
        "def run(x):\n    Net().half()\n    Bigger().float()\n    Plain().double()\n"
        "    return torch.abs(x)\n")
    report = scan_paths([str(tmp_path)], ScanOptions(use_cache=False, jobs=1, mindspore_version="2.6"))
    found = [(f.line, f.column, f.rule, f.torch_api)
             for file, f in report.findings() if file.path.endswith("train.py")]
    assert found == [
        (5, 11, "MSM201", "torch.nn.Module.half"),
        (6, 14, "MSM201", "torch.nn.Module.float"),
        (8, 12, "MSM100", "torch.abs"),
    ]  # Plain().double(): not a module, and double is shared with tensors: no finding


def test_module_class_index():
    index = module_class_index([
        ("pkg/model.py", "class Net(nn.Module):\n    pass\nclass Deeper(Net, Mixin):\n    pass\n"),
        ("pkg/layers/__init__.py", "class Block(torch.nn.Conv2d):\n    pass\nclass P(torch.nn.Parameter):\n"),
        ("other.py", "class Data(object):\n    pass\n"),
    ])
    assert index == frozenset({"pkg.model.Net", "model.Net", "pkg.model.Deeper", "model.Deeper",
                               "pkg.layers.Block", "layers.Block"})
    assert is_project_module_class(".model.Net", index)
    assert is_project_module_class("root.pkg.model.Net", index)
    assert not is_project_module_class("other.Data", index)
    assert not is_project_module_class("Net", index)


# --- known wrong answers ---------------------------------------------------------------------------
def test_tensor_device_is_the_tensor_attribute(analyze):
    [device] = analyze("import torch\nx = torch.ones(1)\nd = x.device\n").findings[1:]
    assert (device.rule, device.severity.value, device.mindspore_api) == (
        "MSM201", "hint", "mindspore.Tensor.device")


def test_dist_is_initialized_does_not_suggest_init(analyze):
    [finding] = analyze("import torch.distributed as dist\nok = dist.is_initialized()\n").findings
    assert (finding.rule, finding.mindspore_api) == ("MSM201", "mindspore.mint.distributed.is_initialized")
    assert "communication.init" not in finding.message()


def test_tensor_flatten_is_the_tensor_method_in_every_table(analyze):
    source = "import torch\nx = torch.ones(2, 2)\ny = x.flatten(1)\n"
    for version in ("2.3", "2.4", "2.6"):
        flatten = analyze(source, version_kb=get_knowledge_base(version)).findings[-1]
        assert (flatten.torch_api, flatten.mindspore_api, flatten.severity.value) == (
            "torch.Tensor.flatten", "mindspore.Tensor.flatten", "hint"), version


def test_param_groups_reads_are_no_finding(analyze):
    source = (
        "import torch\n"
        "opt = torch.optim.SGD(params, 0.1)\n"
        "for g in opt.param_groups:\n"
        "    print(g['lr'])\n"
        "lr = opt.param_groups[0]['lr']\n"
        "for group in opt.param_groups:\n"
        "    group['lr'] *= 0.1\n"
        "opt.param_groups[0]['lr'] = 0.5\n"
        "first = opt.param_groups[0]\n"
        "first.update(lr=0.2)\n"
    )
    found = [(f.line, f.column) for f in analyze(source).findings if f.rule == "MSM508"]
    assert found == [(6, 18), (8, 5), (9, 13)]


@pytest.mark.parametrize("decorator", ["ignore", "unused", "export"])
def test_torchscript_decorators_are_removed(analyze, decorator):
    result = analyze(f"import torch\n@torch.jit.{decorator}\ndef f(x):\n    return x\n")
    [finding] = result.findings
    assert quads(result) == [(2, 2, "MSM514", "hint")]  # rules/framework/msm514_torch_marks.py, with its fix
    english = (f"torch.jit.{decorator} prepares code for TorchScript or FX; MindSpore needs no such mark: "
               "remove it")
    assert (finding.message(), finding.fixable) == (english, True)
    chinese = f"torch.jit.{decorator} 用于为 TorchScript 或 FX 准备代码；MindSpore 不需要此类标记：请删除它"
    assert finding.message("zh") == chinese


def test_self_training_is_no_finding(analyze):
    source = ("import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n"
              "        if self.training:\n            self.training = False\n        return x\n")
    assert quads(analyze(source)) == [(3, 9, "MSM501", "information")]


def test_a_name_from_two_branches_is_neither_torch_name(analyze):
    source = "import torch.nn as nn\nif flag:\n    act = nn.ReLU\nelse:\n    act = nn.GELU\nlayer = act()\n"
    found = [(f.line, f.column, f.torch_api) for f in analyze(source).findings]
    assert found == [(3, 11, "torch.nn.ReLU"), (5, 11, "torch.nn.GELU")]
