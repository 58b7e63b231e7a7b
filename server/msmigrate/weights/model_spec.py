"""A model named as ``path/to/file.py:expression`` (``--model``, ``[[tool.msmigrate.compare]]``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from msmigrate.weights.session import WeightsError


def import_root(path: Path) -> tuple[Path, str]:
    """(folder to put on ``sys.path``, dotted module name) of a Python file."""
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts)


@dataclass(frozen=True, slots=True)
class ModelSpec:
    file: Path  # absolute
    expr: str

    @classmethod
    def parse(cls, text: str, base: Path | None = None) -> ModelSpec:
        """``models/resnet.py:resnet50(num_classes=10)``; a relative file is taken from ``base``
        (else the current folder). Raises :class:`WeightsError` for a malformed spec or a missing file."""
        file, sep, expr = text.partition(".py:")
        if not sep or not file or not expr.strip():
            raise WeightsError("weights.error.model_spec", spec=text)
        path = Path(file + ".py").expanduser()
        if not path.is_absolute():
            path = (base or Path.cwd()) / path
        path = path.resolve()
        if not path.is_file():
            raise WeightsError("weights.error.model_missing", path=str(path))
        return cls(path, expr.strip())

    def to_request(self) -> dict[str, Any]:
        return {"file": str(self.file), "expr": self.expr}

    def __str__(self) -> str:
        return f"{self.file}:{self.expr}"
