"""Finding columns count code points (ast counts UTF-8 bytes)."""

from __future__ import annotations

import ast

from analysis_support import brief

from msmigrate.analysis.columns import ColumnMap


def test_non_ascii_identifiers_and_strings_before_the_call(analyze):
    source = "import torch\nnombre_año = 'ñandú'; größe = torch.abs(x)\n数据 = torch.zeros(2).view(1)\n"
    result = analyze(source)
    assert brief(result) == [
        (2, 31, "torch.abs", "consistent"),
        (3, 6, "torch.zeros", "differences"),
        (3, 21, "torch.Tensor.view", "consistent"),
    ]
    first = result.findings[0]
    assert (first.end_line, first.end_column) == (2, 40)
    line = source.splitlines()[1]
    assert line[first.column - 1 : first.end_column - 1] == "torch.abs"


def test_emoji_outside_the_basic_plane(analyze):
    source = "import torch\ns = '🙂🙂'; t = torch.abs(x)\n"
    finding = analyze(source).findings[0]
    line = source.splitlines()[1]
    assert line[finding.column - 1 : finding.end_column - 1] == "torch.abs"
    assert finding.column == 15  # the two emoji count as one column each


def test_member_range_is_the_attribute_name(analyze):
    source = "import torch\nx = torch.ones(2)\ny = x.view(2)\nz = x .\\\n    permute(0)\n"
    result = analyze(source)
    view = result.findings[1]
    assert (view.line, view.column, view.end_line, view.end_column) == (3, 7, 3, 11)
    permute = result.findings[2]
    assert permute.torch_api == "torch.Tensor.permute"
    assert (permute.line, permute.column, permute.end_line, permute.end_column) == (5, 5, 5, 12)


def test_multiline_reference_range(analyze):
    source = "import torch\ny = (torch\n     .nn\n     .functional\n     .relu(x))\n"
    finding = analyze(source).findings[0]
    assert (finding.line, finding.column, finding.end_line, finding.end_column) == (2, 6, 5, 11)


def test_column_map_converts_bytes_to_code_points():
    lines = ["aé = 1", "plain"]
    columns = ColumnMap(lines, all_ascii=False)
    assert columns.column(1, 0) == 1
    assert columns.column(1, 3) == 3  # after "aé" (3 bytes, 2 code points)
    assert columns.column(2, 4) == 5
    node = ast.parse("aé = 1").body[0].targets[0]
    assert columns.node_range(node) == (1, 1, 1, 3)
