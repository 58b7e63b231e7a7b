"""Where code writes an optimizer's learning rate through ``param_groups`` (MSM508): the rule reports the
``param_groups`` a learning rate is written through, not loops that read the groups or write other keys
(an optimizer's own ``group['step'] = …``, ``group.setdefault('foreach', None)``)."""

from __future__ import annotations

import ast

from msmigrate.rules.support import TreeIndex

LEARNING_RATE_KEYS = frozenset({"lr"})


def param_groups_written(tree: ast.Module, index: TreeIndex | None = None) -> list[ast.Attribute]:
    """The ``x.param_groups`` whose groups the code writes to: ``opt.param_groups[0]["lr"] = v``,
    ``for g in opt.param_groups: g["lr"] *= 0.1`` (also ``g.update(...)``), ``g = opt.param_groups[0]``
    then ``g["lr"] = v``. Reading a group (``print(g["lr"])``) changes nothing. ``index``: the file's
    :class:`TreeIndex`, which has the few node types this looks at (else the whole tree is walked)."""
    found: list[ast.Attribute] = []
    holders: dict[str, list[ast.Attribute]] = {}  # name bound to a group (or the list) → its param_groups
    loops = ast.walk(tree) if index is None else index.nodes(ast.For, ast.AsyncFor, ast.comprehension,
                                                                ast.Assign)
    for node in loops:
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            groups = _param_groups_in(node.iter)
            for name in _target_names(node.target) if groups else ():
                holders.setdefault(name, []).extend(groups)
        elif isinstance(node, ast.Assign) and not _written_targets(node.targets):
            groups = _param_groups_in(node.value)
            for target in node.targets if groups else ():
                for name in _target_names(target):
                    holders.setdefault(name, []).extend(groups)
    writes = ast.walk(tree) if index is None else index.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign,
                                                                 ast.Call)
    for node in writes:
        for target in _written_targets(_assign_targets(node)):
            if not _may_write_lr(target):
                continue
            base = target
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
                if isinstance(base, ast.Attribute) and base.attr == "param_groups":
                    found.append(base)
                    break
            else:
                if isinstance(base, ast.Name):
                    found.extend(holders.get(base.id, ()))
        if (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("update", "__setitem__")
            and isinstance(node.func.value, ast.Name)
            and _call_may_write_lr(node)
        ):
            found.extend(holders.get(node.func.value.id, ()))
    return list(dict.fromkeys(found))


def _param_groups_in(node: ast.expr) -> list[ast.Attribute]:
    """``opt.param_groups`` read by ``node`` as a whole or indexed (``enumerate(opt.param_groups)`` too)."""
    while isinstance(node, ast.Subscript) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id in ("enumerate", "list") and node.args
    ):
        node = node.value if isinstance(node, ast.Subscript) else node.args[0]
    return [node] if isinstance(node, ast.Attribute) and node.attr == "param_groups" else []


def _target_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for elt in target.elts for name in _target_names(elt)]
    return []


def _assign_targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    return []


def _written_targets(targets: list[ast.expr]) -> list[ast.expr]:
    """The item/attribute assignments among ``targets`` (``g["lr"] = …``, not ``lr = …``)."""
    return [t for t in targets if isinstance(t, ast.Subscript | ast.Attribute)]


def _key(node: ast.expr) -> str | None:
    """A subscript key or dict key written as a string literal (``None``: another expression)."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _may_write_lr(target: ast.expr) -> bool:
    """``g["lr"] = …`` (or a key the code computes); not ``g["step"] = …`` nor ``g.attr = …``."""
    if not isinstance(target, ast.Subscript):
        return False
    key = _key(target.slice)
    return key is None or key in LEARNING_RATE_KEYS


def _call_may_write_lr(call: ast.Call) -> bool:
    """``g.update(lr=…)``, ``g.update({"lr": …})``, ``g.__setitem__("lr", …)`` (or keys not written out)."""
    if any(k.arg is None or k.arg in LEARNING_RATE_KEYS for k in call.keywords):
        return True
    for arg in call.args[:1]:
        if isinstance(arg, ast.Dict):
            return any(k is None or _key(k) is None or _key(k) in LEARNING_RATE_KEYS for k in arg.keys)
        key = _key(arg)
        return key is None or key in LEARNING_RATE_KEYS
    return False
