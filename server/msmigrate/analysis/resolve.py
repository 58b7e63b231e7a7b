"""Scopes and name resolution.

Each scope (module, class, function, lambda, comprehension) maps names to values (see ``values.py``).
Statements are processed in order, so a binding affects only the uses after it (flow-sensitive within
a scope); after ``if``/``try``/loops the branches' bindings are merged, keeping the more informative value
(``try: import torch / except ImportError: torch = None`` still means torch). Function bodies are
processed after the scope that defines them is complete, so they see the final module-level bindings
(the names a function uses from outside are looked up when it runs, not when it is defined).
A name that is not bound yet in a function resolves in the enclosing scopes.
"""

from __future__ import annotations

from msmigrate.analysis.values import UserClass, UserFunction, prefer

MODULE_SCOPE = "module"
CLASS_SCOPE = "class"
FUNCTION_SCOPE = "function"
COMPREHENSION_SCOPE = "comprehension"


class Scope:
    __slots__ = ("kind", "state", "parent", "module", "globals", "nonlocals", "user_class", "function")

    def __init__(self, kind: str, parent: Scope | None, user_class: UserClass | None = None) -> None:
        self.kind = kind
        self.state: dict[str, object] = {}
        self.parent = parent
        # the module scope, ``None`` for the module scope itself: a reference to itself would be a cycle
        # that keeps the module's values, and through them the whole syntax tree, alive until the cycle
        # collector runs (which the analysis pauses)
        self.module: Scope | None = (parent.module or parent) if parent is not None else None
        self.globals: set[str] | None = None
        self.nonlocals: set[str] | None = None
        self.user_class = user_class
        self.function: UserFunction | None = None  # the function whose body this scope is

    def lookup(self, name: str) -> object | None:
        """The value ``name`` has here, or ``None`` when it is not bound in the file (a builtin)."""
        if self.globals and name in self.globals:
            return (self.module or self).state.get(name)
        value = self.state.get(name)
        if value is not None:
            return value
        scope = self.parent
        while scope is not None:
            if scope.kind != CLASS_SCOPE:  # class bodies are not visible from nested scopes
                value = scope.state.get(name)
                if value is not None:
                    return value
            scope = scope.parent
        return None

    def bind(self, name: str, value: object) -> None:
        if self.globals and name in self.globals:
            state = (self.module or self).state
            old = state.get(name)
            state[name] = value if old is None else prefer(old, value)
            return
        if self.nonlocals and name in self.nonlocals:
            scope = self.parent
            while scope is not None and scope.kind != MODULE_SCOPE:
                if scope.kind == FUNCTION_SCOPE and name in scope.state:
                    scope.state[name] = prefer(scope.state[name], value)
                    return
                scope = scope.parent
        self.state[name] = value

    def binding_scope(self) -> Scope:
        """Where an assignment expression (``:=``) binds: the nearest non-comprehension scope."""
        scope = self
        while scope.kind == COMPREHENSION_SCOPE and scope.parent is not None:
            scope = scope.parent
        return scope


def merge(first: dict[str, object], *others: dict[str, object]) -> dict[str, object]:
    """Bindings after alternative branches: every name any branch bound, the most informative value."""
    out = dict(first)
    for other in others:
        if other is not first:
            merge_with_base(out, other)
    return out


def merge_with_base(changed: dict[str, object], base: dict[str, object]) -> dict[str, object]:
    """Bindings after a branch that may not run: ``changed`` (a copy of ``base`` the branch modified,
    reused for the result) merged with ``base``."""
    for name, value in base.items():
        new = changed.get(name)
        if new is None:
            changed[name] = value
        elif new is not value:
            changed[name] = prefer(new, value)
    return changed
