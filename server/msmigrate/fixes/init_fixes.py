"""MSM503 quick-fix: a ``torch.nn.init`` call → ``Parameter.set_data`` with a MindSpore initializer.

``nn.init.kaiming_normal_(m.weight, mode="fan_out")`` becomes
``m.weight.set_data(initializer(HeNormal(mode="fan_out"), m.weight.shape, m.weight.dtype))``. The
arguments follow ``knowledge/initializers.py`` (torch parameter → initializer keyword, and the torch defaults
the initializer does not share, passed explicitly). The parameter accessed is renamed where MindSpore's
cell names it otherwise (``m.weight`` of a BatchNorm → ``m.gamma``, ``knowledge/cell_parameters.py``),
when ``m``'s class is known from an enclosing ``isinstance(m, ...)`` test (for a class of the file, from
``self.<name> = ...`` in its body); a parameter whose cell class cannot be told is written as it is.
"""

from __future__ import annotations

import ast

from msmigrate.fixes.api_fixes import written_target
from msmigrate.fixes.context import FixContext, bound_arguments, plain_reference
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.cell_parameters import parameter_name, renamed_parameters
from msmigrate.knowledge.initializers import INIT_ARGUMENTS, INITIALIZER_MODULE, INITIALIZERS, SYMMETRIC
from msmigrate.model.finding import Finding

_UNUSED = {"generator": "None"}  # torch parameters that may be left out when passed with this value


def initializer_arguments(ctx: FixContext, finding: Finding) -> tuple[ast.Call, ast.expr, str, str] | None:
    """(the call, its tensor argument, the MindSpore initializer class name, its keyword arguments as
    written) of a ``torch.nn.init`` call whose arguments the initializer takes; None otherwise."""
    name = (finding.torch_api or "").rpartition(".")[2]
    spec, initializer = INIT_ARGUMENTS.get(name), INITIALIZERS.get(name)
    call = ctx.call_of(finding)
    signatures = ctx.kb.torch_signatures(finding.torch_api or "")
    if spec is None or initializer is None or call is None or not signatures:
        return None
    bound = bound_arguments(call, [p["name"] for p in signatures[0]])
    tensor = bound.pop("tensor", None) if bound is not None else None
    if tensor is None:
        return None
    renames, explicit = spec
    keywords: list[str] = []
    if name in SYMMETRIC:
        low, high, keyword = SYMMETRIC[name]
        if not _negation(bound.get(low), bound.get(high)):
            return None
        keywords.append(f"{keyword}={ctx.text(bound.pop(high))}")
        bound.pop(low)
    for param, value in bound.items():
        text = ctx.text(value)
        if param in _UNUSED and text == _UNUSED[param]:
            continue
        if param not in renames:
            return None
        keywords.append(f"{renames[param]}={text}")
    given = {k.partition("=")[0] for k in keywords}
    keywords += [f"{k}={v}" for k, v in explicit.items() if k not in given]
    if name == "constant_" and len(keywords) == 1:
        keywords = [keywords[0].partition("=")[2]]
    return call, tensor, initializer, ", ".join(keywords)


def init_rewrite(ctx: FixContext, finding: Finding) -> Fix | None:
    found = initializer_arguments(ctx, finding)
    if found is None:
        return None
    call, tensor, initializer, keywords = found
    if not plain_reference(tensor):  # written three times by the rewrite
        return None
    parameter = parameter_text(ctx, tensor)
    if parameter is None:
        return None
    make, edits = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.initializer", call.lineno)
    cls, more = ctx.mindspore_reference(f"{INITIALIZER_MODULE}.{initializer}", call.lineno)
    made = f"{make}({cls}({keywords}), {parameter}.shape, {parameter}.dtype)"
    # a cell's parameter (``m.weight``) is set with Parameter.set_data; any other tensor (a plain
    # Tensor has no set_data) is filled in place with assign_value, which a Parameter accepts too
    if isinstance(tensor, ast.Attribute):
        text = f"{parameter}.set_data({made})"
    else:
        text = f"{parameter}.assign_value({made}.init_data())"
    edit = TextEdit(*ctx.node_range(call), text)
    return Fix("MSM503", "fix.pattern.initializer", [edit, *edits, *more],
               {"initializer": f"{INITIALIZER_MODULE}.{initializer}"})


def _negation(low: ast.expr | None, high: ast.expr | None) -> bool:
    """Whether ``low`` is ``-high`` as written (``-bound`` and ``bound``, ``-0.1`` and ``0.1``)."""
    return (isinstance(low, ast.UnaryOp) and isinstance(low.op, ast.USub) and high is not None
            and ast.dump(low.operand) == ast.dump(high))


