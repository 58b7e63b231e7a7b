"""Every public name of a package, each tied to its canonical spelling.

The walk reads the public names of every discovered module and the members of every public class.
Functions and classes are identified by the object: all the spellings of one object
(``torch.functional.split``, ``torch.split``) share one entry under the *canonical* spelling, and the
others become aliases. Canonical = the spelling whose last part is the object's own ``__name__``, then
the fewest parts (the documented namespace), then the shortest, then alphabetical: ``torch.nn.L1Loss``
over ``torch.nn.modules.loss.L1Loss``. Members are listed under the class that defines them (or under the
first public class when a private base defines them, ``torch._C.TensorBase`` → ``torch.Tensor``); a
class records its public bases in method resolution order: ``torch.nn.Linear.to`` resolves to
``torch.nn.Module.to``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from msmigrate.datagen.inventory.introspect import (
    Inventory,
    ModuleWalker,
    _annotated_names,
    _has,
    _is_type_alias,
    safe_getattr,
)
from msmigrate.datagen.inventory.params import Signature
from msmigrate.datagen.inventory.stubs import StubClass

# plain values a module may export as a constant (``torch.pi``, ``torch.serialization.DEFAULT_PROTOCOL``)
_CONSTANT_TYPES = (int, float, complex, str, bool, bytes)
_NEVER_PUBLIC = frozenset({"TYPE_CHECKING", "annotations"})


@dataclass
class WalkHooks:
    """Package-specific knowledge the generic walk asks for."""

    function_stub: Callable[[list[str], str], list[Signature] | None] = lambda spellings, name: None
    class_stub: Callable[[str, type], StubClass | None] = lambda name, cls: None
    excluded: frozenset[str] = frozenset()  # full names that are not user APIs
    # a class that copies the members of another public class (the legacy ``torch.FloatTensor`` types copy
    # ``torch.Tensor``'s): its members resolve through that class, recorded as its base
    members_of: Callable[[str, type], str | None] = lambda name, cls: None
    extra_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # public names ``__all__`` omits


@dataclass
class WalkResult:
    apis: dict[str, dict[str, Any]]
    aliases: dict[str, str] = field(default_factory=dict)  # other spelling → canonical name
    skipped: dict[str, str] = field(default_factory=dict)  # module not walked → why


def walk_package(root: str, modules: dict[str, ModuleType], hooks: WalkHooks | None = None) -> WalkResult:
    """The inventory of ``root`` from its imported public ``modules`` (name → module, any order)."""
    hooks = hooks or WalkHooks()
    spellings: dict[int, list[str]] = {}
    objects: dict[int, Any] = {}
    values: dict[str, Any] = {}  # spellings of plain values (not tied by identity)
    module_entries: list[str] = []
    module_aliases: dict[str, str] = {}
    by_object = {id(module): name for name, module in modules.items()}
    for module_name in sorted(modules):
        module = modules[module_name]
        if _is_reachable(module_name, module, modules):
            module_entries.append(module_name)
        names = {*public_names(root, module_name, module), *hooks.extra_names.get(module_name, ())}
        for name in sorted(names):
            full = f"{module_name}.{name}"
            if full in hooks.excluded or not _has(module, name):
                continue
            obj = safe_getattr(module, name)
            if inspect.ismodule(obj):
                # submodules are entries of their own; a module exported under another name is an alias
                # (``mindspore.dtype`` → ``mindspore.common.dtype``)
                target = by_object.get(id(obj))
                if target is not None and target != full:
                    module_aliases[full] = target
                elif target is None and getattr(obj, "__name__", None) == full:
                    values[full] = obj  # a dynamic namespace object (``torch.ops``): an attribute
                continue
            if _tied(obj):
                spellings.setdefault(id(obj), []).append(full)
                objects[id(obj)] = obj
            else:
                values[full] = obj

    def rank(name: str, obj: object) -> tuple[bool, int, int, str]:
        return (name.rpartition(".")[2] != getattr(obj, "__name__", None), name.count("."), len(name), name)

    canonical = {key: min(names, key=lambda n, o=objects[key]: rank(n, o))
                 for key, names in spellings.items()}
    inventory = Inventory()
    walker = ModuleWalker(inventory)
    aliases: dict[str, str] = {a: t for a, t in module_aliases.items() if a not in modules}
    for name in module_entries:
        inventory.add_module(name)
    classes: dict[int, str] = {}
    for key in sorted(canonical, key=canonical.__getitem__):
        obj, name = objects[key], canonical[key]
        for other in spellings[key]:
            if other != name:
                aliases[other] = name
        short = name.rpartition(".")[2]
        stub = hooks.function_stub(sorted(spellings[key], key=lambda n, o=obj: rank(n, o)), short)
        walker.add_object(name, short, obj, {short: stub} if stub else None)
        if inspect.isclass(obj):
            classes[key] = name
    for full in sorted(values):
        if full not in inventory.apis and full not in aliases:
            inventory.add(full, "attribute")
    # a class exported under another name (``mindspore.graph.api.Tensor`` is ``TensorPy``, the C++ base of
    # ``mindspore.Tensor``) is an implementation base: its members are listed under its public subclasses
    bases = {key: name for key, name in classes.items()
             if name.rpartition(".")[2] == getattr(objects[key], "__name__", None)}
    for key in sorted(classes, key=classes.__getitem__):
        cls = objects[key]
        if not _owned(cls, root):
            continue
        _walk_class(walker, classes[key], cls, {**bases, key: classes[key]}, aliases, root, hooks)
    for alias in [a for a in aliases if a in inventory.apis]:
        del aliases[alias]  # a real entry wins over an alias of the same spelling
    return WalkResult(inventory.apis, dict(sorted(aliases.items())))


def public_names(root: str, module_name: str, module: ModuleType) -> list[str]:
    """Public names of one module: its ``__all__``, plus the objects defined in it, in its submodules or in
    private modules of the package (``torch.jit.is_scripting`` comes from ``torch._jit_internal``), plus
    C operators of the package, plus constants of the package's own types (``torch.float32``). Names
    imported from other public modules of the package (``from torch import Tensor``) are left to those."""
    names: set[str] = set()
    declared = safe_getattr(module, "__all__")
    if isinstance(declared, list | tuple):
        names.update(n for n in declared if isinstance(n, str) and not n.startswith("_"))
    for name in dir(module):
        if name.startswith("_") or name in names or name in _NEVER_PUBLIC:
            continue
        obj = safe_getattr(module, name)
        if inspect.ismodule(obj):
            if getattr(obj, "__name__", None) == f"{module_name}.{name}":
                names.add(name)  # a submodule, or a namespace object like ``torch.ops``
            continue
        if obj is None or _is_type_alias(obj):
            continue
        if _tied(obj):
            owner = getattr(obj, "__module__", None)
            if isinstance(owner, str) and (_defined_for(owner, module_name, root)
                                           or (inspect.isbuiltin(obj) and _in_package(owner, root))):
                names.add(name)  # C operators are re-exported on purpose (``F.conv_transpose1d``)
        elif _owned(type(obj), root) or (isinstance(obj, _CONSTANT_TYPES) and declared is None):
            names.add(name)
    return sorted(n for n in names if _has(module, n))


def _defined_for(owner: str, module_name: str, root: str) -> bool:
    if owner == module_name or owner.startswith(module_name + "."):
        return True
    return _in_package(owner, root) and any(part.startswith("_") for part in owner.split("."))


def _in_package(owner: str, root: str) -> bool:
    return owner == root or owner.startswith(root + ".")


def _tied(obj: object) -> bool:
    """Functions, classes and other callables are one object under many spellings; plain values are not."""
    return inspect.isclass(obj) or inspect.isroutine(obj) or (
        callable(obj) and isinstance(getattr(obj, "__name__", None), str)
    )


def _owned(cls: type, root: str) -> bool:
    owner = getattr(cls, "__module__", None)
    return isinstance(owner, str) and (owner == root or owner.startswith(root + "."))


def _is_reachable(module_name: str, module: ModuleType, modules: dict[str, ModuleType]) -> bool:
    """False for ``torch.multiprocessing.spawn`` (a module whose name its parent uses for a function)."""
    parent, _, short = module_name.rpartition(".")
    owner = modules.get(parent)
    if owner is None:
        return True
    value = safe_getattr(owner, short)
    return value is None or value is module


def _walk_class(walker: ModuleWalker, class_name: str, cls: type, classes: dict[int, str],
                aliases: dict[str, str], root: str, hooks: WalkHooks) -> None:
    """Members ``cls`` defines itself or inherits from private bases; its public bases in MRO order."""
    tensor = class_name == f"{root}.Tensor"
    method_kind, attribute_kind = ("tensor_method", "tensor_attribute") if tensor else ("method", "attribute")
    copied_from = hooks.members_of(class_name, cls)
    if copied_from is not None:
        entry = walker.inventory.apis.get(class_name)
        if entry is not None:
            entry["bases"] = [copied_from]
        return
    stub = hooks.class_stub(class_name, cls)
    mro = _mro(cls)
    public_bases = [classes[id(k)] for k in mro[1:] if id(k) in classes and k is not object]
    own = [name for name in _member_names(cls) if _definer(mro, name, classes) is cls]
    for name in own:
        full = f"{class_name}.{name}"
        if full in hooks.excluded:
            continue
        value = safe_getattr(cls, name)
        if inspect.isclass(value) and id(value) in classes and classes[id(value)] != full:
            aliases[full] = classes[id(value)]
            continue
        walker.add_member(class_name, cls, name, method_kind=method_kind, attribute_kind=attribute_kind,
                          stub=stub)
    members = set(_member_names(cls))
    for name in _annotated_names(cls, own_only=False):  # instance attributes declared by annotation only
        if name.startswith("_") or name in members:
            continue
        if _definer(mro, name, classes, annotations=True) is cls:
            walker.inventory.add(f"{class_name}.{name}", attribute_kind)
    entry = walker.inventory.apis.get(class_name)
    if entry is not None and public_bases:
        entry["bases"] = public_bases


def _mro(cls: type) -> tuple[type, ...]:
    try:
        return tuple(inspect.getmro(cls))
    except Exception:
        return (cls,)


def _member_names(cls: type) -> list[str]:
    try:
        names = dir(cls)
    except Exception:  # a broken __dir__
        names = list(vars(cls))
    return sorted(n for n in names if not n.startswith("_"))


def _definer(mro: Iterable[type], name: str, classes: dict[int, str],
             annotations: bool = False) -> type | None:
    """The class a member belongs to: the first class in the MRO defining it, moved down to the nearest
    public class when a private or foreign base defines it (``None`` for ``object``'s members)."""
    mro = list(mro)
    for index, klass in enumerate(mro):
        defined = _annotations(klass) if annotations else _own_dict(klass)
        if name in defined:
            if klass is object:
                return None
            for public in reversed(mro[: index + 1]):
                if id(public) in classes:
                    return public
            return mro[0]
    return None


def _own_dict(klass: type) -> Any:
    try:
        return vars(klass)
    except TypeError:
        return {}


def _annotations(klass: type) -> dict[str, Any]:
    try:
        return inspect.get_annotations(klass)
    except Exception:
        return {}
