"""What is left of torch in a file, in any form: the test of "converted" for a whole file.

A file is converted only when nothing of torch is left in it: no import of a torch module (``torch``,
``torchvision``, ``torchaudio``, ``torchtext``, or another package's torch-only module such as
``einops.layers.torch``), no use of a name such an import binds, no dynamic access to a torch module
(``getattr(nn, name)``, ``hasattr(torch.nn.functional, "x")``, ``importlib.import_module("torch")``), no
string annotation naming torch (``"torch.Tensor"``) and no ``torch.__version__``.

:func:`torch_leftovers` finds every such place of a parsed module; :func:`uncovered` keeps those no finding
speaks for, which the analyzer reports as ``MSM104`` (:func:`leftover_findings`), so the editor and every
report show them; ``fixes/project.py`` lists every leftover of a fixed file with why it was not rewritten.
Names are matched without scopes (a name bound by a torch import anywhere in the file), as the import
clean-up after fix-all does; a name also bound by another import is left to the import itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from msmigrate.analysis.columns import ColumnMap
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


def torch_bindings(tree: ast.AST) -> dict[str, str]:
    """Name → the torch module (or ``module.name``) a torch import binds it to, for names no other import
    of the file binds too."""
    torch_names: dict[str, str] = {}
    other: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if is_torch_module(alias.name):
                    torch_names[bound] = alias.name if alias.asname else bound
                else:
                    other.add(bound)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            for alias in node.names:
                if alias.name == "*":
                    continue
                bound = alias.asname or alias.name
                if is_torch_module(node.module):
                    torch_names[bound] = f"{node.module}.{alias.name}"
                else:
                    other.add(bound)
        elif isinstance(node, ast.ImportFrom):
            other.update(alias.asname or alias.name for alias in node.names)
    return {name: target for name, target in torch_names.items() if name not in other}


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


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


def torch_leftovers(tree: ast.AST, columns: ColumnMap) -> list[Leftover]:
    """Every place of ``tree`` where torch is left, sorted by position (see the module docstring)."""
    bound = torch_bindings(tree)
    found: list[Leftover] = []

    def add(node: ast.AST, kind: LeftoverKind, text: str, foreign: bool = False,
            binds: tuple[str, ...] = (), root: str = "") -> None:
        found.append(Leftover(*columns.node_range(node), kind, text, foreign, binds, root))

    dynamic_args: set[int] = set()  # the torch module of a dynamic access (reported with the access)
    stack: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        stack.extend((child, node) for child in ast.iter_child_nodes(node))
        if isinstance(node, ast.Name | ast.Attribute):
            if isinstance(parent, ast.Attribute) and parent.value is node or id(node) in dynamic_args:
                continue  # inside a longer dotted name, or reported with its dynamic access
            text = _dotted(node)
            root = text.split(".")[0] if text else None
            if root in bound and not (isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)):
                kind = LeftoverKind.VERSION if text.endswith(".__version__") else LeftoverKind.NAME
                add(node, kind, text, _foreign(bound[root]), root=root)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if is_torch_module(alias.name):
                    add(node, LeftoverKind.IMPORT, alias.name, _foreign(alias.name),
                        (alias.asname or alias.name.split(".")[0],))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and is_torch_module(node.module):
            names = tuple(a.asname or a.name for a in node.names if a.name != "*")
            add(node, LeftoverKind.IMPORT, node.module or "", _foreign(node.module or ""), names)
        elif isinstance(node, ast.Call):
            callee = _dotted(node.func)
            if callee in _DYNAMIC_BUILTINS and len(node.args) >= 2:
                target = _dotted(node.args[0])
                if target is not None and target.split(".")[0] in bound:
                    add(node, LeftoverKind.DYNAMIC, ast.unparse(node), root=target.split(".")[0])
                    dynamic_args.add(id(node.args[0]))
            elif callee in _IMPORTERS and node.args and isinstance(node.args[0], ast.Constant):
                value = node.args[0].value
                if isinstance(value, str) and is_torch_module(value):
                    add(node, LeftoverKind.DYNAMIC, ast.unparse(node))
        for annotation in _annotations(node):
            for constant in ast.walk(annotation):
                if not (isinstance(constant, ast.Constant) and isinstance(constant.value, str)):
                    continue
                named = sorted(_names_in(constant.value) & (set(bound) | TORCH_ROOTS))
                if named:
                    add(constant, LeftoverKind.STRING, constant.value, root=named[0])
    found.sort(key=lambda x: (x.line, x.column, x.kind.value))
    return found


def uncovered(leftovers: Iterable[Leftover], findings: Iterable[Finding]) -> list[Leftover]:
    """The leftovers no finding speaks for; an import of torch itself is covered by the uses of its names
    (each reported on its own), so only a torch-only module of another package stays as an import."""
    findings = sorted(findings, key=lambda f: (f.line, f.column))
    out = []
    for leftover in leftovers:
        if leftover.kind is LeftoverKind.IMPORT and not leftover.foreign:
            continue
        if not _covered(leftover, findings):
            out.append(leftover)
    return out


def _covered(leftover: Leftover, findings: list[Finding]) -> bool:
    for finding in findings:
        if finding.line > leftover.end_line:
            return False
        if finding.rule != RULE and leftover.covered_by(finding):
            return True
    return False


def leftover_findings(leftovers: Iterable[Leftover]) -> list[Finding]:
    """``MSM104`` findings of leftovers (:func:`uncovered` ones): torch left that no rule rewrites."""
    return [
        Finding(x.line, x.column, x.end_line, x.end_column, None, None, FindingCategory.UNKNOWN_TORCH_NAME,
                RULE, Severity.WARNING, _message_key(x), {"name": _short(x.text)},
                usage=UsageKind.IMPORT if x.kind is LeftoverKind.IMPORT else UsageKind.PATTERN)
        for x in leftovers
    ]


def _message_key(leftover: Leftover) -> str:
    foreign = leftover.foreign and leftover.kind in (LeftoverKind.NAME, LeftoverKind.IMPORT)
    return f"finding.{RULE}.{leftover.kind.value}" + (".foreign" if foreign else "")


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
