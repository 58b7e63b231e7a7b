"""The syntax-error note of a half-typed file survives the cache (manifest and store), the parallel
workers and the project settings."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from msmigrate.scan import ScanOptions, scan_paths
from msmigrate.scan.worker import CompactReader, compact, result_from_cache, result_to_cache

FILES = {
    "clean.py": "import torch\nz = torch.abs(2)\n",
    "pkg/broken.py": "import torch\nx = torch.abs(1)\nfor i in range(3)\n    y = torch.ones(2)\n",
}


def _aged(root: Path) -> Path:
    then = time.time() - 60  # older than the timestamp granularity: the manifest may serve the files
    for path in root.rglob("*.py"):
        os.utime(path, (then, then))
    return root


def _notes(report) -> list[tuple[str, int | None, str | None]]:
    return [(f.path, f.syntax_error_line, f.syntax_error_detail) for f in report.files]


EXPECTED = [("clean.py", None, None), ("pkg/broken.py", 3, "expected ':'")]


def test_warm_scan_from_the_manifest_keeps_the_note(tmp_path: Path, make_tree) -> None:
    root = _aged(make_tree(tmp_path / "p", FILES))
    first = scan_paths([root], ScanOptions(jobs=1, mindspore_version="2.6"))
    assert (_notes(first), first.cache_misses) == (EXPECTED, 2)
    second = scan_paths([root], ScanOptions(jobs=1, mindspore_version="2.6"))
    assert (second.cache_hits, second.cache_misses) == (2, 0)
    assert _notes(second) == EXPECTED
    assert second.summary()["files_with_syntax_errors"] == 1
    assert second.to_json() == first.to_json()


def test_warm_scan_from_the_store_keeps_the_note(tmp_path: Path, make_tree, _isolated_cache: Path) -> None:
    root = _aged(make_tree(tmp_path / "p", FILES))
    first = scan_paths([root], ScanOptions(jobs=1, mindspore_version="2.6"))
    [manifest] = list(_isolated_cache.rglob("manifests/*.json"))
    manifest.unlink()  # the files are read and hashed again, their results come from the store
    second = scan_paths([root], ScanOptions(jobs=1, mindspore_version="2.6"))
    assert (second.cache_hits, second.cache_misses) == (2, 0)
    assert _notes(second) == EXPECTED
    assert second.to_json() == first.to_json()


def test_parallel_workers_carry_the_note(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", {**FILES, "other.py": "import torch\nw = torch.ones(1)\n"})
    report = scan_paths([root], ScanOptions(jobs=2, use_cache=False, mindspore_version="2.6"))
    assert _notes(report) == [EXPECTED[0], ("other.py", None, None), EXPECTED[1]]


def test_disabled_rules_keep_the_note(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", FILES)
    report = scan_paths([root], ScanOptions(jobs=1, use_cache=False, mindspore_version="2.6",
                                            disabled_rules=("MSM100",)))
    assert _notes(report) == EXPECTED
    assert report.summary()["findings"] == 0


def test_cache_forms_round_trip_the_note(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", FILES)
    report = scan_paths([root], ScanOptions(jobs=1, use_cache=False, mindspore_version="2.6"))
    broken = report.files[1]
    value = result_to_cache(broken)
    assert value["syntax_error"] == [3, "expected ':'"]
    assert result_from_cache("pkg/broken.py", value) == broken
    table: list = []
    compacted = compact(value, {}, table)
    assert compacted["syntax_error"] == [3, "expected ':'"]
    assert CompactReader(table).result("pkg/broken.py", compacted) == broken
    assert result_to_cache(report.files[0])["syntax_error"] is None


def test_entries_written_before_the_note_existed_still_read() -> None:
    old = {"findings": [], "error_key": None, "error_args": {}, "lines": 4}
    result = result_from_cache("a.py", old)
    assert (result.lines, result.syntax_error_line, result.syntax_error_detail) == (4, None, None)
    compacted = {"rows": [], "error_key": None, "error_args": {}, "lines": 4}
    assert CompactReader([]).result("a.py", compacted).syntax_error_detail is None


@pytest.mark.parametrize("bad", ["line 3", [3], ["3", "x"], [3, 4], {"line": 3}])
def test_malformed_cached_note_is_refused(bad) -> None:
    value = {"findings": [], "error_key": None, "error_args": {}, "lines": 4, "syntax_error": bad}
    with pytest.raises(ValueError):
        result_from_cache("a.py", value)
    with pytest.raises(ValueError):
        CompactReader([]).result("a.py", {**value, "rows": []})
