"""What is left of torch in a file, in any form: the test of "converted" for a whole file.

A file is converted only when nothing of torch is left in it: no import of a torch module (``torch``,
``torchvision``, ``torchaudio``, ``torchtext``, or another package's torch-only module such as
``einops.layers.torch``), no use of a name such an import binds, no dynamic access to a torch module
(``getattr(nn, name)``, ``hasattr(torch.nn.functional, "x")``, ``importlib.import_module("torch")``), no
string annotation naming torch (``"torch.Tensor"``), no ``torch.__version__``, and no torch.nn.Module member
used on a MindSpore Cell that lacks it (``self.zero_grad()`` once the base became ``mindspore.nn.Cell``:
``analysis/cell_leftovers.py``, which needs the knowledge base; :func:`~msmigrate.analysis.cell_leftovers.
all_leftovers` gives both).

:func:`torch_leftovers` finds every such place of a parsed module; :func:`uncovered` keeps those no finding
speaks for, which the analyzer reports as ``MSM104`` (:func:`leftover_findings`), so the editor and every
report show them; ``fixes/project.py`` lists every leftover of a fixed file with why it was not rewritten.
Names are matched without scopes (a name bound by a torch import anywhere in the file), as the import
clean-up after fix-all does; a name also bound by another import is left to the import itself.
"""

from __future__ import annotations

import ast
import copy
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from msmigrate.analysis.columns import ColumnMap
from msmigrate.analysis.source_text import dotted_name
from msmigrate.analysis.tables import TORCH_ROOTS
from msmigrate.model.finding import Finding, FindingCategory, Severity, UsageKind

RULE = "MSM104"
_DYNAMIC_BUILTINS = frozenset({"getattr", "hasattr", "setattr", "delattr"})
_IMPORTERS = frozenset({"importlib.import_module", "import_module", "__import__"})


class LeftoverKind(StrEnum):
    IMPORT = "import"  # an import of a torch module
    NAME = "name"  # a use of a name a torch import binds (``torch.no_grad``, ``nn.Module``)
    DYNAMIC = "dynamic"  # a torch module reached by a name computed at run time, or imported by a string
    STRING = "string"  # a string annotation naming torch
    VERSION = "version"  # ``torch.__version__``
    CELL = "cell"  # a torch.nn.Module member a MindSpore Cell lacks (``analysis/cell_leftovers.py``)


@dataclass(frozen=True, slots=True)
class Leftover:
    line: int
    column: int
    end_line: int
    end_column: int
    kind: LeftoverKind
    text: str  # the dotted name, the import's module, or the source of a dynamic access
    foreign: bool = False  # a torch-only module of another package (``einops.layers.torch``) or its names
    binds: tuple[str, ...] = field(default=())  # an import: the names it binds
    root: str = ""  # a use: the name bound by a torch import it starts from
    member: str = ""  # a Cell leftover: the torch.nn.Module member (``zero_grad``)
    owner: str = ""  # a Cell leftover: the file's Cell class it is used on
    target: str = ""  # a Cell leftover: MindSpore's counterpart of the member, when the mappings name one

    def covered_by(self, finding: Finding) -> bool:
        """Whether ``finding`` speaks for this place (their ranges overlap)."""
        return (finding.line, finding.column) < (self.end_line, self.end_column) and (
            self.line, self.column) < (finding.end_line, max(finding.end_column, finding.column + 1))


def is_torch_module(module: str | None) -> bool:
    """``torch``, ``torchvision.ops`` …, and torch-only modules of other packages (``horovod.torch``)."""
    if not module:
        return False
    parts = module.split(".")
    return parts[0] in TORCH_ROOTS or "torch" in parts[1:]


def _foreign(module: str) -> bool:
    return module.split(".")[0] not in TORCH_ROOTS


def _statements(body: Iterable[ast.AST]) -> Iterator[ast.stmt]:
    """Every statement of ``body`` and of the blocks inside it (expressions are not walked)."""
    pending = list(body)
    while pending:
        node = pending.pop()
        if not isinstance(node, ast.stmt | ast.excepthandler | ast.match_case):
            continue
        if isinstance(node, ast.stmt):
            yield node
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            pending.extend(getattr(node, name, ()))


_IMPORT_LINE = re.compile(r"\bimport\b")


