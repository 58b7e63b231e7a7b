"""The text of the project's helper module (``ms_compat.py`` by default) holding the compositions.

A new module is a header (a docstring, the imports every helper may use) followed by the helpers. An
existing one is only ever added to: the helpers it lacks go at its end, imports it lacks after its last
top-level import, and a name it already defines (msmigrate's helper, perhaps edited, or the user's own) is
never written again. The equivalence check runs the helpers from the same text (``check/worker_composition``).
"""

from __future__ import annotations

import ast
from functools import cache
from importlib import resources

from msmigrate.knowledge.compositions.adapters import HELPER_IMPORTS, adapter_needs
from msmigrate.knowledge.compositions.catalogue import helpers_with_needs

HEADER_DOC = (
    '"""PyTorch APIs that MindSpore lacks, composed from MindSpore operators (written by msmigrate;\n'
    "each was checked against torch on CPU). msmigrate only adds helpers here and never changes one\n"
    "that exists: edit them freely.\n"
    "MindSpore 缺少的 PyTorch 接口，用 MindSpore 算子组合实现（由 msmigrate 生成，\n"
    "均已在 CPU 上与 torch 对比验证）。msmigrate 只会在此添加函数，不会修改已有的函数，可放心修改。\n"
    '"""\n'
)
# (statement, name it binds, module bound): what every helper may use
IMPORTS: tuple[tuple[str, str, str], ...] = (
    ("import math", "math", "math"),
    ("import numpy", "numpy", "numpy"),
    ("import mindspore", "mindspore", "mindspore"),
    ("from mindspore import ops", "ops", "mindspore.ops"),
)


class BrokenModule(ValueError):
    """The existing helper module is not valid Python: nothing is added to it."""


def template_file(helper: str) -> str:
    """Where one helper's source lives in this package: ``templates/<helper>.py.txt`` (an adapter's in
    ``adapters/``); a class's in ``classes/`` under either, so that ``Conv2d`` and ``conv2d`` never share a
    file name that differs only in case (the VSIX format and case-insensitive file systems refuse that)."""
    folder = "adapters" if helper in adapter_needs() else "templates"
    return f"{folder}/classes/{helper}.py.txt" if helper[:1].isupper() else f"{folder}/{helper}.py.txt"


@cache
def template(helper: str) -> str:
    """The source of one helper (its file: ``template_file``), ending with one line break."""
    text = resources.files(__package__).joinpath(template_file(helper)).read_text(encoding="utf-8")
    return text.rstrip("\n") + "\n"


def imports_of(helpers: list[str] | tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """The import statements a module holding ``helpers`` needs: the module's own, then the helpers'."""
    extra = [item for name in helpers for item in HELPER_IMPORTS.get(name, ())]
    return (*IMPORTS, *dict.fromkeys(extra))


def module_text(helpers: list[str] | tuple[str, ...]) -> str:
    """A new helper module holding ``helpers`` and the helpers they call."""
    imports = "".join(statement + "\n" for statement, _, _ in imports_of(helpers_with_needs(helpers)))
    body = "\n\n".join(template(name) for name in helpers_with_needs(helpers))
    return f"{HEADER_DOC}\n{imports}\n\n{body}"


def defined_names(tree: ast.Module) -> set[str]:
    """The names a module's top-level statements bind (functions, classes, assignments, imports)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _bound_modules(tree: ast.Module) -> dict[str, str]:
    """Top-level import bindings: local name → the module (or module member) bound."""
    bound: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def missing_helpers(existing: str | None, helpers: list[str] | tuple[str, ...]) -> list[str]:
    """The helpers (with those they call) a module of text ``existing`` (None: no module yet) does not
    define; raises :class:`BrokenModule` when it does not parse."""
    wanted = helpers_with_needs(helpers)
    if existing is None:
        return wanted
    try:
        tree = ast.parse(existing)
    except (SyntaxError, ValueError) as exc:
        raise BrokenModule(str(exc)) from exc
    defined = defined_names(tree)
    return [name for name in wanted if name not in defined]


def updated_text(existing: str | None, helpers: list[str] | tuple[str, ...]) -> str | None:
    """The helper module's text once it holds ``helpers``: a new module when ``existing`` is None, else
    ``existing`` with what it lacks added; None when nothing is missing. Raises :class:`BrokenModule`."""
    missing = missing_helpers(existing, helpers)
    if existing is None:
        return module_text(helpers)
    if not missing:
        return None
    tree = ast.parse(existing)
    newline = "\r\n" if "\r\n" in existing else "\n"
    bound = _bound_modules(tree)
    defined = defined_names(tree)
    lacking = [s for s, name, module in imports_of(missing)
               if bound.get(name) != module and name not in defined]
    lines = existing.splitlines(keepends=True)
    if lacking:
        after = _import_insert_line(tree)
        if after > 0 and not lines[after - 1].endswith(("\n", "\r")):
            lines[after - 1] += newline
        lines[after:after] = [statement + newline for statement in lacking]
    text = "".join(lines)
    body = "\n\n".join(template(name) for name in missing).replace("\n", newline)
    separator = "" if not text else (newline if text.endswith(("\n", "\r")) else newline * 2) + newline
    return text + separator + body


def _import_insert_line(tree: ast.Module) -> int:
    """The line after which missing imports go: the last top-level import, else the docstring, else 0."""
    last = 0
    for index, node in enumerate(tree.body):
        if isinstance(node, ast.Import | ast.ImportFrom):
            last = node.end_lineno or node.lineno
        elif index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            last = node.end_lineno or node.lineno
    return last
