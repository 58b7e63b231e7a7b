"""Shared by the calling-form tests (issue 24, items 3, 6, 7): a whole torch program fixed by fix-all and run
in MindSpore, where torch cannot be imported, against its torch run (the conversion suite's harness,
tests/conversion/harness.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from idiom_support import needs_frameworks

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conversion"))
import harness  # noqa: E402

__all__ = ["needs_frameworks", "run_program"]


def run_program(version: str, name: str, torch_api: str, namespace: str, source: str) -> Any:
    """The conversion suite's outcome of ``source`` (a program that sets ``result``) on table ``version``."""
    program = harness.Program(name, torch_api, "", namespace, source, {}, written=True)
    [outcome] = harness.run_suite(version, programs=[program]).outcomes
    return outcome
