"""torch.nn.Module members left on a MindSpore Cell: ``self.zero_grad()`` in a class whose base is (or
became) ``mindspore.nn.Cell``, which has no ``zero_grad``.

Once the fix has turned ``class Net(nn.Module)`` into ``class Net(mindspore.nn.Cell)``, nothing in the file
names torch any more, yet a torch member the Cell lacks is still called (an ``AttributeError`` when it
runs): torch is left in the file. :func:`cell_leftovers` finds such places as leftovers of kind
:attr:`~msmigrate.analysis.leftovers.LeftoverKind.CELL`:

- ``self.X`` in a method of a class whose bases are MindSpore Cell classes (``mindspore.nn.Cell`` or a
  class the MindSpore inventory lists as its subclass) or classes of the same file built on them, and
  ``super().X`` there when no base has ``X``;
- ``net.X`` where, in the same function (or at module level), every assignment of ``net`` is a call of
  such a class.

``X`` is a public member of ``torch.nn.Module`` (the torch inventory) that the Cell class lacks (the
MindSpore inventory, bases included), except :data:`SAME_ON_CELL`, and that the class and its bases of the
file do not define themselves (a method, a class attribute, ``self.X = …``). A class with a base the file
does not define (another package, another module of the project) or with its own ``__getattr__`` is left
alone: what that base defines is not known here.
"""

from __future__ import annotations

import ast
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from msmigrate.analysis.categorize import categorize
from msmigrate.analysis.leftovers import Leftover, LeftoverKind, _statements, torch_leftovers
from msmigrate.analysis.source_text import dotted_name

if TYPE_CHECKING:
    from msmigrate.analysis.columns import ColumnMap
    from msmigrate.knowledge.base import KnowledgeBase

CELL = "mindspore.nn.Cell"
# torch.nn.Module members a Cell has as instance attributes (set in Cell.__init__, so not in the inventory
# of its class) with the same meaning; checked against MindSpore 2.10 (tests/analysis/test_cell_leftovers.py)
SAME_ON_CELL: frozenset[str] = frozenset({"training"})  # the mode flag set_train sets


def may_hold_cells(text: str) -> bool:
    """Whether the text can name a MindSpore Cell class (without it, no class of the file is one)."""
    return "mindspore" in text and "Cell" in text


_LACKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # kb → {Cell class: what it lacks}


def cell_lacks(kb: KnowledgeBase, base: str = CELL) -> frozenset[str]:
    """The public torch.nn.Module members the MindSpore Cell class ``base`` lacks."""
    by_base = _LACKS.get(kb)
    if by_base is None:
        by_base = _LACKS[kb] = {}
    found = by_base.get(base)
    if found is None:
        public = {name for name in kb.module_members if not name.startswith("_")}
        found = by_base[base] = frozenset(public - kb.mindspore_inventory.all_members(base) - SAME_ON_CELL)
    return found


def is_cell_class(name: str, kb: KnowledgeBase) -> bool:
    """``mindspore.nn.Cell`` or a class the MindSpore inventory lists as built on it."""
    if name == CELL:
        return True
    entry = kb.mindspore_inventory.get(name)
    return bool(entry) and entry.get("kind") == "class" and CELL in entry.get("bases", ())


def mindspore_bindings(tree: ast.AST) -> dict[str, str]:
    """Name → the MindSpore module or name an import binds it to (names another import binds too are
    left out)."""
    found: dict[str, str] = {}
    other: set[str] = set()
    for node in _statements(getattr(tree, "body", [tree])):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if alias.name.split(".")[0] == "mindspore":
                    found[bound] = alias.name if alias.asname else bound
                else:
                    other.add(bound)
        elif isinstance(node, ast.ImportFrom):
            ours = node.level == 0 and (node.module or "").split(".")[0] == "mindspore"
            for alias in node.names:
                bound = alias.asname or alias.name
                if ours and alias.name != "*":
                    found[bound] = f"{node.module}.{alias.name}"
                elif alias.name != "*":
                    other.add(bound)
    return {name: target for name, target in found.items() if name not in other}


@dataclass(slots=True)
class _Class:
    node: ast.ClassDef
    cell_bases: list[str]  # the MindSpore Cell classes among its bases
    file_bases: list[str]  # the names of its bases defined in the file
    known: bool  # every base is a Cell class, ``object`` or a class of the file


