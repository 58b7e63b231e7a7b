"""The graph rules' tests compile a minimal reproduction with MindSpore: ``compile_net`` writes a source
defining ``Net``, runs ``Net()(x)`` (x: ones of shape (2, 3)) in PyNative mode, then a new ``Net()`` in
GRAPH_MODE, in a process of its own (MindSpore 2.10 has aborted after several failed compilations in one
process), and returns each mode's output shape or the first line of its error."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

needs_mindspore = pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore")

PROBE = """
import importlib.util, json, sys
import numpy as np
import mindspore as ms
spec = importlib.util.spec_from_file_location("case", sys.argv[1])
module = sys.modules["case"] = importlib.util.module_from_spec(spec)  # GRAPH_MODE reads the source
spec.loader.exec_module(module)
x = ms.Tensor(np.ones((2, 3), np.float32))
row = {}
for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
    ms.set_context(mode=mode)
    try:
        row[name] = list(module.Net()(x).shape)
    except Exception as exc:
        row[name] = str(exc).strip().splitlines()[0]
print("RESULT " + json.dumps(row), flush=True)
"""


def compile_net(folder: Path, source: str) -> dict[str, object]:
    """``{"pynative": shape or error, "graph": shape or error}`` of ``Net`` in ``source``."""
    path = folder / "case.py"
    path.write_text(source, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, timeout=900, cwd=folder
    )
    line = next((line for line in run.stdout.splitlines() if line.startswith("RESULT ")), None)
    assert line is not None, run.stderr[-2000:]
    return json.loads(line.removeprefix("RESULT "))


def run_script(folder: Path, source: str) -> dict:
    """Run ``source`` (a script printing ``RESULT <json>``) as a file of ``folder`` (GRAPH_MODE compiles
    from a source file), in a process of its own; the JSON it printed."""
    path = folder / "probe.py"
    path.write_text(source, encoding="utf-8")
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=900, cwd=folder)
    line = next((line for line in run.stdout.splitlines() if line.startswith("RESULT ")), None)
    assert line is not None, run.stderr[-2000:]
    return json.loads(line.removeprefix("RESULT "))


_NETS_TAIL = """
out = {{}}
for cls in ({names},):
    try:
        cls()(x)
        out[cls.__name__] = None
    except Exception as e:
        out[cls.__name__] = str(e)
print("RESULT " + json.dumps(out))
"""


def run_nets(folder: Path, source: str, names: list[str]) -> dict[str, str | None]:
    """``{name: None or the error}`` of calling ``name()(x)`` for each cell class ``source`` defines (it
    imports ``json`` and sets ``x`` and the mode)."""
    return run_script(folder, source + _NETS_TAIL.format(names=", ".join(names)))
