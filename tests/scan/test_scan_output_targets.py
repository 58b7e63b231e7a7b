"""``msmigrate scan -o``: ``-`` is standard output, ``/dev/null`` and a named pipe are written to, a symlink
is refused (also one to ``/dev/null``); a scan in which no file could be analysed exits with status 2."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from msmigrate.cli import main
from msmigrate.i18n import t

FILES = {"a.py": "import torch\ny = torch.abs(x)\n", "pkg/b.py": "print(1)\n"}


@pytest.fixture
def project(tmp_path: Path, make_tree) -> Path:
    return make_tree(tmp_path / "p", FILES)


def run(*args: str):
    return CliRunner().invoke(main, ["scan", *args])


def test_dash_writes_the_report_on_stdout(project: Path) -> None:
    result = run(str(project), "-j", "1", "--format", "json", "-o", "-")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    document = json.loads(result.stdout)
    assert [(f["path"], [x["rule"] for x in f["findings"]]) for f in document["files"]] == [
        ("a.py", ["MSM100"]), ("pkg/b.py", [])]
    assert not (Path.cwd() / "-").exists()


def test_dev_null_is_written_to(project: Path) -> None:
    result = run(str(project), "-j", "1", "--format", "json", "-o", os.devnull)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr == t("scan.wrote", "en", fmt="json", path=os.devnull) + "\n"
    assert Path(os.devnull).is_char_device()


def test_a_named_pipe_receives_the_report(project: Path, tmp_path: Path) -> None:
    pipe = tmp_path / "report.fifo"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    result = run(str(project), "-j", "1", "--format", "json", "-o", str(pipe))
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert [f["path"] for f in json.loads(received[0])["files"]] == ["a.py", "pkg/b.py"]


def test_a_symlink_to_dev_null_is_refused(project: Path, tmp_path: Path) -> None:
    link = tmp_path / "null-link"
    link.symlink_to(os.devnull)
    result = run(str(project), "-j", "1", "-o", str(link))
    assert result.exit_code == 1
    assert result.stderr == "Error: " + t("scan.error.unsafe_output", "en", path=str(link)) + "\n"
    assert link.is_symlink()


def test_every_file_failing_exits_with_status_2(tmp_path: Path, make_tree) -> None:
    project = make_tree(tmp_path / "p", {"a.py": b"import torch\x00\n", "b.py": b"x = '\xff'\n"})
    result = run(str(project), "-j", "1", "--format", "json")
    assert result.exit_code == 2
    files = json.loads(result.stdout)["files"]  # the report says why, for each file
    assert [(f["path"], f["error"] is not None) for f in files] == [("a.py", True), ("b.py", True)]
    assert result.stderr == t("scan.all_failed", "en", count=2) + "\n"
    zh = run(str(project), "-j", "1", "--lang", "zh")
    assert zh.exit_code == 2 and zh.stderr == t("scan.all_failed", "zh", count=2) + "\n"


def test_one_file_analysed_is_enough(tmp_path: Path, make_tree) -> None:
    project = make_tree(tmp_path / "p", {"a.py": b"import torch\x00\n", "b.py": FILES["a.py"]})
    result = run(str(project), "-j", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["files_with_errors"] == 1


def test_files_skipped_on_purpose_are_no_failure(tmp_path: Path, make_tree) -> None:
    project = make_tree(tmp_path / "p", {"a.py": FILES["a.py"]})  # 30 bytes
    os.mkfifo(project / "b.py")
    result = run(str(project / "a.py"), str(project / "b.py"), "-j", "1", "--format", "json",
                 "--max-file-size", "8")
    assert result.exit_code == 0, result.output
    errors = [f["error"] for f in json.loads(result.stdout)["files"]]
    assert errors == [t("scan.error.too_large", "en", size="30 B", limit="8 B"),
                      t("scan.error.not_regular.fifo", "en")]


def test_an_empty_folder_is_no_failure(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = run(str(tmp_path / "empty"), "-j", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["files"] == []