def _defined(node: ast.ClassDef) -> set[str] | None:
    """What a class defines itself: names bound in its body, ``self.X = …`` in its methods, and
    ``setattr(self, "X", …)``; ``None`` when it defines ``__getattr__`` (any member may exist)."""
    names: set[str] = set()
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    if "__getattr__" in names or "__getattribute__" in names:
        return None
    for method in node.body:
        first = _first_parameter(method)
        if first is None:
            continue
        for sub in ast.walk(method):
            if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store | ast.Del) \
                    and isinstance(sub.value, ast.Name) and sub.value.id == first:
                names.add(sub.attr)
            elif isinstance(sub, ast.Call) and dotted_name(sub.func) == "setattr" and len(sub.args) >= 2 \
                    and isinstance(sub.args[0], ast.Name) and sub.args[0].id == first \
                    and isinstance(sub.args[1], ast.Constant) and isinstance(sub.args[1].value, str):
                names.add(sub.args[1].value)
    return names


def _first_parameter(node: ast.AST) -> str | None:
    """The instance parameter of a method (``self``); ``None`` for a static or class method."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    if any(dotted_name(d) in ("staticmethod", "classmethod") for d in node.decorator_list):
        return None
    arguments = [*node.args.posonlyargs, *node.args.args]
    return arguments[0].arg if arguments else None


class _CellClasses:
    """The file's classes built on MindSpore Cells, with the torch members each lacks."""

    def __init__(self, tree: ast.AST, kb: KnowledgeBase) -> None:
        self.kb = kb
        bindings = mindspore_bindings(tree)
        defs = [n for n in _statements(getattr(tree, "body", [tree])) if isinstance(n, ast.ClassDef)]
        counts: dict[str, int] = {}
        for node in defs:
            counts[node.name] = counts.get(node.name, 0) + 1
        self.classes: dict[str, _Class] = {}
        for node in defs:
            if counts[node.name] == 1:  # a name bound to two classes: which one a base means is not known
                self.classes[node.name] = self._describe(node, bindings, counts)
        self._lacking: dict[str, frozenset[str] | None] = {}

    def _describe(self, node: ast.ClassDef, bindings: dict[str, str], counts: dict[str, int]) -> _Class:
        cells: list[str] = []
        file_bases: list[str] = []
        known = True
        for base in node.bases:
            name = dotted_name(base)
            if name is None:
                known = False
                continue
            head, _, rest = name.partition(".")
            if head in bindings:
                full = bindings[head] + ("." + rest if rest else "")
                full = self.kb.mindspore_inventory.resolve(full) or full
                if is_cell_class(full, self.kb):
                    cells.append(full)
                    continue
                known = False
            elif not rest and counts.get(head) == 1:
                file_bases.append(head)
            elif name != "object":
                known = False
        return _Class(node, cells, file_bases, known)

    def lacking(self, name: str) -> frozenset[str] | None:
        """The torch.nn.Module members instances of the file's class ``name`` lack; ``None`` when it is not
        a Cell class or what it holds is not known."""
        if name not in self._lacking:
            self._lacking[name] = None  # (a cycle of bases ends here)
            self._lacking[name] = self._compute(name)
        return self._lacking[name]

    def _compute(self, name: str) -> frozenset[str] | None:
        inherited = self.inherited(name)
        defined = _defined(self.classes[name].node) if inherited is not None else None
        return None if inherited is None or defined is None else frozenset(inherited - defined)

    def inherited(self, name: str) -> frozenset[str] | None:
        """The members the bases of the file's class ``name`` lack (what ``super().X`` cannot find)."""
        described = self.classes.get(name)
        if described is None or not described.known:
            return None
        lacks: set[str] | None = None
        for base in described.cell_bases:
            own = set(cell_lacks(self.kb, base))
            lacks = own if lacks is None else lacks & own
        for base in described.file_bases:
            from_base = self.lacking(base)
            if from_base is None:
                return None
            lacks = set(from_base) if lacks is None else lacks & from_base
        return None if lacks is None else frozenset(lacks)


