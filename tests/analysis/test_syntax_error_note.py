"""A file analysed despite a syntax error says so: line and Python's message on the FileResult."""

from __future__ import annotations

from msmigrate.model.finding import FileResult

HALF_TYPED = (
    "import torch\n"
    "x = torch.abs(1)\n"
    "for i in range(3)\n"
    "    y = torch.ones(2)\n"
)


def test_half_typed_file_carries_its_syntax_error(analyze):
    result = analyze(HALF_TYPED)
    assert result.error_key is None
    assert (result.syntax_error_line, result.syntax_error_detail) == (3, "expected ':'")
    assert result.recovered is True
    assert [(f.line, f.torch_api) for f in result.findings] == [(2, "torch.abs"), (4, "torch.ones")]
    assert result.syntax_error("en") == (
        "Syntax error at line 3: expected ':'. Findings come from the parts of the file that parse and "
        "may be incomplete."
    )
    assert result.syntax_error("zh") == (
        "第 3 行有语法错误：expected ':'。检查结果仅来自文件中可以解析的部分，可能不完整。"
    )
    assert result.syntax_error_dict("en") == {
        "line": 3, "detail": "expected ':'", "message": result.syntax_error("en"),
    }


def test_unclosed_bracket_names_the_line_where_it_opens(analyze):
    result = analyze("import torch\n\ny = torch.sum(1\n")
    assert (result.syntax_error_line, result.syntax_error_detail) == (3, "'(' was never closed")


def test_clean_file_has_no_syntax_error(analyze):
    result = analyze("import torch\nx = torch.abs(1)\n")
    assert (result.syntax_error_line, result.syntax_error_detail, result.recovered) == (None, None, False)
    assert result.syntax_error("en") is None
    assert result.syntax_error_dict("en") is None
    assert len(result.findings) == 1


def test_file_that_cannot_be_analysed_has_an_error_not_a_syntax_note(analyze):
    result = analyze(b"import torch\x00\n")
    assert (result.error_key, result.syntax_error_detail) == ("analysis.binary_file", None)


def test_defaults_keep_older_constructions_valid():
    result = FileResult("a.py", [], "scan.error.read", {"detail": "denied"}, 3)
    assert (result.syntax_error_line, result.syntax_error_detail, result.recovered) == (None, None, False)
