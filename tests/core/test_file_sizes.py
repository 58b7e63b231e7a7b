"""No source file of ``server/msmigrate`` is over 600 lines: a file that long holds more than one thing."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "msmigrate"
LIMIT = 600


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def long_files() -> dict[str, int]:
    return {path.relative_to(PACKAGE).as_posix(): lines_of(path) for path in sorted(PACKAGE.rglob("*.py"))
            if lines_of(path) > LIMIT}


def test_no_source_file_is_over_the_limit():
    assert long_files() == {}