def parameter_text(ctx: FixContext, tensor: ast.expr) -> str | None:
    """``tensor`` as written for MindSpore: its last attribute renamed for its cell class; ``None`` when
    the classes it may have name the parameter differently."""
    if not isinstance(tensor, ast.Attribute) or tensor.attr not in renamed_parameters():
        return ctx.text(tensor)
    classes = _classes_of(ctx, tensor.value, tensor)
    if not classes:
        return ctx.text(tensor)
    names = {parameter_name(cls, tensor.attr) for cls in classes}
    if len(names) != 1:
        return None
    return f"{ctx.text(tensor.value)}.{names.pop()}"


def _classes_of(ctx: FixContext, node: ast.expr, at: ast.AST) -> list[str]:
    """The MindSpore classes ``node`` is an instance of, known from an enclosing ``isinstance`` test (or,
    for ``self.<name>``, from the enclosing class); empty when unknown (or when one of them is not known)."""
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            cls = _enclosing_class(ctx.tree, at)
            found = [_assigned_class(ctx, cls, node.attr) if cls is not None else None]
        else:
            found = [_attribute_class(ctx, owner, node.attr) for owner in _narrowed(ctx, node.value, at)]
        return [c for c in found if c] if found and all(found) else []
    found = [_mindspore_class(ctx, c) for c in _narrowed(ctx, node, at)]
    return [c for c in found if c] if found and all(found) else []


def _narrowed(ctx: FixContext, node: ast.expr, at: ast.AST) -> list[ast.expr]:
    """The class expressions of the innermost ``if isinstance(node, …)`` whose body holds ``at``."""
    if not isinstance(node, ast.Name):
        return []
    for test in _enclosing_tests(ctx.tree, at):
        if (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
                and len(test.args) == 2 and isinstance(test.args[0], ast.Name)
                and test.args[0].id == node.id):
            classes = test.args[1]
            return list(classes.elts) if isinstance(classes, ast.Tuple) else [classes]
    return []


def _enclosing_tests(tree: ast.AST, at: ast.AST) -> list[ast.expr]:
    """The tests of the ``if`` statements whose body holds ``at``, innermost first."""
    found: list[ast.expr] = []

    def visit(node: ast.AST) -> bool:
        if node is at:
            return True
        for child in ast.iter_child_nodes(node):
            if visit(child):
                if isinstance(node, ast.If) and any(_holds(s, at) for s in node.body):
                    found.append(node.test)
                return True
        return False

    visit(tree)
    return found


def _holds(statement: ast.AST, at: ast.AST) -> bool:
    return any(node is at for node in ast.walk(statement))


def _mindspore_class(ctx: FixContext, node: ast.expr) -> str | None:
    """The MindSpore class a class expression names once fixed (its mapping's target, or as written)."""
    text = ctx.text(node)
    if text.startswith("mindspore."):
        return text
    start = ctx.node_range(node)
    for finding in ctx.findings:
        if (finding.line, finding.column, finding.end_line, finding.end_column) == start:
            return written_target(ctx, finding)
    return None


def _attribute_class(ctx: FixContext, owner: ast.expr, attribute: str) -> str | None:
    """The MindSpore class of ``self.<attribute> = Class(...)`` in the file's class ``owner`` names."""
    if not isinstance(owner, ast.Name):
        return None
    statements = ctx.tree.body
    if not any(isinstance(c, ast.ClassDef) and c.name == owner.id for c in statements):
        try:  # a context holding some statements only (the language server's): the whole file
            statements = ast.parse(ctx.source).body
        except (SyntaxError, ValueError):
            return None
    found = [c for c in statements if isinstance(c, ast.ClassDef) and c.name == owner.id]
    return _assigned_class(ctx, found[-1], attribute) if found else None


def _assigned_class(ctx: FixContext, cls: ast.ClassDef, attribute: str) -> str | None:
    """The MindSpore class of the first ``self.<attribute> = Class(...)`` in ``cls``."""
    for node in ast.walk(cls):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(target := node.targets[0], ast.Attribute) and target.attr == attribute
                and isinstance(target.value, ast.Name) and target.value.id == "self"
                and isinstance(node.value, ast.Call)):
            return _mindspore_class(ctx, node.value.func)
    return None


def _enclosing_class(tree: ast.AST, at: ast.AST) -> ast.ClassDef | None:
    """The innermost class whose body holds ``at``."""
    holding = [c for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and _holds(c, at)]
    return holding[-1] if holding else None  # ast.walk goes outer before inner

