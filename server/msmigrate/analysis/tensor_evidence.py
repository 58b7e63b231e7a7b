"""Receivers of unknown type that the code itself shows to be tensors.

``x.size(2)`` where nothing says what ``x`` is stays a possible Tensor API (MSM102): its fix is not offered.
But the same code often passes that receiver to a torch function as the tensor it computes on:

* ``def pool(x): return F.avg_pool2d(x, kernel_size=(x.size(2), x.size(3)))`` — ``x`` is the ``input`` of
  ``F.avg_pool2d`` in the same function (pretrainedmodels' dpn);
* ``self.weight.size()`` in a class whose ``forward`` calls ``F.conv2d(x, self.weight, …)`` — ``self.weight``
  is the ``weight`` of ``F.conv2d`` in the same class (efficientnet_pytorch's same-padding convolutions).

A receiver counts as a tensor when, in the same function (a name) or the same class (``self.<attr>``), it is
bound to a parameter of a torch call that takes a tensor: :data:`TENSOR_PARAMETERS` of the inventory's
signature of that call (every overload the call fits agrees). Nothing else counts: a name passed to a torch
class (``nn.Linear(n, m)``) or to ``torch.tensor(data)`` is not evidence.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.arguments import bind, bound
from msmigrate.knowledge.base import KnowledgeBase

# parameters of torch functions that take the tensor computed on (F.conv2d's input and weight)
TENSOR_PARAMETERS = ("input", "weight")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _self_attribute(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


class TensorEvidence:
    """Which receivers the torch calls of one module show to be tensors."""

    def __init__(self, tree: ast.Module, calls: Iterable[tuple[str, ast.Call]], kb: KnowledgeBase) -> None:
        self._tree, self._calls, self._kb = tree, calls, kb
        self._known: set[tuple[int, str]] | None = None  # built on the first question
        self._function: dict[int, ast.AST] = {}
        self._class: dict[int, ast.AST] = {}

    def _build(self) -> set[tuple[int, str]]:
        for node in ast.walk(self._tree):  # outer scopes first: an inner one overrides them for its nodes
            if isinstance(node, _SCOPES):
                self._function.update((id(n), node) for n in ast.walk(node))
            elif isinstance(node, ast.ClassDef):
                self._class.update((id(n), node) for n in ast.walk(node))
        known: set[tuple[int, str]] = set()
        for torch_api, call in self._calls:
            signatures = self._kb.torch_signatures(torch_api)
            if not signatures:
                continue
            bindings = bind(call, signatures)
            for name in TENSOR_PARAMETERS:
                argument = bound(bindings, name) if bindings else None
                key = self._key(argument) if argument is not None else None
                if key is not None:
                    known.add(key)
        return known

    def _key(self, node: ast.expr) -> tuple[int, str] | None:
        """(the scope, the receiver's text) for a name (its function) or ``self.<attr>`` (its class)."""
        if isinstance(node, ast.Name):
            scope = self._function.get(id(node))
            return (id(scope), node.id) if scope is not None else None
        if _self_attribute(node):
            scope = self._class.get(id(node))
            return (id(scope), ast.unparse(node)) if scope is not None else None
        return None

    def is_tensor(self, receiver: ast.expr) -> bool:
        """Whether a torch call in the receiver's scope takes it as the tensor it computes on."""
        if self._known is None:
            self._known = self._build()
        key = self._key(receiver)
        return key is not None and key in self._known
