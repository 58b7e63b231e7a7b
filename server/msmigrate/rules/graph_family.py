"""The GRAPH_MODE family's findings for any Python source (``graph_mode.py`` MSM70x, ``graph_device.py``
MSM706, ``graph_helpers.py`` MSM707, ``graph_empty_device.py`` MSM708, ``graph_celldict.py`` MSM709,
``graph_list_compare.py`` MSM710),
MindSpore code included: the analysis itself only looks at files that
name torch, while ``msmigrate compare`` names the rule of a graph failure with these."""

from __future__ import annotations

import ast

from msmigrate.analysis.context import AnalysisContext
from msmigrate.analysis.parse import split_lines
from msmigrate.model.finding import Finding
from msmigrate.rules import (
    graph_celldict,
    graph_device,
    graph_empty_device,
    graph_helpers,
    graph_list_compare,
    graph_mode,
)


def graph_findings(source: str, path: str, kb) -> list[Finding]:  # noqa: ANN001
    """Every GRAPH_MODE finding of ``source``, by position; none for a file that does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    ctx = AnalysisContext(source, split_lines(source), tree, path, kb, [])
    found = [*graph_mode.check(ctx), *graph_device.check(ctx), *graph_helpers.check(ctx),
             *graph_empty_device.check(ctx), *graph_celldict.check(ctx), *graph_list_compare.check(ctx)]
    return sorted(found, key=lambda f: (f.line, f.column))
