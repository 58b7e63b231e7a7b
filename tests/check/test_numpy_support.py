"""The environment MindSpore works in: the ``check`` extra gives NumPy 1.x, with which MindSpore's first
Tensor operations of a fresh process work (no warm-up hides anything); a worker interpreter with NumPy 2
is reported, by ``msmigrate check`` and by the language server's check command."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner
from lsp_support import initialize, open_document, published_for, wait_until
from lsprotocol import types
from packaging.requirements import Requirement
from pytest_lsp import LanguageClient

from msmigrate.check.numpy_support import numpy_unusable
from msmigrate.cli import main
from msmigrate.i18n import t

REPO = Path(__file__).resolve().parents[2]
FAKE = Path(__file__).with_name("fake_worker.py")
PASS = ('{{"status": "pass", "api": "torch.abs", "mindspore_api": "mindspore.mint.abs", "device": "CPU", '
        '"torch_version": "2.13.0", "mindspore_version": "2.10.0", "numpy_version": "{numpy}", '
        '"duration": 0.1}}')


@pytest.mark.parametrize(("version", "unusable"), [
    ("2.0.0", True), ("2.3.4", True), ("10.1", True), ("1.26.4", False), ("1.25.0", False), (None, False),
    ("", False), ("dev", False),
])
def test_numpy_versions_mindspore_cannot_use(version: str | None, unusable: bool) -> None:
    assert numpy_unusable(version) is unusable


def test_the_check_extra_gives_numpy_1_and_the_pinned_frameworks() -> None:
    extra = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]["check"]
    requirements = {Requirement(text).name: Requirement(text) for text in extra}
    assert set(requirements) == {"numpy", "torch", "mindspore"}
    assert not requirements["numpy"].specifier.contains("2.0.0")  # the extra itself excludes NumPy 2
    for name, requirement in requirements.items():  # this environment was installed from .[check]
        installed = metadata.version(name).split("+")[0]
        assert requirement.specifier.contains(installed), (name, installed)
    assert metadata.version("numpy").split(".")[0] == "1"


FIRST_CALLS = {
    "view": "x = ms.Tensor(np.arange(6, dtype=np.float32)); print(x.view((3, 2)).shape)",
    "mul": "a = ms.Tensor(np.ones((2, 2), dtype=np.float32)); print((a * a).asnumpy().tolist())",
}


def test_first_tensor_operations_of_a_fresh_process_work() -> None:
    pytest.importorskip("mindspore")
    runs = {  # each in a fresh process: both are the first Tensor operation there
        name: subprocess.Popen([sys.executable, "-c", f"import numpy as np\nimport mindspore as ms\n{code}"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "GLOG_v": "2"})
        for name, code in FIRST_CALLS.items()
    }
    outputs = {name: run.communicate(timeout=300) for name, run in runs.items()}
    assert [runs[name].returncode for name in FIRST_CALLS] == [0, 0], outputs
    assert outputs["view"][0] == "(3, 2)\n"
    assert outputs["mul"][0] == "[[1.0, 1.0], [1.0, 1.0]]\n"
    for _out, err in outputs.values():
        assert "Numpy init failed" not in err


def fake_python(tmp_path: Path, numpy: str) -> str:
    """An "interpreter" that starts the stand-in worker answering every check with a pass under ``numpy``."""
    script = tmp_path / "bin" / "python3"
    script.parent.mkdir()
    line = PASS.format(numpy=numpy).replace("'", "'\\''")
    script.write_text(f"#!/bin/sh\nFAKE_WORKER_MODE=reply FAKE_WORKER_LINE='{line}' "
                      f"exec '{sys.executable}' '{FAKE}'\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_check_warns_about_a_numpy_mindspore_cannot_use(tmp_path: Path, lang: str) -> None:
    python = fake_python(tmp_path, "2.1.3")
    result = CliRunner().invoke(main, ["check", "torch.abs", "--python", python, "--mindspore-version", "2.6",
                                       "--lang", lang])
    assert result.exit_code == 0, result.output
    warning = t("check.numpy_unusable", lang, python=python, numpy="2.1.3", mindspore="2.10.0")
    assert result.stderr.splitlines()[0] == warning
    assert "pip install \"numpy>=1.25,<2\"" in warning


def test_check_says_nothing_about_numpy_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", "torch.abs", "--python", fake_python(tmp_path, "1.26.4"),
                                       "--mindspore-version", "2.6"])
    assert result.exit_code == 0, result.output
    assert "NumPy" not in result.output


async def test_server_check_warns_once_per_interpreter(client: LanguageClient, tmp_path: Path) -> None:
    python = fake_python(tmp_path, "2.0.2")
    # the user confirms the interpreter
    client.protocol.fm.features[types.WINDOW_SHOW_MESSAGE_REQUEST] = lambda params: params.actions[0]
    await initialize(client, tmp_path, settings={"mindsporeVersion": "2.6", "pythonPath": python})
    uri = open_document(client, tmp_path / "m.py", "import torch\n\ny = torch.abs(x)\n")
    await wait_until(lambda: published_for(client, uri, 1), what="diagnostics")
    warning = t("check.numpy_unusable", "en", python=python, numpy="2.0.2", mindspore="2.10.0")
    for _ in range(2):
        reply = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="msmigrate.checkEquivalence", arguments=["torch.abs"]))
        assert reply["result"]["status"] == "pass" and reply["result"]["numpy_version"] == "2.0.2"
    shown = [(m.type, m.message) for m in client.messages if "NumPy" in m.message]
    assert shown == [(types.MessageType.Warning, warning)]
