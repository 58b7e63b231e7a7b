"""What the analyzer knows about the value of a name or expression.

A value is one of:

* ``str`` — a torch object by its qualified name (``"torch"``, ``"torch.nn.Linear"``, ``"torch.float32"``);
* :class:`Instance` — an object of a known kind (``tensor``, ``module``, ``optimizer``), optionally of a
  torch class (``torch.nn.Linear``) or of a class defined in the file;
* :class:`UserClass` / :class:`UserFunction` — a class or function defined in the analysed file;
* :class:`Foreign` — a module or object imported from a package other than torch;
* :data:`OTHER` — known not to be torch (literals, builtin results, numpy results, …);
* :class:`Opaque` — the result of calling something imported from an unknown package;
* :data:`UNKNOWN` — anything else (parameters, results of unknown calls).
"""

from __future__ import annotations

from dataclasses import dataclass, field

TENSOR = "tensor"
MODULE = "module"
OPTIMIZER = "optimizer"


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN = _Marker("UNKNOWN")
OTHER = _Marker("OTHER")


@dataclass(eq=False, slots=True)
class UserClass:
    name: str
    kind: str | None = None  # "module" / "optimizer" / "tensor" when it subclasses a torch class
    attrs: dict[str, object] = field(default_factory=dict)  # class-body names and self.<attr> bindings
    init: UserFunction | None = None  # ``__init__``, analysed when the class is first instantiated


@dataclass(eq=False, slots=True)
class Instance:
    kind: str | None  # TENSOR / MODULE / OPTIMIZER; None for an instance of a plain class of the file
    torch_class: str | None = None  # "torch.nn.Linear" for nn.Linear(...)
    user_class: UserClass | None = None


@dataclass(eq=False, slots=True)
class UserFunction:
    name: str
    returns: object = UNKNOWN  # value implied by a return annotation, or by its return statements
    annotated: bool = False  # the return annotation decides; return statements are not consulted
    inferred: bool = False  # a return statement has been seen
    pending: tuple | None = None  # the body, waiting to be analysed (see UsageCollector.run)
    unit: object = None  # the top-level statement that defines it


@dataclass(eq=False, slots=True)
class Foreign:
    name: str  # dotted name of the non-torch object ("numpy", "numpy.random.rand", "mymodel.build")


@dataclass(eq=False, slots=True)
class TupleValue:
    """A tuple literal whose items are known (``return out, attn``): unpacking gives the items."""

    items: tuple[object, ...]


@dataclass(eq=False, slots=True)
class Opaque:
    """The result of calling something imported from a package the analyzer does not know (the user's
    own modules): unknown locally, but worth asking jedi about."""

    origin: str


@dataclass(eq=False, slots=True)
class Member:
    """A method or attribute looked up on a tensor/module/optimizer (``x.view`` before it is called)."""

    owner: Instance
    name: str


TENSOR_VALUE = Instance(TENSOR)  # the value of any tensor (instances carry no more than their kind)
# a parameter of a module's forward without an annotation: taken as a tensor for its members, but not as
# tensor data by the dynamic-shape rules (a forward's drop_ratio=None may be a Python number)
ASSUMED_TENSOR = Instance(TENSOR)


def prefer(a: object, b: object) -> object:
    """Merge two values a name may have after branches: keep the more informative one. Two different
    torch objects (``act = nn.ReLU`` / ``act = nn.GELU``) merge to UNKNOWN: the name is neither."""
    if a is b:
        return a
    if type(a) is str:
        return a if type(b) is not str or a == b else UNKNOWN
    if type(b) is str:
        return b
    if type(a) is Instance:
        return a
    if type(b) is Instance:
        return b
    if a is OTHER:
        return b
    if b is OTHER:
        return a
    return UNKNOWN
