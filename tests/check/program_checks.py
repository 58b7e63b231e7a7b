"""Shared steps of the tests of the check programs of a network's methods (check/worker_programs.py):
the check as ``msmigrate check`` runs it, and the program's status when the MindSpore method is replaced."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

# runs one program with the MindSpore side's method wrapped by WRAP (a lambda of ``found``, the real one)
_MUTATED = textwrap.dedent('''
    from msmigrate.check import worker_programs as programs
    from msmigrate.check.worker import Frameworks

    real = programs.resolve

    def resolve(name, side):
        found = real(name, side)
        return (WRAP) if side == "mindspore" else found

    programs.resolve = resolve
    result = programs.run_program(Frameworks("CPU"), {"torch_api": "TORCH", "mindspore_api": "MINDSPORE"})
    print(result["status"])
''')


def checked(torch_api: str) -> dict[str, Any]:
    """The one result of ``msmigrate check <torch_api> --json`` (the 2.6 table)."""
    command = [sys.executable, "-m", "msmigrate", "check", torch_api, "--json", "--mindspore-version", "2.6"]
    run = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", timeout=300)
    [result] = json.loads(run.stdout)["results"]
    return result


def mutated_status(torch_api: str, mindspore_api: str, wrap: str) -> str:
    """The program's status when the MindSpore method is ``wrap`` (an expression of ``found``)."""
    source = _MUTATED.replace("WRAP", wrap).replace("TORCH", torch_api).replace("MINDSPORE", mindspore_api)
    run = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().splitlines()[-1]
