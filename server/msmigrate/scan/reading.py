"""The one function that reads user files (sources, ``.gitignore``, ``pyproject.toml``): regular files
only, never more than a size cap.

The file is opened with ``O_NONBLOCK`` (opening a FIFO without a writer returns at once instead of
blocking) and the *opened* file is checked with ``fstat`` (no window between a check and the read): a
FIFO, socket or device (``/dev/zero``) is refused, and so is a file over the cap, including one that
grows while it is read.
"""

from __future__ import annotations

import os
import re
import stat
from typing import Any

_MB = 1024 * 1024
SETTINGS_FILE_LIMIT = _MB  # .gitignore, pyproject.toml
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
_KINDS = (
    (stat.S_ISDIR, "folder"),
    (stat.S_ISFIFO, "fifo"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISCHR, "device"),
    (stat.S_ISBLK, "device"),
)


class SkippedFile(Exception):
    """A file that is not read; ``key``/``fields`` name its reason in messages/scan.py."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


def too_large(size: int, limit: int) -> SkippedFile:
    return SkippedFile("scan.error.too_large", size=size_text(size), limit=size_text(limit))


def size_text(size: int) -> str:
    """``2400`` → ``2.3 KB``; ``10485760`` → ``10 MB`` (no more digits than the size needs)."""
    for unit, scale in (("GB", 1024 * _MB), ("MB", _MB), ("KB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} B"


def kind_of(mode: int) -> str | None:
    """``None`` for a regular file, else what it is (``fifo``, ``device`` …)."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "other")


def not_regular(mode: int) -> SkippedFile:
    return SkippedFile(f"scan.error.not_regular.{kind_of(mode) or 'other'}")


def read_user_file(path: str | os.PathLike[str], limit: int) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file of at most ``limit`` bytes, and its ``fstat``.

    Raises :class:`SkippedFile` (not a regular file, too large) or ``OSError`` (cannot be opened or read).
    """
    fd = os.open(path, _FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise not_regular(info.st_mode)
        if info.st_size > limit:
            raise too_large(info.st_size, limit)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew after the fstat
                raise too_large(total, limit)
        return b"".join(chunks), info
    finally:
        os.close(fd)


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmg]i?b?|b)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1024, "m": _MB, "g": 1024 * _MB}


def parse_size(value: object) -> int:
    """A size in bytes from an integer or a text such as ``"5MB"``, ``"512 KiB"``, ``"1000"`` (``ValueError``
    for anything else, zero or negative)."""
    if type(value) is int:
        size = value
    elif isinstance(value, str) and (match := _SIZE.fullmatch(value)):
        unit = (match.group(2) or "").lower()[:1]
        size = int(float(match.group(1)) * _UNITS[unit])
    else:
        raise ValueError(f"not a size: {value!r}")
    if size <= 0:
        raise ValueError(f"not a size: {value!r}")
    return size
