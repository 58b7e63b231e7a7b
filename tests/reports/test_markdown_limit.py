"""Markdown report: it fits in a pull-request comment (65,536 characters) and says what it left out."""

from __future__ import annotations

from msmigrate.model.finding import FileResult, Finding, FindingCategory, Severity
from msmigrate.reports import render
from msmigrate.reports.markdown import COMMENT_LIMIT, render_markdown
from msmigrate.scan.model import ScanReport


def _finding(line: int) -> Finding:
    return Finding(line, 5, line, 14, "torch.abs", "mindspore.mint.abs", FindingCategory.CONSISTENT, "MSM100",
                   Severity.HINT, "rule.MSM100.title")


def _report(files: int, per_file: int) -> ScanReport:
    return ScanReport(
        [FileResult(f"pkg/m{i}.py", [_finding(n + 1) for n in range(per_file)], lines=per_file)
         for i in range(files)],
        "2.6",
    )


def test_a_large_report_is_cut_to_fit_a_comment() -> None:
    text = render(_report(40, 100), "markdown", "en")
    assert len(text) <= COMMENT_LIMIT
    shown = text.count("| <code>torch.abs</code> |")
    assert 0 < shown < 4000
    assert text.endswith(
        f"\n\n{4000 - shown} more findings are not listed: a pull-request comment holds at most 65,536 "
        "characters. The HTML, JSON, CSV and SARIF reports list them all.\n"
    )
    assert text.count("<details>") == text.count("</details>")  # the cut file is closed properly


def test_cut_inside_a_file_and_in_chinese() -> None:
    full = render_markdown(_report(1, 5), "zh")
    assert "未列出" not in full
    cut = render_markdown(_report(1, 5), "zh", budget=len(full) - 150)
    shown = cut.count("| <code>torch.abs</code> |")
    assert shown == 3
    assert cut.endswith(
        "</details>\n\n另有 2 个问题未列出：拉取请求评论最多容纳 65,536 个字符。"
        "HTML、JSON、CSV 和 SARIF 报告列出全部问题。\n"
    )
