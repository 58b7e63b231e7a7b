"""One walk over the module: resolve names, infer receivers, and collect every torch usage.

Imports produce no finding themselves (a name imported but never used is not migrated code); every use
of an imported name does. A dotted reference is reported once, by its longest torch name
(``torch.nn.functional.relu``, not also ``torch.nn``); references to modules (``torch``, ``nn``) are not
usages. Members of inferred tensors, modules and optimizers are reported at the member name
(``x.view`` → ``torch.Tensor.view``). Calls of a Tensor-method name on a receiver of unknown type are kept
as candidates; :mod:`msmigrate.analysis.possible` decides which become ``possible_tensor_api`` findings.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass

from msmigrate.analysis.cancel import NEVER, CancelToken
from msmigrate.analysis.project_classes import is_project_module_class
from msmigrate.analysis.receivers import (
    TorchFacts,
    call_result,
    member_api,
    member_value,
)
from msmigrate.analysis.resolve import (
    COMPREHENSION_SCOPE,
    FUNCTION_SCOPE,
    MODULE_SCOPE,
    Scope,
)
from msmigrate.analysis.statements import STATEMENT_HANDLERS, StatementWalker
from msmigrate.analysis.tables import (
    NON_TORCH_BUILTINS,
    TENSOR_PRESERVING,
)
from msmigrate.analysis.type_positions import (
    BUILTIN_TYPES,
    GENERIC_ALIAS,
    GENERIC_BUILTINS,
    TYPE_ARGUMENT_FUNCTIONS,
    UNION_TYPE,
    compares_types,
    is_typing_value,
    type_arguments,
    type_leaves,
    typing_member,
)
from msmigrate.analysis.valueops import (
    all_args,
    element_of,
    identity_op,
    is_unknown,
    project_name,
    tensorish,
    user_class_of,
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
    Opaque,
    TupleValue,
    UserClass,
    UserFunction,
    prefer,
)
from msmigrate.model.finding import UsageKind

_Constant = ast.Constant
_Name = ast.Name
ATTRIBUTE = UsageKind.ATTRIBUTE
REFERENCE = UsageKind.REFERENCE
CALL = UsageKind.CALL
_BUILTINS = Foreign("builtins")
_MEMBER_USAGE = {
    (TENSOR, True): UsageKind.TENSOR_METHOD,
    (TENSOR, False): UsageKind.TENSOR_ATTRIBUTE,
    (MODULE, True): UsageKind.MODULE_METHOD,
    (MODULE, False): UsageKind.MODULE_METHOD,
    (OPTIMIZER, True): UsageKind.OPTIMIZER_METHOD,
    (OPTIMIZER, False): UsageKind.OPTIMIZER_METHOD,
    (None, True): UsageKind.CALL,  # a method of another torch class (GradScaler.scale, LRScheduler.step)
    (None, False): UsageKind.ATTRIBUTE,
}


@dataclass(slots=True)
class Usage:
    """A torch reference found in the source, before it is categorised."""

    node: ast.expr  # the Name/Attribute naming the API
    torch_api: str
    usage: UsageKind
    call: ast.Call | None = None
    member: bool = False  # the range is the attribute name only (``x.view`` → ``view``)


@dataclass(slots=True)
class Candidate:
    """A Tensor-method name called on a receiver of unknown type."""

    node: ast.Attribute
    call: ast.Call
    receiver_value: object


class UsageCollector(StatementWalker):
    """Walks one module; fills ``usages``, ``candidates`` and ``values`` (informative node values)."""

    def __init__(self, facts: TorchFacts, module_classes: frozenset[str] = frozenset()) -> None:
        self.facts = facts
        self.module_classes = module_classes  # the project's module classes of other files
        self.usages: list[Usage] = []
        self.candidates: list[Candidate] = []
        self.values: dict[ast.AST, object] = {}
        self.imports_torch = False
        self.in_reference = 0  # > 0 while evaluating an annotation or an isinstance class argument
        self.scope = Scope(MODULE_SCOPE, None)
        self._deferred: deque[UserFunction] = deque()
        self._on_demand = 0
        self.unit: ast.stmt | None = None  # the top-level statement whose code runs now
        # (defining statement, statement whose code called it first) of bodies analysed on demand
        self.triggers: list[tuple[object, object]] = []

    # --- driver ------------------------------------------------------------------------------
    def run(self, tree: ast.Module, cancel: CancelToken = NEVER) -> None:
        """Walk the module body, then the bodies of functions no call has analysed yet (``cancel`` is
        checked before each top-level statement and each of those bodies)."""
        for stmt in tree.body:
            cancel.raise_if_cancelled()
            self.unit = stmt
            self._block((stmt,))
        deferred = self._deferred
        while deferred:
            function = deferred.popleft()
            if function.pending is not None:
                cancel.raise_if_cancelled()
                self._analyse_body(function)

    def _analyse_body(self, function: UserFunction) -> None:
        entry = function.pending
        function.pending = None
        unit, self.unit = self.unit, function.unit
        try:
            self._function_body(*entry, function)
        finally:
            self.unit = unit

    def _call_now(self, function: UserFunction | None) -> None:
        """A function called before its body was analysed: analyse it now, with the bindings of the call
        site (what it sees when the call runs), so its return value is known here."""
        if function is not None and function.pending is not None and self._on_demand < _MAX_ON_DEMAND:
            self._on_demand += 1
            if function.unit is not self.unit:
                self.triggers.append((function.unit, self.unit))
            try:
                self._analyse_body(function)
            finally:
                self._on_demand -= 1

    def _block(self, body: list[ast.stmt]) -> None:
        handlers = STATEMENT_HANDLERS
        for stmt in body:
            handler = handlers.get(type(stmt))
            if handler is None:
                self._s_children(stmt)
            else:
                handler(self, stmt)

    # --- expressions -------------------------------------------------------------------------
    def ev(self, node: ast.expr, usage: UsageKind | None = ATTRIBUTE) -> object:
        kind = type(node)
        if kind is _Constant:
            return OTHER
        if kind is _Name:
            value = self.scope.state.get(node.id)
            if value is None:
                value = self._name(node, usage)
            elif usage is not None and type(value) is str:
                self._report(node, value, usage, None)
        else:
            handler = _EXPR.get(kind)
            value = handler(self, node, usage) if handler is not None else self._opaque_children(node, usage)
        kind = type(value)
        if kind is str or kind is Instance:
            self.values[node] = value
        return value

    def _report(self, node: ast.expr, name: str, usage: UsageKind, call: ast.Call | None) -> None:
        if not self.facts.is_module_object(name):
            if self.in_reference and usage is ATTRIBUTE:
                usage = REFERENCE
            self.usages.append(Usage(node, name, usage, call))

    def _name(self, node: ast.Name, usage: UsageKind | None, call: ast.Call | None = None) -> object:
        value = self.scope.lookup(node.id)
        if value is None:
            return _BUILTINS if node.id in NON_TORCH_BUILTINS else UNKNOWN
        if usage is not None and type(value) is str:
            self._report(node, value, usage, call)
        return value

    def _attribute(
        self, node: ast.Attribute, usage: UsageKind | None, call: ast.Call | None = None
    ) -> object:
        current: ast.expr = node.value
        if type(current) is not ast.Attribute:
            chain = [node]
        else:
            chain = [node]
            while type(current) is ast.Attribute:
                chain.append(current)
                current = current.value
        value = self.ev(current, None)
        facts = self.facts
        ref_node: ast.expr | None = current if type(value) is str else None
        for attr_node in reversed(chain):
            attr = attr_node.attr
            is_top = attr_node is node
            if type(value) is str:
                if facts.is_namespace(value) and not facts.unlisted_class_member(value, attr):
                    value = facts.child(value, attr)
                    ref_node = attr_node
                    if not is_top:
                        self.values[attr_node] = value
                    continue
                # the torch name ends before this attribute: report it, then look up a plain member
                if ref_node is not None:
                    self._report(ref_node, value, ATTRIBUTE, None)
                ref_node = None
                value = OTHER if facts.known(value) else UNKNOWN
            value = self._member(value, attr_node, call if is_top else None)
            if type(value) is str:
                ref_node = attr_node  # ``self.act`` holding ``nn.ReLU`` names that torch object
            if not is_top and (type(value) is str or type(value) is Instance):
                self.values[attr_node] = value
        if ref_node is not None and usage is not None:
            self._report(ref_node, value, usage, call)
        return value

    def _member(self, owner: object, node: ast.Attribute, call: ast.Call | None) -> object:
        kind = type(owner)
        attr = node.attr
        if kind is Instance:
            api = member_api(owner, attr, self.facts)
            if api is not None:
                usage = _MEMBER_USAGE[(owner.kind, call is not None)]
                self.usages.append(Usage(node, api, usage, call, member=True))
            return member_value(owner, attr, self.facts)
        if kind is Foreign:
            if call is not None and attr in self.facts.tensor_members and project_name(owner.name):
                self.candidates.append(Candidate(node, call, owner))  # e.g. a tensor imported from a module
            return Foreign(f"{owner.name}.{attr}")
        if kind is UserClass:
            return owner.attrs.get(attr, UNKNOWN)
        if owner is UNKNOWN or kind is Opaque:
            if call is not None and attr in self.facts.tensor_members:
                self.candidates.append(Candidate(node, call, owner))
            return UNKNOWN
        return OTHER if owner is OTHER else UNKNOWN

    def _call(self, node: ast.Call, usage: UsageKind | None) -> object:
        func = node.func
        func_usage = usage if (usage is _DECORATOR or usage is _CONTEXT or usage is _BASE) else CALL
        kind = type(func)
        if kind is ast.Attribute:
            value = self._attribute(func, func_usage, node)
        elif kind is ast.Name:
            value = self._name(func, func_usage, node)
        else:
            value = self.ev(func, func_usage)
        if type(value) is str or type(value) is Instance:
            self.values[func] = value
        ev = self.ev
        args = node.args
        if value is _BUILTINS and kind is ast.Name and func.id in _TYPE_TESTS and len(args) == 2:
            ev(args[0])
            tested = self.reference(args[1])  # isinstance(x, torch.Tensor) names a type, it uses no API
            if type(tested) is str:
                self.values[args[1]] = tested  # (a branch on it narrows x: statements._s_if)
            args = ()
        start = len(self.usages)
        first = OTHER
        for position, arg in enumerate(args):
            if type(arg) is not _Constant:
                found = ev(arg)
                first = found if position == 0 else first
        for keyword in node.keywords:
            if type(keyword.value) is not _Constant:
                ev(keyword.value)
        typing_function = typing_member(value)
        if typing_function in TYPE_ARGUMENT_FUNCTIONS:  # cast(Tensor, x), TypeVar("T", bound=Tensor)
            self.name_types(type_arguments(node, typing_function), start)
        kind = type(value)
        if kind is UserFunction:
            self._call_now(value)
        elif kind is UserClass:
            self._call_now(value.init)
        elif kind is Foreign and is_project_module_class(value.name, self.module_classes):
            return Instance(MODULE)  # ``Net()`` with ``from .model import Net``, a module class
        elif kind is Foreign and value.name in TENSOR_PRESERVING and tensorish(first):
            return TENSOR_VALUE  # ``rearrange(x, "b n 1 -> b n")`` of a tensor
        return call_result(value, self.facts)

    def reference(self, node: ast.expr) -> object:
        """Evaluate ``node`` as a type reference: its torch names are ``reference`` usages."""
        self.in_reference += 1
        try:
            return self.ev(node)
        finally:
            self.in_reference -= 1

    def name_types(self, nodes: list[ast.expr], start: int) -> None:
        """``nodes`` are type expressions evaluated since ``self.usages[start]``: the torch classes their
        leaves name become ``reference`` usages (see :mod:`msmigrate.analysis.type_positions`)."""
        leaves = {id(leaf) for node in nodes for leaf in type_leaves(node)}
        kind = self.facts.kind
        for found in self.usages[start:]:
            if (found.usage is ATTRIBUTE and not found.member and id(found.node) in leaves
                    and kind(found.torch_api) == "class"):
                found.usage = REFERENCE

    def type_expression(self, node: ast.expr) -> object:
        """Evaluate ``node`` where it names types (a type alias's value, a matched class)."""
        start = len(self.usages)
        value = self.ev(node)
        self.name_types([node], start)
        return value

    def _typeish(self, node: ast.expr, value: object) -> bool:
        """An operand of a ``|`` between types: a class, a type expression's value or None."""
        kind = type(value)
        if kind is str:
            return self.facts.kind(value) == "class"
        if kind is UserClass or is_typing_value(value):
            return True
        if value is _BUILTINS:
            return type(node) is _Name and node.id in BUILTIN_TYPES
        return type(node) is _Constant and node.value is None

    def _subscript(self, node: ast.Subscript, usage: UsageKind | None) -> object:
        value = self.ev(node.value)
        index = node.slice
        start = len(self.usages)
        self.ev(index)
        base = node.value
        generic = value is _BUILTINS and type(base) is _Name and base.id in GENERIC_BUILTINS
        if generic or is_typing_value(value):
            self.name_types([index], start)  # Optional[Tensor], list[Tensor], Callable[[Tensor], Tensor]
            return GENERIC_ALIAS if generic else value
        if type(value) is TupleValue:
            position = index.value if type(index) is _Constant else None
            if type(position) is int and -len(value.items) <= position < len(value.items):
                return value.items[position]
            return UNKNOWN
        if type(value) is Instance:
            return TENSOR_VALUE if value.kind == TENSOR else (value if value.kind == MODULE else UNKNOWN)
        return UNKNOWN  # an item of a list or dict can be anything, a tensor included

    def _binop(self, node: ast.BinOp, usage: UsageKind | None) -> object:
        start = len(self.usages)
        left = self.ev(node.left)
        right = self.ev(node.right)
        if type(node.op) is ast.BitOr and self._typeish(node.left, left) and self._typeish(node.right, right):
            self.name_types([node], start)  # Tensor | None
            return UNION_TYPE
        if tensorish(left) or tensorish(right):
            return TENSOR_VALUE
        return UNKNOWN if is_unknown(left) or is_unknown(right) else OTHER

    def _unaryop(self, node: ast.UnaryOp, usage: UsageKind | None) -> object:
        value = self.ev(node.operand)
        if tensorish(value):
            return TENSOR_VALUE
        return UNKNOWN if is_unknown(value) else OTHER

    def _compare(self, node: ast.Compare, usage: UsageKind | None) -> object:
        start = len(self.usages)
        tensor = tensorish(self.ev(node.left))
        for comparator in node.comparators:
            tensor = tensorish(self.ev(comparator)) or tensor
        if compares_types(node, self.scope.lookup("type") is None):  # type(x) is Tensor
            self.name_types([node.left, *node.comparators], start)
            return OTHER
        return TENSOR_VALUE if tensor and len(node.ops) == 1 and not identity_op(node.ops[0]) else OTHER

    def _boolop(self, node: ast.BoolOp, usage: UsageKind | None) -> object:
        values = [self.ev(v) for v in node.values]
        result = values[0]
        for value in values[1:]:
            result = prefer(result, value)
        return result

    def _ifexp(self, node: ast.IfExp, usage: UsageKind | None) -> object:
        self.ev(node.test)
        return prefer(self.ev(node.body), self.ev(node.orelse))

    def _elements(self, node: ast.List | ast.Set, usage: UsageKind | None) -> object:
        ev = self.ev
        for elt in node.elts:
            ev(elt)
        return OTHER

    def _tuple(self, node: ast.Tuple, usage: UsageKind | None) -> object:
        items = tuple([self.ev(elt) for elt in node.elts])
        starred = any(type(elt) is ast.Starred for elt in node.elts)
        return TupleValue(items) if not starred and any(type(i) is Instance for i in items) else OTHER

    def _dict(self, node: ast.Dict, usage: UsageKind | None) -> object:
        ev = self.ev
        for key in node.keys:
            if key is not None:
                ev(key)
        for value in node.values:
            ev(value)
        return OTHER

    def _joinedstr(self, node: ast.JoinedStr, usage: UsageKind | None) -> object:
        ev = self.ev
        for value in node.values:
            if type(value) is ast.FormattedValue:
                ev(value.value)
                if value.format_spec is not None:
                    ev(value.format_spec)
        return OTHER

    def _passthrough(self, node: ast.Starred, usage: UsageKind | None) -> object:
        self.ev(node.value)
        return UNKNOWN

    def _opaque_children(self, node: ast.AST, usage: UsageKind | None = None) -> object:
        """Evaluate every sub-expression; the value itself is a plain (non-torch) one."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.ev(child)
            elif isinstance(child, (ast.comprehension, ast.keyword, ast.arguments)):
                self._opaque_children(child)
        return UNKNOWN if type(node) in (ast.Await, ast.Yield, ast.YieldFrom) else OTHER

    def _namedexpr(self, node: ast.NamedExpr, usage: UsageKind | None) -> object:
        value = self.ev(node.value)
        if type(node.target) is ast.Name:
            self.scope.binding_scope().bind(node.target.id, value)
        return value

    def _lambda(self, node: ast.Lambda, usage: UsageKind | None) -> object:
        args = node.args
        self._defaults(args)
        outer = self.scope
        self.scope = Scope(FUNCTION_SCOPE, outer)
        for arg in all_args(args):
            self.scope.bind(arg.arg, UNKNOWN)
        self.ev(node.body)
        self.scope = outer
        return UserFunction("<lambda>")

    def _comprehension(self, node: ast.expr, usage: UsageKind | None) -> object:
        generators = node.generators
        first_iter = self.ev(generators[0].iter)
        outer = self.scope
        self.scope = Scope(COMPREHENSION_SCOPE, outer)
        try:
            for index, generator in enumerate(generators):
                iterated = first_iter if index == 0 else self.ev(generator.iter)
                self._bind_target(generator.target, element_of(iterated))
                for condition in generator.ifs:
                    self.ev(condition)
            if type(node) is ast.DictComp:
                self.ev(node.key)
                self.ev(node.value)
            else:
                self.ev(node.elt)
        finally:
            self.scope = outer
        return OTHER

    # --- binding ----------------------------------------------------------------------------
    def _bind_target(self, target: ast.expr, value: object) -> None:
        kind = type(target)
        if kind is ast.Name:
            self.scope.bind(target.id, value)
        elif kind is ast.Tuple or kind is ast.List:
            elts = target.elts
            if type(value) is TupleValue and len(value.items) == len(elts):
                for elt, item in zip(elts, value.items, strict=True):
                    self._bind_target(elt, item)
                return
            element = element_of(value)
            for elt in elts:
                self._bind_target(elt, element)
        elif kind is ast.Attribute:
            owner = self.ev(target.value)
            if type(owner) is Instance and owner.kind is not None:
                self._member(owner, target, None)  # ``p.requires_grad = False`` is a usage too
            user = user_class_of(owner)
            if user is not None:
                old = user.attrs.get(target.attr)
                user.attrs[target.attr] = value if old is None else prefer(old, value)
        elif kind is ast.Subscript:
            self.ev(target.value)
            self.ev(target.slice)
        elif kind is ast.Starred:
            self._bind_target(target.value, OTHER)  # a list


def _other(collector: UsageCollector, node: ast.AST, usage: UsageKind | None) -> object:
    return OTHER


C = UsageCollector
_EXPR = {
    ast.Name: C._name,
    ast.Attribute: C._attribute,
    ast.Call: C._call,
    ast.Constant: _other,
    ast.Subscript: C._subscript,
    ast.BinOp: C._binop,
    ast.UnaryOp: C._unaryop,
    ast.Compare: C._compare,
    ast.BoolOp: C._boolop,
    ast.IfExp: C._ifexp,
    ast.Lambda: C._lambda,
    ast.ListComp: C._comprehension,
    ast.SetComp: C._comprehension,
    ast.GeneratorExp: C._comprehension,
    ast.DictComp: C._comprehension,
    ast.NamedExpr: C._namedexpr,
    ast.Starred: C._passthrough,
    ast.List: C._elements,
    ast.Tuple: C._tuple,
    ast.Set: C._elements,
    ast.Dict: C._dict,
    ast.JoinedStr: C._joinedstr,
    ast.Await: C._opaque_children,
    ast.Yield: C._yield,
    ast.YieldFrom: C._yield,
}
del C

_TYPE_TESTS = frozenset({"isinstance", "issubclass"})
_MAX_ON_DEMAND = 8  # nesting of on-demand function analyses (a call chain through many functions)
_DECORATOR = UsageKind.DECORATOR
_CONTEXT = UsageKind.CONTEXT_MANAGER
_BASE = UsageKind.BASE_CLASS
