"""Commands stay inside the workspace: no read of a file outside it, no report written outside it or
through a symlink planted in the repository (issue 14, items 2 and 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import initialize
from lsprotocol import types
from pytest_lsp import LanguageClient
from test_lsp_commands import execute

from msmigrate.i18n import t

V24 = {"mindsporeVersion": "2.4"}
SOURCE = "import torch\na = torch.abs(x)\n"


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outside")
    (folder / "secret.py").write_text("import torch\nsecret = torch.neg(x)\n", encoding="utf-8")
    (folder / "victim.txt").write_text("precious\n", encoding="utf-8")
    return folder


async def test_scan_project_never_writes_through_a_planted_symlink(
    client: LanguageClient, tmp_path: Path, outside: Path
):
    project = tmp_path / "project"
    project.mkdir()
    (project / "m.py").write_text(SOURCE, encoding="utf-8")
    (project / ".msmigrate").symlink_to(outside, target_is_directory=True)  # a cloned repo can hold this
    await initialize(client, project, settings=V24, show_document=False)
    result = await execute(client, "msmigrate.scanProject")
    html = Path(result["htmlReport"])
    assert html.name == "report.html" and html.read_text(encoding="utf-8").startswith("<!")
    assert not html.resolve().is_relative_to(outside.resolve())
    assert sorted(p.name for p in outside.iterdir()) == ["secret.py", "victim.txt"]
    warning = f"The report was not written to {project.resolve() / '.msmigrate' / 'report.html'} ("
    assert any(m.message.startswith(warning) for m in client.log_messages)

    # a real folder, but the report file links to a file outside: refused, never written through
    (project / ".msmigrate").unlink()
    (project / ".msmigrate").mkdir()
    (project / ".msmigrate" / "report.html").symlink_to(outside / "victim.txt")
    result = await execute(client, "msmigrate.scanProject")
    assert (outside / "victim.txt").read_text(encoding="utf-8") == "precious\n"
    assert (project / ".msmigrate" / "report.html").is_symlink()
    assert Path(result["htmlReport"]) != project / ".msmigrate" / "report.html"
    # a regular report is written in place, atomically (no temporary file left behind)
    (project / ".msmigrate" / "report.html").unlink()
    result = await execute(client, "msmigrate.scanProject")
    assert result["htmlReport"] == str(project.resolve() / ".msmigrate" / "report.html")
    assert sorted(p.name for p in (project / ".msmigrate").iterdir()) == ["report.html"]


async def test_export_and_scan_refuse_folders_outside_the_workspace(
    client: LanguageClient, tmp_path: Path, outside: Path
):
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "link").symlink_to(outside, target_is_directory=True)
    zh = {**V24, "language": "zh"}
    await initialize(client, tmp_path, init_options=zh, settings=zh, show_document=False)
    for target in (str(outside), outside.as_uri(), str(tmp_path / "link"), "../" + outside.name):
        result = await execute(client, "msmigrate.exportReport", {"format": "json", "path": target})
        assert result["error"].endswith("不在工作区文件夹内；msmigrate 只读写工作区文件夹内的文件。"), target
        result = await execute(client, "msmigrate.scanProject", {"path": target})
        assert result["error"].endswith("不在工作区文件夹内；msmigrate 只读写工作区文件夹内的文件。"), target
    assert sorted(p.name for p in outside.iterdir()) == ["secret.py", "victim.txt"]
    exported = await execute(client, "msmigrate.exportReport", {"format": "json"})
    assert exported["path"] == str(tmp_path.resolve() / ".msmigrate" / "report.json")


async def test_scan_file_reads_only_inside_the_workspace(
    client: LanguageClient, tmp_path: Path, outside: Path
):
    project = tmp_path / "project"
    project.mkdir()
    (project / "inside.py").write_text(SOURCE, encoding="utf-8")
    (project / "alias.py").symlink_to(project / "inside.py")
    (project / "escape.py").symlink_to(outside / "secret.py")
    await initialize(client, project, settings=V24, show_document=False)
    secret = outside / "secret.py"
    for target in (str(secret), secret.as_uri(), f"../../{outside.name}/secret.py",
                   f"{project}/../../{outside.name}/secret.py", str(project / "escape.py"), "/etc/passwd"):
        result = await execute(client, "msmigrate.scanFile", target)
        path = str(Path(target)) if not target.startswith("file:") else str(secret)
        assert result == {"error": t("lsp.command.outside_workspace", "en", path=path)}, target
    result = await execute(client, "msmigrate.scanFile", str(project / "alias.py"))
    assert [(f["line"], f["torch_api"]) for f in result["findings"]] == [(2, "torch.abs")]
    result = await execute(client, "msmigrate.scanFile", "inside.py")  # relative to the workspace folder
    assert [(f["line"], f["torch_api"]) for f in result["findings"]] == [(2, "torch.abs")]


def answer_message_requests(
    client: LanguageClient, answer: str | None
) -> list[types.ShowMessageRequestParams]:
    """Make the client answer every window/showMessageRequest with the action titled ``answer``."""
    asked: list[types.ShowMessageRequestParams] = []

    def on_request(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        asked.append(params)
        return types.MessageActionItem(title=answer) if answer is not None else None

    client.protocol.fm.features[types.WINDOW_SHOW_MESSAGE_REQUEST] = on_request
    return asked


async def check(client: LanguageClient) -> dict:
    return await execute(client, "msmigrate.checkEquivalence", "torch.nn.functional.softmax")


@pytest.mark.parametrize(
    ("python", "key"),
    [
        ("bin/python", "check.python.not_absolute"),
        ("/bin/sh", "check.python.not_python"),
        ("{tmp}/evil.sh", "check.python.not_python"),
        ("{tmp}/python3.11", "check.python.missing"),
        ("{tmp}/python", "check.python.not_executable"),
    ],
)
async def test_python_path_must_name_an_existing_interpreter(
    client: LanguageClient, tmp_path: Path, python: str, key: str
):
    marker = tmp_path / "ran"
    for name in ("evil.sh", "python"):
        (tmp_path / name).write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
    (tmp_path / "evil.sh").chmod(0o755)
    python = python.format(tmp=tmp_path)
    asked = answer_message_requests(client, "Run it")
    await initialize(client, tmp_path, init_options={"pythonPath": python}, settings={"pythonPath": python})
    reply = await check(client)
    assert reply == {"error": t(key, "en", python=python)}
    assert client.messages[-1].message == reply["error"]
    assert asked == [] and not marker.exists()


async def test_python_path_runs_only_after_the_user_confirms_it(client: LanguageClient, tmp_path: Path):
    marker = tmp_path / "ran"
    python = tmp_path / "bin" / "python3"
    python.parent.mkdir()
    python.write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
    python.chmod(0o755)
    settings = {"pythonPath": str(python), "language": "zh"}
    await initialize(client, tmp_path, init_options=settings, settings=settings)
    for answer in ("不运行", None):  # declined, then dismissed
        asked = answer_message_requests(client, answer)
        reply = await check(client)
        assert reply == {"error": f"未运行等价性检查：解释器 {python} 未获确认。"}
        (request,) = asked
        assert request.type == types.MessageType.Warning and str(python) in request.message
        assert [a.title for a in request.actions] == ["运行", "不运行"]
    assert not marker.exists()
    asked = answer_message_requests(client, "运行")
    reply = await check(client)  # confirmed: the "interpreter" runs (and is no real worker)
    assert reply["result"]["status"] == "error" and len(asked) == 1
    assert marker.exists()
    marker.unlink()
    reply = await check(client)
    assert len(asked) == 1 and marker.exists()  # asked once per interpreter and session
