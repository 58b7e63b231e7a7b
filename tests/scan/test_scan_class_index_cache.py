"""A rescan builds the project index (module classes, built fields) from the manifest's outlines: an
unchanged project is served without reading any file, and a changed class header or built field still
reaches every file's key."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from msmigrate.scan import ScanOptions, runner, scan_paths

FILES = {
    "pkg/model.py": ("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    pass\n\n\n"
                     "class Head(Net):\n    pass\n"),
    "pkg/data.py": "import collections\nArgs = collections.namedtuple('Args', ['stride'])\n"
                   "args = Args(stride=[1])\n\n\nclass Data:\n    pass\n",
    "train.py": "from pkg.model import Head\nimport torch\nh = Head().to(torch.device('cpu'))\n",
}


def _scan(root: Path):
    return scan_paths([root], ScanOptions(jobs=1))


def _age(root: Path) -> None:
    for path in root.rglob("*.py"):
        then = time.time() - 60
        os.utime(path, (then, then))
    time.sleep(0.6)


@pytest.fixture(autouse=True)
def _short_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("msmigrate.scan.cache._RACY_NS", 300_000_000)


def test_rescan_reads_no_file_for_the_class_index(tmp_path: Path, make_tree, counting_analyzer,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_tree(tmp_path / "p", FILES)
    _age(root)
    indexes: list[runner.ProjectIndex] = []
    real_index = runner._project_index

    def recorded(*args):
        indexes.append(real_index(*args))
        return indexes[-1]

    monkeypatch.setattr(runner, "_project_index", recorded)
    first = _scan(root)
    reads: list[str] = []
    real_read = runner.read_user_file

    def counting_read(path: Path, *args):
        reads.append(path.name)
        return real_read(path, *args)

    monkeypatch.setattr(runner, "read_user_file", counting_read)
    second = _scan(root)
    assert reads == []  # neither for the class index nor for the results
    assert (second.cache_hits, second.cache_misses, len(counting_analyzer.calls)) == (3, 0, 3)
    assert second.to_json() == first.to_json()
    classes = frozenset({"pkg.model.Net", "model.Net", "pkg.model.Head", "model.Head"})
    assert indexes == [(classes, (("stride", "list", "pkg/data.py"),))] * 2

    (root / "pkg" / "data.py").write_text("import torch\n\n\nclass Data(Head):\n    pass\n", encoding="utf-8")
    third = _scan(root)
    # the changed file's outline is read; then every file, since a new module class is in every key
    assert reads == ["data.py", "data.py", "model.py", "train.py"]
    assert indexes[-1] == (classes | {"pkg.data.Data", "data.Data"}, ())
    assert sorted(counting_analyzer.calls[3:]) == ["pkg/data.py", "pkg/model.py", "train.py"]
    assert (third.cache_hits, third.cache_misses) == (0, 3)

    _age(root)
    _scan(root)
    (root / "train.py").write_text(FILES["train.py"] + "h.size = [2]\n", encoding="utf-8")
    del reads[:]
    fifth = _scan(root)
    # a new list field: every file again (its findings may depend on it), the changed one read twice
    assert reads == ["train.py", "data.py", "model.py", "train.py"]
    assert indexes[-1].fields == (("size", "list", "train.py"),)
    assert sorted(counting_analyzer.calls[6:]) == ["pkg/data.py", "pkg/model.py", "train.py"]
    assert (fifth.cache_hits, fifth.cache_misses) == (0, 3)
