"""Whether an argument is an OrderedDict, for the fixes that keep one as it is (``nn.Sequential(d)`` →
``SequentialCell(d)``, which takes an OrderedDict as well as a list): an ``OrderedDict(...)`` call, or a name
every assignment of which (annotated or not), in the enclosing function, is one (pretrainedmodels' DPN:
``blocks = OrderedDict()`` … ``nn.Sequential(blocks)``)."""

from __future__ import annotations

import ast

from msmigrate.fixes.context import FixContext


def _made_by_ordered_dict(ctx: FixContext, node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and ctx.text(node.func).endswith("OrderedDict")


def is_ordered_dict(ctx: FixContext, node: ast.expr) -> bool:
    if _made_by_ordered_dict(ctx, node):
        return True
    if not isinstance(node, ast.Name):
        return False
    scope: ast.AST = ctx.tree
    current = ctx.parents.get(id(node))
    while current is not None:
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
            scope = current
            break
        current = ctx.parents.get(id(current))
    values = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets)]
    # an annotated assignment (torchvision's ViT: ``layers: OrderedDict[str, nn.Module] = OrderedDict()``)
    annotated = [n for n in ast.walk(scope) if isinstance(n, ast.AnnAssign)
                 and isinstance(n.target, ast.Name) and n.target.id == node.id]
    values += [n.value for n in annotated if n.value is not None]  # a bare annotation binds nothing
    bound_otherwise = any(isinstance(n, ast.AugAssign | ast.For | ast.With | ast.NamedExpr)
                          and any(isinstance(t, ast.Name) and t.id == node.id for t in ast.walk(n)
                                  if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store))
                          for n in ast.walk(scope))
    return bool(values) and not bound_otherwise and all(_made_by_ordered_dict(ctx, v) for v in values)
