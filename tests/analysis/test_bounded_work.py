"""Work per document is bounded: a top-level statement with a very long line, or nested deeper than
Python's parser accepts, is left out with a note; the rest of the file keeps its findings, fast, and
incremental analysis gives the same result."""

from __future__ import annotations

import sys
import time

import pytest

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.incremental import IncrementalAnalyzer
from msmigrate.analysis.parse import MAX_LINE_CHARS, MAX_NESTING
from msmigrate.knowledge.base import get_knowledge_base

HEAD = "import torch\na = torch.abs(x)\n"
TAIL = "\nclass Net:\n    def f(self):\n        return torch.neg(y)\n"
CALLS = ["torch.abs(1)"] * 70_000  # about 1 MB on one line
LONG = {
    "sum": "y = " + "+".join(CALLS),
    "list": "y = [" + ",".join(CALLS) + "]",
    "sum with a syntax error": "y = " + "+".join(CALLS) + " +",
    "list with a syntax error": "y = [" + ",".join(CALLS) + ",,]",
    "in a function": "def g():\n    return [" + ",".join(CALLS) + "]",
}


def kept(result) -> list[tuple[int, str]]:
    return [(f.line, f.torch_api) for f in result.findings]


@pytest.mark.parametrize("name", sorted(LONG))
def test_one_megabyte_line_is_left_out_quickly(name: str):
    kb = get_knowledge_base("2.6")
    statement = LONG[name]
    source = HEAD + statement + TAIL
    start = time.perf_counter()
    result = analyze_source(source, "long.py", kb)
    assert time.perf_counter() - start < 3.0
    after = 3 + statement.count("\n") + 3  # the return line of Net.f
    assert result.error_key is None
    assert kept(result) == [(2, "torch.abs"), (after, "torch.neg")]
    assert result.syntax_error_line == 3
    assert result.syntax_error_detail.startswith("statement not analysed: a line of ")
    # the same result when the line is typed into an open document
    incremental = IncrementalAnalyzer("long.py", kb)
    incremental.analyze(HEAD + TAIL)
    assert kept(incremental.analyze(source)) == kept(result)
    assert kept(incremental.analyze(HEAD + "y = 1" + TAIL)) == [(2, "torch.abs"), (6, "torch.neg")]


@pytest.fixture
def default_recursion_limit():
    """Python's default limit, whatever ran before in this process (ast.parse's room depends on it)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(old)


def test_nesting_the_parser_refuses_costs_only_that_statement(default_recursion_limit: None):
    kb = get_knowledge_base("2.6")
    deep = "y = " + "+".join(["a"] * 4000)  # 8 KB: under the line limit, too deep for ast.parse
    assert len(deep) < MAX_LINE_CHARS
    result = analyze_source(HEAD + deep + TAIL, "deep.py", kb)
    assert result.error_key is None
    assert kept(result) == [(2, "torch.abs"), (6, "torch.neg")]
    assert (result.syntax_error_line, result.syntax_error_detail) == (
        3, f"statement not analysed: nested more than {MAX_NESTING} levels deep"
    )
    assert kept(IncrementalAnalyzer("deep.py", kb).analyze(HEAD + deep + TAIL)) == kept(result)


def test_long_lines_below_the_limit_are_analysed():
    kb = get_knowledge_base("2.6")
    line = "y = [" + ",".join(["torch.abs(1)"] * 1500) + "]"  # 19.5 KB
    result = analyze_source(HEAD + line + "\n", "ok.py", kb)
    assert len(result.findings) == 1501 and result.syntax_error_line is None


def test_recursion_room_is_kept_until_the_last_analysis_leaves(default_recursion_limit: None):
    import threading

    from msmigrate.analysis.analyzer import _recursion_room

    inside, release, seen = threading.Event(), threading.Event(), []

    def second() -> None:
        with _recursion_room():
            inside.set()
            release.wait(5)
            seen.append(sys.getrecursionlimit())  # after the first analysis left

    with _recursion_room():
        thread = threading.Thread(target=second)
        thread.start()
        inside.wait(5)
    release.set()
    thread.join(5)
    assert seen == [6000] and sys.getrecursionlimit() == 1000
