"""The project's helper module of compositions: where it is and how a file imports it.

A fix that calls a composition (``fixes/composition_fixes.py``) rewrites the call to ``ms_compat.<helper>``
and imports the module; the caller of fix-all then writes the helpers the applied fixes name into the module
(``Fix.helpers``; ``msmigrate fix``: ``fixes/project.py``, the editor: a workspace edit that creates or
extends it). One module per project: ``<root>/ms_compat.py``, or the dotted name of ``compat-module`` in
``[tool.msmigrate]`` (``pkg.ms_compat`` is ``<root>/pkg/ms_compat.py``).

How a file imports it: when the root folder is not a package, absolutely (``import ms_compat``, ``from pkg
import ms_compat``: the project runs from its root); when it is one (``__init__.py``: the root's parent is
on ``sys.path``), relatively from the file's package (``from . import ms_compat``, ``from .. import
ms_compat``), which needs every folder between the file and the root to be a package too.
"""

from __future__ import annotations

import ast
import keyword
from dataclasses import dataclass
from pathlib import Path, PurePath

DEFAULT_MODULE = "ms_compat"


def valid_module_name(name: object) -> bool:
    """Whether ``name`` is a dotted Python module name (``ms_compat``, ``pkg.ms_compat``)."""
    return isinstance(name, str) and bool(name) and all(
        part.isidentifier() and not keyword.iskeyword(part) for part in name.split("."))


@dataclass(frozen=True, slots=True)
class CompatModule:
    """The helper module of one project: its root folder and dotted module name there."""

    root: Path
    name: str = DEFAULT_MODULE

    @property
    def path(self) -> Path:
        return self.root.joinpath(*self.name.split(".")).with_suffix(".py")

    @property
    def local(self) -> str:
        """The name the module is bound to in a file that imports it."""
        return self.name.rpartition(".")[2]

    @classmethod
    def beside(cls, path: str) -> CompatModule:
        """The default when no project root is known: the folder of the fixed file."""
        return cls(Path(path).resolve().parent if path else Path.cwd())

    def import_statement(self, file: str) -> str | None:
        """The statement binding :attr:`local` to the module in ``file`` (a path, relative to the root when
        not absolute); None when ``file`` lies outside the root or no import can reach the module."""
        target = Path(file) if PurePath(file).is_absolute() else self.root / file
        try:
            folder = target.resolve().parent.relative_to(self.root.resolve())
        except (OSError, ValueError):
            return None
        package, _, local = self.name.rpartition(".")
        if not (self.root / "__init__.py").is_file():
            return f"from {package} import {local}" if package else f"import {local}"
        folders = [self.root.joinpath(*folder.parts[:depth]) for depth in range(1, len(folder.parts) + 1)]
        if not all((item / "__init__.py").is_file() for item in folders):
            return None
        return f"from {'.' * (len(folder.parts) + 1)}{package} import {local}"


def _same_statement(statement: str) -> str:
    return ast.dump(ast.parse(statement).body[0])


def has_import(tree: ast.Module, statement: str) -> bool:
    """Whether a top-level statement of ``tree`` is ``statement``."""
    wanted = _same_statement(statement)
    return any(ast.dump(node) == wanted for node in tree.body
               if isinstance(node, ast.Import | ast.ImportFrom))


def binds_otherwise(tree: ast.Module, local: str, statement: str) -> bool:
    """Whether ``tree`` uses the name ``local`` for something else than the module ``statement`` imports
    (a variable, a parameter, another import), so that importing the module would change what it means."""
    if has_import(tree, statement):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == local:
            return True
        if isinstance(node, ast.arg) and node.arg == local:
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == local:
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == local:
            return True
    return False
