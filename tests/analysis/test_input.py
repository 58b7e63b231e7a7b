"""Bad and unusual input: encodings, binary data, empty and huge files, broken syntax."""

from __future__ import annotations

import codecs

from analysis_support import brief

from msmigrate.analysis.parse import SourceError, decode, parse_source, split_lines

SNIPPET = "import torch\ntorch.abs(x)\n"


def test_empty_input_has_no_findings(analyze):
    for source in ("", b"", "\n\n", b"# only a comment\n"):
        result = analyze(source)
        assert result.error_key is None
        assert result.findings == []
    assert analyze("").lines == 0
    assert analyze("\n\n").lines == 2


def test_bytes_are_decoded_as_utf8(analyze):
    result = analyze(SNIPPET.encode("utf-8"))
    assert brief(result) == [(2, 1, "torch.abs", "consistent")]
    assert result.lines == 2


def test_utf8_bom_is_accepted_in_bytes_and_text(analyze):
    assert brief(analyze(codecs.BOM_UTF8 + SNIPPET.encode())) == [(2, 1, "torch.abs", "consistent")]
    assert brief(analyze("\ufeff" + SNIPPET)) == [(2, 1, "torch.abs", "consistent")]


def test_coding_cookie_is_honoured(analyze):
    source = "# -*- coding: latin-1 -*-\nimport torch\nname = 'café'\ntorch.abs(x)\n".encode("latin-1")
    result = analyze(source)
    assert result.error_key is None
    assert brief(result) == [(4, 1, "torch.abs", "consistent")]


def test_binary_input_is_a_clear_error(analyze):
    result = analyze(b"\x7fELF\x02\x01\x01\x00\x00\x00torch")
    assert result.error_key == "analysis.binary_file"
    assert result.findings == []
    assert "NUL" in result.error("en")
    assert "二进制" in result.error("zh")
    assert analyze("import torch\x00").error_key == "analysis.binary_file"


def test_invalid_utf8_names_the_line(analyze):
    result = analyze(b"import torch\nx = 1\ns = '\xff\xfe'\n")
    assert result.error_key == "analysis.decode_error"
    assert result.error_args == {"encoding": "utf-8", "line": 3}
    assert result.error("en").startswith(
        "Not analysed: the file is not valid utf-8 text (first bad byte on line 3)"
    )


def test_unknown_coding_cookie_is_a_clear_error(analyze):
    result = analyze(b"# coding: klingon-8\nimport torch\n")
    assert result.error_key == "analysis.unknown_encoding"
    assert "klingon-8" in result.error("en")


def test_decode_raises_source_error_only():
    try:
        decode(b"\x00")
    except SourceError as exc:
        assert exc.key == "analysis.binary_file"
    else:
        raise AssertionError("binary input was decoded")


def test_lines_split_like_the_tokenizer():
    assert split_lines("a\r\nb\rc\nd\x0ce") == ["a", "b", "c", "d\x0ce"]
    parsed = parse_source("import torch\n\x0c\ntorch.abs(x)\n")
    assert parsed.lines[2] == "torch.abs(x)"


def test_form_feed_and_crlf_keep_line_numbers(analyze):
    source = "import torch\r\n\x0c\r\nx = 1\r\ntorch.abs(x)\r\n"
    assert brief(analyze(source)) == [(4, 1, "torch.abs", "consistent")]


def test_half_typed_file_still_reports_the_intact_parts(analyze):
    source = (
        "import torch\n"
        "import torch.nn as nn\n"
        "def f(x):\n"
        "    y = torch.zeros(\n"
        "    return torch.abs(x)\n"
        "\n"
        "class Net(nn.Module):\n"
        "    def forward(self, x):\n"
        "        z = x +\n"
        "        return x.view(-1)\n"
        "torch.sum(1\n"
    )
    result = analyze(source)
    assert result.error_key is None
    assert brief(result) == [
        (5, 12, "torch.abs", "consistent"),
        (7, 11, "torch.nn.Module", "missing"),
        (10, 18, "torch.Tensor.view", "consistent"),
    ]


def test_broken_function_header_keeps_the_rest(analyze):
    # the body under the broken header is intact code: it is analysed too (it was dropped before)
    source = "import torch\ndef f(x\n    return torch.abs(x)\ny = torch.relu(x)\nz = torch.exp(x)\n"
    assert brief(analyze(source)) == [
        (3, 12, "torch.abs", "consistent"),
        (4, 5, "torch.relu", "missing"),
        (5, 5, "torch.exp", "consistent"),
    ]


def test_body_under_a_header_being_typed_is_analysed(analyze):
    missing_colon = "import torch\nfor x in y\n    torch.relu(x)\nz = torch.exp(1)\n"
    expected = [(3, 5, "torch.relu", "missing"), (4, 5, "torch.exp", "consistent")]
    assert brief(analyze(missing_colon)) == expected
    half_params = "import torch\ndef f(:\n    return torch.abs(x)\n"
    assert brief(analyze(half_params)) == [(3, 12, "torch.abs", "consistent")]
    method = (
        "import torch\nclass A(torch.nn.Module):\n    def forward(self, x)\n        return torch.abs(x)\n"
        "    def g(self):\n        return torch.exp(1)\n"
    )
    assert brief(analyze(method)) == [
        (2, 9, "torch.nn.Module", "missing"),
        (4, 16, "torch.abs", "consistent"),
        (6, 16, "torch.exp", "consistent"),
    ]


