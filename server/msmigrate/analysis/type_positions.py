"""Where a class is *named as a type* outside annotations: the syntax of type expressions.

``Callable[[Tensor], Tensor]``, ``list[Tensor]``, ``Tensor | None``, ``cast(Tensor, x)``,
``TypeVar("T", bound=Tensor)``, ``X: TypeAlias = ...``, ``type(x) is Tensor``, ``case Tensor():``, the values
of ``X.__annotations__ = {"logits": Tensor}`` (torchvision's GoogLeNetOutputs) name the
class without calling it, subclassing it or reading its attributes. The collector evaluates these
expressions as usual, then turns the ``attribute`` usages of torch classes at their *leaves* (the names
standing for a type, :func:`type_leaves`) into ``reference`` usages. A leaf is never the owner of an
attribute (``Tensor._make_subclass``) or a called name: those nodes are not leaves.
"""

from __future__ import annotations

import ast

from msmigrate.analysis.values import Foreign

# modules whose objects, subscripted, give type expressions (``typing.Optional[...]``,
# ``collections.abc.Iterable[...]``)
TYPING_ROOTS: frozenset[str] = frozenset({"typing", "typing_extensions", "collections"})
# builtins that are classes: operands of a ``|`` type union; the first ones are generic (``list[int]``)
GENERIC_BUILTINS: frozenset[str] = frozenset({"list", "tuple", "dict", "set", "frozenset", "type"})
BUILTIN_TYPES: frozenset[str] = GENERIC_BUILTINS | {
    "int", "float", "complex", "bool", "str", "bytes", "bytearray", "object", "slice", "range",
}
# the values of ``list[...]`` and of ``A | B`` between types: typing objects (a known non-torch package)
GENERIC_ALIAS = Foreign("typing.<generic alias>")
UNION_TYPE = Foreign("typing.<union>")
# typing functions whose arguments (positions from the second on, or these keywords) are types
TYPE_ARGUMENT_FUNCTIONS: dict[str, tuple[int, frozenset[str]]] = {
    "cast": (0, frozenset({"typ"})),  # cast(typ, val): the first argument only
    "TypeVar": (1, frozenset({"bound"})),  # TypeVar(name, *constraints, bound=...)
    "NewType": (1, frozenset({"tp"})),
}
_SEQUENCES = (ast.Tuple, ast.List, ast.Set)
_IDENTITY_OPS = (ast.Is, ast.IsNot, ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def typing_member(value: object) -> str | None:
    """``cast`` for ``typing.cast`` (or ``typing_extensions.cast``): the name of a typing object."""
    if type(value) is Foreign:
        module, _, name = value.name.rpartition(".")
        if module in ("typing", "typing_extensions"):
            return name
    return None


def is_typing_value(value: object) -> bool:
    """An object of the typing modules or a type expression's value: subscripting it names types."""
    return type(value) is Foreign and value.name.partition(".")[0] in TYPING_ROOTS


def type_leaves(node: ast.expr) -> list[ast.expr]:
    """The names standing for a type in the type expression ``node``: the names themselves, the items of
    a tuple or list of types, the sides of ``A | B``, the arguments of ``Generic[...]`` (not its base)."""
    kind = type(node)
    if kind is ast.Name or kind is ast.Attribute:
        return [node]
    if kind in _SEQUENCES:
        return [leaf for elt in node.elts for leaf in type_leaves(elt)]
    if kind is ast.BinOp and type(node.op) is ast.BitOr:
        return type_leaves(node.left) + type_leaves(node.right)
    if kind is ast.Subscript:
        return type_leaves(node.slice)
    return []


def annotations_dict(targets: list[ast.expr], value: ast.expr) -> bool:
    """``X.__annotations__ = {...}``: the dict's values are annotations (types named, not called)."""
    return (len(targets) == 1 and type(targets[0]) is ast.Attribute and targets[0].attr == "__annotations__"
            and type(value) is ast.Dict)


def type_arguments(call: ast.Call, name: str) -> list[ast.expr]:
    """The arguments of a call of the typing function ``name`` that are types (see
    :data:`TYPE_ARGUMENT_FUNCTIONS`)."""
    first, keywords = TYPE_ARGUMENT_FUNCTIONS[name]
    positional = call.args[:1] if name == "cast" else call.args[first:]
    found = [arg for arg in positional if type(arg) is not ast.Starred]
    return found + [k.value for k in call.keywords if k.arg in keywords]


def compares_types(node: ast.Compare, builtin_type: bool) -> bool:
    """``type(x) is Tensor``, ``x.__class__ == Tensor``, ``type(x) in (A, B)``: a class identity test
    (``builtin_type``: the name ``type`` is the builtin)."""
    if not all(type(op) in _IDENTITY_OPS for op in node.ops):
        return False
    return any(_type_of(operand, builtin_type) for operand in (node.left, *node.comparators))


def _type_of(node: ast.expr, builtin_type: bool) -> bool:
    kind = type(node)
    if kind is ast.Call:
        func = node.func
        return (builtin_type and type(func) is ast.Name and func.id == "type" and len(node.args) == 1
                and not node.keywords)
    return kind is ast.Attribute and node.attr == "__class__"


def named_class_patterns(pattern: ast.AST) -> set[int]:
    """Ids of the class nodes of ``case Tensor():`` patterns without sub-patterns (an isinstance test;
    sub-patterns would read attributes or ``__match_args__`` of the class)."""
    return {
        id(node.cls)
        for node in ast.walk(pattern)
        if type(node) is ast.MatchClass and not node.patterns and not node.kwd_patterns
    }
