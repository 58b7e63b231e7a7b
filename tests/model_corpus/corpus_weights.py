"""The corpus harness's torch → MindSpore weight step: ``msmigrate convert-weights STATE -o OUT --model
FILE.py:EXPR --json`` (issue 25), run from the MindSpore process of ``corpus_runner.py`` as a user would run
it: the torch state dict the torch run saved, the migrated model file and its constructor expression, the
checkpoint to write. What the command reports decides the ``weight_load`` stage.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TIMEOUT_S = 600


def convert_weights(state_dict: Path, model_file: Path, expr: str, out: Path,
                    path: list[str] | None = None) -> dict:
    """Write ``out`` from ``state_dict`` for the migrated model ``model_file:expr`` (``path``: folders the
    model's own imports need, such as the installed einops). Returns ``{"mapped": {MindSpore name: torch
    name}, "kept": [MindSpore names keeping their initial value], "failures": [why the checkpoint is not
    right], "report": the command's --json}``."""
    command = [sys.executable, "-m", "msmigrate", "convert-weights", str(state_dict), "-o", str(out),
               "--model", f"{model_file}:{expr}", "--json", "--lang", "en"]
    env = {**os.environ}
    if path:
        env["PYTHONPATH"] = os.pathsep.join([*path, *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        return {"mapped": {}, "kept": [], "report": {},
                "failures": [f"convert-weights exit {done.returncode}: {done.stderr.strip()[-400:]}"]}
    failures = []
    if done.returncode != 0 or not report.get("written"):
        failures.append(_why(report, done.returncode))
    return {"mapped": {p["mindspore"]: p["torch"] for p in report.get("parameters", [])},
            "kept": [p["mindspore"] for p in report.get("kept_initial", [])],
            "failures": failures, "report": report}


def _why(report: dict, code: int) -> str:
    """The command's own account of why nothing was written."""
    if report.get("error"):
        return f"convert-weights exit {code}: {report['error']['message']}"
    parts = []
    for key, name in (("missing", "mindspore"), ("unused", "torch"), ("mismatched", "torch")):
        items = report.get(key) or []
        if items:
            shown = ", ".join(str(item[name]) for item in items[:4]) + (" …" if len(items) > 4 else "")
            parts.append(f"{key} {len(items)}: {shown}")
    return f"convert-weights exit {code}: " + ("; ".join(parts) or report.get("status", "not written"))
