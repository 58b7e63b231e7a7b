"""Incremental analysis: every version's result equals a full analysis of that text, while only the
statements an edit touches (and what depends on them) are analysed again."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from msmigrate.analysis import incremental
from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
from msmigrate.analysis.incremental import FULL, INCREMENTAL, UNCHANGED, IncrementalAnalyzer
from msmigrate.model.finding import FileResult

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = AnalysisOptions(use_jedi=False)
IMPORTS = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
BLOCK = '''

class Block{n}(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = F.relu(self.fc(x))
        return torch.abs(y).view(-1)
'''
MODEL = IMPORTS + "".join(BLOCK.replace("{n}", str(n)) for n in range(3))


def as_data(result: FileResult) -> list:
    return [f.to_dict() for f in result.findings] + [
        result.error_key, result.syntax_error_line, result.syntax_error_detail
    ]


@pytest.fixture
def analyzer(kb):
    return IncrementalAnalyzer("model.py", kb, OPTIONS)


@pytest.fixture
def same_as_full(kb):
    """Analyse ``text`` incrementally and check the result against a full analysis of it."""

    def check(analyzer: IncrementalAnalyzer, text: str) -> FileResult:
        got = analyzer.analyze(text)
        assert as_data(got) == as_data(analyze_source(text, "model.py", kb, OPTIONS))
        return got

    return check


def line_of(text: str, needle: str, occurrence: int = 0) -> int:
    """0-based index of the line holding the ``occurrence``-th ``needle``."""
    return [i for i, line in enumerate(text.split("\n")) if needle in line][occurrence]


def replace_line(text: str, index: int, new: str) -> str:
    lines = text.split("\n")
    lines[index] = new
    return "\n".join(lines)


def test_a_typed_character_reanalyses_only_its_class_and_the_imports(analyzer, same_as_full):
    first = same_as_full(analyzer, MODEL)
    assert (analyzer.stats.mode, analyzer.stats.chunks) == (FULL, 6)
    index = line_of(MODEL, "torch.abs(y)", 1)
    edited = replace_line(MODEL, index, "        return torch.neg(y).view(-1)")
    second = same_as_full(analyzer, edited)
    stats = analyzer.stats
    assert (stats.mode, stats.reanalysed_chunks, stats.affected_chunks) == (INCREMENTAL, 4, 1)
    assert stats.chunks == 6
    # the findings of the other classes are handed on as the very same objects
    before_edit = [f for f in first.findings if f.line < line_of(MODEL, "class Block1") + 1]
    assert all(a is b for a, b in zip(before_edit, second.findings, strict=False))
    assert [f.torch_api for f in second.findings if f.line == index + 1] == [
        "torch.neg", "torch.Tensor.view"
    ]


def test_a_full_analysis_leaves_describing_its_statements_for_later(analyzer, same_as_full, monkeypatch):
    described: list[int] = []
    real = incremental.chunks_of
    monkeypatch.setattr(incremental, "chunks_of", lambda body: described.append(len(body)) or real(body))
    same_as_full(analyzer, MODEL)
    assert (described, analyzer.stats.chunks, analyzer.text) == ([], 6, MODEL)
    assert analyzer.prepare() and described == [6]
    assert analyzer.prepare() and described == [6]  # once
    index = line_of(MODEL, "torch.abs(y)", 1)
    same_as_full(analyzer, replace_line(MODEL, index, "        return torch.neg(y).view(-1)"))
    assert (analyzer.stats.mode, analyzer.stats.reanalysed_chunks, described) == (INCREMENTAL, 4, [6])
    fresh = IncrementalAnalyzer("model.py", analyzer.kb, OPTIONS)  # without prepare(): the edit describes
    same_as_full(fresh, MODEL)
    same_as_full(fresh, replace_line(MODEL, index, "        return torch.neg(y).view(-1)"))
    assert (fresh.stats.mode, fresh.stats.reanalysed_chunks, described) == (INCREMENTAL, 4, [6, 6])


def test_an_early_result_gives_the_first_lines_from_the_full_analysis_parse(analyzer, same_as_full,
                                                                           monkeypatch):
    text = IMPORTS + "".join(BLOCK.replace("{n}", str(n)) for n in range(30))  # block n: lines 6+10n..13+10n
    early: list[FileResult] = []
    parses: list[bool] = []
    real = incremental.parse_text
    monkeypatch.setattr(incremental, "parse_text", lambda *a, **k: parses.append(True) or real(*a, **k))
    monkeypatch.setattr(incremental, "analyze_bounded", None)  # the early part must not cost a second parse
    full = analyzer.analyze(text, (60, early.append))
    assert [f.to_dict() for f in early[0].findings] == [f.to_dict() for f in full.findings if f.line <= 53]
    assert (len(early), len(early[0].findings), max(f.line for f in early[0].findings)) == (1, 5 * 5, 53)
    assert parses == [True]
    assert as_data(full) == as_data(analyze_source(text, "model.py", analyzer.kb, OPTIONS))
    edited = text.replace("torch.abs(y)", "torch.neg(y)", 1)
    same_as_full(analyzer, edited)  # (an edit: incremental, nothing early)
    assert analyzer.stats.mode == INCREMENTAL and len(early) == 1
    broken = text.replace("def forward(self, x):", "def forward(self, x:", 1)
    for other in (MODEL, broken):  # shorter than 60 lines; does not parse
        IncrementalAnalyzer("model.py", analyzer.kb, OPTIONS).analyze(other, (60, early.append))
        assert len(early) == 1


def test_same_text_again_is_unchanged(analyzer):
    first = analyzer.analyze(MODEL)
    assert analyzer.analyze(MODEL) is first
    assert analyzer.stats.mode == UNCHANGED


def test_an_added_line_moves_the_later_findings(analyzer, same_as_full):
    same_as_full(analyzer, MODEL)
    index = line_of(MODEL, "self.fc = nn.Linear")
    lines = MODEL.split("\n")
    edited = "\n".join([*lines[: index + 1], "        self.act = nn.ReLU()", *lines[index + 1 :]])
    result = same_as_full(analyzer, edited)
    assert analyzer.stats.mode == INCREMENTAL
    assert (analyzer.stats.reanalysed_chunks, analyzer.stats.affected_chunks) == (4, 1)
    assert [f.line for f in result.findings if f.torch_api == "torch.nn.ReLU"] == [10]
    assert [f.line for f in result.findings if f.torch_api == "torch.nn.Linear"] == [9, 20, 30]
    removed = same_as_full(analyzer, MODEL)  # and back
    assert [f.line for f in removed.findings if f.torch_api == "torch.nn.Linear"] == [9, 19, 29]


def test_a_statement_typed_between_two_others(analyzer, same_as_full):
    same_as_full(analyzer, MODEL)
    lines = MODEL.split("\n")
    index = line_of(MODEL, "class Block1") - 1  # the blank line before it
    for partial in ("w", "w = torch.zer", "w = torch.zeros(3)"):
        same_as_full(analyzer, "\n".join([*lines[:index], partial, *lines[index:]]))
        assert analyzer.stats.mode == INCREMENTAL


def test_an_indented_line_after_a_blank_line_continues_the_function(analyzer, same_as_full):
    same_as_full(analyzer, MODEL)
    lines = MODEL.split("\n")
    index = line_of(MODEL, "class Block1") - 1
    edited = "\n".join([*lines[:index], "        z = torch.ones(2)", *lines[index:]])
    result = same_as_full(analyzer, edited)
    assert (analyzer.stats.mode, analyzer.stats.broken_chunks) == (INCREMENTAL, 0)
    assert result.syntax_error_line is None


def test_readers_of_a_changed_module_name_are_analysed_again(analyzer, same_as_full):
    text = IMPORTS + "act = nn.ReLU()\n\n\ndef run(x):\n    return act(x)\n\n\ndef other(x):\n    return x\n"
    same_as_full(analyzer, text)
    edited = text.replace("act = nn.ReLU()", "act = nn.GELU()")
    same_as_full(analyzer, edited)
    # the edited line, the import on the line before it (parsed again with it) and `run`
    assert (analyzer.stats.mode, analyzer.stats.affected_chunks) == (INCREMENTAL, 3)


FIRST_CALL = IMPORTS + (
    "x = torch.zeros(3)\n"
    "\n"
    "def make():\n"
    "    return x.view(1)\n"
    "\n"
    "\n"
    "y = make()\n"
    "\n"
    "\n"
    "x = 5\n"
)


def test_a_body_first_run_by_the_edited_statement_is_analysed_again(analyzer, same_as_full):
    # `make` is analysed when `y = make()` runs, while x is still a tensor: x.view is a Tensor API
    first = same_as_full(analyzer, FIRST_CALL)
    assert "torch.Tensor.view" in [f.torch_api for f in first.findings]
    # without that call its body is analysed at the end, when x is 5: the finding must go
    edited = same_as_full(analyzer, FIRST_CALL.replace("y = make()", "y = 1"))
    assert (analyzer.stats.mode, analyzer.stats.affected_chunks) == (INCREMENTAL, 2)
    assert "torch.Tensor.view" not in [f.torch_api for f in edited.findings]
    # and back: the new call runs it early again
    again = same_as_full(analyzer, FIRST_CALL)
    assert (analyzer.stats.mode, analyzer.stats.affected_chunks) == (INCREMENTAL, 2)
    assert "torch.Tensor.view" in [f.torch_api for f in again.findings]


def test_an_edited_body_is_analysed_again_where_its_first_call_runs(analyzer, same_as_full):
    same_as_full(analyzer, FIRST_CALL)
    edited = same_as_full(analyzer, FIRST_CALL.replace("x.view(1)", "x.view(2)"))
    assert analyzer.stats.mode == INCREMENTAL
    assert "torch.Tensor.view" in [f.torch_api for f in edited.findings]


def test_a_dependency_is_analysed_where_its_first_call_runs(analyzer, same_as_full):
    text = IMPORTS + (
        "x = torch.zeros(3)\n\n"
        "def make():\n    return x\n\n\n"
        "y = make()\n\n\n"  # make's body is analysed here, while x is a tensor
        "x = 5\n\n\n"
        "def use():\n    return make().view(1)\n"
    )
    same_as_full(analyzer, text)
    edited = same_as_full(analyzer, text.replace("view(1)", "view(2)"))
    assert (analyzer.stats.mode, analyzer.stats.affected_chunks) == (INCREMENTAL, 1)
    assert "torch.Tensor.view" in [f.torch_api for f in edited.findings]


MUTATION = IMPORTS + (
    "class Net(nn.Module):\n"
    "    def forward(self, x):\n"
    "        return self.head.weight.view(-1)\n"
    "\n"
    "\n"
    "net = Net()\n"
    "net.head = nn.Linear(2, 2)\n"
)


def test_an_attribute_assigned_from_outside_the_class(analyzer, same_as_full):
    first = same_as_full(analyzer, MUTATION)
    edited = same_as_full(analyzer, MUTATION.replace("net.head = nn.Linear(2, 2)", "net.head = 3"))
    assert analyzer.stats.mode == INCREMENTAL
    assert as_data(first) != as_data(edited)  # the class's own findings changed with the assignment


def test_a_name_bound_through_global_in_a_function(analyzer, same_as_full):
    text = IMPORTS + (
        "def setup():\n"
        "    global layer\n"
        "    layer = torch.nn.Linear(2, 2)\n"
        "\n"
        "def run(x):\n"
        "    return layer.weight.view(-1)\n"
    )
    first = same_as_full(analyzer, text)
    edited = same_as_full(analyzer, text.replace("layer = torch.nn.Linear(2, 2)", "layer = 3"))
    assert analyzer.stats.mode == INCREMENTAL
    assert as_data(first) != as_data(edited)


def test_a_name_used_in_a_string_annotation(analyzer, same_as_full):
    text = IMPORTS + 'T = torch.Tensor\n\n\ndef f(x: "T"):\n    return x.view(1)\n'
    first = same_as_full(analyzer, text)
    edited = same_as_full(analyzer, text.replace("T = torch.Tensor", "T = int"))
    assert analyzer.stats.mode == INCREMENTAL
    assert as_data(first) != as_data(edited)


def test_a_statement_being_typed_keeps_the_rest_of_the_file(analyzer, same_as_full):
    first = same_as_full(analyzer, MODEL)
    index = line_of(MODEL, "torch.abs(y)", 1)
    broken = analyzer.analyze(replace_line(MODEL, index, "        return torch.abs(y"))
    stats = analyzer.stats
    assert (stats.mode, stats.broken_chunks) == (INCREMENTAL, 1)
    assert (broken.syntax_error_line, broken.syntax_error_detail) == (index + 1, "'(' was never closed")
    block = (line_of(MODEL, "class Block1") + 1, line_of(MODEL, "class Block2") - 1)
    outside = [f for f in first.findings if not block[0] <= f.line <= block[1]]
    assert [f for f in broken.findings if not block[0] <= f.line <= block[1]] == outside
    same_as_full(analyzer, MODEL)  # fixed again: exact, and still incremental
    assert (analyzer.stats.mode, analyzer.stats.broken_chunks) == (INCREMENTAL, 0)


def test_a_file_opened_with_a_syntax_error(analyzer, same_as_full):
    index = line_of(MODEL, "torch.abs(y)", 0)
    broken_text = replace_line(MODEL, index, "        return torch.abs(y")
    same_as_full(analyzer, broken_text)  # the first analysis is a full one, recovered
    assert analyzer.stats.mode == FULL
    other = line_of(MODEL, "torch.abs(y)", 2)
    still_broken = analyzer.analyze(replace_line(broken_text, other, "        return torch.neg(y).view(-1)"))
    assert (analyzer.stats.mode, analyzer.stats.broken_chunks) == (INCREMENTAL, 1)
    assert still_broken.syntax_error_line == index + 1
    fixed = replace_line(replace_line(MODEL, other, "        return torch.neg(y).view(-1)"), index,
                         "        return torch.abs(y).view(-1)")
    same_as_full(analyzer, fixed)
    assert (analyzer.stats.mode, analyzer.stats.broken_chunks) == (INCREMENTAL, 0)


def test_two_broken_places_that_parse_together_get_a_full_analysis(analyzer, same_as_full):
    text = IMPORTS + "y = torch.abs(1)\n"
    analyzer.analyze(text)
    opened = text + "x = torch.zeros(\n"
    analyzer.analyze(opened)
    assert analyzer.stats.broken_chunks == 1
    result = same_as_full(analyzer, opened + "    3,\n)\n")  # the closing line alone does not parse
    assert result.syntax_error_line is None


def test_a_star_import_means_full_analyses(analyzer, same_as_full):
    text = "from torch import *\nimport torch\nx = zeros(3)\n"
    same_as_full(analyzer, text)
    same_as_full(analyzer, text + "y = ones(2)\n")
    assert analyzer.stats.mode == FULL


def test_bad_input_in_between(analyzer, same_as_full):
    same_as_full(analyzer, MODEL)
    assert analyzer.analyze(b"\x00\x01binary").error_key == "analysis.binary_file"
    same_as_full(analyzer, MODEL)
    assert analyzer.stats.mode == FULL
    same_as_full(analyzer, "x = 1\n")  # no torch at all
    same_as_full(analyzer, MODEL)


def _corpus(rng: random.Random) -> list[str]:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from analysis_cases import CASES

    files = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.py"))]
    snippets = [case[1] for case in CASES]
    files += ["\n".join(rng.sample(snippets, 6)) for _ in range(12)]
    return files


_INSERTS = ["(", ")", ":", " ", "\n", "x", "torch.", "self.", "#", '"', "\n    ", "y = x\n", "import torch\n",
            "global x\n", "def f():\n    return torch.zeros(1)\n", "f()", "model.fc = nn.Linear(1, 2)\n"]


def _edit(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    kind = rng.random()
    if kind < 0.3 and text:
        at = rng.randrange(len(text))
        return text[:at] + text[at + 1 :]
    if kind < 0.6:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(_INSERTS) + text[at:]
    if kind < 0.7:
        lines.insert(rng.randrange(len(lines)), rng.choice(lines))
    elif kind < 0.8 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    elif kind < 0.9:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        names = re.findall(r"\b[A-Za-z_]\w*\b", text)
        if names:
            old, new = rng.choice(names), rng.choice(names)
            return re.sub(rf"\b{re.escape(old)}\b", new, text, count=1)
    return "\n".join(lines)


def test_random_edits_give_the_full_analysis_result(kb):
    """Random edits of real files: whenever the text parses, the incremental result is exactly the full
    analysis's (broken texts are recovered statement by statement, so they are not compared)."""
    rng = random.Random(20261121)
    compared = incremental = 0
    for original in _corpus(rng):
        analyzer = IncrementalAnalyzer("f.py", kb, OPTIONS)
        analyzer.analyze(original)
        text = original
        for _ in range(12):
            previous, text = text, _edit(rng, text)
            try:
                compile(text, "f.py", "exec", 0x400)  # PyCF_ONLY_AST
            except (SyntaxError, ValueError):
                if rng.random() < 0.8:
                    text = previous  # mostly keep typing in parsable code
            got = analyzer.analyze(text)
            if analyzer.stats.broken_chunks:
                continue
            incremental += analyzer.stats.mode == INCREMENTAL
            compared += 1
            assert as_data(got) == as_data(analyze_source(text, "f.py", kb, OPTIONS)), text
    assert compared > 120 and incremental > compared // 3, (compared, incremental)


