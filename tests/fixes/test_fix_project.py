"""``msmigrate fix``: whole-project fixing end to end (diff, write, check, idempotence, encodings,
read-only files, syntax errors, atomic writes) and the engine it shares with the editor's fix-all."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from msmigrate.cli import main
from msmigrate.fixes import project
from msmigrate.fixes.api import fix_all
from msmigrate.fixes.compositions import CompatModule
from msmigrate.fixes.project import FileStatus, FixOptions, fix_paths, fix_source
from msmigrate.knowledge.base import get_knowledge_base

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "resnet_torch"
V = ["--mindspore-version", "2.6"]

SIMPLE = "import torch\n\n\ndef f(x):\n    return torch.abs(x) + torch.exp(x)\n"
SIMPLE_FIXED = "import mindspore\n\n\ndef f(x):\n    return mindspore.mint.abs(x) + mindspore.mint.exp(x)\n"


def _tree_digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*")) if p.is_file()
    }


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["fix", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def sample(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(EXAMPLE, target)
    return target


def test_diff_writes_nothing_and_prints_a_patch(sample: Path) -> None:
    before = _tree_digest(sample)
    code, out, err = _run(str(sample), "--diff", *V)
    assert code == 0
    assert _tree_digest(sample) == before
    assert "--- a/models/resnet.py\n+++ b/models/resnet.py\n" in out
    # a type named in an annotation is a safe rename (fixes/safety.py)
    assert ("-    def forward(self, x: Tensor) -> Tensor:\n"
            "+    def construct(self, x: mindspore.Tensor) -> mindspore.Tensor:\n") in out
    assert "nothing written" in err


def test_check_exits_1_while_fixes_are_pending_and_writes_nothing(sample: Path) -> None:
    before = _tree_digest(sample)
    code, _out, _err = _run(str(sample), "--check", *V)
    assert code == 1
    assert _tree_digest(sample) == before


def test_write_then_second_run_changes_nothing(sample: Path) -> None:
    code, out, _err = _run(str(sample), "--json", *V)
    assert code == 0
    first = json.loads(out)
    assert first["written"] is True
    changed = {f["path"] for f in first["files"] if f["status"] == "fixed"}
    assert "models/resnet.py" in changed
    assert first["fixes_by_rule"]["MSM501"] == 3  # forward → construct: two classes here, one in utils
    assert first["converted"] == first["usages_before"] - first["usages_after"]
    resnet = (sample / "models" / "resnet.py").read_text(encoding="utf-8")
    assert "def forward" not in resnet and resnet.count("def construct(") == 2
    digest = _tree_digest(sample)

    code, out, _err = _run(str(sample), "--json", *V)
    second = json.loads(out)
    assert code == 0
    assert second["fixes_by_rule"] == {}
    assert {f["status"] for f in second["files"]} == {"unchanged"}
    assert _tree_digest(sample) == digest
    assert _run(str(sample), "--check", *V)[0] == 0


def test_file_with_a_syntax_error_is_left_alone_and_reported(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_bytes(b"import torch\ny = torch.abs(x\n")
    good = tmp_path / "good.py"
    good.write_text(SIMPLE, encoding="utf-8")
    code, out, _err = _run(str(tmp_path), "--json", *V)
    report = json.loads(out)
    files = {f["path"]: f for f in report["files"]}
    assert code == 0
    assert files["broken.py"]["status"] == "syntax_error"
    assert files["broken.py"]["error"].startswith("left unchanged: syntax error at line 2")
    assert broken.read_bytes() == b"import torch\ny = torch.abs(x\n"
    assert good.read_text(encoding="utf-8") == SIMPLE_FIXED


@pytest.mark.parametrize(
    ("name", "original", "expected"),
    [
        ("crlf.py", SIMPLE.replace("\n", "\r\n").encode(), SIMPLE_FIXED.replace("\n", "\r\n").encode()),
        ("bom.py", b"\xef\xbb\xbf" + SIMPLE.encode(), b"\xef\xbb\xbf" + SIMPLE_FIXED.encode()),
        (
            "gbk.py",
            ("# -*- coding: gbk -*-\n# 中文注释\n" + SIMPLE).encode("gbk"),
            ("# -*- coding: gbk -*-\n# 中文注释\n" + SIMPLE_FIXED).encode("gbk"),
        ),
        (
            "mixed.py",  # a lone \n inside a CRLF file stays a lone \n
            b"import torch\r\nx = 1\ny = torch.abs(x)\r\n",
            b"import mindspore\r\nx = 1\ny = mindspore.mint.abs(x)\r\n",
        ),
    ],
)
def test_encodings_and_line_endings_are_kept_byte_for_byte(tmp_path: Path, name: str, original: bytes,
                                                           expected: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(original)
    code, _out, _err = _run(str(path), *V)
    assert code == 0
    assert path.read_bytes() == expected


def test_read_only_file_is_reported_not_written(tmp_path: Path) -> None:
    path = tmp_path / "ro.py"
    path.write_text(SIMPLE, encoding="utf-8")
    path.chmod(0o444)
    try:
        code, out, _err = _run(str(tmp_path), "--json", *V)
        report = json.loads(out)
        assert report["files"][0]["status"] == "read_only"
        assert path.read_text(encoding="utf-8") == SIMPLE
        code, _out, err = _run(str(tmp_path), *V)
        assert "ro.py: read-only, not written (2 fixes)" in err.replace("(3 fixes)", "(2 fixes)")
        assert "1 files could not be fixed" in err
    finally:
        path.chmod(0o644)


def test_a_failed_write_leaves_the_original_and_no_temporary_file(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "m.py"
    path.write_text(SIMPLE, encoding="utf-8")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(project.os, "fsync", broken_fsync)
    result = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6"))
    record = result.files[0]
    assert record.status is FileStatus.ERROR
    assert record.error_key == "fix.error.write"
    assert path.read_text(encoding="utf-8") == SIMPLE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def test_file_changed_while_fixing_is_not_overwritten(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "m.py"
    path.write_text(SIMPLE, encoding="utf-8")
    real_fix_source = project.fix_source

    def edit_meanwhile(*args, **kwargs):
        found = real_fix_source(*args, **kwargs)
        path.write_text(SIMPLE + "# edited by the user\n", encoding="utf-8")
        return found

    monkeypatch.setattr(project, "fix_source", edit_meanwhile)
    record = fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6")).files[0]
    assert (record.status, record.error_key) == (FileStatus.ERROR, "fix.error.changed")
    assert path.read_text(encoding="utf-8") == SIMPLE + "# edited by the user\n"


def test_select_and_ignore_choose_rules(sample: Path) -> None:
    code, out, _err = _run(str(sample), "--json", "--select", "MSM5", "--diff", *V)
    chosen = set(json.loads(out)["fixes_by_rule"])
    assert {"MSM501", "MSM502", "MSM507"} <= chosen  # (the sample's no_grad: MSM507)
    assert all(rule.startswith("MSM5") or rule == "imports" for rule in chosen)
    code, out, _err = _run(str(sample), "--json", "--ignore", "MSM501", "--diff", *V)
    assert "MSM501" not in json.loads(out)["fixes_by_rule"]


def test_unsafe_fixes_only_on_request(tmp_path: Path) -> None:
    path = tmp_path / "seed.py"
    source = "import torch\n\nDTYPE = torch.float8_e4m3fn\n"  # MindSpore cannot cast to it on CPU: unsafe
    path.write_text(source, encoding="utf-8")
    _code, out, err = _run(str(tmp_path), *V)
    assert path.read_text(encoding="utf-8") == source
    assert "1 unsafe fixes were not applied" in err
    _run(str(tmp_path), "--unsafe-fixes", *V)
    assert path.read_text(encoding="utf-8") == "import mindspore\n\nDTYPE = mindspore.float8_e4m3fn\n"


def test_usage_errors() -> None:
    code, _out, err = _run(str(EXAMPLE), "--check", "--mindspore-version", "9.9")  # never writes
    assert code == 2 and "9.9" in err
    code, _out, _err = _run("/no/such/folder")
    assert code == 2


def test_not_a_regular_file_is_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    assert fix_paths([str(tmp_path)], FixOptions(mindspore_version="2.6")).files == []  # not discovered
    record = project.fix_file(fifo, "pipe.py", get_knowledge_base("2.6"), FixOptions())  # nor read
    assert (record.status, record.error_key) == (FileStatus.ERROR, "scan.error.not_regular.fifo")


@pytest.mark.parametrize("rel", ["models/resnet.py", "train.py", "utils/metrics.py", "data/dataset.py"])
def test_same_engine_as_the_editor_fix_all(rel: str) -> None:
    """With --unsafe-fixes and every rule, a file's result is exactly the editor's fix-all (with the
    editor's helper module, beside the file: ``self.modules()`` is a composition)."""
    kb = get_knowledge_base("2.6")
    data = (EXAMPLE / rel).read_bytes()
    new_data, record = fix_source(data, rel, kb, FixOptions(mindspore_version="2.6", unsafe=True),
                                  compat=CompatModule.beside(rel))
    editor, applied = fix_all(data.decode("utf-8"), rel, kb)
    assert (new_data or data).decode("utf-8") == editor
    assert len(record.applied) == len(applied)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("import torch\nimport mindspore\nx = mindspore.mint.abs(1)\n",
         "import mindspore\nx = mindspore.mint.abs(1)\n"),
        ("from torch import nn, Tensor\nimport mindspore\ndef f(x: Tensor): return x\n",
         "from torch import Tensor\nimport mindspore\ndef f(x: Tensor): return x\n"),
        ("import torch\ndef f(x: 'torch.Tensor'): return x\n", None),  # a string annotation still uses it
        ("from torch import Tensor\ndef f(x: 'Optional[Tensor]'): return x\n", None),
        # prose in a string is no use of the name
        ("from torch import Tensor\nimport os\nraise ValueError('lr as a Tensor is not supported')\n",
         "import os\nraise ValueError('lr as a Tensor is not supported')\n"),
        ("from torch import Tensor\nimport os\nraise ValueError(f'{os.sep} a Tensor ')\n",
         "import os\nraise ValueError(f'{os.sep} a Tensor ')\n"),
        ("try:\n    import torch\nexcept ImportError:\n    torch = None\n", None),  # rebound: still used
        ("try:\n    import torch\nexcept ImportError:\n    pass\n",
         "try:\n    pass\nexcept ImportError:\n    pass\n"),
        ("import os, torch\nos.getcwd()\n", "import os\nos.getcwd()\n"),
        ("import torch; x = 1\n", None),  # shares its line with other code: left alone
    ],
)
def test_unused_torch_imports_are_removed(before: str, after: str | None) -> None:
    from msmigrate.fixes.text import apply_edits
    from msmigrate.fixes.torch_imports import unused_torch_import_edits

    edits = unused_torch_import_edits(before)
    assert (apply_edits(before, edits) if edits else None) == after


def test_safe_fixes_cover_type_names_init_calls_and_verified_derived_mappings(tmp_path: Path) -> None:
    path = tmp_path / "model.py"
    path.write_text("import torch\nimport torch.nn as nn\n\n\ndef f(x: torch.Tensor, w) -> torch.Tensor:\n"
                    "    nn.init.zeros_(w)\n    return nn.MaxPool2d(2)(x)\n", encoding="utf-8")
    _run(str(tmp_path), *V)  # safe fixes only
    init = "mindspore.common.initializer"
    assert path.read_text(encoding="utf-8") == (
        "import mindspore\n\n\ndef f(x: mindspore.Tensor, w) -> mindspore.Tensor:\n"
        f"    w.assign_value({init}.initializer({init}.Zero(), w.shape, w.dtype).init_data())\n"
        "    return mindspore.nn.MaxPool2d(2, stride=2)(x)\n")
