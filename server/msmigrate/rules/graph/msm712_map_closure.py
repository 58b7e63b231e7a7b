"""MSM712: ``map`` over a lambda that calls a function, in code GRAPH_MODE compiles.

Met by ``msmigrate compare`` on linformer's ``LinformerSelfAttention.forward``: ``proj_seq_len = lambda args:
torch.einsum('bnd,nk->bkd', *args)`` then ``keys, values = map(proj_seq_len, zip(...))`` (and g-mlp-pytorch's
``map(lambda args: shift(*args), ...)``). It runs in PyNative mode; GRAPH_MODE (MindSpore 2.10) stops with
"The Map operator don't support Closure with free variable yet" when the lambda calls a function that is not
a method of its own parameter: a module-level function, a module's (``ops.relu``), ``self``'s method. A
lambda that only computes with its parameters (``t * k``, ``t.sum()``), a function passed to ``map`` by
name, and a list comprehension calling the function compile (all checked by the rule's test). What is
flagged: ``map(f, ...)`` in ``forward``/``construct`` and what they call (``_compiled.compiled_functions``)
where ``f`` is such a lambda, written there or assigned to a local name of that function. No fix: the
comprehension changes the statement (``[f(*a) for a in zip(...)]``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.import_names import module_imports
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, NET, compiled_functions
from msmigrate.rules.support import new_finding

RULE = Rule("MSM712", C.FRAMEWORK_PATTERN, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM712.title": ("map over a lambda that calls a function, in construct",
                          "construct 中对调用函数的 lambda 使用 map"),
    "rule.MSM712.explanation": (
        "GRAPH_MODE (MindSpore 2.10) compiles map(f, ...) only when the lambda f calls no function from "
        "outside it: map(lambda a: fn(*a), zip(...)) in construct stops with \"The Map operator don't "
        "support Closure with free variable yet\" (a module-level function, ops.relu, a method of self); it "
        "runs in PyNative mode. Write a list comprehension ([fn(*a) for a in zip(...)]), or pass the "
        "function to map by name.",
        "GRAPH_MODE（MindSpore 2.10）只在 lambda f 不调用外部函数时才能编译 map(f, ...)：construct 中的 "
        "map(lambda a: fn(*a), zip(...)) 会报错“The Map operator don't support Closure with free variable "
        "yet”（模块级函数、ops.relu、self 的方法均如此）；它可以在 PyNative 模式下运行。请改写为列表推导式"
        "（[fn(*a) for a in zip(...)]），或把函数名直接传给 map。",
    ),
    "finding.MSM712": (
        "map({function}, …) in {owner}: the lambda calls {callee}, and GRAPH_MODE's map takes no such "
        "closure (\"The Map operator don't support Closure with free variable yet\"); write a list "
        "comprehension",
        "{owner} 中的 map({function}, …)：该 lambda 调用了 {callee}，GRAPH_MODE 的 map 不支持这样的闭包"
        "（“The Map operator don't support Closure with free variable yet”）；请改写为列表推导式",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM712": (
        NET + "        a, b = map(lambda t: torch.relu(t), (x, x))\n        return a + b\n",
        NET + "        a, b = map(lambda t: t * 2, (x, x))\n        return a + b\n",
        [(6, 20)],
    ),
}


def _callee(function: ast.Lambda) -> str | None:
    """The first function the lambda calls that is not a method of one of its parameters."""
    params = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    params |= {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}
    for node in ast.walk(function.body):
        if not isinstance(node, ast.Call):
            continue
        root = node.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not (isinstance(root, ast.Name) and root.id in params and root is not node.func):
            return ast.unparse(node.func)
    return None


def _lambdas(function: ast.AST) -> dict[str, ast.Lambda]:
    """Local names the function assigns a lambda to, once."""
    found: dict[str, ast.Lambda] = {}
    counts: dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    counts[target.id] = counts.get(target.id, 0) + 1
                    if isinstance(node.value, ast.Lambda):
                        found[target.id] = node.value
    return {name: value for name, value in found.items() if counts.get(name) == 1}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if "map(" not in ctx.source or "lambda" not in ctx.source:
        return []
    found: list[Finding] = []
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, module_imports(ctx.tree)):
        named = _lambdas(function)
        for node in ast.walk(function):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "map"
                    and node.args) or id(node) in seen:
                continue
            seen.add(id(node))
            first = node.args[0]
            lam = first if isinstance(first, ast.Lambda) else named.get(first.id) if isinstance(
                first, ast.Name) else None
            callee = _callee(lam) if lam is not None else None
            if callee is None:
                continue
            text = "lambda …" if isinstance(first, ast.Lambda) else first.id  # type: ignore[union-attr]
            found.append(new_finding(RULE, ctx.node_range(first), "finding.MSM712",
                                     {"function": text, "owner": owner, "callee": callee}))
    return sorted(found, key=lambda f: (f.line, f.column))


FIXERS = ()
