"""Receiver inference: which torch calls and members produce tensors, modules and optimizers.

The facts are data (``tables.py``); :class:`TorchFacts` answers per qualified name (cached) from the
knowledge base's inventory, and :func:`call_result` / :func:`member_value` compute expression values.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from msmigrate.analysis.tables import (
    INTERNAL_MODULE_PREFIXES,
    INTERNAL_MODULES,
    MEMBER_OWNERS,
    MODEL_FACTORY_PREFIXES,
    MODULE_CLASS_NAMESPACES,
    MODULE_RETURNING_METHODS,
    NON_MODULE_CLASSES,
    NON_TENSOR_FUNCTIONS,
    NON_TENSOR_METHODS,
    NON_TORCH_PACKAGES,
    RETURN_FIELDS,
    SAME_CELL_ATTRIBUTES,
    TENSOR_CLASSES,
    TENSOR_FUNCTION_NAMESPACES,
    TENSOR_RETURNING_MEMBERS,
    TENSOR_VALUED_ATTRIBUTES,
    TORCH_ROOTS,
)
from msmigrate.analysis.values import (
    MODULE,
    OPTIMIZER,
    OTHER,
    TENSOR,
    TENSOR_VALUE,
    UNKNOWN,
    Foreign,
    Instance,
    Member,
    Opaque,
    UserClass,
    UserFunction,
)

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase


class TorchFacts:
    """Per-knowledge-base, cached answers about torch names (namespaces, kinds, what calls return)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        inventory = kb.torch_inventory
        self.inventory = inventory
        prefixes: set[str] = set(TORCH_ROOTS)
        for name in inventory:
            parts = name.split(".")
            for i in range(1, len(parts)):
                prefixes.add(".".join(parts[:i]))
        self.prefixes = frozenset(prefixes)
        # roots the inventory says nothing about (torchvision when it is not installed): every dotted name
        # under them is taken as one API name, ``torchvision.models.resnet50``
        self.uncovered_roots = frozenset(
            root for root in TORCH_ROOTS if inventory.get(root, {}).get("kind") != "module"
        )
        self.tensor_members = kb.tensor_members
        self.module_members = kb.module_members
        self.optimizer_members = kb.optimizer_members
        # methods tensors and modules share (to, half, float, cuda, …): Tensor findings need a tensor
        self.shared_members = self.tensor_members & self.module_members
        self._namespace: dict[str, bool] = {}
        self._known: dict[str, bool] = {}
        self._result: dict[str, object] = {}
        self._children: dict[str, frozenset[str]] = {}
        self._module_object: dict[str, bool] = {}

    def known(self, name: str) -> bool:
        found = self._known.get(name)
        if found is None:
            found = self._known[name] = self.kb.is_torch_api(name) or self.kb.row(name) is not None
        return found

    def kind(self, name: str) -> str | None:
        """The inventory kind of the object ``name`` spells (aliases and inherited members resolved)."""
        return self.kb.torch_kind(name)

    def is_namespace(self, name: str) -> bool:
        """A module or class whose attributes are torch names themselves (``torch.nn``, ``torch.Tensor``)."""
        found = self._namespace.get(name)
        if found is None:
            kind = self.kind(name)
            found = kind in ("module", "class") or (kind is None and name in self.prefixes)
            found = found or (kind is None and _is_internal_module(name))
            if not found and kind is None and name.partition(".")[0] in self.uncovered_roots:
                found = True  # the inventory cannot tell where the module path ends
            private = name.rpartition(".")[2].startswith("_")
            if not found and kind is None and private and not self.known(name):
                found = True  # a private module the public inventory leaves out (torch._dynamo.mark_static)
            self._namespace[name] = found
        return found

    def unlisted_class_member(self, owner: str, attr: str) -> bool:
        """``ReduceOp.SUM``: a member the inventory does not list, of a class (not a module). Such
        members are plain attribute lookups on the class (enum values, constants), not typos."""
        return self.kind(owner) == "class" and not self.known(f"{owner}.{attr}")

    def is_module_object(self, name: str) -> bool:
        """A Python module (``torch``, ``torch.nn``): referencing it is not a finding."""
        found = self._module_object.get(name)
        if found is None:
            kind = self.kind(name)
            found = kind == "module" or (kind is None and name in self.prefixes and "." not in name)
            found = found or (kind is None and name in INTERNAL_MODULES)
            self._module_object[name] = found
        return found

    def child(self, parent: str, attr: str) -> str:
        """The torch name of ``parent.attr``, through public re-exports of internal modules
        (``torch.nn.modules.conv.Conv2d`` → ``torch.nn.Conv2d``)."""
        name = f"{parent}.{attr}"
        if self.known(name) or not _is_internal_module(parent):
            return name
        public = _public_module(parent)
        alias = f"{public}.{attr}" if public else None
        return alias if alias and self.known(alias) else name

    def children(self, module: str) -> frozenset[str]:
        found = self._children.get(module)
        if found is None:
            found = self._children[module] = self.kb.children(module)
        return found

    def class_kind(self, name: str) -> str | None:
        """``tensor`` / ``module`` / ``optimizer`` for a torch class whose instances are of that kind."""
        if name in TENSOR_CLASSES:
            return TENSOR
        if name in NON_MODULE_CLASSES:
            return None
        parent, _, short = name.rpartition(".")
        if not short[:1].isupper():
            return None
        if parent in MODULE_CLASS_NAMESPACES or parent.startswith("torch.nn.modules."):
            return MODULE if self.kind(name) in ("class", None) else None
        if parent == "torch.optim" and self.kind(name) in ("class", None):
            return OPTIMIZER
        return None

    def call_result(self, name: str) -> object:
        """Value of calling the torch object ``name``."""
        found = self._result.get(name)
        if found is None:
            found = self._result[name] = self._compute_call_result(name)
        return found

    def _compute_call_result(self, name: str) -> object:
        kind = self.kind(name)
        if name.startswith(MODEL_FACTORY_PREFIXES) and name.rpartition(".")[2][:1].islower():
            return Instance(MODULE, torch_class=None)  # torchvision.models.resnet50() builds a Module
        if kind == "class" or (kind is None and name.rpartition(".")[2][:1].isupper()):
            ckind = self.class_kind(name)
            if ckind == TENSOR:
                return TENSOR_VALUE
            if ckind is not None:
                return Instance(ckind, torch_class=name)
            # another torch class (GradScaler, a scheduler, torch.device): its members are torch APIs too
            return Instance(None, torch_class=name) if kind == "class" else UNKNOWN
        if name in NON_TENSOR_FUNCTIONS:
            return OTHER
        if kind in ("function", None) and name.rpartition(".")[0] in TENSOR_FUNCTION_NAMESPACES:
            if kind == "function" and name.startswith("torch.") and name.count(".") == 1:
                return named_tuple(name.rpartition(".")[2]) or TENSOR_VALUE
            return TENSOR_VALUE if kind == "function" else UNKNOWN
        if kind == "tensor_method":
            return TENSOR_VALUE if name.rpartition(".")[2] not in NON_TENSOR_METHODS else OTHER
        return UNKNOWN