def test_a_big_re_analysis_is_provisional_until_confirmed(kb, same_as_full):
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS, allow_provisional=True, exact_line_budget=0)
    text = IMPORTS + "act = nn.ReLU\n\n\ndef run(x):\n    return act(x)\n"
    first = same_as_full(analyzer, text)
    assert [(f.line, f.torch_api) for f in first.findings] == [(4, "torch.nn.ReLU"), (8, "torch.nn.ReLU")]
    edited = text.replace("act = nn.ReLU", "act = 3")
    provisional = analyzer.analyze(edited)
    assert analyzer.provisional and analyzer.stats.provisional
    # only the edited statement was analysed again: `run` still shows what it found before
    assert [(f.line, f.torch_api) for f in provisional.findings] == [(8, "torch.nn.ReLU")]
    confirmed = analyzer.confirm()
    assert confirmed is not None
    assert as_data(confirmed) == as_data(analyze_source(edited, "m.py", kb, OPTIONS))
    assert confirmed.findings == [] and not analyzer.provisional
    assert analyzer.confirm() is None  # nothing left to confirm


def test_edits_before_the_confirmation_are_confirmed_together(kb, same_as_full):
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS, allow_provisional=True, exact_line_budget=0)
    text = MODEL
    text = IMPORTS + "act = nn.ReLU\n\n\ndef run(x):\n    return act(x)\n" + MODEL[len(IMPORTS) :]
    same_as_full(analyzer, text)
    for old, new in (("act = nn.ReLU", "act = 3"), ("torch.abs(y)", "torch.neg(y)"), ("act = 3", "act = 4")):
        text = text.replace(old, new, 1)
        analyzer.analyze(text)
        assert analyzer.provisional  # `run` waits for the confirmation
    confirmed = analyzer.confirm()
    assert confirmed is not None and as_data(confirmed) == as_data(analyze_source(text, "m.py", kb, OPTIONS))
    same_as_full(analyzer, text.replace("torch.neg(y)", "torch.abs(y)"))  # and on from the exact state
    assert not analyzer.provisional  # an edit whose shortened analysis is the exact one is not provisional
