"""The knowledge base's files: which must be there, reading them with one clear error, and copying
``mapping_data/`` into a built package as ``msmigrate/_data``.

Standard library only: ``setup.py`` imports this module to build the wheel (before any dependency is
installed), and so does ``client-vscode/scripts/bundle_python.py`` for the VS Code extension: one copy
step for every package.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

BUNDLED_FOLDER = "_data"  # inside the installed package: msmigrate/_data
INVENTORIES = ("torch_inventory.json", "mindspore_inventory.json")
MISSING = "kb.error.missing"
DAMAGED = "kb.error.damaged"


class KnowledgeBaseError(Exception):
    """The knowledge base is missing or damaged: one error for the whole run, never one per file.

    ``key`` is :data:`MISSING` or :data:`DAMAGED` (messages in ``messages/kb.py``), ``path`` the file or
    folder, ``detail`` what reading it said.
    """

    def __init__(self, key: str, path: str, detail: str = "") -> None:
        super().__init__(key, path, detail)  # the arguments again: picklable across processes
        self.key, self.path, self.detail = key, path, detail

    @property
    def fields(self) -> dict[str, str]:
        return {"path": self.path, "detail": self.detail}

    def __str__(self) -> str:
        return f"{self.key}: {self.path}" + (f" ({self.detail})" if self.detail else "")


def damaged(path: Path | str, problem: BaseException | str) -> KnowledgeBaseError:
    detail = problem if isinstance(problem, str) else f"{type(problem).__name__}: {problem}"
    return KnowledgeBaseError(DAMAGED, str(path), detail[:300])


def required_files(versions: Iterable[str]) -> tuple[str, ...]:
    """The files every analysis reads: the inventories, each version's mapping table and derived mappings."""
    versions = tuple(versions)
    return (*INVENTORIES, *(f"mapping-{v}.json" for v in versions), *(f"derived-{v}.json" for v in versions))


def require_files(folder: Path, names: Iterable[str]) -> None:
    """:class:`KnowledgeBaseError` naming the folder, or the first file of ``names``, that is missing."""
    if not folder.is_dir():
        raise KnowledgeBaseError(MISSING, str(folder))
    for name in names:
        if not (folder / name).is_file():
            raise KnowledgeBaseError(MISSING, str(folder / name))


def read_json(path: Path) -> Any:
    """The JSON document in ``path``; :class:`KnowledgeBaseError` when it is missing or not JSON."""
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise KnowledgeBaseError(MISSING, str(path)) from None
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8, not JSON
        raise damaged(path, exc) from None


def copy_into_package(source: Path, package_dir: Path) -> list[Path]:
    """Copy the knowledge base (every ``*.json`` of ``source``, the ``mapping_data/`` folder) to
    ``package_dir/_data``, replacing what was there. Each file is read as JSON first, so a build never
    ships a damaged knowledge base (:class:`KnowledgeBaseError`). Returns the copied files."""
    names = sorted(path.name for path in source.glob("*.json"))
    tables = [name for name in names if name.startswith("mapping-")]
    require_files(source, (*INVENTORIES, *(tables or ["mapping-<version>.json"])))
    for name in names:
        read_json(source / name)
    target = package_dir / BUNDLED_FOLDER
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    return [Path(shutil.copy2(source / name, target / name)) for name in names]