def _is_internal_module(name: str) -> bool:
    return name in INTERNAL_MODULES or name.startswith(INTERNAL_MODULE_PREFIXES)


def _public_module(internal: str) -> str | None:
    public = INTERNAL_MODULES.get(internal)
    if public is None and internal.startswith("torch.nn.modules."):
        public = "torch.nn"
    return public


_FACTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def facts_for(kb: KnowledgeBase) -> TorchFacts:
    found = _FACTS.get(kb)
    if found is None:
        found = _FACTS[kb] = TorchFacts(kb)
    return found


def call_result(func: object, facts: TorchFacts) -> object:
    """The value of calling something whose value is ``func``."""
    kind = type(func)
    if kind is str:
        return facts.call_result(func)
    if kind is Member:
        return member_call_result(func)
    if kind is Instance:
        return TENSOR_VALUE if func.kind == MODULE else UNKNOWN
    if kind is UserClass:
        return Instance(func.kind, user_class=func) if func.kind else OTHER
    if kind is UserFunction:
        return func.returns
    if kind is Foreign:
        return OTHER if func.name.partition(".")[0] in NON_TORCH_PACKAGES else Opaque(func.name)
    if kind is Opaque:
        return UNKNOWN  # ``layer = make_conv(...)`` of another module, then ``layer(x)``: may be a tensor
    return UNKNOWN if func is UNKNOWN else OTHER


