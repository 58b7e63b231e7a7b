"""``msmigrate scan``: formats, output file, exit codes, bilingual usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from msmigrate.cli import main

FILES = {"a.py": "import torch\ny = torch.abs(x)\n", "pkg/b.py": "print(1)\n"}


@pytest.fixture
def project(tmp_path: Path, make_tree, counting_analyzer) -> Path:
    return make_tree(tmp_path / "p", FILES)


def run(*args: str):
    return CliRunner().invoke(main, ["scan", *args])


def test_text_report_on_stdout(project: Path) -> None:
    result = run(str(project), "-j", "1")
    assert result.exit_code == 0, result.output
    assert "a.py\n  Convertible (1)\n    2:5     torch.abs → mindspore.mint.abs" in result.output
    rate = "  Convertible rate    100.0% (1 of 1 PyTorch API usages have a MindSpore mapping)"
    assert rate in result.output


def test_json_to_a_file(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = run(str(project), "-j", "1", "--format", "json", "-o", str(out), "--lang", "zh")
    assert result.exit_code == 0, result.output
    assert f"已将 json 报告写入 {out}。" in result.output
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [f["path"] for f in document["files"]] == ["a.py", "pkg/b.py"]
    assert document["files"][0]["findings"][0]["message"] == "PyTorch API 有功能一致的 MindSpore 对应接口"


def test_csv_on_stdout(project: Path) -> None:
    result = run(str(project), "-j", "1", "--format", "csv", "--mindspore-version", "2.4")
    assert result.exit_code == 0
    assert result.output.splitlines()[1].startswith("a.py,2,5,2,14,torch.abs,mindspore.mint.abs,consistent,")


@pytest.mark.parametrize(("level", "code"), [("hint", 1), ("information", 0), ("error", 0)])
def test_fail_on(project: Path, level: str, code: int) -> None:
    result = run(str(project), "-j", "1", "--fail-on", level)
    assert result.exit_code == code
    if code:
        assert "1 finding(s) at or above severity 'hint'." in result.output


def test_missing_path_is_a_usage_error_in_both_languages(project: Path) -> None:
    result = run(str(project), "no/such/dir")
    assert result.exit_code == 2
    assert "Path not found: no/such/dir" in result.output
    result = run("no/such/dir", "--lang", "zh")
    assert result.exit_code == 2
    assert "路径不存在：no/such/dir" in result.output


def test_no_path_and_bad_options_are_usage_errors(project: Path) -> None:
    assert run().exit_code == 2
    assert run(str(project), "--format", "pdf").exit_code == 2
    assert run(str(project), "--jobs", "0").exit_code == 2
    result = run(str(project), "--mindspore-version", "banana")
    assert result.exit_code == 2 and "Unknown MindSpore version 'banana'" in result.output


def test_invalid_project_settings_are_usage_errors(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.msmigrate]\ndisabled-rules = 3\n", encoding="utf-8")
    result = run(str(project))
    assert result.exit_code == 2
    assert "disabled-rules must be a list" in result.output


def test_exclude_and_no_cache(project: Path, counting_analyzer) -> None:
    run(str(project), "-j", "1", "--no-cache", "--exclude", "pkg/")
    run(str(project), "-j", "1", "--no-cache", "--exclude", "pkg/")
    assert counting_analyzer.calls == ["a.py", "a.py"]


def test_output_is_replaced_atomically_and_never_written_through_a_symlink(
    project: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    out = tmp_path / "out" / "report.json"
    out.parent.mkdir()
    out.symlink_to(victim)
    result = run(str(project), "-j", "1", "--format", "json", "-o", str(out))
    assert result.exit_code == 1
    assert f"Not writing {out}: it is a symlink or not a regular file" in result.output
    assert victim.read_text(encoding="utf-8") == "precious\n" and out.is_symlink()
    out.unlink()
    out.write_text("old", encoding="utf-8")
    result = run(str(project), "-j", "1", "--format", "json", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert [f["path"] for f in json.loads(out.read_text(encoding="utf-8"))["files"]] == ["a.py", "pkg/b.py"]
    assert [p.name for p in out.parent.iterdir()] == ["report.json"]  # no temporary file left
