"""Ignore comments, disabled rules, severity settings and the rule checkers' integration."""

from __future__ import annotations

import pytest
from analysis_support import brief

from msmigrate.analysis import analyzer
from msmigrate.analysis.suppress import suppressions
from msmigrate.model.finding import Finding, FindingCategory, Severity, UsageKind

SOURCE = "import torch\na = torch.abs(x)\nb = torch.save(m, 'p')\n"


def test_default_severities_come_from_the_rules(analyze):
    result = analyze(SOURCE)
    assert [(f.rule, f.severity) for f in result.findings] == [
        ("MSM100", Severity.HINT),
        ("MSM200", Severity.WARNING),
    ]


def test_bare_ignore_comment(analyze):
    result = analyze("import torch\na = torch.abs(x)  # msmigrate: ignore\nb = torch.save(m, 'p')\n")
    assert brief(result) == [(3, 5, "torch.save", "missing")]


def test_ignore_comment_with_rule_ids(analyze):
    source = (
        "import torch\n"
        "a = torch.abs(x)  # msmigrate: ignore[MSM200]\n"
        "b = torch.save(m, 'p')  # msmigrate: ignore[msm100, MSM200]\n"
    )
    assert brief(analyze(source)) == [(2, 5, "torch.abs", "consistent")]


def test_ignore_text_inside_a_string_does_not_count(analyze):
    source = "import torch\na = torch.abs(x); s = '# msmigrate: ignore'\n"
    assert brief(analyze(source)) == [(2, 5, "torch.abs", "consistent")]


def test_suppressions_table_and_broken_code():
    assert suppressions("x = 1  # msmigrate: ignore[MSM301]\ny = 2\n") == {1: frozenset({"MSM301"})}
    assert suppressions("x = (  # msmigrate: ignore\n") == {1: frozenset({"*"})}
    assert suppressions("s = '# msmigrate: ignore'\n") == {}


def test_disabled_rules(analyze):
    assert brief(analyze(SOURCE, disabled_rules={"msm200"})) == [(2, 5, "torch.abs", "consistent")]
    assert brief(analyze(SOURCE, disabled_rules=["MSM100", "MSM200"])) == []


def test_severity_overrides_and_off(analyze):
    result = analyze(
        SOURCE, severities={"missing": "error", FindingCategory.CONSISTENT: Severity.INFORMATION}
    )
    assert [f.severity for f in result.findings] == [Severity.INFORMATION, Severity.ERROR]
    assert brief(analyze(SOURCE, severities={"consistent": "off"})) == [(3, 5, "torch.save", "missing")]
    # an unknown level keeps the default
    assert analyze(SOURCE, severities={"missing": "loud"}).findings[1].severity == Severity.WARNING


def _pattern(ctx, line: int, rule: str = "MSM501") -> Finding:
    return Finding(
        line,
        1,
        line,
        2,
        None,
        None,
        FindingCategory.FRAMEWORK_PATTERN,
        rule,
        Severity.WARNING,
        "analysis.api.consistent",
        {"torch_api": "a", "mindspore_api": "b"},
        usage=UsageKind.PATTERN,
    )


def test_checkers_run_and_a_crashing_checker_is_contained(analyze, monkeypatch, caplog):
    seen = []

    def crashing(ctx):
        raise RuntimeError("boom")

    def recording(ctx):
        seen.append([f.torch_api for f in ctx.usages])
        return [_pattern(ctx, 1)]

    monkeypatch.setattr(analyzer, "rule_checkers", lambda: (crashing, recording))
    result = analyze(SOURCE, run_checkers=True)
    assert seen == [["torch.abs", "torch.save"]]
    assert [(f.line, f.rule) for f in result.findings] == [(1, "MSM501"), (2, "MSM100"), (3, "MSM200")]
    assert "boom" in caplog.text


def test_checker_refines_a_usage_and_filters_apply_to_new_findings(analyze, monkeypatch):
    def refine(ctx):
        for finding in ctx.usages:
            if finding.rule == "MSM200":
                finding.rule = "MSM201"
        return [_pattern(ctx, 2, "MSM301")]

    monkeypatch.setattr(analyzer, "rule_checkers", lambda: (refine,))
    source = "import torch\na = torch.abs(x)  # msmigrate: ignore[MSM301]\nb = torch.save(m, 'p')\n"
    result = analyze(source, run_checkers=True)
    assert [(f.line, f.rule) for f in result.findings] == [(2, "MSM100"), (3, "MSM201")]
    assert [
        (f.line, f.rule) for f in analyze(source, run_checkers=True, disabled_rules={"MSM201"}).findings
    ] == [(2, "MSM100")]


def test_findings_are_sorted_by_line_column_rule(analyze, monkeypatch):
    monkeypatch.setattr(analyzer, "rule_checkers", lambda: (lambda ctx: [_pattern(ctx, 2, "MSM050")],))
    result = analyze(SOURCE, run_checkers=True)
    assert [(f.line, f.column, f.rule) for f in result.findings] == [
        (2, 1, "MSM050"),
        (2, 5, "MSM100"),
        (3, 5, "MSM200"),
    ]


def test_internal_errors_never_escape(kb, monkeypatch):
    def explode(*args, **kwargs):
        raise ValueError("kaputt")

    monkeypatch.setattr(analyzer, "parse_text", explode)
    result = analyzer.analyze_source(SOURCE, "x.py", kb)
    assert result.error_key == "analysis.internal_error"
    assert result.error_args == {"detail": "ValueError: kaputt"}
    assert result.lines == 3


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_finding_renders_in_both_languages(analyze, lang):
    source = (
        "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader\n"
        "torch.abs(x)\nnn.Linear(2, 2)\ntorch.save(m, 'p')\ntorch.zeross(1)\nDataLoader(ds)\n"
        "def f(p):\n    return p.unsqueeze(0)\n"
    )
    result = analyze(source)
    assert {f.category.value for f in result.findings} == {
        "consistent",
        "differences",
        "missing",
        "unknown_torch_name",
        "data_processing",
        "possible_tensor_api",
    }
    for finding in result.findings:
        text = finding.message(lang)
        assert finding.torch_api in text
        assert "{" not in text
