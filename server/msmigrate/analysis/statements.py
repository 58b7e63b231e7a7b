"""Statement handling of the usage walk: bindings, branches, loops, functions, classes, imports.

A mixin of :class:`msmigrate.analysis.usages.UsageCollector`, which supplies the expression side
(``ev``, ``_bind_target``, ``_call_now``) and the scope state these handlers update.
"""

from __future__ import annotations

import ast

from msmigrate.analysis.project_classes import is_project_module_class
from msmigrate.analysis.receivers import instance_of_annotation
from msmigrate.analysis.resolve import (
    CLASS_SCOPE,
    FUNCTION_SCOPE,
    MODULE_SCOPE,
    Scope,
    merge,
    merge_with_base,
)
from msmigrate.analysis.tables import TORCH_ROOTS
from msmigrate.analysis.type_positions import annotations_dict, named_class_patterns, typing_member
from msmigrate.analysis.valueops import all_args, class_kind, element_of, is_unknown, tensorish
from msmigrate.analysis.values import (
    ASSUMED_TENSOR,
    MODULE,
    OTHER,
    TENSOR,
    TENSOR_VALUE,
    UNKNOWN,
    Foreign,
    Instance,
    UserClass,
    UserFunction,
    prefer,
)
from msmigrate.model.finding import UsageKind


class StatementWalker:
    """Statement handlers (``_s_<node type>``) and annotation evaluation."""

    # --- annotations --------------------------------------------------------------------------
    def _annotation(self, node: ast.expr) -> object:
        """Evaluate an annotation (its torch names are ``reference`` usages) and return the value it
        declares."""
        value = self.reference(node)
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

    def _typing_object(self, node: ast.expr) -> object:
        """The imported object ``node`` spells (``TypeAlias``, ``typing.TypeAlias``), found without
        evaluating it again."""
        if type(node) is ast.Name:
            return self.scope.lookup(node.id)
        if type(node) is ast.Attribute:
            owner = self._typing_object(node.value)
            return Foreign(f"{owner.name}.{node.attr}") if type(owner) is Foreign else None
        return None

    def _defaults(self, args: ast.arguments) -> None:
        """Evaluate a function's or lambda's default values (in the enclosing scope)."""
        for default in args.defaults:
            self.ev(default)
        for default in args.kw_defaults:
            if default is not None:
                self.ev(default)

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
        if type(node.value) is not ast.Constant:  # docstrings
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
        if annotations_dict(targets, value_node):  # X.__annotations__ = {"f": Tensor}: its values name types
            start = len(self.usages)
            value = self.ev(value_node)
            self.name_types(value_node.values, start)  # type: ignore[attr-defined]
        else:
            value = self.ev(value_node)
        for target in targets:
            self._bind_target(target, value)

    def _s_augassign(self, node: ast.AugAssign) -> None:
        target = node.target
        value = self.ev(node.value)
        if type(target) is ast.Name:
            old = self.scope.lookup(target.id)
            if tensorish(old) or tensorish(value):
                self.scope.bind(target.id, TENSOR_VALUE)
            elif old is None:
                self.scope.bind(target.id, UNKNOWN)
        else:
            self.ev(target)  # ``p.data += 1`` reads (and writes) the member

    def _s_annassign(self, node: ast.AnnAssign) -> None:
        annotated = self._annotation(node.annotation)
        if node.value is not None:
            if typing_member(self._typing_object(node.annotation)) == "TypeAlias":
                value = self.type_expression(node.value)  # X: TypeAlias = Tensor | None
            else:
                value = self.ev(node.value)
            if is_unknown(value) and annotated is not UNKNOWN:
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
        self._defaults(args)
        annotations: dict[str, object] = {}
        for arg in all_args(args):
            if arg.annotation is not None:
                annotations[arg.arg] = self._annotation(arg.annotation)
        function = UserFunction(node.name)
        function.unit = self.unit
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
                assumed = is_forward and value is UNKNOWN and arg.annotation is None  # (else as annotated)
                state[arg.arg] = ASSUMED_TENSOR if assumed else value
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
            kind = kind or class_kind(value, self.facts)
            if type(value) is Foreign and is_project_module_class(value.name, self.module_classes):
                kind = kind or MODULE  # a subclass of the project's module class of another file
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
        narrowed = self._tensor_test(node.test)
        base = scope.state
        if narrowed is not None and not narrowed[1]:  # the body runs only where the name is no tensor
            scope.state = self._not_tensor(base, narrowed[0])
        after_body = self._run_branch(node.body)
        scope.state = base
        if narrowed is not None and narrowed[1]:  # the rest runs only where the name is no tensor
            scope.state = self._not_tensor(base, narrowed[0])
        if node.orelse:
            after_else = self._run_branch(node.orelse)
            scope.state = merge(after_body, after_else)
        else:
            scope.state = merge_with_base(after_body, scope.state)

    def _tensor_test(self, test: ast.expr) -> tuple[str, bool] | None:
        """``isinstance(x, torch.Tensor)`` (x, True) or its negation (x, False): a branch on it narrows x."""
        positive = True
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, positive = test.operand, False
        call = isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
        if not (call and len(test.args) == 2 and isinstance(test.args[0], ast.Name)):
            return None
        tested = self.values.get(test.args[1])
        if type(tested) is not str or self.facts.class_kind(tested) != TENSOR:
            return None
        return test.args[0].id, positive

    def _not_tensor(self, state: dict[str, object], name: str) -> dict[str, object]:
        """``state`` where ``name``, shown not to be a tensor, is no tensor value."""
        value = state.get(name)
        if type(value) is Instance and value.kind == TENSOR:
            return {**state, name: OTHER}
        return state

    def _s_for(self, node: ast.For | ast.AsyncFor) -> None:
        # a list written in the loop header holds its items when iterated, as a tuple does (open_clip:
        # ``for block in [self.layer1, self.layer2]: block.named_parameters()``)
        listed = type(node.iter) is ast.List
        element = element_of(self._tuple(node.iter, None) if listed else self.ev(node.iter))  # type: ignore[arg-type]
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
            named = named_class_patterns(case.pattern)
            for child in ast.walk(case.pattern):
                if id(child) in named:
                    self.type_expression(child)  # ``case Tensor():`` is an isinstance test
                elif isinstance(child, ast.expr):
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


def _nothing(walker: StatementWalker, node: ast.AST) -> None:
    return None


W = StatementWalker
STATEMENT_HANDLERS = {
    ast.Expr: W._s_expr,
    ast.Assign: W._s_assign,
    ast.AugAssign: W._s_augassign,
    ast.AnnAssign: W._s_annassign,
    ast.Import: W._s_import,
    ast.ImportFrom: W._s_importfrom,
    ast.FunctionDef: W._s_function,
    ast.AsyncFunctionDef: W._s_function,
    ast.ClassDef: W._s_class,
    ast.Return: W._s_return,
    ast.If: W._s_if,
    ast.For: W._s_for,
    ast.AsyncFor: W._s_for,
    ast.While: W._s_while,
    ast.With: W._s_with,
    ast.AsyncWith: W._s_with,
    ast.Try: W._s_try,
    ast.TryStar: W._s_try,
    ast.Match: W._s_match,
    ast.Delete: W._s_delete,
    ast.Global: W._s_global,
    ast.Nonlocal: W._s_nonlocal,
    ast.Pass: _nothing,
    ast.Break: _nothing,
    ast.Continue: _nothing,
}
del W
