"""The value forms of the fields and attributes the project builds, across files, so that a rule reading
``args.stride`` in one file knows that another builds ``stride`` as a list (efficientnet_pytorch's
``BlockArgs(stride=[...])`` in ``utils.py``, compared in ``model.py``).

A field is *built* by a call's keyword (``BlockArgs(stride=[1])``, ``args._replace(stride=[1])``) or an
attribute assignment (``obj.stride = [1]``, ``self.stride = [1]``); the form recorded is the value's
written form, today ``list`` (a list display, a list comprehension, ``list(...)``). The facts are by name
only: whose field it is is not known, so a rule says where the project builds it rather than what the
value is. Each file's entries come from the scan (a pattern search, then a parse of the files it finds:
no import, nothing run), kept by the scan's manifest like the class headers of ``project_classes.py``; the
index is part of the analysis options (``AnalysisOptions.project_fields``), so of the scan's cache key.
"""

from __future__ import annotations

import ast
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping

LIST = "list"
# a keyword after ``(`` or ``,`` or an attribute, given a list: the files worth parsing
_CANDIDATE = re.compile(r"(?:[(,]\s*|\.)[A-Za-z_]\w*\s*=\s*(?:\[|list\()")


def is_list_display(node: ast.AST | None) -> bool:
    """A list display, a list comprehension or a call of ``list``."""
    return isinstance(node, ast.List | ast.ListComp) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list"
    )


def built_fields(tree: ast.AST) -> list[list]:
    """``[[name, form, line], ...]``: the fields the tree builds with a value of a known form (JSON values,
    kept in the scan's manifest), by line then name."""
    found: list[list] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found.extend([k.arg, LIST, k.value.lineno] for k in node.keywords
                         if k.arg and is_list_display(k.value))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and is_list_display(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.extend([t.attr, LIST, node.lineno] for t in targets if isinstance(t, ast.Attribute))
    return sorted(found, key=lambda entry: (entry[2], entry[0]))


def file_fields(text: str) -> list[list]:
    """:func:`built_fields` of a file's text; ``[]`` when it builds none or does not parse."""
    if _CANDIDATE.search(text) is None:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return built_fields(tree)


def well_formed(entries: object) -> bool:
    """Whether a manifest's value is a list of :func:`built_fields` entries."""
    return type(entries) is list and all(
        type(e) is list and len(e) == 3 and type(e[0]) is str and type(e[1]) is str and type(e[2]) is int
        for e in entries)


def field_index(files: Iterable[tuple[str, list[list]]]) -> tuple[tuple[str, str, str], ...]:
    """``files``: (relative path, :func:`built_fields` of it). ``(name, form, file)`` for every field and
    form the project builds, ``file`` the first by path that builds it so (sorted: a stable cache key)."""
    first: dict[tuple[str, str], str] = {}
    for rel_path, entries in sorted(files, key=lambda item: item[0]):
        for name, form, _line in entries:
            first.setdefault((name, form), rel_path.replace("\\", "/"))
    return tuple(sorted((name, form, path) for (name, form), path in first.items()))


def built_as(index: Iterable[tuple[str, str, str]], form: str) -> Mapping[str, str]:
    """``{name: file}`` of the fields ``index`` has built in ``form``."""
    return {name: path for name, built, path in index if built == form}


class DeferredIndex:
    """A field index built when first read (the language server's: reading it means parsing the workspace's
    candidate files, and most documents never need it). Iterates as the index does; a build that fails
    gives an empty index."""

    def __init__(self, build: Callable[[], tuple[tuple[str, str, str], ...]]) -> None:
        self._build: Callable[[], tuple[tuple[str, str, str], ...]] | None = build
        self._index: tuple[tuple[str, str, str], ...] = ()
        self._lock = threading.Lock()

    @property
    def built(self) -> bool:
        return self._build is None

    def __iter__(self) -> Iterator[tuple[str, str, str]]:
        with self._lock:
            if self._build is not None:
                try:
                    self._index = self._build()
                except Exception:  # an unreadable workspace: no cross-file fields
                    self._index = ()
                self._build = None
        return iter(self._index)
