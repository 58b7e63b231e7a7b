"""MSM506 quick-fix: PyTorch's training step rewritten in MindSpore's functional form.

In one block (a loop body, a function body)::

    out = model(x)
    loss = crit(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()

becomes::

    def forward_fn():
        out = model(x)
        loss = crit(out, y)
        return loss
    grad_fn = mindspore.value_and_grad(forward_fn, None, opt.parameters)
    loss, grads = grad_fn()
    opt(grads)

The statements that compute the loss (from the first one the loss depends on, by the names it reads, to
its last assignment) move into ``forward_fn``. A name they read before assigning it (``x = x.float()``)
becomes a parameter of ``forward_fn``; a name they assign that other code reads comes back as an auxiliary
output (``has_aux=True``: ``(loss, out), grads = grad_fn()``). Statements between the loss and
``backward()`` run after ``grad_fn`` (they only read what the forward pass computed); ``zero_grad()`` goes
(MindSpore does not accumulate gradients) and ``opt.step()`` becomes ``opt(grads)``.

The rewrite is made only when the shape is certain: ``backward()`` without arguments on a name assigned in
the same block, ``zero_grad()`` and ``step()`` without arguments on the same optimizer expression in that
block, ``step()`` right after ``backward()`` (a statement between them works on the gradients in ``.grad``,
``clip_grad_norm_`` …), each statement on lines of its own, and loss statements that are plain
assignments, expression statements or ``with`` blocks of them (no control flow, ``del``, ``global``,
``yield``, ``await``, assignment expressions, multi-line strings or another training step). Otherwise
the fix explains why (a fix without edits).
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding

FORWARD_FN, GRAD_FN, GRADS = "forward_fn", "grad_fn", "grads"
_BLOCKS = ("body", "orelse", "finalbody")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)
_SIMPLE = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Pass)
_FORBIDDEN = (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)

# why a training step is not rewritten: the suffix of its explanation ``fix.pattern.training_step.<why>``
WHY_LOSS = "loss"  # backward() with arguments, on an expression, or on a loss not assigned in the block
WHY_OPTIMIZER = "optimizer"  # no zero_grad() and step() of one optimizer around it in the block
WHY_STATEMENT = "statement"  # a loss statement that cannot move into a function
WHY_BETWEEN = "between"  # statements between backward() and step(): they work on .grad (clipping …)
WHY_LAYOUT = "layout"  # statements sharing lines
WHY_NAMES = "names"  # forward_fn / grad_fn / grads already mean something here


@dataclass(frozen=True, slots=True)
class StepPlan:
    """A recognised training step: the statements to move, remove and replace."""

    forward: list[ast.stmt]  # the statements computing the loss, moved into forward_fn
    removed: list[ast.stmt]  # zero_grad() and backward()
    step: ast.stmt  # opt.step()
    optimizer: ast.expr
    loss: str
    params: list[str]  # parameters of forward_fn (names read before they are assigned)
    aux: list[str]  # other outputs of forward_fn (names assigned there that other code reads)


def training_step(tree: ast.Module, backward: ast.Call, lines: list[str], whole_scope: bool = True
                  ) -> StepPlan | str:
    """The plan of the training step whose ``loss.backward()`` is ``backward``, or why there is none.

    ``whole_scope=False`` (the rule checker) leaves out the one test that reads past the top-level
    statement holding the step at module level (whether the names the rewrite writes are free), so the
    verdict of an incremental analysis is that of a full one; the fix makes it."""
    found = _block_of(tree, backward)
    if found is None:
        return WHY_LOSS
    block, index, scope = found
    func = backward.func
    if backward.args or backward.keywords or not isinstance(func, ast.Attribute) \
            or not isinstance(func.value, ast.Name):
        return WHY_LOSS
    loss = func.value.id
    step = _optimizer_call(block[index + 1 :], "step")
    if step is None:
        return WHY_OPTIMIZER
    optimizer = step.value.func.value  # type: ignore[attr-defined]
    if block.index(step) != index + 1:
        return WHY_BETWEEN
    zero = [s for s in (*block[:index], *block[block.index(step) + 1 :])
            if _is_call_on(s, "zero_grad", ast.unparse(optimizer))]
    if len(zero) != 1 or any(_is_call_on(s, "zero_grad", ast.unparse(optimizer))
                             for s in block[index + 1 : block.index(step)]):
        return WHY_OPTIMIZER
    before = [s for s in block[:index] if s is not zero[0]]
    last = next((i for i in range(len(before) - 1, -1, -1) if loss in _stores(before[i], deep=True)), None)
    if last is None:
        return WHY_LOSS
    if not _assigns_unconditionally(before[last], loss):
        return WHY_STATEMENT
    forward = _dependencies(before[: last + 1])
    moved = [*forward, *zero, block[index], step]
    if not _own_lines(sorted(moved, key=lambda s: s.lineno), lines):
        return WHY_LAYOUT
    if not all(_movable(s) for s in forward) or _multiline_strings(forward) or _steps_in(forward):
        return WHY_STATEMENT
    scope_text = _scope_text(scope, forward, lines)
    if whole_scope or not isinstance(scope, ast.Module):
        if _code_names(_scope_text(scope, [], lines)) & {FORWARD_FN, GRAD_FN, GRADS}:
            return WHY_NAMES
    stored, params = _names(forward)
    if _declared_elsewhere(scope, stored):
        return WHY_STATEMENT
    read = _code_names(scope_text)
    aux = [n for n in stored if n != loss and (n in params or n in read)]
    return StepPlan(forward, [zero[0], block[index]], step, optimizer, loss, params, aux)


# --- finding the block ---------------------------------------------------------------------------------
def _block_of(tree: ast.Module, call: ast.Call) -> tuple[list[ast.stmt], int, ast.AST] | None:
    """The statement list holding ``call`` as an expression statement, its index and enclosing scope."""
    stack: list[tuple[ast.AST, ast.AST]] = [(tree, tree)]
    while stack:
        node, scope = stack.pop()
        for field in _BLOCKS:
            block = getattr(node, field, None)
            if isinstance(block, list):
                for i, stmt in enumerate(block):
                    if isinstance(stmt, ast.Expr) and stmt.value is call:
                        return block, i, scope
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
                stack.append((child, child if isinstance(child, _SCOPES) else scope))
    return None


def _is_call_on(stmt: ast.stmt, method: str, receiver: str) -> bool:
    """``receiver.method()`` as a statement of its own, without arguments (``set_to_none`` aside)."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    call = stmt.value
    return (
        isinstance(call.func, ast.Attribute) and call.func.attr == method and not call.args
        and all(k.arg == "set_to_none" for k in call.keywords)
        and (method == "zero_grad" or not call.keywords)
        and ast.unparse(call.func.value) == receiver
    )


