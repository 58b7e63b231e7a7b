"""The HTML findings table fits the window: long dotted names and paths can wrap at their separators."""

from __future__ import annotations

from msmigrate.reports import render
from msmigrate.reports.html import breakable
from msmigrate.scan.model import ScanReport


def test_breakable_escapes_then_adds_break_opportunities() -> None:
    assert str(breakable("torch.nn.functional.relu")) == "torch.<wbr>nn.<wbr>functional.<wbr>relu"
    assert str(breakable("evil/<img src=x>.py")) == "evil/<wbr>&lt;img src=x&gt;.<wbr>py"
    assert str(breakable(None)) == ""


def test_findings_table_cells_wrap_and_scroll_inside_their_column(report: ScanReport) -> None:
    page = render(report, "html", "en")
    row = page[page.index('<tr data-category="differences"'):]
    row = row[: row.index("</tr>")]
    assert "<td><code>models/<wbr>net.<wbr>py</code></td>" in row
    assert "<td><code>torch.<wbr>nn.<wbr>Linear</code></td>" in row
    assert "<td><code>mindspore.<wbr>mint.<wbr>nn.<wbr>Linear</code></td>" in row
    assert '<td class="msg">' in row
    hostile = "<td><code>evil/<wbr>&lt;img src=x&gt;.<wbr>py</code></td>"
    assert hostile in page and "<img src=x>" not in page
    # the grid's second track may shrink below the table's width; the table scrolls in its own box
    assert "grid-template-columns: minmax(8rem, 12rem) minmax(0, 1fr)" in page
    assert '<div class="table-scroll">\n<table id="findings">' in page
    # a doc link per line, never broken inside (CJK labels were stacked one character per line)
    assert ".docs a { display: block; white-space: nowrap; }" in page
    assert "#findings th { white-space: nowrap; }" in page
