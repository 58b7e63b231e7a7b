"""The GRAPH_MODE family's findings for any Python source (every rule module of ``rules/graph/``, MSM7xx),
MindSpore code included: the analysis itself only looks at files that name torch, while ``msmigrate
compare`` names the rule of a graph failure with these."""

from __future__ import annotations

import ast

from msmigrate.analysis.context import AnalysisContext
from msmigrate.analysis.parse import split_lines
from msmigrate.model.finding import Finding
from msmigrate.rules.loader import loaded

_FAMILY = "msmigrate.rules.graph."


def graph_findings(source: str, path: str, kb) -> list[Finding]:  # noqa: ANN001
    """Every GRAPH_MODE finding of ``source``, by position; none for a file that does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    ctx = AnalysisContext(source, split_lines(source), tree, path, kb, [])
    found = [finding for entry in loaded() if entry.module.__name__.startswith(_FAMILY)
             for detector in entry.detectors for finding in detector.detect(ctx)]
    return sorted(found, key=lambda f: (f.line, f.column))
