"""What the fact-file tests share: write a fact file, read it expecting its error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from msmigrate.knowledge.fact_files import FactFileError


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error(read: Callable[[Path], Any], path: Path) -> str:
    """The message of the :class:`FactFileError` that reading ``path`` raises."""
    with pytest.raises(FactFileError) as raised:
        read(path)
    return str(raised.value)
