"""MSM517 quick-fix: a ``torch.autograd.Function`` subclass → a ``mindspore.nn.Cell`` with ``construct``
and ``bprop``.

torch::

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, alpha):
            ctx.save_for_backward(x)
            ctx.alpha = alpha
            return x * alpha

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return grad_output * ctx.alpha, None

    y = Scale.apply(x, 2.0)

MindSpore (a Cell's ``bprop(self, *inputs, out, dout)`` replaces the gradient of ``construct``; ``None``
is a zero gradient)::

    class Scale(mindspore.nn.Cell):
        def construct(self, x, alpha):
            return x * alpha

        def bprop(self, x, alpha, out, grad_output):
            return grad_output * alpha, None

    y = Scale()(x, 2.0)

The rewrite is offered when what ``backward`` reads of ``ctx`` can be recomputed from the inputs: the
saved tensors are inputs of ``forward`` or its returned name (``out``), and each ``ctx.<name> = value``
reads only inputs. ``ctx.needs_input_grad``, ``mark_dirty``, ``setup_context`` and the like are left
for a person.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from msmigrate.fixes.blocks import block_of, remove_decorator, remove_lines
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding

FUNCTION_BASES = frozenset({"torch.autograd.Function", "torch.autograd.function.Function"})
_DROPPED_DECORATORS = frozenset({"staticmethod", "once_differentiable"})


@dataclass
class Plan:
    """What the rewrite needs to know of the class."""

    forward: ast.FunctionDef
    backward: ast.FunctionDef
    inputs: list[str]  # forward's parameters after ctx
    saved: list[str]  # the names saved for backward, as bprop reads them
    attributes: dict[str, ast.expr] = field(default_factory=dict)  # ctx.<name> = value (reads inputs only)
    dropped: list[ast.stmt] = field(default_factory=list)  # forward's statements about ctx
    out: str = "out"


def plan(cls: ast.ClassDef) -> Plan | None:
    """The rewrite of ``cls`` when it can be exact, else None."""
    methods = {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef)}
    forward, backward = methods.get("forward"), methods.get("backward")
    if forward is None or backward is None or "setup_context" in methods or "construct" in methods:
        return None
    if not (_static(forward) and _static(backward) and _plain(forward.args) and _plain(backward.args)):
        return None
    params = [a.arg for a in forward.args.args]
    grads = [a.arg for a in backward.args.args]
    if len(params) < 1 or len(grads) < 2 or forward.args.defaults:
        return None
    ctx_name, inputs = params[0], params[1:]
    found = Plan(forward, backward, inputs, [])
    found.out = _unique("out", {*inputs, *grads[1:]})
    returned = _returned_name(forward)
    for statement in forward.body:
        uses = _ctx_uses(statement, ctx_name)
        if not uses:
            continue
        saved = _saved(statement, ctx_name)
        if saved is not None:
            if found.saved or not all(n in inputs or n == returned for n in saved):
                return None
            found.saved = [found.out if n == returned and n not in inputs else n for n in saved]
        elif _attribute_set(statement, ctx_name, inputs) is not None:
            name, value = _attribute_set(statement, ctx_name, inputs)
            found.attributes[name] = value
        else:
            return None
        found.dropped.append(statement)
    if _ctx_uses(forward, ctx_name, skip=found.dropped) or not _backward_reads_ok(backward, found):
        return None
    return found


def _static(function: ast.FunctionDef) -> bool:
    names = [d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else ""
             for d in function.decorator_list]
    return "staticmethod" in names and all(n in _DROPPED_DECORATORS for n in names)


def _plain(arguments: ast.arguments) -> bool:
    return not (arguments.posonlyargs or arguments.vararg or arguments.kwonlyargs or arguments.kwarg)


def _unique(name: str, taken: set[str]) -> str:
    while name in taken:
        name += "_"
    return name


def _returned_name(function: ast.FunctionDef) -> str | None:
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
    names = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    return names.pop() if len(names) == 1 and len(returns) == 1 else None


def _ctx_uses(node: ast.AST, ctx_name: str, skip: list[ast.stmt] | None = None) -> list[ast.Name]:
    """The reads of ``ctx`` in ``node`` (outside the statements ``skip``)."""
    skipped = {id(s) for s in skip or ()}
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in skipped:
            continue
        if isinstance(current, ast.Name) and current.id == ctx_name:
            found.append(current)
        stack.extend(ast.iter_child_nodes(current))
    return found


def _saved(statement: ast.stmt, ctx_name: str) -> list[str] | None:
    """The names of ``ctx.save_for_backward(a, b)``."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "save_for_backward" and _is_ctx(call.func.value, ctx_name)
            and not call.keywords and all(isinstance(a, ast.Name) for a in call.args)):
        return None
    return [a.id for a in call.args if isinstance(a, ast.Name)]