def test_header_stub_only_for_a_header_with_a_body():
    from msmigrate.analysis.parse import _header_stub

    assert _header_stub("for x in y", "", ["    f(x)"]) == "for x in y:"
    assert _header_stub("def f(:", "", ["    return 1"]) == "def f(*args, **kwargs):"
    assert _header_stub("while x ==  # typing", "", ["", "    # c", "    y()"]) == "if True:"
    assert _header_stub("for x in y", "", ["z = 1"]) is None  # no indented body follows
    assert _header_stub("x = f(", "", ["    a)"]) is None  # not a block header


def test_unexpected_indent_keeps_the_rest(analyze):
    source = "import torch\nx = 1\n        y = torch.abs(2)\nz = torch.exp(3)\n"
    assert brief(analyze(source)) == [(4, 5, "torch.exp", "consistent")]


def test_unclosed_bracket_at_the_end(analyze):
    source = "import torch\na = torch.exp(x)\nb = torch.abs(\n"
    assert brief(analyze(source)) == [(2, 5, "torch.exp", "consistent")]


def test_garbage_text_does_not_raise(analyze):
    for source in (
        ")))(((",
        "def def def",
        "import torch\n@@@\n",
        "class :\n  torch.abs(",
        "\t\t\ttorch.abs(x)",
    ):
        result = analyze(source)
        assert result.error_key is None, source


def test_deep_nesting(analyze):
    long_sum = "import torch\nx = " + " + ".join(["torch.abs(1)"] * 900) + "\n"  # a generated expression
    result = analyze(long_sum)
    assert result.error_key is None and len(result.findings) == 900
    too_deep = "import torch\nx = " + " + ".join(["torch.abs(1)"] * 5000) + "\ny = torch.exp(1)\n"
    result = analyze(too_deep)  # only that statement is left out (the whole file was: no findings)
    assert result.error_key is None and [(f.line, f.torch_api) for f in result.findings] == [(3, "torch.exp")]
    assert (result.syntax_error_line, result.syntax_error_detail) == (
        2, "statement not analysed: a line of 75001 characters (over 20000)"
    )
    parens = "import torch\nx = " + "(" * 300 + "torch.abs(1)" + ")" * 300 + "\ny = torch.exp(1)\n"
    assert [f.torch_api for f in analyze(parens).findings] == ["torch.exp"]  # the tokenizer's limit is 200


def test_file_without_torch_is_not_walked(analyze):
    result = analyze("import numpy as np\nnp.zeros(3).sum()\n" * 10)
    assert result.findings == [] and result.lines == 20 and result.error_key is None


def test_huge_file(analyze):
    block = (
        "import torch\n"
        "import torch.nn as nn\n"
        "class Block(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(4, 4)\n"
        "    def forward(self, x):\n"
        "        y = self.fc(x).view(-1)\n"
        "        return torch.relu(y) + x.mean()\n"
        "\n"
    )
    source = block * 10_000  # 100k lines
    result = analyze(source)
    assert result.error_key is None
    assert result.lines == 100_000
    assert len(result.findings) == 10_000 * 5  # Module, Linear, view, relu, mean per block
    assert result.findings[-1].line == 99_999


TRAINING_SCRIPT = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        x = F.relu(self.conv(x))
        x = x.mean(dim=(2, 3))
        return self.fc(x).view(-1, 2)


def train(loader):
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, labels in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), "model.pt")
"""


def test_every_truncation_and_corruption_is_analysed(analyze):
    """A file cut or damaged anywhere (as while typing) never fails, and keeps the intact parts."""
    complete = {f.torch_api for f in analyze(TRAINING_SCRIPT).findings}
    assert "torch.save" in complete and "torch.Tensor.view" in complete
    for cut in range(0, len(TRAINING_SCRIPT), 7):
        for damaged in (
            TRAINING_SCRIPT[:cut],
            TRAINING_SCRIPT[:cut] + "(" + TRAINING_SCRIPT[cut:],
            TRAINING_SCRIPT[:cut] + TRAINING_SCRIPT[cut + 3 :],
        ):
            result = analyze(damaged)
            assert result.error_key is None, damaged
            assert all(f.torch_api.startswith("torch") for f in result.findings), damaged
    # a damaged middle keeps what comes before and after it
    broken = TRAINING_SCRIPT.replace("x = x.mean(dim=(2, 3))", "x = x.mean(dim=(2, 3)")
    found = {f.torch_api for f in analyze(broken).findings}
    assert {"torch.save", "torch.nn.Conv2d", "torch.optim.SGD"} <= found
