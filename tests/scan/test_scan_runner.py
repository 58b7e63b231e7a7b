"""scan_paths: project settings, progress, cancellation, per-file errors, parallel workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from msmigrate.scan import CancelToken, ConfigError, ScanCancelled, ScanOptions, scan_paths
from msmigrate.scan.options import load_project_config

FILES = {f"m{i}.py": "import torch\n" + "y = torch.abs(x)\n" * (i % 3) for i in range(6)}


def test_progress_reports_every_file(tmp_path: Path, make_tree, counting_analyzer) -> None:
    root = make_tree(tmp_path / "p", FILES)
    seen: list[tuple[int, int]] = []
    scan_paths([root], ScanOptions(jobs=1, progress=lambda done, total: seen.append((done, total))))
    assert seen == [(i, 6) for i in range(7)]
    seen.clear()
    scan_paths([root], ScanOptions(jobs=1, progress=lambda done, total: seen.append((done, total))))
    assert seen == [(i, 6) for i in range(7)]  # cache hits count as done too


def test_cancellation_stops_between_files(tmp_path: Path, make_tree, counting_analyzer) -> None:
    root = make_tree(tmp_path / "p", FILES)
    token = CancelToken()

    def progress(done: int, total: int) -> None:
        if done == 2:
            token.cancel()

    with pytest.raises(ScanCancelled):
        scan_paths([root], ScanOptions(jobs=1, use_cache=False, progress=progress, cancel=token))
    assert len(counting_analyzer.calls) == 2


def test_too_large_and_unreadable_files_are_reported_not_raised(tmp_path: Path, make_tree,
                                                                counting_analyzer) -> None:
    root = make_tree(tmp_path / "p", {"big.py": "x = 1\n" * 100, "small.py": "x = 1\n"})
    report = scan_paths([root], ScanOptions(jobs=1, max_file_bytes=100))
    assert [(f.path, f.error_key) for f in report.files] == [("big.py", "scan.error.too_large"),
                                                              ("small.py", None)]
    assert report.files[0].error("en") == "Skipped: the file is 600 B, larger than the 100 B limit."
    assert report.files[0].error("zh") == "已跳过：文件大小为 600 B，超过了 100 B 的上限。"
    assert counting_analyzer.calls == ["small.py"]
    assert report.summary()["files_with_errors"] == 1


def test_an_analyzer_crash_becomes_a_file_error(tmp_path: Path, make_tree, monkeypatch) -> None:
    from msmigrate.analysis.analyzer import analyze_source as original

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("msmigrate.analysis.analyzer.analyze_source", broken)
    root = make_tree(tmp_path / "p", {"a.py": "import torch\n"})
    report = scan_paths([root], ScanOptions(jobs=1))
    assert report.files[0].error("en") == "Internal error while analysing this file: RuntimeError: boom"
    assert report.files[0].error("zh") == "分析该文件时发生内部错误：RuntimeError: boom"
    monkeypatch.setattr("msmigrate.analysis.analyzer.analyze_source", original)  # fixed: nothing was cached
    report = scan_paths([root], ScanOptions(jobs=1))
    assert report.files[0].error_key is None and report.cache_hits == 0


def test_project_settings_from_pyproject(tmp_path: Path, make_tree, counting_analyzer) -> None:
    root = make_tree(tmp_path / "p", {
        **FILES,
        "vendor/lib.py": "torch.abs(1)\n",
        "pyproject.toml": '[tool.msmigrate]\nmindspore-version = "2.3"\nexclude = ["vendor/"]\n'
                          'severity = { consistent = "warning" }\nlanguage = "zh"\n',
    })
    report = scan_paths([root], ScanOptions(jobs=1))
    assert report.mindspore_version == "2.3"
    assert [f.path for f in report.files] == [f"m{i}.py" for i in range(6)]
    assert {f.severity.value for _, f in report.findings()} == {"warning"}
    # the command line wins over the project file
    report = scan_paths([root], ScanOptions(jobs=1, mindspore_version="2.4", severity={"consistent": "off"}))
    assert report.mindspore_version == "2.4" and report.summary()["findings"] == 0


@pytest.mark.parametrize(("text", "detail"), [
    ("[tool.msmigrate\n", "Invalid [tool.msmigrate] settings in"),
    ('[tool.msmigrate]\nexclude = "x"\n', "exclude must be a list"),
    ('[tool.msmigrate]\nseverity = { consistent = "loud" }\n', "severity.consistent = 'loud'"),
])
def test_invalid_project_settings(tmp_path: Path, text: str, detail: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_project_config(tmp_path)
    assert info.value.key == "scan.error.bad_config"
    from msmigrate.i18n import t

    assert detail in t(info.value.key, "en", **info.value.fields)


def test_unknown_mindspore_version_is_a_config_error(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", {"a.py": ""})
    with pytest.raises(ConfigError) as info:
        scan_paths([root], ScanOptions(mindspore_version="banana"))
    assert info.value.key == "scan.error.bad_version"


def test_cancellation_of_a_parallel_scan(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", {f"m{i}.py": "import torch\nx = torch.abs(y)\n" for i in range(12)})
    token = CancelToken()
    token.cancel()
    with pytest.raises(ScanCancelled):
        scan_paths([root], ScanOptions(jobs=2, use_cache=False, cancel=token))


def test_bad_files_get_a_per_file_error_with_the_real_analyzer(tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "p", {
        "binary.py": b"\x00\x01\x02torch",
        "latin1.py": "s = 'caf\xe9'\n".encode("latin-1"),
        "empty.py": "",
        "broken.py": "import torch\nx = torch.abs(\ny = torch.flatten(z)\ndef f(:\n",
        "ok.py": "import torch\nx = torch.flatten(z)\n",
    })
    report = scan_paths([root], ScanOptions(jobs=2))
    by_path = {f.path: f for f in report.files}
    assert by_path["binary.py"].error_key is not None and by_path["binary.py"].findings == []
    assert by_path["latin1.py"].error_key is not None
    assert by_path["empty.py"].error_key is None and by_path["empty.py"].findings == []
    assert [(f.line, f.torch_api) for f in by_path["ok.py"].findings if f.torch_api == "torch.flatten"] == [
        (2, "torch.flatten")]
    assert by_path["broken.py"].error_key is None  # recovered: the intact parts are still analysed
    assert report.summary()["files_with_errors"] == 2