def _attribute_set(statement: ast.stmt, ctx_name: str, inputs: list[str]) -> tuple[str, ast.expr] | None:
    """``ctx.<name> = value`` where value reads only inputs (and constants)."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target = statement.targets[0]
    if not (isinstance(target, ast.Attribute) and _is_ctx(target.value, ctx_name)):
        return None
    reads = [n.id for n in ast.walk(statement.value) if isinstance(n, ast.Name)]
    if any(name not in inputs for name in reads) or any(
            isinstance(n, ast.Call | ast.Lambda | ast.NamedExpr) for n in ast.walk(statement.value)):
        return None
    return target.attr, statement.value


def _is_ctx(node: ast.expr, ctx_name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == ctx_name


def _backward_reads_ok(backward: ast.FunctionDef, found: Plan) -> bool:
    """Whether backward reads of its ctx only ``saved_tensors`` and the attributes forward set."""
    ctx_name = backward.args.args[0].arg
    allowed = {"saved_tensors", "saved_variables", *found.attributes}
    reads = {id(n.value) for n in ast.walk(backward)
             if isinstance(n, ast.Attribute) and _is_ctx(n.value, ctx_name) and n.attr in allowed
             and isinstance(n.ctx, ast.Load)}
    return all(id(n) in reads for n in _ctx_uses(backward, ctx_name))


def autograd_function_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    cls = _class_at(ctx, finding)
    found = plan(cls) if cls is not None else None
    if cls is None or found is None:
        return None
    reference = ctx.reference_of(finding)
    if reference is None:
        return None
    name, imports = ctx.mindspore_reference("mindspore.nn.Cell", cls.lineno)
    edits = [TextEdit(*ctx.node_range(reference), name), *imports]
    forward, backward = found.forward, found.backward
    heads = [_method_head(ctx, forward, "construct", ["self", *found.inputs])]
    for statement in found.dropped:
        edit = remove_lines(ctx, statement, block_of(ctx.tree, statement))
        if edit is None:
            return None
        edits.append(edit)
    grads = [a.arg for a in backward.args.args[1:]]
    dout = grads[0] if len(grads) == 1 else _unique("dout", {*found.inputs, found.out, *grads})
    heads.append(_method_head(ctx, backward, "bprop", ["self", *found.inputs, found.out, dout]))
    if any(head is None for head in heads):
        return None
    edits += [edit for head in heads for edit in head or ()]
    body_edits = _backward_body(ctx, backward, found)
    if body_edits is None:
        return None
    edits += body_edits
    if len(grads) > 1:  # several outputs: dout is the tuple of their gradients
        first = backward.body[0]
        indent = ctx.lines[first.lineno - 1][: ctx.node_range(first)[1] - 1]
        edits.append(TextEdit(first.lineno, 1, first.lineno, 1,
                              f"{indent}{', '.join(grads)} = {dout}{ctx.newline}"))
    edits += _apply_calls(ctx, cls.name)
    return Fix("MSM517", "fix.autograd_function", edits, {"cls": cls.name})


def _class_at(ctx: FixContext, finding: Finding) -> ast.ClassDef | None:
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.ClassDef) and any(
                ctx.node_range(base)[:2] == (finding.line, finding.column) for base in node.bases):
            return node
    return None


def _method_head(ctx: FixContext, function: ast.FunctionDef, name: str,
                 params: list[str]) -> list[TextEdit] | None:
    """Edits dropping the decorators and writing ``def <name>(<params>)``."""
    edits = [e for d in function.decorator_list if (e := remove_decorator(ctx, d)) is not None]
    if len(edits) != len(function.decorator_list):
        return None
    line = ctx.lines[function.lineno - 1]
    start = line.find("def ", ctx.node_range(function)[1] - 1)
    close = _closing(ctx, *ctx.node_range(function.args.args[-1])[2:])
    if start < 0 or close is None:
        return None
    edits.append(TextEdit(function.lineno, start + 1, *close, f"def {name}({', '.join(params)})"))
    return edits


def _closing(ctx: FixContext, line: int, column: int) -> tuple[int, int] | None:
    """The position just after the ``)`` closing a parameter list whose last parameter ends at
    (line, column): only a comma, blanks and comments may come between."""
    while line <= len(ctx.lines):
        text = ctx.lines[line - 1]
        index = column - 1
        while index < len(text):
            char = text[index]
            if char == ")":
                return line, index + 2
            if char == "#":
                break
            if char not in " \t,":
                return None
            index += 1
        line, column = line + 1, 1
    return None


def _backward_body(ctx: FixContext, backward: ast.FunctionDef, found: Plan) -> list[TextEdit] | None:
    """``ctx.saved_tensors`` → the saved names, ``ctx.<name>`` → the value forward set; statements that
    only unpack the saved tensors into their own names go."""
    ctx_name = backward.args.args[0].arg
    saved = found.saved
    edits: list[TextEdit] = []
    handled: set[int] = set()
    for statement in backward.body:
        targets = _unpacked(statement, ctx_name, saved)
        if targets is not None:
            handled.update(id(n) for n in ast.walk(statement))
            if targets:
                text = f"{', '.join(t for t, _ in targets)} = {', '.join(s for _, s in targets)}"
                edits.append(TextEdit(*ctx.node_range(statement), text))
            else:
                edit = remove_lines(ctx, statement, block_of(ctx.tree, statement))
                if edit is None:
                    return None
                edits.append(edit)
    for node in ast.walk(backward):
        if id(node) in handled or not (isinstance(node, ast.Attribute) and _is_ctx(node.value, ctx_name)):
            continue
        handled.update(id(n) for n in ast.walk(node))
        if node.attr in ("saved_tensors", "saved_variables"):
            text = "(" + ", ".join(saved) + ("," if len(saved) == 1 else "") + ")"
        elif node.attr in found.attributes:
            value = found.attributes[node.attr]
            text = ctx.text(value)
            text = text if isinstance(value, ast.Name | ast.Constant | ast.Attribute) else f"({text})"
        else:
            return None
        edits.append(TextEdit(*ctx.node_range(node), text))
    if any(id(n) not in handled for n in _ctx_uses(backward, ctx_name)):
        return None
    return edits


def _unpacked(statement: ast.stmt, ctx_name: str, saved: list[str]) -> list[tuple[str, str]] | None:
    """``a, b = ctx.saved_tensors`` / ``a = ctx.saved_tensors[0]``: (target, saved name) pairs whose names
    differ (empty: the statement only names the saved tensors as they are named already)."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target, value = statement.targets[0], statement.value
    index = None
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) \
            and isinstance(value.slice.value, int):
        index, value = value.slice.value, value.value
    if not (isinstance(value, ast.Attribute) and value.attr in ("saved_tensors", "saved_variables")
            and _is_ctx(value.value, ctx_name)):
        return None
    if index is not None:
        if not isinstance(target, ast.Name) or not 0 <= index < len(saved):
            return None
        pairs = [(target.id, saved[index])]
    else:
        names = target.elts if isinstance(target, ast.Tuple | ast.List) else None
        if names is None or len(names) != len(saved) or not all(isinstance(n, ast.Name) for n in names):
            return None
        pairs = [(n.id, s) for n, s in zip(names, saved, strict=True) if isinstance(n, ast.Name)]
    return [(t, s) for t, s in pairs if t != s]


def _apply_calls(ctx: FixContext, name: str) -> list[TextEdit]:
    """``<name>.apply`` → ``<name>()`` throughout the file."""
    tree = ctx.tree
    if ctx.partial:
        try:
            tree = ast.parse(ctx.source)
        except (SyntaxError, ValueError):
            return []
    return [TextEdit(*ctx.node_range(node), f"{name}()") for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "apply"
            and isinstance(node.value, ast.Name) and node.value.id == name]
