"""A tensor member read on an object the code shows to be a Parameter: ``mindspore.Parameter`` has it.

``for p in model.parameters(): p.requires_grad = False`` (and ``named_parameters``), ``self.w =
nn.Parameter(...)`` … ``self.w.requires_grad``, ``p = nn.Parameter(...)``, or ``self`` in a subclass of
``nn.Parameter``: torch lists ``requires_grad`` under ``torch.Tensor``, which MindSpore's ``Tensor`` lacks,
while ``mindspore.Parameter`` has it (``p.requires_grad = False`` works there, MindSpore 2.10). Only the
forms above count; any other receiver keeps the table's claim.
"""

from __future__ import annotations

import ast

from msmigrate.analysis.usage_claims import CodeIndex

PARAMETER_CLASSES = frozenset({"Parameter", "nn.Parameter", "torch.nn.Parameter", "nn.parameter.Parameter",
                               "torch.nn.parameter.Parameter"})
_PARAMETER_ITERATORS = {"parameters": 0, "named_parameters": 1}  # the loop target's item that is a Parameter


def builds_parameter(node: ast.AST | None) -> bool:
    """``nn.Parameter(...)`` (the class written as one of :data:`PARAMETER_CLASSES`)."""
    return isinstance(node, ast.Call) and ast.unparse(node.func) in PARAMETER_CLASSES


def parameter_receiver(receiver: ast.expr, index: CodeIndex) -> str | None:
    """How ``receiver`` is known to be a Parameter (``"for p in ….parameters()"``, ``"self.w =
    nn.Parameter(…)"``, ``"class P(nn.Parameter)"``), or None."""
    scope = index.function_of(receiver)
    if isinstance(receiver, ast.Name) and receiver.id == "self":
        owner = _class_of(index.tree, scope)
        if owner is not None and any(ast.unparse(b) in PARAMETER_CLASSES for b in owner.bases):
            return f"class {owner.name}({ast.unparse(owner.bases[0])})"
        return None
    if isinstance(receiver, ast.Name):
        return _loop_parameter(scope, receiver) or _assigned_parameter(scope, receiver.id)
    if isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) and \
            receiver.value.id == "self":
        owner = _class_of(index.tree, scope)
        return _assigned_parameter(owner, f"self.{receiver.attr}") if owner is not None else None
    return None


def _class_of(tree: ast.Module, function: ast.AST) -> ast.ClassDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(item is function for item in node.body):
            return node
    return None


def _loop_parameter(scope: ast.AST, name: ast.Name) -> str | None:
    """``for p in x.parameters()`` / ``for n, p in x.named_parameters()`` whose body holds ``name``."""
    line = name.lineno
    for node in ast.walk(scope):
        if not isinstance(node, ast.For) or not (node.lineno < line <= (node.end_lineno or node.lineno)):
            continue
        it = node.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)
                and it.func.attr in _PARAMETER_ITERATORS):
            continue
        position = _PARAMETER_ITERATORS[it.func.attr]
        target = node.target
        item = target if position == 0 else (
            target.elts[position] if isinstance(target, ast.Tuple) and len(target.elts) == 2 else None)
        if isinstance(item, ast.Name) and item.id == name.id:
            return f"for … in {ast.unparse(it)}"
    return None


def _assigned_parameter(scope: ast.AST, target: str) -> str | None:
    """``target = nn.Parameter(...)`` when every assignment to ``target`` in ``scope`` builds one."""
    values = [node.value for node in ast.walk(scope) if isinstance(node, ast.Assign)
              for t in node.targets if ast.unparse(t) == target]
    values += [node.value for node in ast.walk(scope) if isinstance(node, ast.AnnAssign)
               and node.value is not None and ast.unparse(node.target) == target]
    if values and all(builds_parameter(value) for value in values):
        return f"{target} = {ast.unparse(values[0].func)}(…)"  # type: ignore[union-attr]
    return None
