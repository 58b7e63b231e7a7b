"""Which worker interpreter the language server may start: a configured ``pythonPath`` is honoured
only when it names an existing Python interpreter (checked on disk, never by running it) — an absolute
path to an executable regular file called ``python``, ``python3``, ``python3.11``, ``pythonw.exe`` … —
and, in the server, only after the user confirmed it (see :mod:`msmigrate.lsp.check_feature`)."""

from __future__ import annotations

import os
import re
from pathlib import Path

PYTHON_NAME = re.compile(r"python(\d+(\.\d+)*)?[dmtw]?(\.exe)?", re.IGNORECASE)


def interpreter_problem(path: str) -> str | None:
    """The message key (``check.python.*``, field ``python``) saying why ``path`` is not accepted as
    the worker interpreter, or ``None`` when it is."""
    candidate = Path(os.path.expanduser(path))
    if not candidate.is_absolute():
        return "check.python.not_absolute"
    if not PYTHON_NAME.fullmatch(candidate.name):
        return "check.python.not_python"
    if not candidate.is_file():
        return "check.python.missing"
    if not os.access(candidate, os.X_OK):
        return "check.python.not_executable"
    return None