def torch_bindings(tree: ast.AST, lines: list[str] | None = None) -> dict[str, str]:
    """Name → the torch module (or ``module.name``) a torch import binds it to, for names no other import
    of the file binds too (``lines``: the text, to look only at statements on lines that say ``import``)."""
    torch_names: dict[str, str] = {}
    other: set[str] = set()
    body = getattr(tree, "body", [tree])
    statements = _statements(body) if lines is None else _candidates(body, _hits(lines, _IMPORT_LINE))
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if is_torch_module(alias.name):
                    torch_names[bound] = alias.name if alias.asname else bound
                else:
                    other.add(bound)
        elif isinstance(node, ast.ImportFrom):
            torch_import = node.level == 0 and is_torch_module(node.module)
            for alias in node.names:
                if alias.name == "*":
                    continue
                bound = alias.asname or alias.name
                if torch_import:
                    torch_names[bound] = f"{node.module}.{alias.name}"
                else:
                    other.add(bound)
    return {name: target for name, target in torch_names.items() if name not in other}


def _annotations(node: ast.AST) -> Iterator[ast.AST]:
    if isinstance(node, ast.arg) and node.annotation is not None:
        yield node.annotation
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
        yield node.returns
    elif isinstance(node, ast.AnnAssign):
        yield node.annotation


def _names_in(text: str) -> set[str]:
    try:
        expression = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return {node.id for node in ast.walk(expression) if isinstance(node, ast.Name)}


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _hits(lines: list[str], pattern: re.Pattern[str]) -> list[int]:
    """The (1-based, sorted) numbers of the lines ``pattern`` finds something on."""
    return [number for number, line in enumerate(lines, 1) if pattern.search(line)]


