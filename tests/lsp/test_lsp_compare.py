"""``msmigrate.compareModels`` end to end over stdio: a real comparison of a tiny torch model and its
migration (written in ``tests/weights``) with one layer changed and a ``with`` statement GRAPH_MODE cannot
compile; its progress, reply, Markdown page and code lens; the user's consent; a configuration that is
missing, broken or outside the workspace; a model that hangs (timeout) and a comparison cancelled (its
workers are killed)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest
from lsp_support import initialize, open_document, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient
from test_lsp_commands import execute
from test_lsp_security import answer_message_requests

from msmigrate.i18n import t

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "weights"))
from support import copy_models, needs_frameworks  # noqa: E402

COMMAND = "msmigrate.compareModels"
IDS = '{shape = [2, 7], dtype = "int64", low = 0, high = 10, mindspore_dtype = "int32"}'
TABLE = """
[[tool.msmigrate.compare]]
name = "{name}"
torch = "{torch}"
mindspore = "{mindspore}"
inputs = [{ids}]
{extra}
"""
LOSS = """
[tool.msmigrate.compare.loss]
torch = "torch.nn.MSELoss()"
mindspore = "mindspore.nn.MSELoss()"
target = {shape = [2, 5, 3]}
lr = 0.1
"""
RUN = "Run it"


def table(name: str, torch: str = "tnet.py:Net()", mindspore: str = "msnet.py:Net()", extra: str = "") -> str:
    return TABLE.format(name=name, torch=torch, mindspore=mindspore, ids=IDS, extra=extra)


def changed_project(root: Path) -> tuple[Path, int]:
    """tnet.py / msnet.py with the LayerNorm's epsilon changed and a ``with`` in ``construct``; the line
    of that ``with``."""
    _tnet, msnet = copy_models(root)
    text = msnet.read_text(encoding="utf-8")
    for old, new in (
        ("nn.LayerNorm((6,), epsilon=1e-5)", "nn.LayerNorm((6,), epsilon=1e-3)"),
        ("        x = self.act(self.bn(self.conv(x)))\n",
         "        with warnings.catch_warnings():\n            x = self.act(self.bn(self.conv(x)))\n"),
    ):
        assert text.count(old) == 1
        text = text.replace(old, new)
    msnet.write_text("import warnings\n" + text, encoding="utf-8")
    line = msnet.read_text(encoding="utf-8").splitlines().index("        with warnings.catch_warnings():") + 1
    return msnet, line


@pytest.mark.slow
@needs_frameworks
async def test_compare_runs_in_workers_with_progress_and_shows_the_report(
    client: LanguageClient, tmp_path: Path
):
    msnet, with_line = changed_project(tmp_path)
    (tmp_path / "pyproject.toml").write_text(table("changed", extra=LOSS), encoding="utf-8")
    asked = answer_message_requests(client, RUN)
    await initialize(client, tmp_path, settings={"language": "en"})

    # the lens on the migrated model's file starts the same command
    uri = open_document(client, msnet, msnet.read_text(encoding="utf-8"))
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    config = str(tmp_path.resolve() / "pyproject.toml")
    assert [(lens.command.title, lens.command.command, list(lens.command.arguments)) for lens in lenses] == [
        ("Compare with the PyTorch original: changed", COMMAND, [{"name": "changed", "config": config}])
    ]

    started = time.monotonic()
    reply = await execute(client, COMMAND, *lenses[0].command.arguments)
    elapsed = time.monotonic() - started
    torch_model, ms_model = f"{tmp_path.resolve()}/tnet.py:Net()", f"{tmp_path.resolve()}/msnet.py:Net()"
    (question,) = asked
    assert question.type == types.MessageType.Warning
    assert question.message == t("lsp.compare.confirm_loss", "en", name="changed", torch=torch_model,
                                 mindspore=ms_model, config=config, torch_loss="torch.nn.MSELoss()",
                                 mindspore_loss="mindspore.nn.MSELoss()")
    assert [a.title for a in question.actions] == ["Run it", "Don't run"]

    markdown = tmp_path.resolve() / ".msmigrate" / "compare-changed.md"
    assert sorted(reply) == ["cancelled", "config", "markdownReport", "report", "shown", "summary"]
    assert (reply["cancelled"], reply["config"], reply["markdownReport"], reply["shown"]) == (
        False, config, str(markdown), True)
    assert reply["summary"] == (
        "Compare changed: the models DIFFER — PyNative: outputs DIFFER (max abs error "
        f"{reply['report']['modes'][0]['outputs']['max_abs']:.2e}), first layer that differs by its own "
        f"error norm, training step DIFFER; GRAPH_MODE: does not compile (msnet.py:{with_line})"
    )
    report = reply["report"]
    assert {k: v for k, v in report.items() if k not in ("modes", "conversion")} == {
        "schema_version": 2,
        "name": "changed",
        "status": "diverge",
        "torch": torch_model,
        "mindspore": ms_model,
        "inputs": ["[2, 7] int64"],
        "checkpoint": None,
        "rtol": 0.0001,
        "atol": 0.0001,
        "versions": {"torch": "2.13.0"},
        "error": None,
    }
    renamed = {(p["torch"], p["mindspore"]) for p in report["conversion"]["parameters"]} - {
        (p["torch"], p["torch"]) for p in report["conversion"]["parameters"]
    }
    assert renamed == {
        ("emb.weight", "emb.embedding_table"),
        ("bn.weight", "bn.gamma"),
        ("bn.bias", "bn.beta"),
        ("bn.running_mean", "bn.moving_mean"),
        ("bn.running_var", "bn.moving_variance"),
        ("act.weight", "act.w"),
        ("norm.weight", "norm.gamma"),
        ("norm.bias", "norm.beta"),
    }
    pynative, graph = report["modes"]
    assert (pynative["mode"], pynative["status"], pynative["error"], pynative["graph_error"]) == (
        "pynative", "diverge", None, None)
    assert pynative["outputs"]["status"] == "diverge" and pynative["outputs"]["max_abs"] > 1e-4
    layers = [(r["name"], r["torch_class"], r["mindspore_class"], r["status"]) for r in pynative["layers"]]
    assert layers == [
        ("emb", "Embedding", "Embedding", "match"),
        ("conv", "Conv1d", "Conv1d", "match"),
        ("bn", "BatchNorm1d", "BatchNorm1d", "match"),
        ("act", "PReLU", "PReLU", "match"),
        ("rnn", "LSTM", "LSTM", "match"),
        ("norm", "LayerNorm", "LayerNorm", "diverge"),
        ("head", "Linear", "Dense", "downstream"),
        ("", "Net", "Net", "downstream"),
    ]
    assert all(r["max_abs"] < 1e-5 for r in pynative["layers"][:5])
    assert pynative["first_divergence"] == pynative["layers"][5]
    training = pynative["training"]
    assert len(training["gradients"]) == 14 and len(training["updated"]) == 14
    assert training["loss"]["status"] == "diverge" and abs(training["loss"]["torch"] - training["loss"][
        "mindspore"]) > 1e-4
    assert (graph["mode"], graph["status"], graph["outputs"], graph["layers"], graph["training"]) == (
        "graph", "graph_error", None, [], None)
    assert graph["graph_error"] == {
        "message": "Only support jit_class instance, but got PythonObject("
        "type: <class 'warnings.catch_warnings'>, value: catch_warnings())",
        "type": "TypeError",
        "file": str(msnet.resolve()),
        "line": with_line,
        "end_line": with_line + 1,
        "source": "with warnings.catch_warnings():",
        "rule": "MSM702",
        "during": "forward",
    }

    # progress: one cancellable task, a step per phase, the summary at the end
    progress = client.progress_reports.items()
    ((token, values),) = [(k, v) for k, v in progress if k.startswith("msmigrate-compare-")]
    begin, *steps, end = values
    assert (begin.title, begin.cancellable, begin.percentage) == (
        "msmigrate: comparing changed with its PyTorch original", True, 0)
    assert [(s.message, s.percentage, s.cancellable) for s in steps] == [
        ("Running the torch model …", 0, True),
        ("Converting its weights to the migrated model …", 25, True),
        ("Running the migrated model in PyNative mode …", 50, True),
        ("Running the migrated model in GRAPH_MODE …", 75, True),
    ]
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == reply["summary"]

    # the verdict as a message, the Markdown page opened in the editor
    assert (client.messages[-1].type, client.messages[-1].message) == (types.MessageType.Warning,
                                                                       reply["summary"])
    assert [(d.uri, d.external, d.take_focus) for d in client.shown_documents] == [
        (markdown.as_uri(), False, True)]
    page = markdown.read_text(encoding="utf-8").splitlines()
    assert page[0] == "# Compare changed: the models DIFFER"
    assert "| GRAPH_MODE | does not compile | - | - | - | - |" in page
    norm_row = next(line for line in page if line.startswith("| **6** |"))
    assert norm_row.startswith("| **6** | **`norm`** | **LayerNorm** | **LayerNorm** |")
    alone = pynative["layers"][5]["alone"]["max_abs"]
    assert norm_row.endswith(f"| **DIFFER \\(alone {alone:.2e}\\)** ⟵ first divergence |"), norm_row
    assert f"- at [msnet.py:{with_line}](../msnet.py#L{with_line}): `with warnings.catch_warnings():`" in page
    assert "- rule MSM702 flags this line statically (msmigrate scan, the editor)" in page
    assert elapsed < 600


async def test_configuration_problems_get_a_clear_message(client: LanguageClient, tmp_path: Path):
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    zh = {"language": "zh"}
    asked = answer_message_requests(client, "运行")
    await initialize(client, project, init_options=zh, settings=zh)
    root = str(project.resolve())
    reply = await execute(client, COMMAND)
    assert reply == {"error": t("lsp.compare.no_config", "zh", path=root)}
    assert reply["error"].startswith("没有可比较的内容：从 ")
    assert "[[tool.msmigrate.compare]]\nname = \"mymodel\"\n" in reply["error"]

    # a pyproject.toml without tables, from a file below it: the same message, from that file's folder
    (project / "pyproject.toml").write_text('[tool.msmigrate]\nmindspore-version = "2.6"\n', encoding="utf-8")
    reply = await execute(client, COMMAND, {"config": str(project / "sub" / "m.py")})
    assert reply == {"error": t("lsp.compare.no_config", "zh", path=f"{root}/sub")}
    reply = await execute(client, COMMAND, {"config": str(project / "pyproject.toml")})
    assert reply == {"error": t("lsp.compare.no_config", "zh", path=root)}

    # a broken table, an unknown name, several tables without a name
    (project / "pyproject.toml").write_text(
        '[[tool.msmigrate.compare]]\nname = "broken"\ntorch = "t.py:Net()"\nmindspore = "m.py:Net()"\n',
        encoding="utf-8")
    reply = await execute(client, COMMAND)
    assert reply == {"error": "无法比较：[[tool.msmigrate.compare]] broken：inputs = [{shape = [...]}, ...] "
                              "is required"}
    (project / "pyproject.toml").write_text(table("a") + table("b", "tnet.py:Other()"), encoding="utf-8")
    reply = await execute(client, COMMAND, "c")
    config = str(project.resolve() / "pyproject.toml")
    assert reply == {"error": f"无法比较：{config} 中没有名为 c 的比较；现有：a, b"}
    reply = await execute(client, COMMAND, {"config": project.as_uri()})
    assert reply == {
        "cancelled": False,
        "config": config,
        "choices": [
            {"name": "a", "torch": f"{root}/tnet.py:Net()", "mindspore": f"{root}/msnet.py:Net()"},
            {"name": "b", "torch": f"{root}/tnet.py:Other()", "mindspore": f"{root}/msnet.py:Net()"},
        ],
    }
    # bad arguments
    assert await execute(client, COMMAND, {"name": "a", "open": "browser"}) == {
        "error": "open 的取值 'browser' 无效；请使用 markdown 或 none。"}
    assert await execute(client, COMMAND, {"name": "a", "timeout": 0}) == {
        "error": "timeout 须为 1 到 86400 之间的秒数，而不是 0。"}
    # a missing model file is the comparison's own error, reported in the reply (nothing ran)
    reply = await execute(client, COMMAND, {"name": "a", "open": "none"})
    assert reply["report"]["error"] == {
        "key": "weights.error.model_missing",
        "message": f"模型文件 {root}/tnet.py 不存在",
    }
    assert reply["summary"] == f"比较 a：比较未能完成：模型文件 {root}/tnet.py 不存在"
    assert len(asked) == 1 and not [d for d in client.shown_documents]


async def test_configuration_outside_the_workspace_is_refused(client: LanguageClient, tmp_path: Path):
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "pyproject.toml").write_text(table("evil"), encoding="utf-8")
    (project / "linked.toml").symlink_to(outside / "pyproject.toml")
    asked = answer_message_requests(client, RUN)
    await initialize(client, project, settings={"language": "en"})
    for target in (str(outside / "pyproject.toml"), (outside / "pyproject.toml").as_uri(),
                   str(project / "linked.toml"), "../outside/pyproject.toml"):
        reply = await execute(client, COMMAND, {"config": target})
        path = str(outside / "pyproject.toml") if target.startswith("file:") else str(Path(target))
        assert reply == {"error": t("lsp.command.outside_workspace", "en", path=path)}, target
    assert asked == []


@pytest.mark.slow
@needs_frameworks
async def test_nothing_runs_until_the_user_confirms(client: LanguageClient, tmp_path: Path):
    tnet, _msnet = copy_models(tmp_path)
    marker = tmp_path / "imported"
    source = tnet.read_text(encoding="utf-8")
    tnet.write_text(f"open({str(marker)!r}, 'w').close()\n" + source, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(table("tiny"), encoding="utf-8")
    await initialize(client, tmp_path, settings={"language": "en"})
    for answer in ("Don't run", None):  # declined, then dismissed
        asked = answer_message_requests(client, answer)
        reply = await execute(client, COMMAND)
        assert reply == {"error": "The comparison tiny did not run: running its models was not confirmed."}
        assert len(asked) == 1 and client.messages[-1].message == reply["error"]
    assert not marker.exists()
    assert not any(k.startswith("msmigrate-compare-") for k in client.progress_reports)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


HANG = """
import os, time
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        with open({pid!r}, "w") as out:
            out.write(str(os.getpid()))
        time.sleep(3600)
