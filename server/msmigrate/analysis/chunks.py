"""Top-level statements as units of re-analysis, with the module names each binds and reads.

A *chunk* is one top-level statement (several when they share a line, ``a = 1; b = 2``), decorators
included. The name facts are over-approximations, which is what incremental analysis needs: a chunk
may read a name it does not really read, but never the other way round.

- ``reads``: every identifier the chunk mentions (any scope), and the head of every dotted-name string
  (string annotations such as ``"Block"`` are resolved by the analyzer);
- ``binds``: names the chunk binds in the module scope (targets outside function bodies, ``def`` and
  ``class`` names, imports, ``except … as``/``match`` captures, names declared ``global`` anywhere);
- ``impure``: the chunk assigns an attribute of something other than its own ``self``/``cls``
  (``model.fc = …``, ``self.block.act = …``): the analyzer then changes a class defined elsewhere;
- ``defines``: holds a ``def`` or ``class`` (a body the analyzer may analyse when it is called);
- ``imports_torch``: imports torch, torchvision, torchaudio or torchtext anywhere;
- ``star_import``: ``from m import *`` (binds names nobody can list: no incremental analysis);
- ``imports_only``: every statement is an import.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from dataclasses import dataclass, field

from msmigrate.analysis.tables import TORCH_ROOTS

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_SELF_NAMES = frozenset({"self", "cls"})
_MAX_STRING_NAME = 200


@dataclass(slots=True, eq=False)
class Chunk:
    """One unit of re-analysis. ``start``/``end`` are 1-based lines, inclusive."""

    start: int
    end: int
    nodes: list[ast.stmt]  # while it is described (kept only when broken: the text is parsed again)
    binds: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()
    impure: bool = False
    defines: bool = False
    imports_torch: bool = False
    star_import: bool = False
    imports_only: bool = False  # every statement is an import
    # what quick fixes need to know of a file's imports (see fixes/imports.py): the chunk imports at
    # top level or directly inside a top-level try/if; every statement is an import, a try of imports,
    # a string (docstring) or a __future__ import
    import_related: bool = False
    import_block: bool = False
    # (line, message) when the lines do not parse: ``nodes`` then keeps what recovery made of them,
    # parsed when the chunk started at ``parsed_start``
    broken: tuple[int | None, str | None] | None = None
    parsed_start: int = 0
    triggers: set[Chunk] = field(default_factory=set)  # chunks whose code first ran a body of this one


def first_line(node: ast.stmt) -> int:
    """A statement's first line, its decorators included."""
    decorators = getattr(node, "decorator_list", None)
    if decorators:
        return min(node.lineno, *(d.lineno for d in decorators))
    return node.lineno


def chunk_at(chunks: list[Chunk], starts: list[int], line: int) -> Chunk | None:
    """The chunk holding 1-based ``line`` (``starts``: the chunks' first lines), or ``None``."""
    index = bisect_right(starts, line) - 1
    if index < 0 or line > chunks[index].end:
        return None
    return chunks[index]


def chunks_of(body: list[ast.stmt]) -> list[Chunk]:
    """The module's statements grouped into chunks (statements sharing a line go together)."""
    chunks: list[Chunk] = []
    for node in body:
        start, end = first_line(node), node.end_lineno or node.lineno
        if chunks and start <= chunks[-1].end:
            last = chunks[-1]
            last.nodes.append(node)
            last.end = max(last.end, end)
        else:
            chunks.append(Chunk(start, end, [node]))
    for chunk in chunks:
        describe(chunk)
    return chunks


