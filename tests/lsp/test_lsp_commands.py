"""Commands end to end: scan project (progress, cancellation, HTML report), scan file, lookup, export."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from lsp_support import initialize, open_document
from lsprotocol import types
from pytest_lsp import LanguageClient

from msmigrate.i18n import t

V24 = {"mindsporeVersion": "2.4"}


def make_project(root: Path, files: int, lines: int = 3) -> None:
    marker = uuid.uuid4().hex  # fresh content: the scan cache cannot answer for these files
    for index in range(files):
        folder = root / "pkg" / f"sub{index % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(f"y{n} = torch.abs(x) + torch.neg(x)\n" for n in range(lines))
        (folder / f"m{index}.py").write_text(f"# {marker} {index}\nimport torch\n{body}", encoding="utf-8")


async def execute(client: LanguageClient, command: str, *arguments):
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments) or None)
    )


async def test_scan_project_reports_progress_and_opens_the_html_report(
    client: LanguageClient, tmp_path: Path
):
    make_project(tmp_path, 12)
    (tmp_path / "setup.py").write_text("import torch\nz = torch.nn.Linear(3, 4)\n", encoding="utf-8")
    await initialize(client, tmp_path, settings=V24)
    result = await execute(client, "msmigrate.scanProject")
    assert result["cancelled"] is False
    report = result["report"]
    assert report["tool"] == "msmigrate" and report["mindspore_version"] == "2.4"
    assert len(report["files"]) == 13
    html = Path(result["htmlReport"])
    assert html == tmp_path / ".msmigrate" / "report.html" and html.read_text(encoding="utf-8").startswith(
        "<!"
    )
    assert [d.uri for d in client.shown_documents] == [html.as_uri()]
    (token, values), *_ = client.progress_reports.items()
    assert token.startswith("msmigrate-scan-")
    begin, *reports, end = values
    assert isinstance(begin, types.WorkDoneProgressBegin) and begin.cancellable
    assert reports and all(isinstance(r, types.WorkDoneProgressReport) for r in reports)
    assert reports[-1].message == "13/13 files" and reports[-1].percentage == 100
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == "Scanned 13 files"

    # export reuses the scan just made
    exported = await execute(client, "msmigrate.exportReport", "json")
    assert exported["path"] == str(tmp_path / ".msmigrate" / "report.json")
    assert json.loads(Path(exported["path"]).read_text(encoding="utf-8"))["files"] == report["files"]
    assert (await execute(client, "msmigrate.exportReport", {"format": "pdf"}))["error"].startswith(
        "Unknown report format 'pdf'"
    )


async def test_scan_project_can_be_cancelled(client: LanguageClient, tmp_path: Path):
    make_project(tmp_path, 400, lines=60)
    await initialize(client, tmp_path, settings=V24)
    cancelled: list[str] = []

    def cancel_on_first_report(params: types.ProgressParams) -> None:
        if not cancelled and isinstance(params.value, dict) and params.value.get("kind") == "report":
            cancelled.append(str(params.token))
            client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=params.token))

    client.progress_hooks.append(cancel_on_first_report)
    result = await execute(client, "msmigrate.scanProject", tmp_path.as_uri())
    assert result == {"cancelled": True}
    values = client.progress_reports[cancelled[0]]
    assert isinstance(values[-1], types.WorkDoneProgressEnd) and values[-1].message == "Scan cancelled"
    done = [v for v in values if isinstance(v, types.WorkDoneProgressReport)]
    assert done[-1].message != "400/400 files"
    assert not client.shown_documents


async def test_progress_goes_to_the_clients_token_and_its_cancel_stops_the_scan(
    client: LanguageClient, tmp_path: Path
):
    # VS Code passes a workDoneToken and cancels its notification with window/workDoneProgress/cancel
    make_project(tmp_path, 400, lines=60)
    await initialize(client, tmp_path, settings=V24)
    client.progress_reports["vscode-token"] = []
    cancelled: list[bool] = []

    def cancel_on_first_report(params: types.ProgressParams) -> None:
        if params.token == "vscode-token" and not cancelled and params.value.get("kind") == "report":
            cancelled.append(True)
            client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token="vscode-token"))

    client.progress_hooks.append(cancel_on_first_report)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="msmigrate.scanProject", arguments=[tmp_path.as_uri()], work_done_token="vscode-token"))
    assert result == {"cancelled": True} and cancelled == [True]
    begin, *reports, end = client.progress_reports["vscode-token"]
    assert begin.title == "msmigrate: scanning project" and reports[-1].message != "400/400 files"
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == "Scan cancelled"
    assert list(client.progress_reports) == ["vscode-token"]  # no token of the server's own


async def test_scan_file_and_lookup(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V24, show_document=False)
    on_disk = tmp_path / "disk.py"
    on_disk.write_text("import torch\na = torch.abs(x)\nb = torch.foo_bar(1)\n", encoding="utf-8")
    result = await execute(client, "msmigrate.scanFile", str(on_disk))
    assert [(f["line"], f["rule"], f["torch_api"]) for f in result["findings"]] == [
        (2, "MSM100", "torch.abs"),
        (3, "MSM103", "torch.foo_bar"),
    ]
    uri = open_document(client, tmp_path / "open.py", "import torch\nc = torch.neg(x)\n")
    result = await execute(client, "msmigrate.scanFile", {"uri": uri})
    assert [(f["line"], f["column"], f["mindspore_api"]) for f in result["findings"]] == [
        (2, 5, "mindspore.ops.neg")
    ]
    found = await execute(client, "msmigrate.lookup", "nn.Linear")
    assert (found["torch_api"], found["mindspore_api"], found["status"]) == (
        "torch.nn.Linear",
        "mindspore.nn.Dense",
        "mapped",
    )
    assert found["param_renames"] == {
        "bias": "has_bias",
        "in_features": "in_channels",
        "out_features": "out_channels",
    }
    assert (await execute(client, "msmigrate.lookup"))[
        "error"
    ] == "Missing or invalid arguments for msmigrate.lookup."
    missing = tmp_path / "missing.py"
    assert (await execute(client, "msmigrate.scanFile", str(missing)))["error"].startswith(
        f"Cannot read {missing}"
    )


async def test_scan_file_decodes_like_the_analyzer(client: LanguageClient, tmp_path: Path):
    """A file on disk goes through the analyzer's decoding: coding cookie honoured, binary reported."""
    await initialize(client, tmp_path, settings=V24, show_document=False)
    gbk = tmp_path / "gbk.py"
    gbk.write_bytes("# -*- coding: gbk -*-\nimport torch\n名字 = torch.abs(x)\n".encode("gbk"))
    result = await execute(client, "msmigrate.scanFile", str(gbk))
    assert result["error"] is None
    assert [(f["line"], f["column"], f["torch_api"]) for f in result["findings"]] == [(3, 6, "torch.abs")]
    binary = tmp_path / "blob.py"
    binary.write_bytes(b"\x00\x01\x02import torch\x00")
    result = await execute(client, "msmigrate.scanFile", str(binary))
    assert result["findings"] == []
    assert result["error"] == t("analysis.binary_file", "en")


async def test_scan_of_a_missing_folder_is_an_error_message(client: LanguageClient, tmp_path: Path):
    await initialize(client, tmp_path, settings=V24)
    missing = tmp_path / "nope"
    result = await execute(client, "msmigrate.scanProject", {"path": str(missing)})
    assert result["error"].startswith(f"Cannot scan {missing}: ")
    (values,) = client.progress_reports.values()
    assert values[-1].message == "Scan failed (see the log)"
    assert not client.shown_documents
