"""A manifest file is checked on the bytes read: its entries' and kinds' text against the checksums
written with them (no second serialization); a byte changed in the entries falls back to each entry's
own checksum, so only the damaged entry is dropped."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from msmigrate.scan import ScanOptions, runner
from msmigrate.scan.cache import ResultCache, _entry_sum

FILES = {
    "a.py": "import torch\ny = torch.abs(x)\n",
    "b.py": "import torch\nz = torch.neg(w)\n",
}


@pytest.fixture(autouse=True)
def _short_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("msmigrate.scan.cache._RACY_NS", 300_000_000)


def _prepared(tmp_path: Path, make_tree, cache_dir: Path) -> tuple[Path, Path, dict]:
    root = make_tree(tmp_path / "p", FILES)
    for path in root.rglob("*.py"):
        then = time.time() - 60
        os.utime(path, (then, then))
    time.sleep(0.4)
    fresh = runner.scan_paths([root], ScanOptions(jobs=1)).to_json()
    [manifest] = list(cache_dir.rglob("manifests/*.json"))
    return root, manifest, fresh


def _loaded(root: Path, monkeypatch: pytest.MonkeyPatch):
    """Scan ``root``: whether its manifest loaded intact as a whole, whether each entry's own checksum
    fits (as loaded), which files were read, and the report."""
    seen = []
    reads: list[str] = []
    real_manifest, real_read = ResultCache.manifest, runner._read

    def spy(self, *args):
        manifest = real_manifest(self, *args)
        seen.append((manifest.all_intact, {rel: entry[-1] == _entry_sum(entry)
                                           for rel, entry in manifest.entries.items()}))
        return manifest

    def counting_read(path: Path, *args):
        reads.append(path.name)
        return real_read(path, *args)

    with monkeypatch.context() as patch:
        patch.setattr(ResultCache, "manifest", spy)
        patch.setattr(runner, "_read", counting_read)
        report = runner.scan_paths([root], ScanOptions(jobs=1))
    [(intact, entries)] = seen
    return intact, entries, reads, report


def test_an_intact_manifest_is_trusted_as_a_whole(tmp_path: Path, make_tree, _isolated_cache: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root, manifest, fresh = _prepared(tmp_path, make_tree, _isolated_cache)
    raw = manifest.read_bytes()
    assert raw.startswith(b'{"entries":{"a.py":')
    assert sorted(json.loads(raw)) == ["entries", "entries_sum", "format", "kinds", "kinds_sum", "spans"]
    intact, entries, reads, report = _loaded(root, monkeypatch)
    assert (intact, entries, reads) == (True, {"a.py": True, "b.py": True}, [])
    assert report.to_json() == fresh and report.cache_hits == 2


def test_a_byte_changed_in_one_entry_drops_that_entry_only(tmp_path: Path, make_tree, _isolated_cache: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root, manifest, fresh = _prepared(tmp_path, make_tree, _isolated_cache)
    raw = manifest.read_bytes()
    at = raw.index(b'"b.py":[') + len(b'"b.py":[')  # the first digit of b.py's size
    manifest.write_bytes(raw[:at] + (b"9" if raw[at : at + 1] != b"9" else b"8") + raw[at + 1 :])
    intact, entries, reads, report = _loaded(root, monkeypatch)
    assert (intact, entries, reads) == (False, {"a.py": True, "b.py": False}, ["b.py"])
    assert report.to_json() == fresh and report.cache_hits == 2


def test_a_malformed_result_with_a_fitting_checksum_is_served_by_the_store(
        tmp_path: Path, make_tree, _isolated_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, manifest, fresh = _prepared(tmp_path, make_tree, _isolated_cache)
    document = json.loads(manifest.read_bytes())
    entry = document["entries"]["b.py"]
    entry[5] = {"rows": "not rows"}
    entry[-1] = _entry_sum(entry)
    manifest.write_text(json.dumps(document), encoding="utf-8")  # another layout: entries checked one by one
    intact, entries, reads, report = _loaded(root, monkeypatch)
    assert (intact, entries, reads) == (False, {"a.py": True, "b.py": True}, [])
    assert report.to_json() == fresh and report.cache_hits == 2  # b.py from the store, not read
    assert json.loads(manifest.read_bytes())["entries"]["b.py"][5]["rows"] != "not rows"  # recorded again
