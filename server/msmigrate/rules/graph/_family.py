"""The GRAPH_MODE family's findings for any Python source (every rule module of ``rules/graph/``, MSM7xx),
MindSpore code included: the analysis itself only looks at files that name torch, while ``msmigrate
compare`` names the rule of a graph failure with these."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.context import AnalysisContext
from msmigrate.analysis.parse import split_lines
from msmigrate.model.finding import Finding
from msmigrate.rules.loader import loaded

_FAMILY = "msmigrate.rules.graph."


def graph_findings(source: str, path: str, kb,  # noqa: ANN001
                   project_fields: Iterable[tuple[str, str, str]] = ()) -> list[Finding]:
    """Every GRAPH_MODE finding of ``source``, by position; none for a file that does not parse.
    ``project_fields``: the fields the file's project builds (``analysis/project_fields.field_index``)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    ctx = AnalysisContext(source, split_lines(source), tree, path, kb, [], project_fields=project_fields)
    found = [finding for entry in loaded() if entry.module.__name__.startswith(_FAMILY)
             for detector in entry.detectors for finding in detector.detect(ctx)]
    return sorted(found, key=lambda f: (f.line, f.column))
