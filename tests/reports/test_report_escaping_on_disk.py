"""A project whose file and folder names are HTML: scanned for real, every format stays inert."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from msmigrate.reports import render
from msmigrate.scan import ScanOptions, scan_paths


def test_hostile_file_names_are_escaped_in_every_format(tmp_path: Path) -> None:
    folder = tmp_path / "proj" / "<script>alert(1)<"
    folder.mkdir(parents=True)
    (folder / "script>.py").write_text("import torch\nx = torch.flatten(y)\n", encoding="utf-8")
    (tmp_path / "proj" / "<img src=x onerror=alert(2)>.py").write_text(
        "import torch\nz = torch.flatten(w)\n", encoding="utf-8")
    report = scan_paths([tmp_path / "proj"], ScanOptions(jobs=1, use_cache=False))
    paths = [f.path for f in report.files]
    assert paths == ["<img src=x onerror=alert(2)>.py", "<script>alert(1)</script>.py"]

    page = render(report, "html", "en")
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;.py" in page
    assert page.count("<script>") == 1
    markdown = render(report, "markdown", "en")
    assert "<script>alert" not in markdown and "<img src=x" not in markdown
    assert json.loads(render(report, "json", "en"))["files"][1]["path"] == "<script>alert(1)</script>.py"
    rows = list(csv.DictReader(io.StringIO(render(report, "csv", "en"))))
    assert {r["path"] for r in rows} == set(paths)
    sarif = json.loads(render(report, "sarif", "en"))
    results = sarif["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {"%3Cimg%20src%3Dx%20onerror%3Dalert%282%29%3E.py",
                    "%3Cscript%3Ealert%281%29%3C/script%3E.py"}


def test_mentions_and_terminal_escapes_from_file_names_stay_inert(tmp_path: Path) -> None:
    from msmigrate.reports.control_chars import escape_controls
    from msmigrate.reports.text import build_lines

    project = tmp_path / "proj"
    (project / "@octocat").mkdir(parents=True)
    (project / "@octocat" / "m.py").write_text("import torch\nx = torch.flatten(y)\n", encoding="utf-8")
    (project / "t\x1b]0;pwned\x07\u202egnp.py").write_text("import torch\nz = torch.flatten(w)\n",
                                                           encoding="utf-8")
    report = scan_paths([project], ScanOptions(jobs=1, use_cache=False))

    markdown = render(report, "markdown", "en")
    assert "@octocat" not in markdown
    assert "<code>@\u200boctocat/m.py</code>" in markdown

    text = render(report, "text", "en")
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\nt\\x1b]0;pwned\\x07\\u202egnp.py\n" in text
    plain = [line.plain for line in build_lines(report, "en")]  # what a terminal is sent
    assert "t\\x1b]0;pwned\\x07\\u202egnp.py" in plain and not any("\x1b" in line for line in plain)
    assert escape_controls("a\tb\x00c\x9bd\u2066e") == "a\\x09b\\x00c\\x9bd\\u2066e"
    # HTML and JSON keep the name as it is (escaped by their own rules)
    assert json.loads(render(report, "json", "en"))["files"][1]["path"] == "t\x1b]0;pwned\x07\u202egnp.py"
