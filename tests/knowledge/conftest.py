"""Shared fixtures of the knowledge tests: where the official mapping sources are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def find_sources() -> Path | None:
    """``$MSMIGRATE_SOURCES`` or ``<repo>/../shared/mapping_sources`` when it exists."""
    env = os.environ.get("MSMIGRATE_SOURCES")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "mapping_sources")
    for candidate in candidates:
        if (candidate / "r2.4.10" / "en" / "pytorch_api_mapping.md").is_file():
            return candidate
    return None


@pytest.fixture(scope="session")
def sources() -> Path:
    found = find_sources()
    if found is None:
        pytest.skip(
            "official mapping sources not available: set MSMIGRATE_SOURCES or provide "
            "../shared/mapping_sources next to the repository"
        )
    return found
