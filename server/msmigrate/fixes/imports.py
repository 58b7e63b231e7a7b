"""Spelling a MindSpore name at a use site, and the ``import mindspore`` line it may need.

Convention: a fix reuses a MindSpore import the file already has
(``import mindspore as ms`` → ``ms.ops.abs``; ``from mindspore import ops`` → ``ops.abs``); otherwise it
writes the full name (``mindspore.ops.abs``) and adds ``import mindspore`` once. Full names never
collide with the torch names still in the file (``nn``, ``F``, ``optim`` keep meaning torch's), so a
partly migrated file keeps working.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from msmigrate.fixes.model import TextEdit

ROOT = "mindspore"
IMPORT_LINE = "import mindspore"
_MAGIC_COMMENT = re.compile(r"^#!|^#.*coding[:=]")


@dataclass(frozen=True, slots=True)
class _Binding:
    line: int  # the line after which the binding exists
    name: str
    target: str | None  # the MindSpore name bound, or None when the name is (re)bound to something else


def _bindings(node: ast.stmt, any_module: bool = False) -> list[_Binding]:
    """The names ``node`` binds, with the MindSpore name each stands for (``any_module``: any module's)."""
    found: list[_Binding] = []
    end = node.end_lineno or node.lineno
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                target = alias.name if any_module or _is_mindspore(alias.name) else None
                found.append(_Binding(end, alias.asname, target))
            else:
                head = alias.name.split(".")[0]
                found.append(_Binding(end, head, head if any_module or head == ROOT else None))
    elif isinstance(node, ast.ImportFrom):
        module = node.module or ""
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            wanted = any_module or _is_mindspore(module)
            target = f"{module}.{alias.name}" if node.level == 0 and wanted else None
            found.append(_Binding(end, local, target))
    return found


def _is_mindspore(module: str) -> bool:
    return module == ROOT or module.startswith(ROOT + ".")


def _is_import_block_statement(node: ast.stmt) -> bool:
    if isinstance(node, ast.Import | ast.ImportFrom):
        return True
    if isinstance(node, ast.Try):  # try: import x / except ImportError: ...
        return all(isinstance(s, ast.Import | ast.ImportFrom) for s in node.body)
    return False


@dataclass(frozen=True)
class ImportPlan:
    bindings: tuple[_Binding, ...]
    insert_edit: TextEdit  # after the leading imports
    block_end: int  # last line of the leading imports (0 when none)
    early_edit: TextEdit  # after the docstring / __future__ imports, for uses inside the import block
    modules: tuple[_Binding, ...] = ()  # the module-level names with the module (or member) of any import

    @classmethod
    def of(cls, tree: ast.Module, lines: list[str], newline: str) -> ImportPlan:
        bindings: list[_Binding] = []
        modules: list[_Binding] = []
        for stmt in tree.body:
            statements = [stmt, *(stmt.body if isinstance(stmt, ast.Try | ast.If) else ())]
            for inner in statements:
                bindings.extend(_bindings(inner))
                modules.extend(_bindings(inner, any_module=True))
        after_imports, block_end = _insert_edit(tree, lines, newline, imports=True)
        early, _ = _insert_edit(tree, lines, newline, imports=False)
        return cls(tuple(bindings), after_imports, block_end, early, tuple(modules))

    def module_reference(self, module: str, name: str, at_line: int) -> tuple[str, list[TextEdit]] | None:
        """Text for ``module.name`` (a standard-library name: ``functools.partial``) valid at ``at_line``
        and the edit adding ``import module`` after the docstring / ``__future__`` imports, if needed;
        None when the file binds ``module`` to something else."""
        bound = {b.name: b.target for b in self.modules if b.line < at_line}
        for local, target in bound.items():
            if target == f"{module}.{name}":
                return local, []
        for local, target in bound.items():
            if target == module:
                return f"{local}.{name}", []
        if module in bound:
            return None
        e = self.early_edit
        text = e.new_text.replace(IMPORT_LINE, f"import {module}")
        return f"{module}.{name}", [TextEdit(e.line, e.column, e.end_line, e.end_column, text)]

    def reference(self, api: str, at_line: int) -> tuple[str, list[TextEdit]]:
        """Text for ``api`` valid at ``at_line`` and the edits (an import) it needs."""
        bound: dict[str, str | None] = {}
        for binding in self.bindings:
            if binding.line < at_line:
                bound[binding.name] = binding.target
        best: tuple[int, str] | None = None
        for name, target in bound.items():
            if target and (api == target or api.startswith(target + ".")):
                if best is None or len(target) > best[0]:
                    best = (len(target), name + api[len(target) :])
        if best is not None:
            return best[1], []
        return api, [self.insert_edit if at_line > self.block_end else self.early_edit]


def _insert_edit(tree: ast.Module, lines: list[str], newline: str, imports: bool) -> tuple[TextEdit, int]:
    """Insert ``import mindspore`` after the leading imports (``imports``) or only after the
    docstring / ``__future__`` imports; also returns the line it goes after."""
    last = 0
    for index, stmt in enumerate(tree.body):
        is_docstring = (
            index == 0
            and isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        )
        is_future = isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"
        if is_docstring or is_future or (imports and _is_import_block_statement(stmt)):
            last = stmt.end_lineno or stmt.lineno
        else:
            break
    if last == 0:  # nothing to follow: go after a shebang / coding line, if any
        while last < min(2, len(lines)) and _MAGIC_COMMENT.match(lines[last]):
            last += 1
    if last < len(lines):
        return TextEdit(last + 1, 1, last + 1, 1, IMPORT_LINE + newline), last
    # after the last line of a file without a final line break
    end_column = len(lines[last - 1]) + 1
    return TextEdit(last, end_column, last, end_column, newline + IMPORT_LINE), last
