"""Read function overloads and class members from ``.pyi`` stub files with ``ast`` (no import)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from msmigrate.datagen.inventory.params import Signature, dedupe, from_ast


@dataclass
class StubClass:
    """Members of one stub class: overloads per method, plus attribute / property names."""

    methods: dict[str, list[Signature]] = field(default_factory=dict)
    attributes: set[str] = field(default_factory=set)
    init: list[Signature] = field(default_factory=list)


@dataclass
class StubModule:
    functions: dict[str, list[Signature]] = field(default_factory=dict)
    classes: dict[str, StubClass] = field(default_factory=dict)
    all_names: list[str] | None = None  # the stub's ``__all__``, if it declares one
    reexports: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name → (module, name)

    def signatures(self, name: str, others: dict[str, StubModule]) -> list[Signature] | None:
        """Overloads of ``name``, following ``from mod import orig as name`` into the ``others`` stubs."""
        if name in self.functions:
            return self.functions[name]
        module, original = self.reexports.get(name, ("", ""))
        other = others.get(module)
        return other.functions.get(original) if other is not None else None


def parse_stub(path: Path) -> StubModule:
    """All top-level functions (every overload) and classes of a stub file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = StubModule()
    for node in _statements(tree.body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            module.functions.setdefault(node.name, []).append(from_ast(node.args))
        elif isinstance(node, ast.ClassDef):
            module.classes[node.name] = _parse_class(node)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                module.reexports[alias.asname or alias.name] = (node.module, alias.name)
        elif (names := _all_assignment(node)) is not None:
            module.all_names = [*(module.all_names or []), *names]
    module.functions = {name: dedupe(sigs) for name, sigs in module.functions.items()}
    return module


def _all_assignment(node: ast.stmt) -> list[str] | None:
    """The strings of ``__all__ = [...]`` / ``__all__ += [...]``."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign):
        targets = [node.target]
    else:
        return None
    if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
        return None
    value = node.value
    if not isinstance(value, ast.List | ast.Tuple):
        return None
    return [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def _parse_class(node: ast.ClassDef) -> StubClass:
    cls = StubClass()
    for item in _statements(node.body):
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            decorators = {_decorator_name(d) for d in item.decorator_list}
            if decorators & {"property", "setter", "deleter", "cached_property"}:
                cls.attributes.add(item.name)
                continue
            sig = from_ast(item.args, drop_first="staticmethod" not in decorators)
            if item.name in ("__init__", "__new__"):
                cls.init.append(sig)
            else:
                cls.methods.setdefault(item.name, []).append(sig)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            cls.attributes.add(item.target.id)
        elif isinstance(item, ast.Assign):
            cls.attributes.update(t.id for t in item.targets if isinstance(t, ast.Name))
    cls.methods = {name: dedupe(sigs) for name, sigs in cls.methods.items()}
    cls.attributes -= set(cls.methods)
    cls.init = dedupe(cls.init)
    return cls


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a body, descending into ``if``/``try`` blocks (version guards)."""
    for node in body:
        if isinstance(node, ast.If):
            yield from _statements(node.body)
            yield from _statements(node.orelse)
        elif isinstance(node, ast.Try):
            yield from _statements(node.body)
        else:
            yield node
