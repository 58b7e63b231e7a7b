"""The project's own ``nn.Module`` subclasses, across files, so that ``from .model import Net`` then
``Net().to(device)`` has a module receiver in every file (the analysis of one file sees only its imports).

Built by the scan from the text of the files it scans (a line scan of ``class X(...)`` headers: no parse,
no import). A class is a module class when a base is written ``Module``, ``nn.<Class>``,
``torch.nn.<Class>``, a known module base of another library, or the name of another module class of
the project (resolved by name, transitively). The index holds each class under every dotted suffix of
``package.module.Class`` with at least two parts, the forms an import of it can take.

A top-level function whose return annotation names a module class the same way (``def conv1x1(...) ->
nn.Module:``, ``-> "ResNet"``) is indexed too: calling it gives a module, as calling the class does, so
``self.output = conv1x1(...)`` then ``self.output(x)`` is a tensor in the file that imports it
(pytorchcv's layer factories). Its header is kept as ``[name, [annotation]]``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from msmigrate.analysis.tables import FOREIGN_MODULE_BASES

_CLASS = re.compile(r"^[ \t]*class[ \t]+([A-Za-z_]\w*)[ \t]*\(([^)]*)\)[ \t]*:", re.MULTILINE)
# a top-level ``def name(...) -> Annotation:`` (parameters over several lines, parentheses two deep)
_FUNCTION = re.compile(
    r"^def[ \t]+([A-Za-z_]\w*)[ \t]*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)[ \t]*->[ \t]*"
    r"([\"']?)([A-Za-z_][\w.]*)\2[ \t]*:", re.MULTILINE)
_TORCH_BASE = re.compile(r"^(?:torch\.)?nn\.(?:modules\.\w+\.)?([A-Z]\w*)$")
_NOT_MODULES = frozenset({"Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer"})
_FOREIGN_SHORT = frozenset(name.rpartition(".")[2] for name in FOREIGN_MODULE_BASES)


def module_path(rel_path: str) -> str:
    """``models/resnet.py`` → ``models.resnet``; ``pkg/__init__.py`` → ``pkg``."""
    path = rel_path.replace("\\", "/")
    path = path[:-3] if path.endswith(".py") else path
    parts = [p for p in path.split("/") if p and p != "."]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def class_headers(text: str) -> list[list]:
    """The ``class`` headers of one file's text, ``[[class name, [base expression, ...]], ...]``, then its
    annotated top-level functions, ``[function name, [return annotation]]`` (JSON values: the scan keeps
    them in its manifest, so that a rescan builds the index without reading the unchanged files)."""
    found = [[match[1], [b.strip() for b in match[2].split(",") if b.strip() and "=" not in b]]
             for match in _CLASS.finditer(text)] if "class" in text else []
    if "->" in text:
        found.extend([match[1], [match[3]]] for match in _FUNCTION.finditer(text))
    return found


def module_class_index(files: Iterable[tuple[str, str]]) -> frozenset[str]:
    """``files``: (relative path, text). Every dotted suffix (≥ 2 parts) of the module classes' names."""
    return index_of_headers((rel_path, class_headers(text)) for rel_path, text in files)


def index_of_headers(files: Iterable[tuple[str, list[list]]]) -> frozenset[str]:
    """``files``: (relative path, :func:`class_headers` of its text). The index of
    :func:`module_class_index`."""
    classes: list[tuple[str, str, list[str]]] = []  # (module path, class, base expressions)
    for rel_path, headers in files:
        if headers:
            module = module_path(rel_path)
            classes.extend((module, name, bases) for name, bases in headers)
    modules: set[str] = set()
    changed = True
    while changed:
        changed = False
        for _module, name, bases in classes:
            if name not in modules and any(_is_module_base(base, modules) for base in bases):
                modules.add(name)
                changed = True
    index: set[str] = set()
    for module, name, _bases in classes:
        if name in modules:
            parts = [*module.split("."), name] if module else [name]
            for start in range(len(parts) - 1):
                index.add(".".join(parts[start:]))
    return frozenset(index)


def _is_module_base(base: str, modules: set[str]) -> bool:
    match = _TORCH_BASE.match(base)
    if match is not None:
        return match[1] not in _NOT_MODULES
    short = base.rpartition(".")[2]
    return short == "Module" or base in FOREIGN_MODULE_BASES or short in _FOREIGN_SHORT or short in modules


def is_project_module_class(foreign_name: str, index: frozenset[str]) -> bool:
    """Whether ``Foreign(name)`` (``.model.Net``, ``pkg.model.Net``) names a module class of the index
    (compared by its dotted suffixes: the scan root may sit inside the package or above it)."""
    if not index:
        return False
    parts = foreign_name.lstrip(".").split(".")
    return any(".".join(parts[start:]) in index for start in range(len(parts) - 1))