"""


@pytest.mark.slow
@needs_frameworks
async def test_a_hanging_model_times_out_and_a_cancel_kills_the_workers(
    client: LanguageClient, tmp_path: Path
):
    copy_models(tmp_path)
    pid_file = tmp_path / "worker.pid"
    (tmp_path / "hang.py").write_text(HANG.format(pid=str(pid_file)), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(table("hang", "hang.py:Net()"), encoding="utf-8")
    asked = answer_message_requests(client, RUN)
    await initialize(client, tmp_path, settings={"language": "en"})

    client.progress_reports["client-token-1"] = []  # the client's own token: progress goes there
    reply = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=COMMAND, arguments=[{"timeout": 20, "open": "none"}], work_done_token="client-token-1"))
    begin, *steps, end = client.progress_reports["client-token-1"]
    assert (begin.title, [s.message for s in steps], end.message) == (
        "msmigrate: comparing hang with its PyTorch original", ["Running the torch model …"],
        reply["summary"])
    assert not any(k.startswith("msmigrate-compare-") for k in client.progress_reports)
    assert reply["report"]["error"] == {
        "key": "weights.error.timeout",
        "message": t("weights.error.timeout", "en", side="torch", seconds="20"),
    }
    assert reply["report"]["status"] == "error" and reply["report"]["modes"] == []
    assert not _alive(int(pid_file.read_text()))
    assert len(asked) == 1 and not client.shown_documents  # open: none

    # cancelled from the progress (the editor's cancel button): the worker is killed at once
    pid_file.unlink()
    task = asyncio.ensure_future(execute(client, COMMAND, {"timeout": 600}))
    await wait_until(lambda: pid_file.exists() and pid_file.read_text(), timeout=120, what="the torch worker")
    pid = int(pid_file.read_text())
    (token,) = [k for k, v in client.progress_reports.items()
                if k.startswith("msmigrate-compare-") and not isinstance(v[-1], types.WorkDoneProgressEnd)]
    # a second comparison meanwhile is refused
    assert await execute(client, COMMAND) == {
        "error": "A comparison (hang) is already running; wait for it or cancel it."}
    started = time.monotonic()
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    reply = await asyncio.wait_for(task, 60)
    assert reply == {"cancelled": True, "config": str(tmp_path.resolve() / "pyproject.toml")}
    assert time.monotonic() - started < 30 and not _alive(pid)
    end = client.progress_reports[token][-1]
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == "Comparison cancelled"
    assert len(asked) == 1  # asked once per table and session

    # another model in the table: asked again
    (tmp_path / "pyproject.toml").write_text(table("hang", "tnet.py:Net(classes='x')"), encoding="utf-8")
    reply = await execute(client, COMMAND, {"open": "none"})
    assert len(asked) == 2 and reply["report"]["error"]["key"] == "weights.error.model_constructor"


@pytest.mark.parametrize("name, expected", [("resnet 50/v1", "compare-resnet_50_v1.md"),
                                            ("../../x", "compare-x.md"), ("...", "compare-model.md")])
def test_report_file_names_stay_in_their_folder(name: str, expected: str):
    from msmigrate.lsp.compare_feature import report_name

    assert report_name(name) == expected
