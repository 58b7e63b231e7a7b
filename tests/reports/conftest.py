"""A hand-built scan report shared by the renderer tests (independent of the analyzer)."""

from __future__ import annotations

import pytest

from msmigrate.model.finding import FileResult, Finding, FindingCategory, Severity, UsageKind
from msmigrate.scan.model import ScanReport

C = FindingCategory


def build_report() -> ScanReport:
    linear = Finding(5, 14, 5, 23, "torch.nn.Linear", "mindspore.mint.nn.Linear", C.DIFFERENCES, "MSM101",
                     Severity.INFORMATION, "rule.MSM101.title", fixable=True)
    flatten = Finding(9, 13, 9, 26, "torch.flatten", "mindspore.mint.flatten", C.CONSISTENT, "MSM100",
                      Severity.HINT, "rule.MSM100.title", fixable=True)
    view = Finding(10, 9, 10, 15, "torch.Tensor.view", None, C.POSSIBLE_TENSOR_API, "MSM102", Severity.HINT,
                   "rule.MSM102.title", usage=UsageKind.TENSOR_METHOD)
    hostile = Finding(2, 1, 2, 20, "torch.nn.Module", None, C.MISSING, "MSM200", Severity.WARNING,
                      "common.error", {"detail": "<img src=x onerror=alert(1)> | `tick` *b*"})
    loader = Finding(3, 5, 3, 32, "torch.utils.data.DataLoader", "mindspore.dataset.GeneratorDataset",
                     C.DATA_PROCESSING, "MSM600", Severity.INFORMATION, "rule.MSM600.title")
    return ScanReport(
        [
            FileResult("models/net.py", [linear, flatten, view], lines=12),
            FileResult("<script>alert(1)</script>.py", [], "scan.error.read", {"detail": "denied"}),
            FileResult("evil/<img src=x>.py", [hostile, loader], lines=4),
            FileResult("empty.py", [], lines=1),
        ],
        "2.6",
        root="/work/project",
    )


@pytest.fixture
def report() -> ScanReport:
    return build_report()
