"""After fix-all: drop the torch imports that nothing uses any more.

A migrated file should end without torch. Once the fixes have replaced every use of a name bound by
``import torch`` / ``import torch.nn as nn`` / ``from torch import Tensor``, that import is removed. A name
still written anywhere in the file (code, string annotations, ``__all__``: a string that reads as a Python
expression; not prose such as ``"lr as a Tensor is not supported"``) keeps its import; an import
statement that binds several names loses only the unused ones; an import inside ``try:`` keeps the block
valid (``pass`` is left where it would be empty).
"""

from __future__ import annotations

import ast
import re

from msmigrate.fixes.model import TextEdit
from msmigrate.fixes.text import split_lines

TORCH_ROOTS = ("torch", "torchvision", "torchaudio", "torchtext")


def _is_torch(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in TORCH_ROOTS


def _bound(alias: ast.alias, from_import: bool) -> str:
    if alias.asname:
        return alias.asname
    return alias.name if from_import else alias.name.split(".")[0]


def _used_words(tree: ast.Module) -> set[str]:
    """Names the code reads or binds (not attribute names: ``mindspore.nn`` does not use ``nn``) and the
    words inside string constants that read as expressions (string annotations, ``__all__``; not
    docstrings or f-string text, which are prose)."""
    words: set[str] = set()
    prose = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)
                  and isinstance(node.body[0].value.value, str)}
    # the literal parts of f-strings are prose (their expressions are walked as code)
    prose.update(id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                      for part in node.values if isinstance(part, ast.Constant))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
                and _expression(node.value)):
            words.update(_string_names(node.value))
        elif isinstance(node, ast.Global | ast.Nonlocal):
            words.update(node.names)
    return words


_MAX_PARSED = 10_000  # a longer string counts as code, unparsed


def _string_names(text: str) -> set[str]:
    """The names a string that reads as an expression uses: its names, not the attributes after a dot
    (``"mindspore.nn.Cell"`` does not use ``nn``); every word of a string too long to parse."""
    if len(text) > _MAX_PARSED:
        return set(re.findall(r"[A-Za-z_]\w*", text))
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(re.findall(r"[A-Za-z_]\w*", text))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _expression(text: str) -> bool:
    """Whether a string constant may name code: a forward reference (``"Optional[Tensor]"``), an
    ``__all__`` entry, an expression given to ``eval``."""
    if len(text) > _MAX_PARSED:
        return True
    try:
        ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def unused_torch_import_edits(source: str) -> list[TextEdit]:
    """Edits removing torch imports whose names are no longer used (empty when the file has none)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    imports: list[ast.Import | ast.ImportFrom] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(_is_torch(a.name) for a in node.names):
            imports.append(node)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_torch(node.module):
            imports.append(node)
    if not imports:
        return []
    used = _used_words(tree)
    lines = split_lines(source)
    parents = _parents(tree)
    edits: list[TextEdit] = []
    for node in imports:
        from_import = isinstance(node, ast.ImportFrom)
        if any(a.name == "*" for a in node.names):
            continue
        keep = [a for a in node.names if _bound(a, from_import) in used or not _torch_alias(a, node)]
        if len(keep) == len(node.names):
            continue
        # names bound by other imports of the same statement that still count
        edits.append(_edit_for(node, keep, lines, parents.get(id(node))))
    return [e for e in edits if e is not None]


def _torch_alias(alias: ast.alias, node: ast.Import | ast.ImportFrom) -> bool:
    return isinstance(node, ast.ImportFrom) or _is_torch(alias.name)


def _parents(tree: ast.Module) -> dict[int, list[ast.stmt]]:
    """For each statement, the body list that holds it."""
    found: dict[int, list[ast.stmt]] = {}
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody", "handlers"):
            body = getattr(node, name, None)
            if isinstance(body, list):
                for child in body:
                    found[id(child)] = body
    return found


def _column(line: str, utf8_offset: int) -> int:
    """0-based code-point column of an ast (UTF-8 byte) offset."""
    return len(line.encode("utf-8")[:utf8_offset].decode("utf-8", errors="ignore"))


def _edit_for(node: ast.Import | ast.ImportFrom, keep: list[ast.alias], lines: list[str],
              siblings: list[ast.stmt] | None) -> TextEdit | None:
    first, last = node.lineno, node.end_lineno or node.lineno
    start = _column(lines[first - 1], node.col_offset)
    end = _column(lines[last - 1], node.end_col_offset or 0)
    only_statement_on_lines = (
        lines[first - 1][:start].strip() == ""
        and lines[last - 1][end:].strip() == ""
        and ";" not in "".join(lines[first - 1 : last])
    )
    if keep:
        names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in keep)
        text = f"from {node.module} import {names}" if isinstance(node, ast.ImportFrom) else f"import {names}"
        return TextEdit(first, start + 1, last, end + 1, text)
    if siblings is not None and len(siblings) == 1:  # the only statement of a block: keep it valid
        return TextEdit(first, start + 1, last, end + 1, "pass")
    if not only_statement_on_lines:
        return None
    return TextEdit(first, 1, last + 1, 1, "") if last < len(lines) else TextEdit(
        first, 1, last, len(lines[last - 1]) + 1, ""
    )