def _candidates(body: list[ast.AST], hits: list[int]) -> Iterator[ast.AST]:
    """The parts of ``body`` that span a line of ``hits`` (no other part can hold what is looked for): simple
    statements, and of a compound statement its header (decorators, bases, arguments, test, iterator …)
    and, in turn, the statements of its blocks."""
    for node in body:
        case = isinstance(node, ast.match_case)  # (a case has no position of its own)
        first, last = (node.pattern, node.body[-1]) if case else (node, node)
        start = min([first.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        end = last.end_lineno or last.lineno
        at = bisect_left(hits, start)
        if at == len(hits) or hits[at] > end:
            continue
        blocks = [name for name in _BLOCKS if getattr(node, name, None)]
        if not blocks:
            yield node
            continue
        header = copy.copy(node)
        for name in blocks:
            setattr(header, name, [])
        yield header
        for name in blocks:
            yield from _candidates(getattr(node, name), hits)


_NOT_CHILDREN = frozenset({"ctx", "id", "attr", "arg", "name", "asname", "module", "level", "kind", "simple",
                           "type_comment", "is_async", "conversion", "kwd_attrs", "rest"})
_ANNOTATED = (ast.arg, ast.FunctionDef, ast.AsyncFunctionDef, ast.AnnAssign)
_LEAVES = (ast.Constant, ast.Global, ast.Nonlocal, ast.MatchSingleton, ast.TypeIgnore)


@cache
def _child_fields(kind: type) -> tuple[str, ...]:
    """The fields of a node class that hold nodes (``ast.iter_child_nodes`` without looking at each value)."""
    if kind in _LEAVES:
        return ()
    return tuple(name for name in kind._fields if name not in _NOT_CHILDREN)


def torch_leftovers(tree: ast.AST, columns: ColumnMap) -> list[Leftover]:
    """Every place of ``tree`` where torch is left, sorted by position (see the module docstring)."""
    bound = torch_bindings(tree, columns.lines)
    found: list[Leftover] = []
    names = set(bound) | TORCH_ROOTS

    def add(node: ast.AST, kind: LeftoverKind, text: str, foreign: bool = False,
            binds: tuple[str, ...] = (), root: str = "") -> None:
        found.append(Leftover(*columns.node_range(node), kind, text, foreign, binds, root))

    words = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")
    body = tree.body if isinstance(tree, ast.Module) else [tree]
    stack: list[ast.AST | None] = list(_candidates(body, _hits(columns.lines, words)))
    while stack:
        node = stack.pop()
        if node is None:  # ``{**a}``: a dict's keys hold None
            continue
        kind = node.__class__
        if kind is ast.Attribute or kind is ast.Name:
            base = node
            while base.__class__ is ast.Attribute:  # a dotted name is looked at whole, from its outermost
                base = base.value
            if base.__class__ is not ast.Name:
                stack.append(base)  # ``f(x).attr``: the call holds the names
            elif base.id in bound and (kind is ast.Attribute or node.ctx.__class__ is ast.Load):
                text = dotted_name(node) or base.id
                what = LeftoverKind.VERSION if text.endswith(".__version__") else LeftoverKind.NAME
                add(node, what, text, _foreign(bound[base.id]), root=base.id)
            continue
        if kind is ast.Call:
            callee = dotted_name(node.func)
            if callee in _DYNAMIC_BUILTINS and len(node.args) >= 2:
                target = dotted_name(node.args[0])
                if target is not None and target.split(".")[0] in bound:
                    add(node, LeftoverKind.DYNAMIC, ast.unparse(node), root=target.split(".")[0])
                    stack.extend(node.args[1:])
                    stack.extend(node.keywords)
                    continue  # the torch module is reported with its dynamic access
            elif callee in _IMPORTERS and node.args and node.args[0].__class__ is ast.Constant:
                value = node.args[0].value
                if isinstance(value, str) and is_torch_module(value):
                    add(node, LeftoverKind.DYNAMIC, ast.unparse(node))
        elif kind is ast.Import:
            for alias in node.names:
                if is_torch_module(alias.name):
                    add(node, LeftoverKind.IMPORT, alias.name, _foreign(alias.name),
                        (alias.asname or alias.name.split(".")[0],))
            continue
        elif kind is ast.ImportFrom:
            if node.level == 0 and is_torch_module(node.module):
                imported = tuple(a.asname or a.name for a in node.names if a.name != "*")
                add(node, LeftoverKind.IMPORT, node.module or "", _foreign(node.module or ""), imported)
            continue
        elif kind in _ANNOTATED:
            for annotation in _annotations(node):
                for constant in ast.walk(annotation):
                    if constant.__class__ is ast.Constant and isinstance(constant.value, str):
                        named = sorted(_names_in(constant.value) & names)
                        if named:
                            add(constant, LeftoverKind.STRING, constant.value, root=named[0])
        for name in _child_fields(kind):
            value = getattr(node, name)
            if value.__class__ is list:
                stack.extend(value)
            elif value is not None:
                stack.append(value)
    found.sort(key=lambda x: (x.line, x.column, x.kind.value))
    return found


class CoveringIndex:
    """Findings by line, to find those covering a place without looking at every finding (the few that
    span lines are looked at each time)."""

    def __init__(self, findings: Iterable[Finding]) -> None:
        self.by_line: dict[int, list[Finding]] = {}
        self.spanning: list[Finding] = []
        for finding in findings:
            if finding.end_line == finding.line:
                self.by_line.setdefault(finding.line, []).append(finding)
            else:
                self.spanning.append(finding)

    def covering(self, leftover: Leftover) -> list[Finding]:
        found = [f for f in self.spanning if leftover.covered_by(f)]
        for line in range(leftover.line, leftover.end_line + 1):
            found.extend(f for f in self.by_line.get(line, ()) if leftover.covered_by(f))
        return found


def uncovered(leftovers: Iterable[Leftover], findings: Iterable[Finding]) -> list[Leftover]:
    """The leftovers no finding speaks for; an import of torch itself is covered by the uses of its names
    (each reported on its own), so only a torch-only module of another package stays as an import."""
    index = CoveringIndex(f for f in findings if f.rule != RULE)
    return [x for x in leftovers if x.kind is LeftoverKind.CELL  # no other rule speaks of a Cell's members
            or not (x.kind is LeftoverKind.IMPORT and not x.foreign) and not index.covering(x)]


def leftover_findings(leftovers: Iterable[Leftover]) -> list[Finding]:
    """``MSM104`` findings of leftovers (:func:`uncovered` ones): torch left that no rule rewrites."""
    return [
        Finding(x.line, x.column, x.end_line, x.end_column, None, None, FindingCategory.UNKNOWN_TORCH_NAME,
                RULE, Severity.WARNING, _message_key(x), _message_args(x),
                usage=UsageKind.IMPORT if x.kind is LeftoverKind.IMPORT else UsageKind.PATTERN,
                fixable=x.kind is LeftoverKind.STRING)  # fixes/string_annotation_fixes.py
        for x in leftovers
    ]


def _message_args(leftover: Leftover) -> dict[str, str]:
    if leftover.kind is LeftoverKind.CELL:
        found = {"name": leftover.text, "member": leftover.member, "cls": leftover.owner}
        return found | ({"target": leftover.target} if leftover.target else {})
    return {"name": _short(leftover.text)}


def _message_key(leftover: Leftover) -> str:
    if leftover.kind is LeftoverKind.CELL:
        return f"finding.{RULE}.cell" + (".target" if leftover.target else "")
    foreign = leftover.foreign and leftover.kind in (LeftoverKind.NAME, LeftoverKind.IMPORT)
    return f"finding.{RULE}.{leftover.kind.value}" + (".foreign" if foreign else "")


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
