"""The content-hash cache: hits on a rescan, invalidation on change, recovery from corruption."""

from __future__ import annotations

from pathlib import Path

import pytest

from msmigrate.model.resolution import ArgPlan
from msmigrate.scan import ScanOptions, runner, scan_paths
from msmigrate.scan.cache import ResultCache

FILES = {
    "a.py": "import torch\ny = torch.abs(x)\n",
    "pkg/b.py": "import torch\n\n\nz = torch.abs(torch.abs(w))\n",
    "pkg/c.py": "print('no torch here')\n",
}


def _scan(root: Path, **kwargs):
    return scan_paths([root], ScanOptions(jobs=1, **kwargs))


def test_rescan_of_an_unchanged_project_analyses_nothing(tmp_path: Path, make_tree, counting_analyzer):
    root = make_tree(tmp_path / "p", FILES)
    first = _scan(root)
    assert sorted(counting_analyzer.calls) == ["a.py", "pkg/b.py", "pkg/c.py"]
    assert (first.cache_hits, first.cache_misses) == (0, 3)
    second = _scan(root)
    assert sorted(counting_analyzer.calls) == ["a.py", "pkg/b.py", "pkg/c.py"]  # no new call
    assert (second.cache_hits, second.cache_misses) == (3, 0)
    assert second.to_json() == first.to_json()
    assert [(f.line, f.column, f.end_column) for f in second.files[1].findings] == [(4, 5, 14)]


def test_a_changed_file_is_analysed_again(tmp_path: Path, make_tree, counting_analyzer) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _scan(root)
    (root / "pkg" / "c.py").write_text("import torch\ntorch.abs(1)\n", encoding="utf-8")
    report = _scan(root)
    assert counting_analyzer.calls[3:] == ["pkg/c.py"]
    assert report.summary()["findings"] == 3


def test_no_cache_always_analyses(tmp_path: Path, make_tree, counting_analyzer) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _scan(root, use_cache=False)
    _scan(root, use_cache=False)
    assert len(counting_analyzer.calls) == 6


def test_corrupted_cache_database_is_rebuilt(tmp_path: Path, make_tree, counting_analyzer,
                                             _isolated_cache: Path) -> None:
    root = make_tree(tmp_path / "p", FILES)
    first = _scan(root)
    databases = list(_isolated_cache.rglob("cache.db"))
    assert len(databases) == 1
    databases[0].write_bytes(b"this is not an sqlite database" * 100)
    second = _scan(root)  # must not raise
    assert second.to_json() == first.to_json()
    assert len(counting_analyzer.calls) == 6  # everything analysed again
    third = _scan(root)
    assert (third.cache_hits, len(counting_analyzer.calls)) == (3, 6)  # the rebuilt cache works