def _optimizer_call(statements: list[ast.stmt], method: str) -> ast.stmt | None:
    """The first ``<optimizer>.step()`` statement, the optimizer a name or a chain of attributes."""
    for stmt in statements:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == method:
            receiver = stmt.value.func.value
            plain = receiver
            while isinstance(plain, ast.Attribute):
                plain = plain.value
            if isinstance(plain, ast.Name) and _is_call_on(stmt, method, ast.unparse(receiver)):
                return stmt
            return None
    return None


# --- names ---------------------------------------------------------------------------------------------
def _units(statements: list[ast.stmt]) -> list[ast.AST]:
    """Simple statements in execution order: ``with`` blocks are opened (their items, then their body)."""
    found: list[ast.AST] = []
    for stmt in statements:
        if isinstance(stmt, ast.With):
            found.extend(stmt.items)
            found.extend(_units(stmt.body))
        else:
            found.append(stmt)
    return found


def _target_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for elt in target.elts for n in _target_names(elt)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []


def _stores(node: ast.AST, deep: bool = False) -> list[str]:
    """Names a simple statement (or ``with`` item) binds; ``deep``: also inside compound statements."""
    if isinstance(node, ast.Assign):
        return [n for t in node.targets for n in _target_names(t)]
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return _target_names(node.target)
    if isinstance(node, ast.withitem):
        return _target_names(node.optional_vars) if node.optional_vars is not None else []
    if deep:
        return [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    return []


def _loads(node: ast.AST) -> set[str]:
    """Names a statement reads (an augmented assignment reads its target too)."""
    found = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if isinstance(node, ast.AugAssign):
        found |= set(_target_names(node.target))
    return found


def _assigns_unconditionally(stmt: ast.stmt, name: str) -> bool:
    return any(name in _stores(unit) for unit in _units([stmt]) if isinstance(unit, (ast.withitem, *_SIMPLE)))


def _dependencies(statements: list[ast.stmt]) -> list[ast.stmt]:
    """The statements from the first one the last statement depends on: one that binds a name the later
    ones read, or changes the object of such a name (``outs.append(y)``, ``d["k"] = v``)."""
    needed = _loads(statements[-1])
    first = len(statements) - 1
    for i in range(len(statements) - 2, -1, -1):
        if _changed(statements[i]) & needed:
            needed |= _loads(statements[i])
            first = i
    return statements[first:]


def _changed(stmt: ast.stmt) -> set[str]:
    """Names a statement binds, or whose object it changes through a method call, an item or an attribute."""
    found = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(stmt):
        base = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            base = node.func.value
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            base = node.value
        while isinstance(base, ast.Attribute | ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name):
            found.add(base.id)
    return found


def _names(forward: list[ast.stmt]) -> tuple[list[str], list[str]]:
    """(names the statements bind, those read before their first binding: the parameters)."""
    stored: list[str] = []
    params: list[str] = []
    for unit in _units(forward):
        loads = _loads(unit)
        for name in sorted(loads):
            if name not in stored and name not in params and any(
                name in _stores(u) for u in _units(forward)
            ):
                params.append(name)
        for name in _stores(unit):
            if name not in stored:
                stored.append(name)
    return stored, params


def _declared_elsewhere(scope: ast.AST, names: list[str]) -> bool:
    """Whether ``global``/``nonlocal`` declares one of ``names`` in the enclosing function."""
    return not isinstance(scope, ast.Module) and any(
        isinstance(n, ast.Global | ast.Nonlocal) and set(n.names) & set(names) for n in ast.walk(scope)
    )


# --- what can move into a function ---------------------------------------------------------------------
def _movable(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.With):
        return all(_movable(s) for s in stmt.body) and not any(
            isinstance(n, _FORBIDDEN) for item in stmt.items for n in ast.walk(item)
        )
    return isinstance(stmt, _SIMPLE) and not any(isinstance(n, _FORBIDDEN) for n in ast.walk(stmt))


def _steps_in(statements: list[ast.stmt]) -> bool:
    """Whether another training step (``backward()``, ``step()``, ``zero_grad()``) lies among them."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("backward", "step", "zero_grad")
        for s in statements
        for n in ast.walk(s)
    )


def _multiline_strings(statements: list[ast.stmt]) -> bool:
    return any(
        isinstance(n, ast.Constant | ast.JoinedStr) and n.lineno != n.end_lineno
        for s in statements
        for n in ast.walk(s)
    )


def _first_line(stmt: ast.stmt) -> int:
    return min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])


def _own_lines(statements: list[ast.stmt], lines: list[str]) -> bool:
    """Whether each statement starts its first line and ends its last one (a comment may follow)."""
    previous_end = 0
    for stmt in statements:
        first, last = _first_line(stmt), stmt.end_lineno or stmt.lineno
        if first <= previous_end:
            return False
        start = lines[first - 1].encode()[: stmt.col_offset].decode(errors="replace")
        rest = lines[last - 1].encode()[stmt.end_col_offset :].decode(errors="replace").strip()
        if start.strip() or (rest and not rest.startswith("#")):
            return False
        previous_end = last
    return True


def _code_names(text: str) -> set[str]:
    """The names in the code of ``text``: comments and plain strings left out when it tokenizes, the words
    in the replacement fields of f-strings kept (Python 3.11 gives an f-string as one token)."""
    found: set[str] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(textwrap.dedent(text)).readline):
            if tok.type == tokenize.NAME:
                found.add(tok.string)
            elif tok.type == tokenize.STRING and "f" in tok.string.split("'")[0].split('"')[0].lower():
                found.update(w for part in re.findall(r"\{([^{}]*)\}", tok.string)
                             for w in re.findall(r"\w+", part))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return set(re.findall(r"\w+", text))
    return found


def _scope_text(scope: ast.AST, forward: list[ast.stmt], lines: list[str]) -> str:
    """The text of the enclosing function (the whole file at module level) without the moved lines."""
    first, last = (0, -1)
    if forward:
        first, last = _first_line(forward[0]), forward[-1].end_lineno or forward[-1].lineno
    if isinstance(scope, ast.Module):
        chosen = range(1, len(lines) + 1)
    else:
        chosen = range(_first_line(scope), (scope.end_lineno or scope.lineno) + 1)  # type: ignore[attr-defined]
    return "\n".join(lines[n - 1] for n in chosen if not first <= n <= last)


# --- the fix ---------------------------------------------------------------------------------------------
def training_step_rewrite(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM506 on ``loss.backward()``: the rewrite, or an explanation of why there is none."""
    if finding.message_key == "finding.MSM506.params":
        return trainable_params(ctx, finding)
    call = ctx.call_of(finding)
    if call is None:
        return None
    why = finding.message_args.get("why")
    plan = why or training_step(ctx.tree, call, ctx.lines)
    if isinstance(plan, str):
        return Fix("MSM506", f"fix.pattern.training_step.{plan}", [])
    return Fix("MSM506", "fix.pattern.training_step", _edits(ctx, plan))


def _edits(ctx: FixContext, plan: StepPlan) -> list[TextEdit]:
    nl = ctx.newline
    first_stmt = plan.forward[0]
    first, last = _first_line(first_stmt), plan.forward[-1].end_lineno or plan.forward[-1].lineno
    indent = ctx.lines[first - 1][: len(ctx.lines[first - 1]) - len(ctx.lines[first - 1].lstrip())]
    unit = "\t" if indent.startswith("\t") else "    "
    value_and_grad, imports = ctx.mindspore_reference("mindspore.value_and_grad", first)
    edits: list[TextEdit] = []
    removed = {n for s in plan.removed for n in range(s.lineno, (s.end_lineno or s.lineno) + 1)}
    for number in range(first, last + 1):
        line = ctx.lines[number - 1]
        if not line.strip() or number in removed:
            continue
        column = len(line) - len(line.lstrip()) + 1
        head = f"def {FORWARD_FN}({', '.join(plan.params)}):{nl}{indent}" if number == first else ""
        edits.append(TextEdit(number, column, number, column, head + unit))
    outputs = ", ".join([plan.loss, *plan.aux])
    has_aux = ", has_aux=True" if plan.aux else ""
    values = f"({outputs})" if plan.aux else plan.loss
    optimizer = ctx.text(plan.optimizer)
    tail = (
        f"{nl}{indent}{unit}return {outputs}"
        f"{nl}{indent}{GRAD_FN} = {value_and_grad}({FORWARD_FN}, None, {optimizer}.parameters{has_aux})"
        f"{nl}{indent}{values}, {GRADS} = {GRAD_FN}({', '.join(plan.params)})"
    )
    edits.append(TextEdit(last, len(ctx.lines[last - 1]) + 1, last, len(ctx.lines[last - 1]) + 1, tail))
    for stmt in plan.removed:
        edits.append(TextEdit(stmt.lineno, 1, (stmt.end_lineno or stmt.lineno) + 1, 1, ""))
    edits.append(TextEdit(*ctx.node_range(plan.step), f"{optimizer}({GRADS})"))
    return [*edits, *imports]


def trainable_params(ctx: FixContext, finding: Finding) -> Fix | None:
    """``model.parameters()`` given to an optimizer → ``model.trainable_params()``."""
    call = ctx.call_of(finding)
    if call is None or call.args or call.keywords or not isinstance(call.func, ast.Attribute):
        return None
    _, _, end_line, end_column = ctx.node_range(call)
    start = finding.column
    return Fix("MSM506", "fix.pattern.trainable_params",
               [TextEdit(finding.line, start, end_line, end_column, "trainable_params()")])
