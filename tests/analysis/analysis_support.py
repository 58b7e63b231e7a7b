"""Helpers shared by the analyzer tests (a uniquely named module: tests/*/conftest.py are several)."""

from __future__ import annotations

from msmigrate.model.finding import FileResult


def brief(result: FileResult) -> list[tuple[int, int, str | None, str]]:
    """``(line, column, torch_api, category)`` of every finding, in order."""
    return [(f.line, f.column, f.torch_api, f.category.value) for f in result.findings]
