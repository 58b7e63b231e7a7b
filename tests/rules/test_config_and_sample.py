"""Disabling rules (pyproject, options, ignore comments) and the findings on examples/resnet_torch."""

from __future__ import annotations

from pathlib import Path

import pytest

from msmigrate.scan.options import ScanOptions
from msmigrate.scan.runner import scan_paths

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "resnet_torch"

SOURCE = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "\n"
    "def pick(x: torch.Tensor):\n"
    "    body = nn.Sequential(nn.ReLU())\n"
    "    kept = torch.masked_select(x, x > 0)\n"
    "    also = torch.unique(x)  # msmigrate: ignore[MSM301]\n"
    "    return x[x > 0], kept, also, body\n"
)


def _rules(result) -> list[tuple[int, str]]:
    return [(f.line, f.rule) for f in result.findings if f.rule[:4] in ("MSM3", "MSM5")]


def test_all_rules_active_by_default(analyze):
    assert _rules(analyze(SOURCE)) == [(6, "MSM502"), (7, "MSM301"), (9, "MSM302")]


def test_disabled_rules_option(analyze):
    result = analyze(SOURCE, disabled_rules=["msm301", "MSM502"])
    assert _rules(result) == [(9, "MSM302")]


def test_bare_ignore_comment_silences_every_rule_of_the_line(analyze):
    source = SOURCE.replace(
        "    kept = torch.masked_select(x, x > 0)\n",
        "    kept = torch.masked_select(x, x > 0)  # msmigrate: ignore\n",
    )
    assert [(f.line, f.rule) for f in analyze(source).findings if f.line == 7] == []


def test_pyproject_disables_rules_for_a_project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.msmigrate]\nmindspore-version = "2.6"\ndisabled-rules = ["MSM302", "MSM502"]\n',
        encoding="utf-8",
    )
    (tmp_path / "model.py").write_text(SOURCE, encoding="utf-8")
    report = scan_paths([tmp_path], ScanOptions(use_cache=False, jobs=1))
    found = [(f.line, f.rule) for _file, f in report.findings() if f.rule[:4] in ("MSM3", "MSM5")]
    assert found == [(7, "MSM301")]


@pytest.fixture(scope="module")
def sample_report():
    return scan_paths([SAMPLE], ScanOptions(use_cache=False, jobs=1))


def test_sample_compliance_demo_findings(sample_report):
    found = [
        (f.line, f.column, f.rule, f.torch_api)
        for file, f in sample_report.findings()
        if file.path == "utils/compliance_demo.py" and f.rule[:4] in ("MSM2", "MSM3", "MSM4", "MSM5")
    ]
    assert found == [
        (16, 9, "MSM501", "torch.nn.Module.forward"),
        (23, 12, "MSM301", "torch.masked_select"),
        (24, 16, "MSM302", None),
        (26, 40, "MSM303", None),
        (31, 17, "MSM401", "torch.sparse_coo_tensor"),
        (32, 12, "MSM403", "torch.sparse.mm"),
    ]
    # the APIs reported missing (MSM201) with the 2.6 table alone have derived mappings in MindSpore 2.10
    derived = [
        (f.line, f.column, f.rule, f.torch_api, f.mindspore_api)
        for file, f in sample_report.findings()
        if file.path == "utils/compliance_demo.py" and f.message_key.startswith("analysis.api.derived_")
    ]
    assert derived == [
        (9, 21, "MSM101", "torch.nn.Module", "mindspore.nn.Cell"),  # defines forward: construct
        (12, 21, "MSM100", "torch.nn.AdaptiveMaxPool2d", "mindspore.nn.AdaptiveMaxPool2d"),
        (17, 18, "MSM100", "torch.nn.functional.adaptive_max_pool2d", "mindspore.ops.adaptive_max_pool2d"),
        (18, 31, "MSM100", "torch.Tensor.view", "mindspore.Tensor.view"),
        (18, 43, "MSM101", "torch.Tensor.size", "mindspore.Tensor.shape"),
        (21, 30, "MSM100", "torch.Tensor", "mindspore.Tensor"),
        (30, 31, "MSM100", "torch.Tensor", "mindspore.Tensor"),
        (30, 53, "MSM100", "torch.Tensor", "mindspore.Tensor"),
    ]  # torch.sparse_coo_tensor (31, 17): its derived mapping is part of the MSM401 finding there
    fixable = {
        (f.line, f.column)
        for file, f in sample_report.findings()
        if file.path == "utils/compliance_demo.py" and f.fixable and f.rule[:4] != "MSM1"
    }
    assert fixable == {(16, 9)}  # the derived mappings above are MSM1xx findings (fixable too)


def test_sample_reports_every_family(sample_report):
    found = {(file.path, f.rule) for file, f in sample_report.findings()}
    expected = {
        ("models/resnet.py", "MSM202"),  # self.modules(): the verified composition ms_compat.modules
        ("models/resnet.py", "MSM501"),  # forward → construct
        ("models/resnet.py", "MSM502"),  # nn.Sequential → nn.SequentialCell
        ("models/resnet.py", "MSM503"),  # nn.init.kaiming_normal_ / constant_
        ("models/resnet.py", "MSM512"),  # torch.load + load_state_dict
        ("train.py", "MSM504"),  # .to(device), torch.device
        ("train.py", "MSM505"),  # model.train() / model.eval()
        ("train.py", "MSM506"),  # loss.backward()
        ("train.py", "MSM507"),  # torch.no_grad()
        # (no MSM508: SGD(lr=...) becomes mindspore.experimental.optim.SGD, whose parameter is lr too)
        ("train.py", "MSM509"),  # autocast, GradScaler
        ("train.py", "MSM510"),  # DistributedDataParallel
        ("data/dataset.py", "MSM511"),  # Dataset subclass, DataLoader
        ("utils/metrics.py", "MSM301"),  # masked_select, nonzero
        ("utils/metrics.py", "MSM302"),
        ("utils/metrics.py", "MSM401"),
        ("utils/metrics.py", "MSM403"),
        ("utils/compliance_demo.py", "MSM303"),
    }
    assert expected <= found
