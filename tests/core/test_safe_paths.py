"""``msmigrate.safe_paths``: containment of resolved paths, writes that never follow a symlink."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from msmigrate.safe_paths import UnsafePath, inside_roots, write_atomic, write_inside


def test_inside_roots_resolves_dots_and_symlinks(tmp_path: Path) -> None:
    root, other = tmp_path / "root", tmp_path / "other"
    (root / "pkg").mkdir(parents=True)
    other.mkdir()
    (root / "out").symlink_to(other, target_is_directory=True)
    (root / "in").symlink_to(root / "pkg", target_is_directory=True)
    assert inside_roots(root / "pkg" / "a.py", [root]) == (root / "pkg" / "a.py", root)
    assert inside_roots("pkg/a.py", [root]) == (root / "pkg" / "a.py", root)  # relative: from the first root
    assert inside_roots(root / "in" / "a.py", [other, root]) == (root / "pkg" / "a.py", root)
    assert inside_roots(root / "out" / "a.py", [root]) is None
    assert inside_roots(root / ".." / "other", [root]) is None
    assert inside_roots(str(root) + "-sibling", [root]) is None  # a prefix is not a parent
    assert inside_roots("/etc/passwd", [root]) is None and inside_roots(root, []) is None


def test_write_inside_creates_folders_and_replaces_a_regular_file(tmp_path: Path) -> None:
    assert write_inside(tmp_path, ["a", "b", "r.txt"], "one") == tmp_path / "a" / "b" / "r.txt"
    assert write_inside(tmp_path, ["a", "b", "r.txt"], "二") == tmp_path / "a" / "b" / "r.txt"
    assert (tmp_path / "a" / "b" / "r.txt").read_text(encoding="utf-8") == "二"
    assert os.listdir(tmp_path / "a" / "b") == ["r.txt"]


@pytest.mark.parametrize("planted", ["folder_link", "file_link", "fifo", "folder_is_file"])
def test_write_inside_refuses_links_and_special_files(tmp_path: Path, planted: str) -> None:
    root, victim = tmp_path / "root", tmp_path / "victim"
    root.mkdir()
    victim.mkdir()
    (victim / "r.txt").write_text("precious", encoding="utf-8")
    if planted == "folder_link":
        (root / "d").symlink_to(victim, target_is_directory=True)
    elif planted == "folder_is_file":
        (root / "d").write_text("", encoding="utf-8")
    else:
        (root / "d").mkdir()
        if planted == "file_link":
            (root / "d" / "r.txt").symlink_to(victim / "r.txt")
        else:
            os.mkfifo(root / "d" / "r.txt")  # opening it for writing would block
    with pytest.raises(UnsafePath):
        write_inside(root, ["d", "r.txt"], "evil")
    assert (victim / "r.txt").read_text(encoding="utf-8") == "precious" and os.listdir(victim) == ["r.txt"]


@pytest.mark.parametrize("name", ["..", ".", "", "a/b"])
def test_write_inside_refuses_names_that_leave_the_folder(tmp_path: Path, name: str) -> None:
    with pytest.raises(UnsafePath):
        write_inside(tmp_path, [name, "r.txt"], "x")


def test_write_atomic_follows_the_named_folders_but_not_a_final_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "via").symlink_to(real, target_is_directory=True)
    assert write_atomic(tmp_path / "via" / "r.txt", "ok") == tmp_path / "via" / "r.txt"
    assert (real / "r.txt").read_text(encoding="utf-8") == "ok"
    (tmp_path / "link.txt").symlink_to(real / "r.txt")
    with pytest.raises(UnsafePath):
        write_atomic(tmp_path / "link.txt", "evil")
    assert (real / "r.txt").read_text(encoding="utf-8") == "ok"
