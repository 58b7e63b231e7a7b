"""File discovery: skipped folders, .gitignore, excludes, symlinks that leave the root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from msmigrate.scan.discovery import discover, report_root


def rels(paths, **kwargs) -> list[str]:
    return [f.rel for f in discover(paths, **kwargs).files]


@pytest.fixture
def project(tmp_path: Path, make_tree) -> Path:
    root = make_tree(tmp_path / "proj", {
        "train.py": "import torch\n",
        "pkg/__init__.py": "",
        "pkg/model.py": "x = 1\n",
        "pkg/stub.pyi": "def f() -> int: ...\n",
        "notes.txt": "not python\n",
        ".git/hooks/pre.py": "",
        ".venv/lib/x.py": "",
        "venv/x.py": "",
        "env/x.py": "",
        "myenv/pyvenv.cfg": "home = /usr\n",
        "myenv/lib/y.py": "",
        "node_modules/pkg/z.py": "",
        "__pycache__/m.py": "",
        "build/lib/b.py": "",
        "dist/d.py": "",
        ".tox/py311/t.py": "",
        "lib/site-packages/s.py": "",
        "thing.egg-info/e.py": "",
        "generated/out.py": "",
        "secret_ignored.py": "",
        "sub/.gitignore": "*.py\n!keep.py\n",
        "sub/drop.py": "",
        "sub/keep.py": "",
        ".gitignore": "generated/\nsecret_ignored.py\n",
    })
    return root


def test_skips_vcs_virtualenv_build_and_gitignored_paths(project: Path) -> None:
    assert rels([project]) == ["pkg/__init__.py", "pkg/model.py", "sub/keep.py", "train.py"]


def test_gitignore_can_be_disabled(project: Path) -> None:
    found = rels([project], respect_gitignore=False)
    assert "generated/out.py" in found and "secret_ignored.py" in found and "sub/drop.py" in found
    assert "build/lib/b.py" not in found  # built-in skips still apply


def test_exclude_and_include_globs(project: Path) -> None:
    assert rels([project], exclude=["pkg/"]) == ["sub/keep.py", "train.py"]
    assert rels([project], exclude=["model.py", "/train.py"]) == ["pkg/__init__.py", "sub/keep.py"]
    assert rels([project], include=["*.py", "*.pyi"]) == [
        "pkg/__init__.py", "pkg/model.py", "pkg/stub.pyi", "sub/keep.py", "train.py",
    ]


def test_explicit_file_is_scanned_whatever_its_name(project: Path) -> None:
    found = discover([project / "notes.txt", project / "build/lib/b.py"])
    assert found.root == (project).resolve()
    assert [f.rel for f in found.files] == ["build/lib/b.py", "notes.txt"]


def test_overlapping_paths_are_listed_once(project: Path) -> None:
    found = discover([project, project / "pkg" / "model.py", project / "pkg"])
    assert [f.rel for f in found.files] == ["pkg/__init__.py", "pkg/model.py", "sub/keep.py", "train.py"]


def test_report_root_is_the_common_folder(project: Path) -> None:
    assert report_root([project / "pkg", project / "sub" / "keep.py"]) == project.resolve()
    assert report_root([project / "missing"]) is None
    assert [f.rel for f in discover([project / "pkg", project / "sub"]).files] == [
        "pkg/__init__.py", "pkg/model.py", "sub/keep.py",
    ]


def test_missing_path_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        discover([tmp_path / "nope"])


def test_symlinks_never_lead_out_of_the_root(tmp_path: Path, make_tree) -> None:
    outside = make_tree(tmp_path / "outside", {"secret.py": "import torch\n", "deep/more.py": ""})
    root = make_tree(tmp_path / "root", {"a.py": "", "pkg/b.py": ""})
    os.symlink(outside, root / "linked_dir")
    os.symlink(outside / "secret.py", root / "linked_secret.py")
    os.symlink(root / "pkg", root / "pkg_alias")  # inside the root: not followed, its files come once
    os.symlink(root / "a.py", root / "a_alias.py")  # same file as a.py: listed once
    os.symlink(root / "nowhere.py", root / "dangling.py")
    os.symlink(root, root / "pkg" / "loop")
    found = discover([root])
    assert [f.rel for f in found.files] == ["a.py", "pkg/b.py"]
    assert all(f.path.is_relative_to(root.resolve()) for f in found.files)


def test_link_to_a_file_inside_the_root_that_is_otherwise_skipped_is_read(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "root", {"build/gen.py": "", "a.py": ""})
    os.symlink(root / "build" / "gen.py", root / "gen_link.py")
    assert rels([root]) == ["a.py", "gen_link.py"]


def test_ancestor_gitignore_of_the_work_tree_applies(tmp_path: Path, make_tree) -> None:
    repo = make_tree(tmp_path / "repo", {
        ".gitignore": "data_cache/\n*.gen.py\n",
        "src/app.py": "",
        "src/x.gen.py": "",
        "src/data_cache/c.py": "",
    })
    (repo / ".git").mkdir()
    assert rels([repo / "src"]) == ["app.py"]


_GLOB_CASES = [["*.py"], ["*.py", "*.pyi"], [], ["# comment", ""], ["*.txt"], ["src/*.py"], ["!*.py", "*.py"]]


@pytest.mark.parametrize("patterns", _GLOB_CASES)
def test_glob_shortcuts_agree_with_pathspec(patterns: list[str]) -> None:
    import itertools

    from pathspec import GitIgnoreSpec

    from msmigrate.scan.discovery import _Globs

    parts = ["a", "b.py", "c.pyi", ".py", "x.txt", "src", "d.PY", "e.py.bak"]
    paths = ["/".join(combo) + end for n in (1, 2, 3) for combo in itertools.product(parts, repeat=n)
             for end in ("", "/")]
    globs, spec = _Globs(patterns), GitIgnoreSpec.from_lines(patterns)
    assert [p for p in paths if globs.match_file(p)] == [p for p in paths if spec.match_file(p)]
