"""The scan cache checks what it reads: every value of a stored entry or of a manifest entry altered, and
hostile entries (wrong types, truncated rows, deep nesting) whose checksum fits, are misses; a rescan
then gives exactly a fresh scan's report. A file replaced with its size and mtime kept (``cp -p``) is
analysed again."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from msmigrate.scan import ScanOptions, scan_paths
from msmigrate.scan.cache import ResultCache, checksum
from msmigrate.scan.worker import FIELDS

FILES = {
    "train.py": (
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(3, 4)\n\n    def forward(self, x):\n"
        "        return torch.relu(self.fc(x)).nonzero()\n\n\ny = torch.abs(torch.randn(2))\n"
        "z = torch.foo_bar(1)\nw = y.view(-1)\n"
    ),
    "pkg/data.py": "import torch\nfrom torch.utils.data import DataLoader\nloader = DataLoader([1, 2])\n",
    "pkg/broken.py": "import torch\nx = torch.abs(1\n",
}


@pytest.fixture(autouse=True)
def _short_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("msmigrate.scan.cache._RACY_NS", 300_000_000)


def _scan(root: Path, **options: Any):
    return scan_paths([root], ScanOptions(jobs=1, **options))


def _fresh(root: Path) -> dict[str, Any]:
    return _scan(root, use_cache=False).to_json()


def _age(root: Path) -> None:
    for path in root.rglob("*.py"):
        then = time.time() - 60
        os.utime(path, (then, then))
    time.sleep(0.4)  # the ctime (set by utime) leaves the racy window


def _leaves(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path, value


def _altered(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "x" if value else "x"
    return 0  # None


def _set(document: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value


def _store_entries(cache: ResultCache) -> dict[str, bytes]:
    return {key: cache.store.get(key) for key in cache.store.iterkeys()}


def test_every_altered_value_of_a_stored_entry_is_a_miss(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", FILES)
    fresh = _fresh(root)
    assert _scan(root, trust_mtime=False).to_json() == fresh  # fills the store
    cache = ResultCache()
    stored = _store_entries(cache)
    cache.close()
    assert len(stored) == 3
    mutations = 0
    for key, raw in stored.items():
        document = json.loads(raw[32:])
        for path, value in _leaves(document):
            altered = json.loads(raw[32:])
            _set(altered, path, _altered(value))
            cache = ResultCache()
            cache.store.set(key, raw[:32] + json.dumps(altered).encode())  # the old checksum
            cache.close()
            report = _scan(root, trust_mtime=False)
            assert report.to_json() == fresh, path
            assert (report.cache_hits, report.cache_misses) == (2, 1), path
            mutations += 1
    assert mutations > 60


HOSTILE = [
    {"findings": [[1, 2, 3]]},  # a truncated row
    {"findings": [["1", 1, 1, 5, "torch.abs", None, "consistent", "MSM100", "hint", "x", {}, False, "call",
                   None, None]]},
    {"findings": {"a": 1}},
    {"findings": [], "lines": "many"},
    {"findings": [], "error_key": "no.such.message"},
    {"findings": [], "error_args": {"a": [[[[1]]]]}},
    {"findings": [], "syntax_error": [1]},
]


def _row(**changes: Any) -> list[Any]:
    """A cached finding row (the analyzer's for ``torch.abs`` at 1:1), with ``changes``."""
    values = dict(line=1, column=1, end_line=1, end_column=5, torch_api="torch.abs",
                  mindspore_api="mindspore.mint.abs", category="consistent", rule="MSM100", severity="hint",
                  message_key="analysis.api.consistent", fixable=True, usage="call", written_api=None,
                  resolution=None,
                  message_args={"torch_api": "torch.abs", "mindspore_api": "mindspore.mint.abs",
                                "version": "2.6"})
    values.update(changes)
    return [values[name] for name in FIELDS]


@pytest.mark.parametrize("value", [
    *HOSTILE,
    {"findings": [_row(category="bogus")]},
    {"findings": [_row(message_key="no.such.message")]},
    {"findings": [_row(fixable=1)]},
    {"findings": [_row(line=True)]},
    {"findings": [_row(line=-3)]},
    {"findings": [_row(rule=["MSM100"])]},
    {"findings": [_row(written_api=5)]},
    {"findings": [_row(resolution={"target": "mindspore.mint.abs"})]},  # a resolution missing its fields
    {"findings": [_row(resolution="safe")]},
    {"findings": [_row(message_args={"api": {"deep": [1] * 3}, "x": None})] * 2 + [_row(message_args=[])]},
    {"findings": [_row(message_args={"torch_api": "torch.abs"})]},  # fields of the message missing
    {"findings": [_row(message_key="analysis.api.differences",  # a message reference to no message
                       message_args={"torch_api": "a", "mindspore_api": "b", "details": [["no.such", []]]})]},
    {"findings": [], "error_key": "scan.error.read", "error_args": {}},
    "deep",
])
def test_hostile_entries_with_a_valid_checksum_are_misses(tmp_path: Path, make_tree, value) -> None:
    root = make_tree(tmp_path / "p", {"a.py": "import torch\ny = torch.abs(x)\n"})
    fresh = _fresh(root)
    _scan(root, trust_mtime=False)
    [key] = list(ResultCache().store.iterkeys())
    _seal(key, ("[" * 100_000 + "]" * 100_000).encode() if value == "deep" else json.dumps(value).encode())
    report = _scan(root, trust_mtime=False)
    assert report.to_json() == fresh
    assert (report.cache_hits, report.cache_misses) == (0, 1)


def _seal(key: str, payload: bytes) -> None:
    cache = ResultCache()
    cache.store.set(key, checksum(payload).encode() + payload)
    cache.close()


def test_a_valid_entry_with_its_checksum_is_used(tmp_path: Path, make_tree) -> None:
    """The control of the test above: the same row, valid, is served from the cache as it is."""
    root = make_tree(tmp_path / "p", {"a.py": "import torch\ny = torch.abs(x)\n"})
    _scan(root, trust_mtime=False)
    [key] = list(ResultCache().store.iterkeys())
    _seal(key, json.dumps({"findings": [_row(), _row(line=7)], "lines": 2}).encode())
    report = _scan(root, trust_mtime=False)
    assert (report.cache_hits, report.cache_misses) == (1, 0)
    assert [(f.line, f.column, f.torch_api) for _, f in report.findings()] == [(1, 1, "torch.abs"),
                                                                              (7, 1, "torch.abs")]


def test_a_derived_finding_with_nested_message_references_is_used(tmp_path: Path, make_tree) -> None:
    """A derived mapping's provenance holds its evidence (references in a reference, 9 levels deep): such
    a row is served from the cache, not dropped as too deep."""
    root = make_tree(tmp_path / "p", {"a.py": "import torch\ny = torch.abs(x)\n"})
    _scan(root, trust_mtime=False)
    [key] = list(ResultCache().store.iterkeys())
    evidence = [["derived.evidence.tables", [["tables", "1.10"]]],
                ["derived.evidence.same_parameters", [["mindspore", "2.10"]]]]
    args = {"torch_api": "torch.nn.Module", "mindspore_api": "mindspore.nn.Cell", "version": "2.6",
            "provenance": [["derived.provenance", [["version", "2.6"], ["evidence", evidence]]]]}
    row = _row(torch_api="torch.nn.Module", mindspore_api="mindspore.nn.Cell", usage="base_class",
               message_key="analysis.api.derived_consistent", message_args=args)
    _seal(key, json.dumps({"findings": [row], "lines": 2}).encode())
    report = _scan(root, trust_mtime=False)
    assert (report.cache_hits, report.cache_misses) == (1, 0)
    [(_, finding)] = list(report.findings())
    assert finding.message() == (
        "torch.nn.Module → mindspore.nn.Cell: same behaviour; replacing the name is enough. Not in the "
        "MindSpore 2.6 mapping table; derived: in the official mapping of MindSpore 1.10; counterpart in "
        "MindSpore 2.10 with the same parameters.")


def test_every_altered_value_of_a_manifest_entry_is_detected(tmp_path: Path, make_tree,
                                                            _isolated_cache: Path) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _age(root)
    fresh = _fresh(root)
    _scan(root)
    second = _scan(root)  # served by the manifest
    assert second.to_json() == fresh and second.cache_hits == 3
    [manifest] = list(_isolated_cache.rglob("manifests/*.json"))
    original = manifest.read_text(encoding="utf-8")
    document = json.loads(original)
    leaves = [(path, value) for path, value in _leaves(document) if path[0] in ("entries", "kinds")]
    assert len(leaves) > 60
    for path, value in leaves:
        altered = json.loads(original)
        _set(altered, path, _altered(value))
        manifest.write_text(json.dumps(altered), encoding="utf-8")
        report = _scan(root)
        assert report.to_json() == fresh, path
    for damage in ("[" * 100_000, '{"format": 3, "entries": {"a.py": [' + "[" * 50_000 + "]}"):
        manifest.write_text(damage, encoding="utf-8")
        assert _scan(root).to_json() == fresh


@pytest.mark.parametrize("trust_mtime", [True, False])
def test_a_file_replaced_with_its_size_and_mtime_kept_is_analysed_again(tmp_path: Path, make_tree,
                                                                       trust_mtime: bool) -> None:
    root = make_tree(tmp_path / "p", {"a.py": "import torch\ny = torch.abs(x)\n"})
    path = root / "a.py"
    _age(root)
    _scan(root, trust_mtime=trust_mtime)
    before = path.stat()
    assert _scan(root, trust_mtime=trust_mtime).cache_hits == 1
    copy = tmp_path / "copy.py"
    copy.write_text("import torch\ny = torch.neg(x)\n", encoding="utf-8")  # same size
    os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(copy, path)  # as rsync -t does; cp -p rewrites in place (tested below)
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    report = _scan(root, trust_mtime=trust_mtime)
    assert [f.torch_api for _, f in report.findings()] == ["torch.neg"]
    time.sleep(0.4)
    _scan(root, trust_mtime=trust_mtime)  # now trusted again
    with open(path, "r+b") as fh:  # in place, as cp -p does
        fh.write(b"import torch\ny = torch.exp(x)\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    report = _scan(root, trust_mtime=trust_mtime)
    assert [f.torch_api for _, f in report.findings()] == ["torch.exp"]


def test_a_pool_result_that_fails_the_checks_is_an_internal_error() -> None:
    from msmigrate.scan.runner import _from_worker

    result = _from_worker("a.py", {"findings": [_row(message_key="no.such.message")], "lines": 1})
    assert (result.path, result.findings, result.error_key) == ("a.py", [], "scan.error.internal")
    assert result.error("en") == "Internal error while analysing this file: ValueError: not a cached finding"
    assert _from_worker("a.py", {"findings": [_row()], "lines": 1}).findings[0].torch_api == "torch.abs"


def test_pool_results_come_in_compact_form_and_each_kind_is_checked() -> None:
    """Workers send a chunk's results as compact rows and one table of finding kinds; a kind that fails
    the checks makes the files using it internal errors, the others keep their findings."""
    from msmigrate.scan.runner import _from_worker
    from msmigrate.scan.worker import CompactReader, compact

    kinds: dict[Any, int] = {}
    table: list[Any] = []
    good = compact({"findings": [_row(), _row(line=2, end_line=2)], "lines": 2}, kinds, table)
    bad = compact({"findings": [_row(message_key="no.such.message")], "lines": 1}, kinds, table)
    assert (good["rows"], bad["rows"], len(table)) == ([1, 1, 1, 5, 0, 2, 1, 2, 5, 0], [1, 1, 1, 5, 1], 2)
    reader = CompactReader(table)
    result = _from_worker("a.py", good, reader)
    assert [(f.line, f.torch_api, f.message_args["version"]) for f in result.findings] == [
        (1, "torch.abs", "2.6"), (2, "torch.abs", "2.6")]
    assert result.findings[0].message_args is not result.findings[1].message_args
    failed = _from_worker("b.py", bad, reader)
    assert (failed.path, failed.findings, failed.error_key) == ("b.py", [], "scan.error.internal")
    assert _from_worker("c.py", {**good, "rows": [1, 1, 1, 5, 7]}, reader).error_key == "scan.error.internal"


def test_no_mtime_option_finds_every_result_by_content(tmp_path: Path, make_tree, monkeypatch) -> None:
    from click.testing import CliRunner

    from msmigrate.cli import main
    from msmigrate.scan import runner

    root = make_tree(tmp_path / "p", {"a.py": "import torch\ny = torch.abs(x)\n"})
    _age(root)
    _scan(root)
    served: list[str] = []
    real = runner._from_manifest
    monkeypatch.setattr(runner, "_from_manifest", lambda manifest, cache, prefix, rel, stat: (
        served.append(rel), real(manifest, cache, prefix, rel, stat))[1])
    assert CliRunner().invoke(main, ["scan", str(root), "-j", "1"]).exit_code == 0
    assert served == ["a.py"]  # size and timestamps unchanged: from the manifest
    result = CliRunner().invoke(main, ["scan", str(root), "-j", "1", "--no-mtime", "--format", "json"])
    assert result.exit_code == 0 and served == ["a.py"]  # read, hashed and found in the store
    assert json.loads(result.output)["files"][0]["findings"][0]["torch_api"] == "torch.abs"
