"""A rescan builds the project's module-class index from the manifest's class headers: an unchanged
project is served without reading any file, and a changed class header still reaches every file's key."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from msmigrate.scan import ScanOptions, runner, scan_paths

FILES = {
    "pkg/model.py": ("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    pass\n\n\n"
                     "class Head(Net):\n    pass\n"),
    "pkg/data.py": "class Data:\n    pass\n",
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
    indexes: list[frozenset[str]] = []
    real_index = runner._module_classes

    def recorded(*args):
        indexes.append(real_index(*args))
        return indexes[-1]

    monkeypatch.setattr(runner, "_module_classes", recorded)
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
    assert indexes == [frozenset({"pkg.model.Net", "model.Net", "pkg.model.Head", "model.Head"})] * 2

    (root / "pkg" / "data.py").write_text("import torch\n\n\nclass Data(Head):\n    pass\n", encoding="utf-8")
    third = _scan(root)
    # the changed file's headers are read; then every file, since a new module class is in every key
    assert reads == ["data.py", "data.py", "model.py", "train.py"]
    assert indexes[-1] == indexes[0] | {"pkg.data.Data", "data.Data"}
    assert sorted(counting_analyzer.calls[3:]) == ["pkg/data.py", "pkg/model.py", "train.py"]
    assert (third.cache_hits, third.cache_misses) == (0, 3)
