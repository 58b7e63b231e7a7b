"""Walk imported modules and classes with ``inspect``, recording kinds and signatures.

Used by both generators; the caller imports the package and hands the objects in, so this module
itself imports neither torch nor MindSpore.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import Any

from msmigrate.datagen.inventory.params import Signature, dedupe, from_ast, from_inspect, is_generic
from msmigrate.datagen.inventory.stubs import StubClass

KINDS = ("module", "function", "class", "method", "attribute", "tensor_method", "tensor_attribute")
CALLABLE_KINDS = frozenset({"function", "class", "method", "tensor_method"})

_DOC_SIGNATURE = re.compile(r"^\s*([\w.]+)\((.*)\)\s*(?:->.*)?$")
_DOC_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:py:)?(?:function|method)::\s*([\w.]+)\((.*)\)\s*(?:->.*)?$")


@dataclass
class Inventory:
    """The ``apis`` mapping being built; the first record of a name wins."""

    apis: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, name: str, kind: str, signatures: list[Signature] | None = None,
            source: str | None = None) -> None:
        if name in self.apis:
            return
        entry: dict[str, Any] = {"kind": kind}
        if kind in CALLABLE_KINDS:
            entry["signatures"] = signatures or []
        if source == "mapping_table" or (source and signatures):
            entry["source"] = source
        self.apis[name] = entry

    def add_module(self, name: str) -> None:
        self.add(name, "module")


def safe_getattr(obj: object, name: str) -> Any:
    try:
        return getattr(obj, name)
    except Exception:  # lazy modules and properties may raise anything
        return None


def resolve(root: ModuleType, name: str) -> Any:
    """Follow ``pkg.a.b.c`` through attributes, importing submodules on the way; ``None`` if absent."""
    obj: Any = root
    parts = name.split(".")
    for index, part in enumerate(parts[1:], start=1):
        nxt = safe_getattr(obj, part)
        if nxt is None and hasattr(obj, "__path__"):
            try:
                nxt = importlib.import_module(".".join(parts[: index + 1]))
            except Exception:  # a broken or platform-specific submodule
                return None
        if nxt is None:
            return None
        obj = nxt
    return obj


def public_names(module: ModuleType, owners: tuple[str, ...], stub_names: Iterable[str] = ()) -> list[str]:
    """Public names of ``module``: its ``__all__`` if it has one, else names defined under ``owners``."""
    declared = safe_getattr(module, "__all__")
    if declared is not None:
        return sorted({n for n in declared if isinstance(n, str) and not n.startswith("_")
                       and _has(module, n)})
    stub_set = set(stub_names)
    names = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        obj = safe_getattr(module, name)
        if inspect.ismodule(obj):
            continue
        owner = getattr(obj, "__module__", None)
        if name in stub_set or (isinstance(owner, str) and owner.startswith(owners)):
            names.append(name)
    return sorted(names)


def _has(module: ModuleType, name: str) -> bool:
    try:
        getattr(module, name)
    except Exception:
        return False
    return True


def classify(obj: object) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "attribute"


def callable_signatures(obj: object, name: str, stub: list[Signature] | None = None,
                        drop_first: bool = False) -> tuple[list[Signature], str | None]:
    """Overloads of a callable: ``inspect`` for real Python code, else stubs, ``inspect``, docstring.

    A ``(*args, **kwargs)`` wrapper signature is used only when nothing better is known.
    """
    python_code = inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.isclass(obj)
    generic: Signature | None = None
    if python_code:
        sig = _inspect(obj, drop_first)
        if sig is not None and not is_generic(sig):
            return [sig], "inspect"
        generic = sig
    if stub:
        return stub, "stub"
    if not python_code:
        sig = _inspect(obj, drop_first)
        if sig is not None and not is_generic(sig):
            return [sig], "inspect"
        generic = generic or sig
    doc_sigs = docstring_signatures(obj, name)
    if doc_sigs:
        return doc_sigs, "docstring"
    if generic is not None:
        return [generic], "inspect"
    return [], None


def _inspect(obj: object, drop_first: bool) -> Signature | None:
    try:
        return from_inspect(inspect.signature(obj), drop_first=drop_first)
    except Exception:  # builtins without text signatures, odd C types
        return None


def docstring_signatures(obj: object, name: str) -> list[Signature]:
    """Parse ``name(a, b=1, *, out=None) -> Tensor`` lines of a docstring, as C builtins carry.

    Reads the leading signature lines and every ``.. function::`` / ``.. method::`` overload line.
    """
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return []
    signatures: list[Signature] = []
    leading = True
    for line in doc.splitlines():
        if not line.strip():
            continue
        directive = _DOC_DIRECTIVE.match(line)
        match = directive or (_DOC_SIGNATURE.match(line) if leading else None)
        if not directive and not match:
            leading = False
            continue
        if match and match.group(1).rsplit(".", 1)[-1] == name:
            sig = _parse_arguments(match.group(2))
            if sig is not None:
                signatures.append(sig)
                continue
        leading = False
    return dedupe(signatures)


def _parse_arguments(text: str) -> Signature | None:
    try:
        tree = ast.parse(f"def _f({text}): pass")
    except SyntaxError:
        return None
    func = tree.body[0]
    if not isinstance(func, ast.FunctionDef):
        return None
    first = [*func.args.posonlyargs, *func.args.args][:1]
    return from_ast(func.args, drop_first=bool(first) and first[0].arg == "self")


@dataclass
class ModuleWalker:
    """Record the public names of modules into an :class:`Inventory`."""

    inventory: Inventory

    def walk(self, module_name: str, module: ModuleType, names: Iterable[str],
             stub_functions: dict[str, list[Signature]] | None = None,
             stub_classes: dict[str, StubClass] | None = None) -> None:
        self.inventory.add_module(module_name)
        for name in names:
            obj = safe_getattr(module, name)
            self.add_object(f"{module_name}.{name}", name, obj, stub_functions, stub_classes)

    def add_object(self, full_name: str, name: str, obj: object,
                   stub_functions: dict[str, list[Signature]] | None = None,
                   stub_classes: dict[str, StubClass] | None = None) -> None:
        kind = classify(obj)
        if kind == "function":
            sigs, source = callable_signatures(obj, name, (stub_functions or {}).get(name))
            self.inventory.add(full_name, kind, sigs, source)
        elif kind == "class":
            stub_cls = (stub_classes or {}).get(name)
            sigs, source = callable_signatures(obj, name, stub_cls.init if stub_cls else None)
            self.inventory.add(full_name, kind, sigs, source)
        else:
            self.inventory.add(full_name, kind)

    def add_cited(self, root: ModuleType, name: str, tensor_like: Callable[[str, type], bool],
                  tensor_stub: StubClass | None = None) -> None:
        """A name a mapping table cites, recorded when it resolves in the installed package ``root``."""
        if name in self.inventory.apis or not name.startswith(root.__name__ + "."):
            return
        obj = resolve(root, name)
        if obj is None:
            return
        parent, _, short = name.rpartition(".")
        owner = resolve(root, parent)
        if isinstance(owner, type) and not inspect.ismodule(obj):
            is_tensor = tensor_like(parent, owner)
            self.add_member(parent, owner, short, method_kind="tensor_method" if is_tensor else "method",
                            attribute_kind="tensor_attribute" if is_tensor else "attribute",
                            stub=tensor_stub if is_tensor else None)
        else:
            self.add_object(name, short, obj)

    def walk_members(self, class_name: str, cls: type, *, method_kind: str = "method",
                     attribute_kind: str = "attribute", stub: StubClass | None = None,
                     own_only: bool = False) -> None:
        """Record the public methods and attributes of a class under ``class_name.member``."""
        names = sorted(cls.__dict__) if own_only else dir(cls)
        for name in names:
            if not name.startswith("_"):
                self.add_member(class_name, cls, name, method_kind=method_kind,
                                attribute_kind=attribute_kind, stub=stub)
        # instance attributes declared by annotation only (``training: bool`` of torch.nn.Module)
        for name in _annotated_names(cls, own_only):
            if not name.startswith("_") and name not in names:
                self.inventory.add(f"{class_name}.{name}", attribute_kind)

    def add_member(self, class_name: str, cls: type, name: str, *, method_kind: str = "method",
                   attribute_kind: str = "attribute", stub: StubClass | None = None) -> None:
        """Record one member ``class_name.name`` as a method, attribute or nested class."""
        try:
            raw = inspect.getattr_static(cls, name)
        except AttributeError:
            return
        full = f"{class_name}.{name}"
        if _is_data(raw) or (stub is not None and name in stub.attributes):
            self.inventory.add(full, attribute_kind)
            return
        obj = safe_getattr(cls, name)
        if _is_type_alias(obj):
            return
        if inspect.isclass(obj):
            self.add_object(full, name, obj)
        elif not callable(obj) or _is_enum_value(obj):
            self.inventory.add(full, attribute_kind)
        else:
            bound = isinstance(raw, staticmethod | classmethod)
            stub_sigs = stub.methods.get(name) if stub is not None else None
            sigs, source = callable_signatures(obj, name, stub_sigs, drop_first=not bound)
            self.inventory.add(full, method_kind, sigs, source)


def _annotated_names(cls: type, own_only: bool) -> list[str]:
    names: set[str] = set()
    for klass in (cls,) if own_only else cls.__mro__:
        try:
            names.update(inspect.get_annotations(klass))
        except Exception:  # annotations of C types or broken ones
            continue
    return sorted(names)


def _is_enum_value(obj: object) -> bool:
    """``ReduceOp.SUM``: a value of an enumeration (Python or pybind11; the latter are callable)."""
    return isinstance(obj, enum.Enum) or isinstance(getattr(type(obj), "__members__", None), dict)


def _is_type_alias(obj: object) -> bool:
    """``Optimizer.OptimizerPreHook = Callable[...]``: a typing construct, not an API."""
    alias_modules = ("typing", "typing_extensions", "types", "collections.abc")
    return type(obj).__module__ in alias_modules and not inspect.isroutine(obj)


def _is_data(raw: object) -> bool:
    if isinstance(raw, property | cached_property):
        return True
    return inspect.isgetsetdescriptor(raw) or inspect.ismemberdescriptor(raw)
