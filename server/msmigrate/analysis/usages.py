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

from msmigrate.analysis.finding import UsageKind
from msmigrate.analysis.receivers import (
    FOREIGN_MODULE_BASES,
    NON_TORCH_BUILTINS,
    NON_TORCH_PACKAGES,
    TORCH_ROOTS,
    TorchFacts,
    call_result,
    instance_of_annotation,
    member_api,
    member_value,
)
from msmigrate.analysis.resolve import (
    CLASS_SCOPE,
    COMPREHENSION_SCOPE,
    FUNCTION_SCOPE,
    MODULE_SCOPE,
    Scope,
    merge,
    merge_with_base,
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

_Constant = ast.Constant
_Name = ast.Name
ATTRIBUTE = UsageKind.ATTRIBUTE
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


def _is_unknown(value: object) -> bool:
    return value is UNKNOWN or type(value) is Opaque


class UsageCollector:
    """Walks one module; fills ``usages``, ``candidates`` and ``values`` (informative node values)."""

    def __init__(self, facts: TorchFacts) -> None:
        self.facts = facts
        self.usages: list[Usage] = []
        self.candidates: list[Candidate] = []
        self.values: dict[ast.AST, object] = {}
        self.imports_torch = False
        self.scope = Scope(MODULE_SCOPE, None)
        self._deferred: deque[UserFunction] = deque()
        self._on_demand = 0

    # --- driver ------------------------------------------------------------------------------
    def run(self, tree: ast.Module) -> None:
        """Walk the module body, then the bodies of functions no call has analysed yet."""
        self._block(tree.body)
        deferred = self._deferred
        while deferred:
            function = deferred.popleft()
            if function.pending is not None:
                self._analyse_body(function)

    def _analyse_body(self, function: UserFunction) -> None:
        entry = function.pending
        function.pending = None
        self._function_body(*entry, function)

    def _call_now(self, function: UserFunction | None) -> None:
        """A function called before its body was analysed: analyse it now, with the bindings of the call
        site (what it sees when the call runs), so its return value is known here."""
        if function is not None and function.pending is not None and self._on_demand < _MAX_ON_DEMAND:
            self._on_demand += 1
            try:
                self._analyse_body(function)
            finally:
                self._on_demand -= 1

    def _block(self, body: list[ast.stmt]) -> None:
        handlers = _STMT
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
            if call is not None and attr in self.facts.tensor_members and _project_name(owner.name):
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
        for arg in node.args:
            if type(arg) is not _Constant:
                ev(arg)
        for keyword in node.keywords:
            if type(keyword.value) is not _Constant:
                ev(keyword.value)
        kind = type(value)
        if kind is UserFunction:
            self._call_now(value)
        elif kind is UserClass:
            self._call_now(value.init)
        return call_result(value, self.facts)

    def _subscript(self, node: ast.Subscript, usage: UsageKind | None) -> object:
        value = self.ev(node.value)
        index = node.slice
        self.ev(index)
        if type(value) is TupleValue:
            position = index.value if type(index) is _Constant else None
            if type(position) is int and -len(value.items) <= position < len(value.items):
                return value.items[position]
            return UNKNOWN
        if type(value) is Instance:
            return TENSOR_VALUE if value.kind == TENSOR else (value if value.kind == MODULE else UNKNOWN)
        return UNKNOWN  # an item of a list or dict can be anything, a tensor included

    def _binop(self, node: ast.BinOp, usage: UsageKind | None) -> object:
        left = self.ev(node.left)
        right = self.ev(node.right)
        if _tensorish(left) or _tensorish(right):
            return TENSOR_VALUE
        return UNKNOWN if _is_unknown(left) or _is_unknown(right) else OTHER

    def _unaryop(self, node: ast.UnaryOp, usage: UsageKind | None) -> object:
        value = self.ev(node.operand)
        if _tensorish(value):
            return TENSOR_VALUE
        return UNKNOWN if _is_unknown(value) else OTHER

    def _compare(self, node: ast.Compare, usage: UsageKind | None) -> object:
        tensor = _tensorish(self.ev(node.left))
        for comparator in node.comparators:
            tensor = _tensorish(self.ev(comparator)) or tensor
        return TENSOR_VALUE if tensor and len(node.ops) == 1 and not _identity_op(node.ops[0]) else OTHER

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
        items = tuple(self.ev(elt) for elt in node.elts)
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
        for default in args.defaults:
            self.ev(default)
        for default in args.kw_defaults:
            if default is not None:
                self.ev(default)
        outer = self.scope
        self.scope = Scope(FUNCTION_SCOPE, outer)
        for arg in _all_args(args):
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
                self._bind_target(generator.target, _element_of(iterated))
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
            element = _element_of(value)
            for elt in elts:
                self._bind_target(elt, element)
        elif kind is ast.Attribute:
            owner = self.ev(target.value)
            user = _user_class_of(owner)
            if user is not None:
                old = user.attrs.get(target.attr)
                user.attrs[target.attr] = value if old is None else prefer(old, value)
        elif kind is ast.Subscript:
            self.ev(target.value)
            self.ev(target.slice)
        elif kind is ast.Starred:
            self._bind_target(target.value, OTHER)  # a list

    # --- annotations --------------------------------------------------------------------------
    def _annotation(self, node: ast.expr) -> object:
        """Evaluate an annotation (its torch names are usages) and return the value it declares."""
        value = self.ev(node)
        if type(node) in (ast.Name, ast.Attribute):
            return instance_of_annotation(value, self.facts)
        return self._declared(node)

    def _declared(self, node: ast.expr) -> object:
        """The value an annotation declares: ``torch.Tensor``, ``"torch.Tensor"``, ``Optional[Tensor]``,
        ``Tensor | None`` → a tensor. Containers (``list[Tensor]``) declare no tensor."""
        kind = type(node)
        if kind is ast.Constant and isinstance(node.value, str):
            parts = node.value.strip().split(".")
            if not all(part.isidentifier() for part in parts):
                return UNKNOWN
            base = self.scope.lookup(parts[0])
            if type(base) is str:
                return instance_of_annotation(".".join([base, *parts[1:]]), self.facts)
            return instance_of_annotation(base, self.facts) if len(parts) == 1 else UNKNOWN
        if kind is ast.Subscript:
            wrapper = node.value
            name = wrapper.id if type(wrapper) is ast.Name else getattr(wrapper, "attr", None)
            if name not in ("Optional", "Union", "Annotated"):
                return UNKNOWN
            inner = node.slice
            for element in inner.elts if type(inner) is ast.Tuple else [inner]:
                found = self._declared(element)
                if found is not UNKNOWN:
                    return found
                if name == "Annotated":
                    break
            return UNKNOWN
        if kind is ast.BinOp and type(node.op) is ast.BitOr:
            found = self._declared(node.left)
            return found if found is not UNKNOWN else self._declared(node.right)
        return instance_of_annotation(self.values.get(node, UNKNOWN), self.facts)

    # --- statements ---------------------------------------------------------------------------
    def _s_return(self, node: ast.Return) -> None:
        """A function's return statements tell what calling it gives (functions processed later use it)."""
        value = self.ev(node.value) if node.value is not None else OTHER
        function = self.scope.function
        if function is not None and not function.annotated:
            function.returns = prefer(function.returns, value) if function.inferred else value
            function.inferred = True

    def _yield(self, node: ast.Yield | ast.YieldFrom, usage: UsageKind | None) -> object:
        if node.value is not None:
            self.ev(node.value)
        function = self.scope.function
        if function is not None and not function.annotated:
            function.annotated, function.returns = True, UNKNOWN  # a generator: its items are unknown
        return UNKNOWN

    def _s_expr(self, node: ast.Expr) -> None:
        if type(node.value) is not _Constant:  # docstrings
            self.ev(node.value)

    def _s_children(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.ev(child)
            elif isinstance(child, ast.stmt):
                self._block([child])

    def _s_assign(self, node: ast.Assign) -> None:
        value_node = node.value
        targets = node.targets
        if (
            type(value_node) in (ast.Tuple, ast.List)
            and len(targets) == 1
            and type(targets[0]) in (ast.Tuple, ast.List)
            and len(targets[0].elts) == len(value_node.elts)
            and not any(type(e) is ast.Starred for e in value_node.elts)
        ):
            values = [self.ev(e) for e in value_node.elts]
            for elt, value in zip(targets[0].elts, values, strict=True):
                self._bind_target(elt, value)
            return
        value = self.ev(value_node)
        for target in targets:
            self._bind_target(target, value)

    def _s_augassign(self, node: ast.AugAssign) -> None:
        target = node.target
        value = self.ev(node.value)
        if type(target) is ast.Name:
            old = self.scope.lookup(target.id)
            if _tensorish(old) or _tensorish(value):
                self.scope.bind(target.id, TENSOR_VALUE)
            elif old is None:
                self.scope.bind(target.id, UNKNOWN)
        elif type(target) is ast.Attribute:
            self.ev(target.value)
        else:
            self.ev(target)

    def _s_annassign(self, node: ast.AnnAssign) -> None:
        annotated = self._annotation(node.annotation)
        if node.value is not None:
            value = self.ev(node.value)
            if _is_unknown(value) and annotated is not UNKNOWN:
                value = annotated
            self._bind_target(node.target, value)
        elif annotated is not UNKNOWN and (
            self.scope.kind == CLASS_SCOPE or type(node.target) is not ast.Name
        ):
            self._bind_target(node.target, annotated)

    def _s_import(self, node: ast.Import) -> None:
        for alias in node.names:
            name = alias.name
            root = name.partition(".")[0]
            torch = root in TORCH_ROOTS
            self.imports_torch = self.imports_torch or torch
            if alias.asname:
                self.scope.bind(alias.asname, name if torch else Foreign(name))
            else:
                self.scope.bind(root, root if torch else Foreign(root))

    def _s_importfrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        torch = node.level == 0 and module.partition(".")[0] in TORCH_ROOTS
        self.imports_torch = self.imports_torch or torch
        prefix = module if node.level == 0 else "." * node.level + module
        for alias in node.names:
            if alias.name == "*":
                if torch:
                    for child in self.facts.children(module):
                        if not child.startswith("_"):
                            self.scope.bind(child, f"{module}.{child}")
                continue
            if torch:
                self.scope.bind(alias.asname or alias.name, self.facts.child(module, alias.name))
            else:
                self.scope.bind(alias.asname or alias.name, Foreign(f"{prefix}.{alias.name}"))

    def _s_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.ev(decorator, UsageKind.DECORATOR)
        args = node.args
        for default in args.defaults:
            self.ev(default)
        for default in args.kw_defaults:
            if default is not None:
                self.ev(default)
        annotations: dict[str, object] = {}
        for arg in _all_args(args):
            if arg.annotation is not None:
                annotations[arg.arg] = self._annotation(arg.annotation)
        function = UserFunction(node.name)
        if node.returns is not None:
            function.returns = self._annotation(node.returns)
            function.annotated = True
        self.scope.bind(node.name, function)
        user_class = self.scope.user_class if self.scope.kind == CLASS_SCOPE else None
        function.pending = (node, self.scope, user_class, annotations)
        if user_class is not None and node.name == "__init__":
            user_class.init = function
        self._deferred.append(function)

    def _function_body(
        self, node, parent: Scope, user_class: UserClass | None, annotations, function: UserFunction
    ) -> None:
        """Analyse a function's body in a new scope (parameters bound from annotations and context)."""
        scope = Scope(FUNCTION_SCOPE, parent)
        scope.function = function
        if type(node) is ast.AsyncFunctionDef and not function.annotated:
            function.annotated, function.returns = True, OTHER  # calling it gives a coroutine
        args = node.args
        state = scope.state
        if user_class is None:
            for arg in args.args:
                state[arg.arg] = annotations.get(arg.arg, UNKNOWN) if annotations else UNKNOWN
            for arg in (*args.posonlyargs, *args.kwonlyargs):
                state[arg.arg] = annotations.get(arg.arg, UNKNOWN) if annotations else UNKNOWN
        else:
            positional = [*args.posonlyargs, *args.args]
            decorators = {d.id for d in node.decorator_list if type(d) is ast.Name}
            is_forward = user_class.kind == MODULE and node.name == "forward"
            for arg in positional + args.kwonlyargs:
                value = annotations.get(arg.arg, UNKNOWN)
                state[arg.arg] = TENSOR_VALUE if is_forward and value is UNKNOWN else value
            if positional and "staticmethod" not in decorators:
                first = positional[0].arg
                if "classmethod" in decorators:
                    state[first] = user_class
                else:
                    state[first] = Instance(user_class.kind, user_class=user_class)
        for arg in (args.vararg, args.kwarg):
            if arg is not None:
                state[arg.arg] = OTHER
        outer = self.scope
        self.scope = scope
        try:
            self._block(node.body)
        finally:
            self.scope = outer
        if not function.inferred and not function.annotated:
            function.returns = OTHER  # no return statement: calling it gives None

    def _s_class(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.ev(decorator, UsageKind.DECORATOR)
        kind = None
        for base in node.bases:
            value = self.ev(base, UsageKind.BASE_CLASS)
            kind = kind or _class_kind(value, self.facts)
        for keyword in node.keywords:
            self.ev(keyword.value)
        user_class = UserClass(node.name, kind)
        outer = self.scope
        first_deferred = len(self._deferred)
        self.scope = Scope(CLASS_SCOPE, outer, user_class)
        try:
            self._block(node.body)
            user_class.attrs.update(self.scope.state)
        finally:
            self.scope = outer
        self._init_first(first_deferred)
        outer.bind(node.name, user_class)

    def _init_first(self, start: int) -> None:
        """Analyse ``__init__`` before the other methods, so they see the ``self.<attr>`` it assigns."""
        deferred = self._deferred
        for index in range(start, len(deferred)):
            if deferred[index].pending is not None and deferred[index].pending[0].name == "__init__":
                if index != start:
                    entry = deferred[index]
                    del deferred[index]
                    deferred.insert(start, entry)
                return

    def _run_branch(self, body: list[ast.stmt]) -> dict[str, object]:
        """Run ``body`` on a copy of the current bindings; returns the bindings after it."""
        scope = self.scope
        start = scope.state
        scope.state = dict(start)
        self._block(body)
        after = scope.state
        scope.state = start
        return after

    def _s_if(self, node: ast.If) -> None:
        self.ev(node.test)
        scope = self.scope
        after_body = self._run_branch(node.body)
        if node.orelse:
            after_else = self._run_branch(node.orelse)
            scope.state = merge(after_body, after_else)
        else:
            scope.state = merge_with_base(after_body, scope.state)

    def _s_for(self, node: ast.For | ast.AsyncFor) -> None:
        element = _element_of(self.ev(node.iter))
        scope = self.scope
        start = scope.state
        scope.state = dict(start)
        self._bind_target(node.target, element)
        self._block(node.body)
        scope.state = merge_with_base(scope.state, start)  # the body may not run at all
        self._block(node.orelse)

    def _s_while(self, node: ast.While) -> None:
        self.ev(node.test)
        scope = self.scope
        scope.state = merge_with_base(self._run_branch(node.body), scope.state)
        self._block(node.orelse)

    def _s_with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            value = self.ev(item.context_expr, UsageKind.CONTEXT_MANAGER)
            if item.optional_vars is not None:
                self._bind_target(item.optional_vars, OTHER if value is OTHER else UNKNOWN)
        self._block(node.body)

    def _s_try(self, node: ast.Try) -> None:
        scope = self.scope
        start = dict(scope.state)
        self._block(node.body)
        after_body = scope.state
        self._block(node.orelse)
        results = [scope.state]
        for handler in node.handlers:
            scope.state = merge(start, after_body)
            if handler.type is not None:
                self.ev(handler.type)
            if handler.name:
                scope.bind(handler.name, OTHER)
            self._block(handler.body)
            results.append(scope.state)
        scope.state = merge(*results)
        self._block(node.finalbody)

    def _s_match(self, node) -> None:
        self.ev(node.subject)
        scope = self.scope
        results = []
        for case in node.cases:
            start = scope.state
            scope.state = dict(start)
            for child in ast.walk(case.pattern):
                if isinstance(child, ast.expr):
                    self.ev(child)
                name = getattr(child, "name", None) or getattr(child, "rest", None)
                if isinstance(name, str):
                    scope.bind(name, UNKNOWN)
            if case.guard is not None:
                self.ev(case.guard)
            self._block(case.body)
            results.append(scope.state)
            scope.state = start
        scope.state = merge_with_base(merge(*results), scope.state) if results else scope.state

    def _s_delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if type(target) is ast.Name:
                self.scope.bind(target.id, UNKNOWN)
            elif type(target) is ast.Attribute:
                self.ev(target.value)
            else:
                self.ev(target)

    def _s_global(self, node: ast.Global) -> None:
        if self.scope.kind != MODULE_SCOPE:
            if self.scope.globals is None:
                self.scope.globals = set()
            self.scope.globals.update(node.names)

    def _s_nonlocal(self, node: ast.Nonlocal) -> None:
        if self.scope.nonlocals is None:
            self.scope.nonlocals = set()
        self.scope.nonlocals.update(node.names)


def _other(collector: UsageCollector, node: ast.AST, usage: UsageKind | None) -> object:
    return OTHER


def _nothing(collector: UsageCollector, node: ast.AST) -> None:
    return None


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
_STMT = {
    ast.Expr: C._s_expr,
    ast.Assign: C._s_assign,
    ast.AugAssign: C._s_augassign,
    ast.AnnAssign: C._s_annassign,
    ast.Import: C._s_import,
    ast.ImportFrom: C._s_importfrom,
    ast.FunctionDef: C._s_function,
    ast.AsyncFunctionDef: C._s_function,
    ast.ClassDef: C._s_class,
    ast.Return: C._s_return,
    ast.If: C._s_if,
    ast.For: C._s_for,
    ast.AsyncFor: C._s_for,
    ast.While: C._s_while,
    ast.With: C._s_with,
    ast.AsyncWith: C._s_with,
    ast.Try: C._s_try,
    ast.TryStar: C._s_try,
    ast.Match: C._s_match,
    ast.Delete: C._s_delete,
    ast.Global: C._s_global,
    ast.Nonlocal: C._s_nonlocal,
    ast.Pass: _nothing,
    ast.Break: _nothing,
    ast.Continue: _nothing,
}
del C

_MAX_ON_DEMAND = 8  # nesting of on-demand function analyses (a call chain through many functions)
_DECORATOR = UsageKind.DECORATOR
_CONTEXT = UsageKind.CONTEXT_MANAGER
_BASE = UsageKind.BASE_CLASS


def _project_name(name: str) -> bool:
    """A name imported from a module that is not a known non-torch library (likely the user's project)."""
    return name.partition(".")[0] not in NON_TORCH_PACKAGES


def _tensorish(value: object) -> bool:
    return type(value) is Instance and value.kind == TENSOR


def _identity_op(op: ast.cmpop) -> bool:
    return type(op) in (ast.Is, ast.IsNot, ast.In, ast.NotIn)


def _element_of(value: object) -> object:
    """What iterating over (or unpacking) ``value`` yields."""
    if type(value) is TupleValue:
        first = value.items[0] if value.items else UNKNOWN
        return first if all(_same_kind(item, first) for item in value.items) else UNKNOWN
    if type(value) is Instance:
        if value.kind == TENSOR:
            return TENSOR_VALUE
        if value.kind == MODULE:
            return Instance(MODULE)
    return UNKNOWN  # items of lists, dicts, zip(...) … can be anything, tensors included


def _same_kind(a: object, b: object) -> bool:
    return type(a) is Instance and type(b) is Instance and a.kind == b.kind and a.kind is not None


def _user_class_of(value: object) -> UserClass | None:
    if type(value) is Instance:
        return value.user_class
    if type(value) is UserClass:
        return value
    return None


def _all_args(args: ast.arguments) -> list[ast.arg]:
    found = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if args.vararg is not None:
        found.append(args.vararg)
    if args.kwarg is not None:
        found.append(args.kwarg)
    return found


def _class_kind(base: object, facts: TorchFacts) -> str | None:
    if type(base) is str:
        return facts.class_kind(base)
    if type(base) is UserClass:
        return base.kind
    if type(base) is Foreign and base.name in FOREIGN_MODULE_BASES:
        return MODULE
    return None


__all__ = ["Candidate", "Usage", "UsageCollector", "NON_TORCH_PACKAGES"]
