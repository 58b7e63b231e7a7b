"""After edits over a statement that does not parse, the incremental result may differ from a fresh
analysis (it recovers the broken statement alone, a fresh one recovers the whole file); it is marked
provisional and ``confirm()`` gives exactly the fresh result."""

from __future__ import annotations

import random
from pathlib import Path

from msmigrate.analysis.analyzer import analyze_source
from msmigrate.analysis.incremental import IncrementalAnalyzer
from msmigrate.knowledge.base import get_knowledge_base

EXAMPLES = sorted(Path(__file__).resolve().parents[2].glob("examples/**/*.py"))
TYPED = ["torch.", "torch.abs(", "(", ")", ":", "\n    ", "\n", "def f(:\n", "x = [", "]", "'", '"""', "#",
         ""]


def key(result) -> list[tuple]:
    return [(f.line, f.column, f.end_line, f.end_column, f.rule, f.torch_api) for f in result.findings]


def test_confirm_after_broken_edits_equals_a_fresh_analysis():
    kb = get_knowledge_base("2.6")
    differed = 0
    for seed in range(12):
        rnd = random.Random(seed)
        text = rnd.choice(EXAMPLES).read_text(encoding="utf-8")
        analyzer = IncrementalAnalyzer("edited.py", kb)
        analyzer.analyze(text)
        for _ in range(6):
            start = rnd.randint(0, len(text))
            end = min(len(text), start + rnd.randint(0, 10))
            text = text[:start] + rnd.choice(TYPED) + text[end:]
            result = analyzer.analyze(text)
        fresh = key(analyze_source(text, "edited.py", kb))
        if key(result) != fresh:
            differed += 1
            assert analyzer.provisional, f"seed {seed}: differs from fresh without being provisional"
        if analyzer.fresh_pending:  # the server's way: a fresh analysis beside, the state left as it is
            assert key(analyzer.fresh(text)) == fresh and analyzer.fresh(text + "\n#") is None
            assert analyzer.provisional
        if analyzer.provisional:
            confirmed = analyzer.confirm()
            assert confirmed is not None and key(confirmed) == fresh, f"seed {seed}"
            assert not analyzer.provisional
    assert differed >= 2  # the case this guards against occurs in these edits