def describe(chunk: Chunk) -> None:
    """Fill the chunk's name facts (see the module docstring)."""
    binds: set[str] = set()
    reads: set[str] = set()
    flags = {"impure": False, "defines": False, "imports_torch": False, "star_import": False}
    # (node, binds_in_module, in_method): is a store here a module binding; is ``self`` the own instance
    stack: list[tuple[ast.AST, bool, bool]] = [(node, True, False) for node in chunk.nodes]
    pop, push = stack.pop, stack.append
    while stack:
        node, module_level, in_method = pop()
        kind = type(node)
        if kind is ast.Name:
            reads.add(node.id)
            if module_level and type(node.ctx) is not ast.Load:
                binds.add(node.id)
            continue
        if kind is ast.Constant:
            value = node.value
            if type(value) is str and len(value) < _MAX_STRING_NAME:
                head = value.strip().partition(".")[0]
                if head.isidentifier():
                    reads.add(head)
            continue
        if kind is ast.Attribute:
            if type(node.ctx) is not ast.Load and not (
                in_method and type(node.value) is ast.Name and node.value.id in _SELF_NAMES
            ):
                flags["impure"] = True
            push((node.value, module_level, in_method))
            continue
        if kind in _FUNCTIONS or kind is ast.ClassDef:
            flags["defines"] = True
            if module_level:
                binds.add(node.name)
            for decorator in node.decorator_list:
                push((decorator, module_level, in_method))
            if kind is ast.ClassDef:
                for expr in (*node.bases, *(k.value for k in node.keywords)):
                    push((expr, module_level, in_method))
                for stmt in node.body:  # class scope; its functions are methods
                    push((stmt, False, True))
            else:
                _push_arguments(node.args, module_level, in_method, push)
                if node.returns is not None:
                    push((node.returns, module_level, in_method))
                method = in_method and not module_level  # a method, or a function inside one
                for stmt in node.body:
                    push((stmt, False, method))
            continue
        if kind is ast.Lambda:
            _push_arguments(node.args, module_level, in_method, push)
            push((node.body, False, in_method))
            continue
        if kind in _COMPREHENSIONS:
            for child in ast.iter_child_nodes(node):
                if type(child) is ast.comprehension:
                    push((child.target, False, in_method))  # comprehension variables are its own
                    push((child.iter, module_level, in_method))
                    for condition in child.ifs:
                        push((condition, module_level, in_method))
                else:
                    push((child, module_level, in_method))
            continue
        if kind is ast.NamedExpr:
            target = node.target
            reads.add(target.id)
            if module_level:
                binds.add(target.id)  # also from a module-level comprehension
            push((node.value, module_level, in_method))
            continue
        if kind is ast.Global:
            binds.update(node.names)
            reads.update(node.names)
            continue
        if kind is ast.Import or kind is ast.ImportFrom:
            _import(node, module_level, binds, reads, flags)
            continue
        if kind is ast.ExceptHandler and node.name:
            reads.add(node.name)
            if module_level:
                binds.add(node.name)
        elif kind in (ast.MatchAs, ast.MatchStar) and node.name:
            reads.add(node.name)
            if module_level:
                binds.add(node.name)
        elif kind is ast.MatchMapping and node.rest:
            reads.add(node.rest)
            if module_level:
                binds.add(node.rest)
        for child in ast.iter_child_nodes(node):
            push((child, module_level, in_method))
    chunk.binds = frozenset(binds)
    chunk.reads = frozenset(reads)
    chunk.impure = flags["impure"]
    chunk.defines = flags["defines"]
    chunk.imports_torch = flags["imports_torch"]
    chunk.star_import = flags["star_import"]
    chunk.imports_only = all(type(node) in (ast.Import, ast.ImportFrom) for node in chunk.nodes)
    chunk.import_related = any(
        type(node) in _IMPORTS
        or (type(node) in (ast.Try, ast.If) and any(type(inner) in _IMPORTS for inner in node.body))
        for node in chunk.nodes
    )
    chunk.import_block = all(_leading(node) for node in chunk.nodes)


_IMPORTS = (ast.Import, ast.ImportFrom)


def _leading(node: ast.stmt) -> bool:
    """A statement of the leading block ``import mindspore`` goes after (or a docstring)."""
    if type(node) in _IMPORTS:
        return True
    if type(node) is ast.Try:
        return all(type(inner) in _IMPORTS for inner in node.body)
    return type(node) is ast.Expr and type(node.value) is ast.Constant and type(node.value.value) is str


def _push_arguments(args: ast.arguments, module_level: bool, in_method: bool, push) -> None:
    """Defaults and annotations are evaluated where the function is defined; parameters are its own."""
    for default in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
        push((default, module_level, in_method))
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
        if arg is not None and arg.annotation is not None:
            push((arg.annotation, module_level, in_method))


def _import(node: ast.Import | ast.ImportFrom, module_level: bool, binds: set[str], reads: set[str],
            flags: dict[str, bool]) -> None:
    if type(node) is ast.ImportFrom:
        if node.level == 0 and (node.module or "").partition(".")[0] in TORCH_ROOTS:
            flags["imports_torch"] = True
        for alias in node.names:
            if alias.name == "*":
                flags["star_import"] = True
                continue
            name = alias.asname or alias.name
            reads.add(name)
            if module_level:
                binds.add(name)
        return
    for alias in node.names:
        root = alias.name.partition(".")[0]
        if root in TORCH_ROOTS:
            flags["imports_torch"] = True
        name = alias.asname or root
        reads.add(name)
        if module_level:
            binds.add(name)
