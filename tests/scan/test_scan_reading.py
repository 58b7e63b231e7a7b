"""What a scan reads: regular files only (a FIFO or a device never blocks or floods it), under a size cap
(option, ``[tool.msmigrate] max-file-size``), skipped files and unreadable folders reported in every format;
file names that are not UTF-8; invalid project settings and versions."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from msmigrate.cli import main
from msmigrate.i18n import t
from msmigrate.reports import FORMATS, render
from msmigrate.scan import ConfigError, ScanOptions, scan_paths
from msmigrate.scan.discovery import discover
from msmigrate.scan.reading import SkippedFile, parse_size, read_user_file

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def within(seconds: float, func, *args):
    """``func(*args)`` in a thread; fails (instead of hanging the test run) if it blocks."""
    box: dict[str, object] = {}

    def call() -> None:
        try:
            box["value"] = func(*args)
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            box["error"] = exc

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{func.__name__} blocked for {seconds} s"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.py"
    os.mkfifo(path)
    return path


def skipped_key(path: Path, limit: int = 1000) -> str:
    with pytest.raises(SkippedFile) as raised:
        within(5, read_user_file, path, limit)
    return raised.value.key


def test_reader_refuses_what_is_not_a_regular_file(fifo: Path, tmp_path: Path) -> None:
    assert skipped_key(fifo) == "scan.error.not_regular.fifo"
    assert skipped_key(Path("/dev/zero")) == "scan.error.not_regular.device"
    assert skipped_key(tmp_path) == "scan.error.not_regular.folder"
    big = tmp_path / "big.py"
    big.write_bytes(b"x" * 1001)
    assert skipped_key(big) == "scan.error.too_large"
    small = tmp_path / "small.py"
    small.write_bytes(b"x" * 1000)
    data, info = read_user_file(small, 1000)
    assert (data, info.st_size) == (b"x" * 1000, 1000)
    link = tmp_path / "link.py"
    link.symlink_to(fifo)
    assert skipped_key(link) == "scan.error.not_regular.fifo"  # checked on what was opened


@pytest.mark.parametrize(("text", "size"), [(5, 5), ("5MB", 5 * 1024 * 1024), ("512 KiB", 512 * 1024),
                                            ("1.5k", 1536), ("1000", 1000), ("2g", 2 * 1024 ** 3)])
def test_sizes(text, size) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "five", "5 parsecs", 0, -1, True, 1.5, None, "0MB"])
def test_bad_sizes(text) -> None:
    with pytest.raises(ValueError):
        parse_size(text)


def test_scan_of_a_fifo_and_dev_zero_reports_them_skipped_in_every_format(fifo: Path, tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("import torch\ny = torch.abs(x)\n", encoding="utf-8")
    report = within(60, scan_paths, [str(fifo), "/dev/zero", str(tmp_path / "ok.py")],
                    ScanOptions(jobs=1, use_cache=False))
    errors = {f.path: f.error_key for f in report.files}  # the report root is "/"
    assert errors == {fifo.relative_to("/").as_posix(): "scan.error.not_regular.fifo",
                      "dev/zero": "scan.error.not_regular.device",
                      (tmp_path / "ok.py").relative_to("/").as_posix(): None}
    for fmt in FORMATS:
        for lang in ("en", "zh"):
            text = render(report, fmt, lang)
            for key in ("scan.error.not_regular.fifo", "scan.error.not_regular.device"):
                assert t(key, lang) in text, (fmt, lang, key)


def test_cli_scan_of_a_fifo_ends(fifo: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "msmigrate", "scan", str(fifo), "--no-cache"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Skipped: a named pipe (FIFO), not a regular file." in run.stdout


def test_a_fifo_named_gitignore_or_pyproject_does_not_block(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", {"a.py": "import torch\n", "sub/b.py": "x = 1\n"})
    os.mkfifo(root / "sub" / ".gitignore")
    assert [f.rel for f in within(10, discover, [root]).files] == ["a.py", "sub/b.py"]
    os.mkfifo(root / "pyproject.toml")
    with pytest.raises(ConfigError) as raised:
        within(10, scan_paths, [root], ScanOptions(jobs=1, use_cache=False))
    assert "named pipe" in t(raised.value.key, "en", **raised.value.fields)


def test_size_cap_from_the_option_the_project_and_the_command_line(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", {"big.py": "x = 1\n" * 400, "small.py": "x = 1\n"})  # 2400 B, 6 B

    def skipped(**options) -> list[str]:
        report = scan_paths([root], ScanOptions(jobs=1, use_cache=False, **options))
        return [f.path for f in report.files if f.error_key == "scan.error.too_large"]

    assert skipped() == []
    assert skipped(max_file_bytes=2000) == ["big.py"]
    (root / "pyproject.toml").write_text('[tool.msmigrate]\nmax-file-size = "2KB"\n', encoding="utf-8")
    assert skipped() == ["big.py"]
    assert skipped(max_file_bytes=5000) == []  # the caller's value wins
    (root / "pyproject.toml").write_text("[tool.msmigrate]\nmax-file-size = 3\n", encoding="utf-8")
    assert skipped() == ["big.py", "small.py"]
    (root / "pyproject.toml").unlink()
    result = CliRunner().invoke(main, ["scan", str(root), "--no-cache", "--max-file-size", "1KB", "-j", "1"])
    assert result.exit_code == 0
    assert "big.py\n  Error: Skipped: the file is 2.3 KB, larger than the 1 KB limit." in result.output
    bad = CliRunner().invoke(main, ["scan", str(root), "--max-file-size", "lots"])
    assert bad.exit_code == 2
    assert "Invalid size 'lots': give a number of bytes or a size such as 5MB or 512KB." in bad.output


def test_unreadable_folder_is_reported_as_skipped(tmp_path: Path, make_tree, monkeypatch) -> None:
    root = make_tree(tmp_path / "p", {"a.py": "import torch\n", "locked/b.py": "x = 1\n"})
    real_scandir = os.scandir

    def scandir(path):  # root reads every folder: refuse this one as the kernel would for a user
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    report = scan_paths([root], ScanOptions(jobs=1, use_cache=False))
    assert [(f.path, f.error_key, f.error_args) for f in report.files] == [
        ("a.py", None, {}), ("locked/", "scan.error.unreadable_folder", {"detail": "Permission denied"})]
    assert report.files[1].error("zh") == "已跳过：无法读取该文件夹：Permission denied"
    for fmt in FORMATS:
        assert "locked/" in render(report, fmt, "en"), fmt


def test_file_names_that_are_not_utf8_render_in_every_format(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    name = "模型".encode("gbk") + b".py"  # c4 a3 d0 cd: "ģ" then two bytes that are not UTF-8
    with open(os.path.join(os.fsencode(root), name), "w", encoding="utf-8") as fh:
        fh.write("import torch\ny = torch.abs(x)\n")
    report = scan_paths([root], ScanOptions(jobs=1))
    assert [f.path for f in report.files] == ["ģ\\xd0\\xcd.py"]
    assert report.files[0].findings[0].torch_api == "torch.abs"
    for fmt in FORMATS:
        for lang in ("en", "zh"):
            text = render(report, fmt, lang)
            text.encode("utf-8")  # no lone surrogate left
            assert "xd0" in text and "xcd" in text, fmt
    again = scan_paths([root], ScanOptions(jobs=1))  # and through the cache
    assert again.to_json() == report.to_json() and again.cache_hits == 1
    cli = CliRunner().invoke(main, ["scan", str(root), "--format", "json", "-j", "1"])
    assert cli.exit_code == 0 and '"path": "ģ\\\\xd0\\\\xcd.py"' in cli.output


@pytest.mark.parametrize(("config", "detail"), [
    ("tool = 1\n", "[tool] is not a table"),
    ("tool = []\n", "[tool] is not a table"),
    ("[tool]\nmsmigrate = 3\n", "[tool.msmigrate] is not a table"),
    ("[tool.msmigrate]\nexclude = 3\n", "exclude must be a list"),
    ("[tool.msmigrate]\nmax-file-size = true\n", "max-file-size must be a size"),
    ("[tool.msmigrate]\nmax-file-size = \"big\"\n", "max-file-size = 'big'"),
    ("[tool.msmigrate]\nseverity = {missing = [1]}\n", "severity.missing = [1]"),
])
def test_invalid_project_settings_are_a_usage_error(tmp_path: Path, make_tree, config, detail) -> None:
    root = make_tree(tmp_path / "p", {"a.py": "import torch\n", "pyproject.toml": config})
    result = CliRunner().invoke(main, ["scan", str(root), "--no-cache"])
    assert result.exit_code == 2
    assert f"Invalid [tool.msmigrate] settings in {root / 'pyproject.toml'}: {detail}" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("command", [["scan", "."], ["lookup", "torch.abs"], ["check", "torch.abs"]])
def test_unknown_mindspore_version_is_a_usage_error(command) -> None:
    result = CliRunner().invoke(main, [*command, "--mindspore-version", "9.9"])
    assert result.exit_code == 2
    assert "Invalid value for" in result.output and "--mindspore-version" in result.output
    assert "9.9" in result.output and "choose one of 1.10, 2.3, 2.4, 2.6 or auto" in result.output


def test_project_version_that_names_no_table_is_a_usage_error(tmp_path: Path, make_tree) -> None:
    config = '[tool.msmigrate]\nmindspore-version = "9.9"\n'
    root = make_tree(tmp_path / "p", {"a.py": "x = 1\n", "pyproject.toml": config})
    result = CliRunner().invoke(main, ["scan", str(root), "--no-cache"])
    assert result.exit_code == 2
    assert "Unknown MindSpore version '9.9'; choose one of 1.10, 2.3, 2.4, 2.6 or auto." in result.output