def test_unreadable_cache_entries_are_misses(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    cache.put("good", {"findings": [], "lines": 3})
    cache._store.set("bad-json", b"{not json")
    cache._store.set("bad-shape", b'{"findings": 3}')
    assert cache.get("good") == {"findings": [], "lines": 3}
    assert cache.get("bad-json") is None and cache.get("bad-shape") is None
    assert cache._store.get("bad-json") is None  # dropped
    assert (cache.hits, cache.misses) == (1, 2)
    cache.close()


def test_cache_entry_of_the_wrong_shape_is_reanalysed(tmp_path: Path, make_tree, counting_analyzer) -> None:
    root = make_tree(tmp_path / "p", {"a.py": "torch.abs(1)\n"})
    _scan(root)
    cache = ResultCache()
    [key] = list(cache.store.iterkeys())
    cache.store.set(key, b'{"findings": [{"line": "not a finding"}]}')
    cache.close()
    report = _scan(root)
    assert len(counting_analyzer.calls) == 2
    assert report.summary()["findings"] == 1


def test_cache_never_deletes_outside_its_own_folder(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me", encoding="utf-8")
    cache = ResultCache(tmp_path)
    cache._wipe()
    assert (tmp_path / "precious.txt").read_text(encoding="utf-8") == "keep me"


@pytest.mark.parametrize("option", ["disabled_rules", "severity"])
def test_settings_apply_to_cached_results(tmp_path: Path, make_tree, counting_analyzer, option: str) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _scan(root)
    value = ("MSM100",) if option == "disabled_rules" else {"consistent": "error"}
    report = _scan(root, **{option: value})
    assert len(counting_analyzer.calls) == 3  # served from the cache
    levels = [f.severity.value for _, f in report.findings()]
    assert levels == ([] if option == "disabled_rules" else ["error"] * 2)


@pytest.fixture(autouse=True)
def _short_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files count as old (trusted by the manifest) 0.5 s after their last change instead of 2 s."""
    monkeypatch.setattr("msmigrate.scan.cache._RACY_NS", 500_000_000)


def _age(root: Path, seconds: float) -> None:
    """Set every file's mtime ``seconds`` into the past, then wait until their ctime (now: set by the
    change of mtime, which no program can set back) is older than the racy window."""
    import os
    import time

    for path in root.rglob("*.py"):
        then = time.time() - seconds
        os.utime(path, (then, then))
    time.sleep(0.6)


def test_rescan_of_old_unchanged_files_reads_none_of_them(tmp_path: Path, make_tree, counting_analyzer,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _age(root, 60)
    first = _scan(root)
    reads: list[str] = []
    real_read = runner._read

    def counting_read(path: Path, *args):
        reads.append(path.name)
        return real_read(path, *args)

    monkeypatch.setattr(runner, "_read", counting_read)
    second = _scan(root)
    assert reads == []  # size and mtime match the manifest: served without reading the files
    assert (second.cache_hits, second.cache_misses) == (3, 0)
    assert second.to_json() == first.to_json()
    (root / "pkg" / "c.py").write_text("import torch\ntorch.abs(1)\n", encoding="utf-8")
    third = _scan(root)
    assert reads == ["c.py"] and counting_analyzer.calls[3:] == ["pkg/c.py"]
    assert third.summary()["findings"] == 3


def test_file_changed_within_the_timestamp_granularity_is_read_again(tmp_path: Path, make_tree,
                                                                      counting_analyzer) -> None:
    import os

    root = make_tree(tmp_path / "p", {"a.py": "torch.abs(1)\n"})
    path = root / "a.py"
    _scan(root)
    stamp = path.stat()
    path.write_text("torch.abs(2)\n", encoding="utf-8")  # same size
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # and the same mtime
    _scan(root)
    assert counting_analyzer.calls == ["a.py", "a.py"]  # a recent mtime is never trusted


def test_unreadable_manifest_is_ignored(tmp_path: Path, make_tree, counting_analyzer,
                                        _isolated_cache: Path) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _age(root, 60)
    first = _scan(root)
    [manifest] = list(_isolated_cache.rglob("manifests/*.json"))
    manifest.write_bytes(b"\xff not json")
    second = _scan(root)
    assert (second.cache_hits, len(counting_analyzer.calls)) == (3, 3)
    assert second.to_json() == first.to_json()


def test_rescan_of_old_unchanged_files_is_served_by_the_manifest_alone(
        tmp_path: Path, make_tree, counting_analyzer, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _age(root, 60)
    first = _scan(root)

    def no_database(*args, **kwargs):
        raise AssertionError("the database was opened")

    monkeypatch.setattr("diskcache.Cache", no_database)
    second = _scan(root)
    assert (second.cache_hits, second.cache_misses, len(counting_analyzer.calls)) == (3, 0, 3)
    assert second.to_json() == first.to_json()


def test_rescan_served_by_the_manifest_gives_the_same_report(tmp_path: Path) -> None:
    import shutil

    example = Path(__file__).resolve().parents[2] / "examples" / "resnet_torch"
    root = tmp_path / "p"
    shutil.copytree(example, root, ignore=shutil.ignore_patterns("__pycache__"))
    _age(root, 60)
    first = _scan(root)
    second = _scan(root)  # every result from the manifest (message arguments through its shared table)
    third = _scan(root)
    assert second.cache_hits == third.cache_hits == len(first.files) and second.cache_misses == 0
    assert second.to_json() == first.to_json() == third.to_json()
    [(a, b)] = [(a, b) for (_, a), (_, b) in zip(second.findings(), third.findings(), strict=True)
                if a.message_args][:1]
    assert a.message_args == b.message_args and a.message_args is not b.message_args  # never shared


@pytest.mark.parametrize("damage", ["kinds", "rows"])
def test_malformed_manifest_results_fall_back_to_the_store(tmp_path: Path, make_tree, counting_analyzer,
                                                           _isolated_cache: Path, damage: str) -> None:
    import json

    root = make_tree(tmp_path / "p", FILES)
    _age(root, 60)
    first = _scan(root)
    [manifest] = list(_isolated_cache.rglob("manifests/*.json"))
    data = json.loads(manifest.read_text(encoding="utf-8"))
    if damage == "kinds":
        data["kinds"] = []
    else:
        for entry in data["entries"].values():
            entry[5]["rows"] = entry[5]["rows"][:-1] + ["x"] if entry[5]["rows"] else [1, 2]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    second = _scan(root)
    assert (second.cache_hits, second.cache_misses, len(counting_analyzer.calls)) == (3, 0, 3)
    assert second.to_json() == first.to_json()
    third = _scan(root)  # the manifest was rewritten from the store's entries
    assert third.to_json() == first.to_json()


@pytest.mark.parametrize("served_by", ["store", "manifest"])
def test_message_references_come_back_from_the_cache_as_analysed(tmp_path: Path, make_tree,
                                                                 served_by: str) -> None:
    """The details of a "differences" finding are message references (tuples, i18n.ref); JSON makes
    lists of them, and the cache gives tuples back: equal to a fresh analysis, hashable, same text."""
    source = "import torch\nlayer = torch.nn.Linear(in_features=2, out_features=3)\n"
    root = make_tree(tmp_path / "p", {"m.py": source})
    if served_by == "manifest":
        _age(root, 60)
    scans = [_scan(root, mindspore_version="2.4") for _ in range(3)]
    assert [(s.cache_hits, s.cache_misses) for s in scans] == [(0, 1), (1, 0), (1, 0)]
    linear = [[f for _, f in s.findings() if f.rule == "MSM101"] for s in scans]
    assert [len(found) for found in linear] == [1, 1, 1]
    fresh, *cached = (found[0] for found in linear)
    details = (  # the facts of this call (its keywords), see analysis/call_facts.py
        ("analysis.detail.call_renames", (("items", "in_features→in_channels, out_features→out_channels"),)),
        ("analysis.detail.diff_page", ()),
    )
    assert fresh.message_args["details"] == details
    plan = ArgPlan(renames=(("in_features", "in_channels"), ("out_features", "out_channels")))
    assert fresh.resolution is not None and fresh.resolution.plan == plan  # the typed plan comes back
    for finding in cached:
        assert finding.message_args == fresh.message_args
        assert finding.resolution == fresh.resolution
        assert finding.message_args["details"] == details and type(finding.message_args["details"]) is tuple
        hash(tuple(finding.message_args.items()))
        assert finding.message("zh") == (
            "torch.nn.Linear → mindspore.nn.Dense（需改名的关键字参数：in_features→in_channels, "
            "out_features→out_channels；请参阅差异对比页面）。"
        )
    assert scans[1].to_json("zh") == scans[2].to_json("zh") == scans[0].to_json("zh")


def test_a_changed_fact_file_changes_the_code_fingerprint(tmp_path: Path, monkeypatch) -> None:
    """Curated facts are data files (``knowledge/facts/*.toml``): editing one invalidates cached results as
    editing a module does."""
    from msmigrate.scan import cache

    package = tmp_path / "msmigrate"
    facts = package / "knowledge" / "facts"
    facts.mkdir(parents=True)
    (facts / "missing_advice.toml").write_text("[[advice]]\n", encoding="utf-8")
    monkeypatch.setattr(cache, "_PACKAGE_DIR", package)
    cache.code_fingerprint.cache_clear()
    try:
        before = cache.code_fingerprint()
        (facts / "missing_advice.toml").write_text("[[advice]]\n\n", encoding="utf-8")
        cache.code_fingerprint.cache_clear()
        assert cache.code_fingerprint() != before
    finally:
        cache.code_fingerprint.cache_clear()