def cell_leftovers(tree: ast.AST, columns: ColumnMap, kb: KnowledgeBase) -> list[Leftover]:
    """Every torch.nn.Module member used on a MindSpore Cell of the file (see the module docstring)."""
    lines = columns.lines
    if not (any("Cell" in line for line in lines) and any("mindspore" in line for line in lines)):
        return []
    classes = _CellClasses(tree, kb)
    found: list[Leftover] = []

    def add(node: ast.Attribute, receiver: str, class_name: str) -> None:
        target = categorize("torch.nn.Module." + node.attr, kb).mindspore_api or ""
        found.append(Leftover(*columns.node_range(node), LeftoverKind.CELL, f"{receiver}.{node.attr}",
                              member=node.attr, owner=class_name, target=target))

    for name, described in classes.classes.items():
        lacks = classes.lacking(name)
        if not lacks:
            continue
        above = classes.inherited(name) or frozenset()
        for method in described.node.body:
            first = _first_parameter(method)
            if first is None:
                continue
            for node in _uses(method, first):
                if node.attr in lacks:
                    add(node, first, name)
            for node in _super_uses(method):
                if node.attr in above:
                    add(node, "super()", name)
    cell_names = {name for name in classes.classes if classes.lacking(name)}
    if cell_names:
        for scope in _scopes(tree):
            for variable, class_name in _instances(scope, cell_names).items():
                lacks = classes.lacking(class_name) or frozenset()
                for node in _uses(scope, variable, own_scope=True):
                    if node.attr in lacks:
                        add(node, variable, class_name)
    found.sort(key=lambda x: (x.line, x.column))
    return found


def all_leftovers(tree: ast.AST, columns: ColumnMap, kb: KnowledgeBase) -> list[Leftover]:
    """What is left of torch in a file: its torch names (``analysis/leftovers.py``) and the torch.nn.Module
    members used on its Cells, sorted by position."""
    found = [*torch_leftovers(tree, columns), *cell_leftovers(tree, columns, kb)]
    found.sort(key=lambda x: (x.line, x.column, x.kind.value))
    return found


def _uses(scope: ast.AST, name: str, own_scope: bool = False) -> list[ast.Attribute]:
    """``name.X`` read in ``scope`` (nested functions that do not rebind ``name`` included; nested classes
    not), or nothing when ``scope`` assigns ``name`` itself (a method's ``self = …``)."""
    found: list[ast.Attribute] = []
    body = scope.body if isinstance(scope, ast.Module) else [*getattr(scope, "body", [])]
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ClassDef):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                     *(a for a in (arguments.vararg, arguments.kwarg) if a is not None)]
            if own_scope or any(a.arg == name for a in every):
                continue
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load) \
                and not own_scope:
            return []
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name \
                and isinstance(node.ctx, ast.Load):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _super_uses(method: ast.AST) -> list[ast.Attribute]:
    """``super().X`` read in a method (not in the classes nested in it)."""
    found: list[ast.Attribute] = []
    stack: list[ast.AST] = list(getattr(method, "body", []))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ClassDef):
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Call) and dotted_name(node.value.func) == "super" \
                and not node.value.keywords:
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _scopes(tree: ast.AST) -> list[ast.AST]:
    """The module and every function of it (each a scope of its own)."""
    return [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]


def _instances(scope: ast.AST, cell_names: set[str]) -> dict[str, str]:
    """Variables of ``scope`` every assignment of which (in the scope, not in nested functions) is a call of
    one of the file's Cell classes: variable → the class."""
    seen: dict[str, str | None] = {}
    stack: list[ast.AST] = list(getattr(scope, "body", []))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            if not isinstance(node, ast.Lambda):
                seen[node.name] = None
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id in cell_names:
            variable, class_name = node.targets[0].id, node.value.func.id
            seen[variable] = class_name if seen.get(variable, class_name) == class_name else None
            stack.append(node.value)
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            seen[node.id] = None
        elif isinstance(node, ast.arg | ast.alias) or (isinstance(node, ast.Global | ast.Nonlocal)):
            for bound in _bound_names(node):
                seen[bound] = None
        stack.extend(ast.iter_child_nodes(node))
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        for argument in ast.walk(scope.args):
            if isinstance(argument, ast.arg):
                seen[argument.arg] = None
    return {variable: class_name for variable, class_name in seen.items() if class_name is not None}


def _bound_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]]
    return list(getattr(node, "names", []))
