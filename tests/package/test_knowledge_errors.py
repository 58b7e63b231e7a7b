"""A missing or damaged knowledge base is one clear message and exit status 2 for every command (never a
traceback per file), and an error message of the language server, which keeps running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from install_support import REPO
from raw_lsp import RawSession

from msmigrate.i18n import t

DATA = REPO / "mapping_data"
PROJECT = {"a.py": "import torch\n\ny = torch.abs(x)\n", "b.py": "import torch.nn as nn\n\nm = nn.ReLU()\n"}


def knowledge_copy(folder: Path) -> Path:
    """``mapping_data/`` as links to the checkout's files (a test replaces the one it damages)."""
    folder.mkdir()
    for path in DATA.glob("*.json"):
        (folder / path.name).symlink_to(path)
    return folder


def replace(folder: Path, name: str, text: str) -> None:
    (folder / name).unlink()
    (folder / name).write_text(text, encoding="utf-8")


def json_error(text: str) -> str:
    try:
        json.loads(text)
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"
    raise AssertionError("valid JSON")


def gone(folder: Path) -> tuple[str, dict[str, str]]:
    folder.rename(folder.with_name("elsewhere"))
    return "kb.error.missing", {"path": str(folder), "detail": ""}


def inventory_missing(folder: Path) -> tuple[str, dict[str, str]]:
    (folder / "torch_inventory.json").unlink()
    return "kb.error.missing", {"path": str(folder / "torch_inventory.json"), "detail": ""}


def table_cut(folder: Path) -> tuple[str, dict[str, str]]:
    text = (DATA / "mapping-2.6.json").read_text(encoding="utf-8")[:100_000]
    replace(folder, "mapping-2.6.json", text)
    return "kb.error.damaged", {"path": str(folder / "mapping-2.6.json"), "detail": json_error(text)}


def inventory_cut(folder: Path) -> tuple[str, dict[str, str]]:
    lines = (DATA / "mindspore_inventory.json").read_text(encoding="utf-8").split("\n")
    replace(folder, "mindspore_inventory.json", "\n".join(lines[: len(lines) // 2]) + "\n")
    detail = "ValueError: the inventory ends before its last line"
    return "kb.error.damaged", {"path": str(folder / "mindspore_inventory.json"), "detail": detail}


def derived_garbage(folder: Path) -> tuple[str, dict[str, str]]:
    replace(folder, "derived-2.6.json", "<html>not found</html>")
    detail = json_error("<html>not found</html>")
    return "kb.error.damaged", {"path": str(folder / "derived-2.6.json"), "detail": detail}


def env_for(folder: Path, tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MSMIGRATE_DATA_DIR": str(folder), "MSMIGRATE_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONIOENCODING": "utf-8"}


@pytest.mark.parametrize(("damage", "command", "lang"), [
    (gone, ["scan", "{project}", "-j", "2"], "en"),
    (inventory_missing, ["lookup", "torch.nn.Linear"], "en"),
    (table_cut, ["scan", "{project}", "-j", "1", "--lang", "zh"], "zh"),
    (inventory_cut, ["fix", "--diff", "{project}"], "en"),
    (derived_garbage, ["check", "torch.abs", "--lang", "zh"], "zh"),
    (derived_garbage, ["lookup", "torch.abs", "--lang", "zh"], "zh"),
], ids=["no-folder-scan", "no-inventory-lookup", "cut-table-scan-zh", "cut-inventory-fix",
        "bad-derived-check", "bad-derived-lookup"])
def test_one_message_and_exit_status_2(tmp_path: Path, damage: Callable, command: list[str],
                                       lang: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    for name, text in PROJECT.items():
        (project / name).write_text(text, encoding="utf-8")
    folder = knowledge_copy(tmp_path / "data")
    key, fields = damage(folder)
    args = [arg.format(project=project) for arg in command]
    done = subprocess.run([sys.executable, "-m", "msmigrate", *args, "--mindspore-version", "2.6"],
                          env=env_for(folder, tmp_path), cwd=tmp_path, capture_output=True, text=True,
                          encoding="utf-8", timeout=300, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"Error: {t(key, lang, **fields)}\n"


def test_language_server_says_it_and_keeps_running(tmp_path: Path) -> None:
    folder = tmp_path / "no-data"
    session = RawSession(env=env_for(folder, tmp_path), cwd=str(tmp_path))
    reply = session.request(1, "initialize", {"capabilities": {}, "rootUri": tmp_path.as_uri()})
    assert "result" in reply
    session.send({"method": "initialized", "params": {}})
    message = t("kb.error.missing", "en", path=str(folder))
    assert session.notified("window/showMessage") == {"type": 1, "message": message}
    uri = (tmp_path / "a.py").as_uri()
    session.open(uri, PROJECT["a.py"])
    published = session.notified("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    diagnostics = [(d["code"], d["message"]) for d in published["diagnostics"]]
    assert diagnostics == [("kb.error.missing", message)]
    hover = session.request(2, "textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": 2, "character": 7}})
    assert "error" not in hover  # the server answers (nothing to show) rather than failing
    code, stderr = session.shutdown(3)
    assert code == 0 and "Traceback" not in stderr, stderr
    shown = [m["params"]["message"] for m in session.seen if m.get("method") == "window/showMessage"]
    assert shown == [message]