def member_call_result(member: Member) -> object:
    owner, name = member.owner, member.name
    if owner.kind == TENSOR:
        return OTHER if name in NON_TENSOR_METHODS else named_tuple(name) or TENSOR_VALUE
    if owner.kind == MODULE:
        if name in MODULE_RETURNING_METHODS:
            return owner
        if name in ("forward", "__call__", "parameters", "buffers"):
            return TENSOR_VALUE  # parameters()/buffers() iterate over tensors
        return OTHER
    if owner.kind is None and owner.torch_class:
        member = f"{_member_owner(owner.torch_class)}.{name}"
        return TENSOR_VALUE if member in TENSOR_RETURNING_MEMBERS else UNKNOWN
    return OTHER


def member_api(owner: Instance, name: str, facts: TorchFacts) -> str | None:
    """The torch API a member of a known receiver refers to (``torch.Tensor.view``), if any."""
    kind = owner.kind
    if kind == TENSOR:
        if name in return_fields(owner):
            return f"{owner.torch_class}.{name}"  # a field of the named tuple torch returns
        return "torch.Tensor." + name if name in facts.tensor_members else None
    if kind == MODULE:
        user = owner.user_class
        if user is not None and name in user.attrs:
            return None  # defined or assigned by the user's class
        if name in SAME_CELL_ATTRIBUTES:
            return None
        if owner.torch_class:
            specific = f"{owner.torch_class}.{name}"
            if specific in facts.inventory and facts.kind(specific) == "method":  # the class's own method
                return specific
        return "torch.nn.Module." + name if name in facts.module_members else None
    if kind == OPTIMIZER:
        user = owner.user_class
        if user is not None and name in user.attrs:
            return None
        return "torch.optim.Optimizer." + name if name in facts.optimizer_members else None
    if owner.torch_class and owner.user_class is None:
        member = f"{_member_owner(owner.torch_class)}.{name}"
        return member if facts.known(member) else None
    return None


def member_value(owner: Instance, name: str, facts: TorchFacts) -> object:
    """The value of ``receiver.name`` (not called) for a known receiver."""
    if owner.kind == TENSOR:
        if name in TENSOR_VALUED_ATTRIBUTES or name in return_fields(owner):
            return TENSOR_VALUE
        if name in facts.tensor_members and facts.kind("torch.Tensor." + name) == "tensor_method":
            return Member(owner, name)
        return OTHER if name in facts.tensor_members else UNKNOWN
    user = owner.user_class
    if user is not None:
        found = user.attrs.get(name)
        if found is not None:
            return found
    if owner.kind == MODULE and (name in facts.module_members or name in ("forward", "__call__")):
        return Member(owner, name)
    if owner.kind == OPTIMIZER and name in facts.optimizer_members:
        return Member(owner, name)
    if owner.kind is None and owner.torch_class and facts.known(f"{_member_owner(owner.torch_class)}.{name}"):
        return Member(owner, name)
    return UNKNOWN


RETURN_TYPES = "torch.return_types."


def named_tuple(name: str) -> Instance | None:
    """The value ``torch.<name>(…)`` / ``x.<name>(…)`` returns when it is a named tuple (``topk``):
    tensor-like (indexing and unpacking give tensors) with its fields known."""
    return Instance(TENSOR, torch_class=RETURN_TYPES + name) if name in RETURN_FIELDS else None


def return_fields(owner: Instance) -> tuple[str, ...]:
    torch_class = owner.torch_class
    if not torch_class or not torch_class.startswith(RETURN_TYPES):
        return ()
    return RETURN_FIELDS.get(torch_class[len(RETURN_TYPES):], ())


def _member_owner(torch_class: str) -> str:
    """The class the inventory lists the members of ``torch_class`` under."""
    found = MEMBER_OWNERS.get(torch_class)
    if found is None and torch_class.startswith("torch.optim.lr_scheduler."):
        return "torch.optim.lr_scheduler.LRScheduler"
    return found or torch_class


def instance_of_annotation(value: object, facts: TorchFacts) -> object:
    """The value of a variable annotated with ``value`` (``torch.Tensor`` → a tensor)."""
    if type(value) is str:
        kind = facts.class_kind(value)
        if kind == TENSOR:
            return TENSOR_VALUE
        if kind is not None:
            return Instance(kind, torch_class=value)
        return UNKNOWN
    if type(value) is UserClass and value.kind:
        return Instance(value.kind, user_class=value)
    return UNKNOWN
