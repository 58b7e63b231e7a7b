"""One step puts the knowledge base into every package: ``copy_into_package`` (setup.py's build hook and
the VS Code bundle script), which never ships a missing or damaged file; and ``msmigrate --version``."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from install_support import REPO

from msmigrate import __version__
from msmigrate.data_files import KnowledgeBaseError, copy_into_package
from msmigrate.i18n import t

DATA = REPO / "mapping_data"


def test_the_copy_is_the_whole_knowledge_base_and_replaces_an_old_one(tmp_path: Path) -> None:
    package = tmp_path / "msmigrate"
    (package / "_data").mkdir(parents=True)
    (package / "_data" / "mapping-0.9.json").write_text("{}", encoding="utf-8")  # left from an older build
    copied = copy_into_package(DATA, package)
    names = sorted(p.name for p in DATA.glob("*.json"))
    assert [p.name for p in copied] == names
    assert sorted(p.name for p in (package / "_data").iterdir()) == names
    assert all((package / "_data" / n).read_bytes() == (DATA / n).read_bytes() for n in names)


@pytest.mark.parametrize("broken", ["torch_inventory.json", "mapping-2.4.json"])
def test_a_damaged_or_missing_file_stops_the_build(tmp_path: Path, broken: str) -> None:
    source = tmp_path / "data"
    source.mkdir()
    for path in DATA.glob("*.json"):
        (source / path.name).symlink_to(path)
    (source / broken).unlink()
    if broken == "torch_inventory.json":
        with pytest.raises(KnowledgeBaseError) as raised:
            copy_into_package(source, tmp_path / "pkg")
        assert (raised.value.key, raised.value.path) == ("kb.error.missing", str(source / broken))
    else:
        (source / broken).write_text('{"rows": [', encoding="utf-8")
        with pytest.raises(KnowledgeBaseError) as raised:
            copy_into_package(source, tmp_path / "pkg")
        assert (raised.value.key, raised.value.path) == ("kb.error.damaged", str(source / broken))
        assert raised.value.detail == "JSONDecodeError: Expecting value: line 1 column 11 (char 10)"
    assert not (tmp_path / "pkg").exists()


def test_the_vscode_bundle_uses_the_same_step() -> None:
    script = REPO / "client-vscode" / "scripts" / "bundle_python.py"
    spec = importlib.util.spec_from_file_location("bundle_python", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.package_step(REPO) == (__version__, copy_into_package)


def test_the_vscode_bundle_smoke_test_names_what_exists() -> None:
    """The bundle's smoke test (run only when the VSIX is built) imports modules and one name by their
    current paths: a module moved in a refactor fails here, in ``make test``, not first in packaging."""
    import re

    script = (REPO / "client-vscode" / "scripts" / "bundle_python.py").read_text(encoding="utf-8")
    imports = re.findall(r"from (msmigrate[\w.]*) import (\w+)", script)
    assert ("msmigrate.lsp.features", "create_server") in imports
    for module, name in imports:
        assert hasattr(importlib.import_module(module), name), (module, name)
    listed = re.search(r"SMOKE_IMPORTS = \((.*?)\)", script, re.S)
    assert listed is not None
    for module in re.findall(r'"(msmigrate[\w.]*)"', listed.group(1)):
        importlib.import_module(module)


def test_version_says_what_the_knowledge_base_covers(tmp_path: Path) -> None:
    def header(name: str) -> dict:
        return json.loads((DATA / name).read_text(encoding="utf-8"))

    env = {**os.environ, "MSMIGRATE_LANG": "zh"}
    env.pop("MSMIGRATE_DATA_DIR", None)
    done = subprocess.run([sys.executable, "-m", "msmigrate", "--version"], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    releases = {v: header(f"mapping-{v}.json")["release"] for v in ("1.10", "2.3", "2.4", "2.6")}
    tables = "、".join(f"{v}（{release}）" for v, release in releases.items())
    assert done.stdout.splitlines() == [
        f"msmigrate {__version__}",
        t("kb.version.inventories", "zh", torch=header("torch_inventory.json")["version"],
          mindspore=header("mindspore_inventory.json")["version"]),
        f"映射表：MindSpore {tables}",
        f"数据目录：{DATA}",
    ]


def test_version_says_when_the_knowledge_base_is_missing(tmp_path: Path) -> None:
    env = {**os.environ, "MSMIGRATE_DATA_DIR": str(tmp_path / "none"), "MSMIGRATE_LANG": "en"}
    done = subprocess.run([sys.executable, "-m", "msmigrate", "--version"], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=tmp_path, check=False)
    assert (done.returncode, done.stdout) == (2, f"msmigrate {__version__}\n")
    assert done.stderr == t("kb.error.missing", "en", path=str(tmp_path / "none")) + "\n"


def test_no_two_shipped_files_differ_only_in_case() -> None:
    """The VSIX format (and the file systems of macOS and Windows) cannot hold ``Conv2d.py.txt`` beside
    ``conv2d.py.txt``: every file the package and its knowledge base ship must keep its name when folded."""
    root = REPO
    shipped = [p for base in (root / "server" / "msmigrate", root / "mapping_data") for p in base.rglob("*")
               if "__pycache__" not in p.parts and "_data" not in p.relative_to(base).parts[:1]]
    folded: dict[str, list[str]] = {}
    for path in shipped:
        folded.setdefault(path.relative_to(root).as_posix().casefold(), []).append(path.name)
    assert [names for names in folded.values() if len(names) > 1] == []
    assert len(shipped) > 300
