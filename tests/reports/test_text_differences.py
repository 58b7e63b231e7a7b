"""Text report: a mapping with differences prints its arrow once, then only the differences."""

from __future__ import annotations

from msmigrate.model.finding import FileResult, Finding, FindingCategory, Severity
from msmigrate.reports import render
from msmigrate.scan.model import ScanReport


def _report() -> ScanReport:
    args = {"torch_api": "torch.arange", "mindspore_api": "mindspore.mint.arange", "version": "2.6",
            "details": (("analysis.detail.defaults", (("items", "end"),)),)}
    arange = Finding(3, 5, 3, 17, "torch.arange", "mindspore.mint.arange", FindingCategory.DIFFERENCES,
                     "MSM101", Severity.INFORMATION, "analysis.api.differences", args, fixable=True)
    return ScanReport([FileResult("a.py", [arange], lines=3)], "2.6")


def test_differences_line_does_not_repeat_the_mapping() -> None:
    en = render(_report(), "text", "en").splitlines()
    arrow = "    3:5     torch.arange → mindspore.mint.arange  "
    assert en[4] == arrow + "(With differences) different defaults: end  [MSM101 information]"
    zh = render(_report(), "text", "zh").splitlines()
    assert zh[4] == arrow + "(存在差异) 默认值不同：end  [MSM101 信息]"


def test_other_formats_keep_the_whole_message() -> None:
    csv_text = render(_report(), "csv", "en")
    assert "torch.arange → mindspore.mint.arange (different defaults: end)." in csv_text
