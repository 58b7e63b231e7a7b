"""Uses of ``nn.ModuleList`` whose ``CellList`` the container check did not verify (their fix is not safe).

The check (``check/worker_programs.py``) verifies a list built in one call, iterated, indexed and measured:
the same outputs and the same parameter names. MindSpore 2.10's ``CellList`` names the parameters of cells
added later by a guess from the cells already held (``_get_prefix_and_index``): appended to an empty list, or
a list appended to a list of lists, inside the network being built, they are named ``0.weight`` or
``pairs.0.1.0.weight`` where torch says ``blocks.0.weight`` / ``pairs.1.0.weight`` (checked; a network
assigned to a parent's attribute is renamed right, the outermost one is not), and a slice renames the
parameters of the cells it holds (``0.weight`` for ``blocks.0.weight``). So the list must be built by the
call and never changed after it: assigned to a name or attribute that is not appended to, extended,
inserted into, added to, written by index or sliced anywhere in the file, or passed as an argument
(``layers.append(nn.ModuleList([a, b]))``: the inner list is built by its call).
"""

from __future__ import annotations

import ast

CHECKED_LISTS = frozenset({"torch.nn.ModuleList"})
_CHANGES = frozenset({"append", "extend", "insert", "pop"})


def unverified_list_form(tree: ast.Module, torch_api: str, call: ast.Call | None) -> str:
    """``container_changed`` (a ``resolution.safety.reason``) when the ``CellList`` the fix writes for this
    use of ``torch_api`` is not built by ``call`` alone, else ``""``."""
    if torch_api not in CHECKED_LISTS:
        return ""
    if call is None:  # a base class, a name passed on: what changes it is not known
        return "container_changed"
    target = _assigned_to(tree, call)  # a list passed as an argument is changed by no name
    return "container_changed" if target is not None and _changed(tree, target) else ""


def _assigned_to(tree: ast.Module, call: ast.Call) -> ast.expr | None:
    """The target ``call`` is assigned to (``None``: not assigned)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1:
            target = node.targets[0]
        elif isinstance(node, ast.AnnAssign) and node.value is call:
            target = node.target
        else:
            continue
        return target
    return None


def _same(node: ast.expr, target: ast.expr) -> bool:
    """``node`` names what ``target`` names: the same name, or the same attribute of any object (another
    instance's list changes alike)."""
    if isinstance(target, ast.Name):
        return isinstance(node, ast.Name) and node.id == target.id
    if isinstance(target, ast.Attribute):
        return isinstance(node, ast.Attribute) and node.attr == target.attr
    return True  # unpacked or subscripted: any change may be this list's


def _changed(tree: ast.Module, target: ast.expr) -> bool:
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CHANGES
                and _same(node.func.value, target)):
            return True
        if isinstance(node, ast.AugAssign) and _same(node.target, target):
            return True
        if isinstance(node, ast.Subscript) and _same(node.value, target) and (
                isinstance(node.slice, ast.Slice) or not isinstance(node.ctx, ast.Load)):
            return True
    return False
