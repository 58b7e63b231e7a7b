"""Shared by the weights and compare tests: a small model written for both frameworks (an Embedding, a
Conv1d, a BatchNorm1d, a PReLU, an LSTM, a LayerNorm, a Linear: the layers whose MindSpore parameters are
named or laid out otherwise), whether torch and MindSpore are installed, and running the CLI."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

needs_frameworks = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("mindspore") is None,
    reason="needs torch and mindspore (pip install -e '.[check]')",
)


def copy_models(folder: Path) -> tuple[Path, Path]:
    """``tnet.py`` (torch) and ``msnet.py`` (its migration, written by hand from MindSpore's docs) in
    ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(HERE / "tnet.py", folder)), Path(shutil.copy(HERE / "msnet.py", folder))


def run_cli(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "msmigrate", *args], capture_output=True, text=True, timeout=timeout
    )
