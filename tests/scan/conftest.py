"""Fixtures for scan tests: file trees in tmp_path, an isolated cache dir, a counting stand-in analyzer."""

from __future__ import annotations

from pathlib import Path

import pytest

from msmigrate.model.finding import FileResult, Finding, FindingCategory, Severity


def _make_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def make_tree():
    """``make_tree(root, {relative path: text or bytes})`` writes the files and returns ``root``."""
    return _make_tree


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache_dir = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("MSMIGRATE_CACHE_DIR", str(cache_dir))
    return cache_dir


class CountingAnalyzer:
    """Stands in for the analyzer in plumbing tests: one finding per ``torch.abs`` occurrence."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, data: bytes, rel_path: str, kb: object, options: object,
                 cancel: object = None) -> FileResult:
        self.calls.append(rel_path)
        text = data.decode("utf-8")
        findings = []
        for number, line in enumerate(text.splitlines(), start=1):
            col = line.find("torch.abs")
            if col >= 0:
                findings.append(Finding(
                    number, col + 1, number, col + 10, "torch.abs", "mindspore.mint.abs",
                    FindingCategory.CONSISTENT, "MSM100", Severity.HINT, "rule.MSM100.title",
                ))
        return FileResult(rel_path, findings, lines=len(text.splitlines()))


@pytest.fixture
def counting_analyzer(monkeypatch: pytest.MonkeyPatch) -> CountingAnalyzer:
    fake = CountingAnalyzer()
    monkeypatch.setattr("msmigrate.scan.runner.analyze_file", fake)
    return fake
