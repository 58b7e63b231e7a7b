"""Where the generated knowledge (``mapping_data/``) lives."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from msmigrate.data_files import BUNDLED_FOLDER

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_dir() -> Path:
    """Return the mapping-data folder.

    Order: ``$MSMIGRATE_DATA_DIR``; ``mapping_data/`` of a source checkout (editable install);
    ``msmigrate/_data`` bundled inside an installed copy (wheel, VSIX).
    """
    env = os.environ.get("MSMIGRATE_DATA_DIR")
    if env:
        return Path(env)
    repo = _PACKAGE_DIR.parents[1] / "mapping_data"
    if repo.is_dir():
        return repo
    return _PACKAGE_DIR / BUNDLED_FOLDER


def repo_root() -> Path | None:
    """The source checkout this package runs from, if any."""
    root = _PACKAGE_DIR.parents[1]
    return root if (root / "pyproject.toml").is_file() and (root / "mapping_data").is_dir() else None
