"""Quick fixes computed from only the statements they need (the language server's fast path) are the
fixes computed from the whole parsed file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from msmigrate.analysis.analyzer import AnalysisOptions
from msmigrate.analysis.incremental import IncrementalAnalyzer
from msmigrate.fixes.api import fixes_by_finding
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.fixers import fixers_for
from msmigrate.knowledge.base import get_knowledge_base

ROOT = Path(__file__).resolve().parents[2]


def _sources() -> list[tuple[str, str]]:
    sys.path.insert(0, str(ROOT / "tests" / "analysis"))
    from analysis_cases import CASES

    files = sorted([*(ROOT / "examples").rglob("*.py"), *(ROOT / "tests/rules/fixtures").rglob("*.py")])
    sources = [(p.name, p.read_text(encoding="utf-8")) for p in files]
    snippets = [case[1] for case in CASES if "import *" not in case[1]]  # (no incremental state then)
    # the snippets one after another: many statements, imports scattered between them
    sources.append(("joined.py", "\n".join(snippets[i] for i in range(0, len(snippets), 3))))
    # a MindSpore import below the leading block, and one inside try: the fixes use their names
    sources.append(("late_import.py", (
        '"""Doc."""\nimport torch\nimport torch.nn as nn\n\nx = 1\n\nimport mindspore.nn as msnn\n'
        "try:\n    import mindspore.ops as mops\nexcept ImportError:\n    mops = None\n\n\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(2, 3)\n\n    def forward(self, x):\n        return torch.abs(x)\n"
    )))
    return sources


def _described(pairs) -> list[tuple]:
    return [(finding.line, finding.rule, fix.title("en"), fix.edits) for finding, fix in pairs]


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_fixes_from_the_needed_statements_equal_fixes_from_the_whole_file(version):
    kb = get_knowledge_base(version)
    compared = partial_smaller = 0
    for name, source in _sources():
        analyzer = IncrementalAnalyzer(name, kb, AnalysisOptions(use_jedi=False))
        result = analyzer.analyze(source)
        whole = FixContext.build(source, name, kb, result.findings)
        if whole is None:
            continue
        for finding in result.findings:
            if not fixers_for(finding.rule):
                continue
            tree = analyzer.statements_for(source, [finding.line, finding.end_line])
            assert tree is not None, (name, finding.line)
            partial_smaller += len(tree.body) < len(whole.tree.body)
            partial = FixContext(source, name, kb, tree, list(result.findings))
            expected = _described(fixes_by_finding(source, name, [finding], kb, whole))
            assert _described(fixes_by_finding(source, name, [finding], kb, partial)) == expected, (
                name, finding.line, finding.rule
            )
            compared += 1
    assert compared > 100 and partial_smaller > compared // 2, (compared, partial_smaller)


def test_no_statements_for_another_text_or_a_broken_one():
    kb = get_knowledge_base("2.6")
    analyzer = IncrementalAnalyzer("m.py", kb, AnalysisOptions(use_jedi=False))
    source = "import torch\nx = torch.zeros(2).cuda()\n"
    analyzer.analyze(source)
    assert [type(s).__name__ for s in analyzer.statements_for(source, [2]).body] == ["Import", "Assign"]
    assert analyzer.statements_for(source + "y = 1\n", [2]) is None
    broken = source + "z = (\n"
    analyzer.analyze(broken)
    assert analyzer.statements_for(broken, [2]) is None
