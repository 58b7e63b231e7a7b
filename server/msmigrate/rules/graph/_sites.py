"""Shared code of the GRAPH_MODE rules MSM701–MSM705: their sites in the functions GRAPH_MODE compiles,
found in one walk per file (each rule module reports its own, ``findings``)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.analysis.import_names import imported_name, module_imports
from msmigrate.analysis.source_text import dotted_name
from msmigrate.knowledge.graph_mode_forms import failing_form
from msmigrate.model.finding import Finding
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import compiled_functions, network_classes, own_nodes
from msmigrate.rules.sites import Site, new_findings, sites_of
from msmigrate.rules.support import attribute_range, usage_at

# einops called in a compiled function, or its layers held by a cell (the library, or the helper module's
# adapters MSM530 writes): einops' own code (backend lookup, try statements) does not compile
EINOPS_FUNCTIONS = frozenset({"rearrange", "repeat", "reduce", "pack", "unpack", "einsum", "parse_shape"})
EINOPS_LAYERS = frozenset({"Rearrange", "Reduce", "EinMix"})
SUBCELL_METHODS = frozenset(
    {"cells", "cells_and_names", "name_cells", "children", "named_children", "modules", "named_modules"}
)


def findings(ctx, rule: Rule) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    """``rule``'s findings in the functions GRAPH_MODE compiles, by position (one walk per file)."""
    return new_findings(rule, sites_of(ctx, rule, "graph_sites", _walk))


# syntax node -> (what the finding calls it, MindSpore's word: statement | expression, MindSpore's node name)
_STATEMENTS: dict[type, tuple[str, str]] = {
    ast.Try: ("try statement", "Try"),
    ast.Delete: ("del statement", "Delete"),
    ast.Nonlocal: ("nonlocal statement", "Nonlocal"),
    ast.Import: ("import statement", "Import"),
    ast.ImportFrom: ("import statement", "ImportFrom"),
    ast.ClassDef: ("class definition", "ClassDef"),
    ast.AsyncFunctionDef: ("async function", "AsyncFunctionDef"),
    ast.Match: ("match statement", "Match"),
}
if hasattr(ast, "TryStar"):
    _STATEMENTS[ast.TryStar] = ("try statement", "TryStar")
_EXPRESSIONS: dict[type, tuple[str, str]] = {
    ast.Yield: ("yield", "Yield"),
    ast.YieldFrom: ("yield from", "YieldFrom"),
    ast.NamedExpr: (":= expression", "NamedExpr"),
    ast.Set: ("set literal", "Set"),
    ast.SetComp: ("set comprehension", "SetComp"),
}
_KEYWORDS = {
    ast.Try: "try",
    ast.Delete: "del",
    ast.Nonlocal: "nonlocal",
    ast.Import: "import",
    ast.ImportFrom: "from",
    ast.ClassDef: "class",
    ast.AsyncFunctionDef: "async",
    ast.Match: "match",
}
def _keyword_range(ctx, node: ast.stmt) -> tuple[int, int, int, int]:
    keyword = _KEYWORDS.get(type(node), "")
    return (node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1 + len(keyword))


def _jit_classes(tree: ast.Module, imports: dict[str, str]) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if (imported_name(target, imports) or dotted_name(target) or "").endswith("jit_class"):
                    found.add(node.name)
    return found


def _manager_is_jit_class(item: ast.withitem, jit_classes: set[str]) -> bool:
    expr = item.context_expr
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in jit_classes


def _walk(ctx) -> list[Site]:  # noqa: ANN001 - the analysis context
    if "def construct" not in ctx.source and "def forward" not in ctx.source:
        return []
    imports = module_imports(ctx.tree)
    jit_classes = _jit_classes(ctx.tree, imports)
    names_torch = any(name.split(".")[0] == "torch" for name in imports.values())
    found: list[Site] = []
    seen: set[int] = set()
    for owner, function in compiled_functions(ctx, imports):
        for node in own_nodes(function):
            if id(node) in seen:
                continue
            seen.add(id(node))
            ctx.cancel.raise_if_cancelled()
            found.extend(_findings(ctx, node, owner, jit_classes))
            if isinstance(node, ast.Call):
                found.extend(_form(ctx, node, owner, names_torch))
                found.extend(_einops(ctx, node, owner, imports, EINOPS_FUNCTIONS, "finding.MSM705"))
    for cls in network_classes(ctx, imports):  # a layer held by the cell runs in its construct
        for node in ast.walk(cls):
            if isinstance(node, ast.Call):
                found.extend(_einops(ctx, node, cls.name, imports, EINOPS_LAYERS, "finding.MSM705.layer"))
    return sorted(found, key=lambda site: site.span[:2])


def _einops(ctx, call: ast.Call, owner: str, imports: dict[str, str], names: frozenset[str],
            key: str) -> list[Site]:
    """MSM705: a call of einops (or of the helper module's einops adapter) named in ``names``."""
    written = dotted_name(call.func)
    full = imported_name(call.func, imports) or written or ""
    module, _, name = full.rpartition(".")
    # the helper module's einsum is torch.einsum's composition, not einops' (msm707_pynative_helper.py)
    adapter = module.endswith("ms_compat") and name != "einsum"
    if name not in names or not (module.split(".")[0] == "einops" or adapter):
        return []
    return [Site("MSM705", ctx.node_range(call.func), key, {"name": name, "function": owner})]


def _findings(ctx, node: ast.AST, owner: str, jit_classes: set[str]) -> list[Site]:
    kind = type(node)
    if kind in _STATEMENTS:
        what, name = _STATEMENTS[kind]
        return [
            Site(
                "MSM701",
                _keyword_range(ctx, node),
                "finding.MSM701",
                {"what": what, "function": owner, "kind": "statement", "node": name},
            )
        ]
    if kind in _EXPRESSIONS:
        what, name = _EXPRESSIONS[kind]
        return [
            Site(
                "MSM701",
                ctx.node_range(node),
                "finding.MSM701",
                {"what": what, "function": owner, "kind": "expression", "node": name},
            )
        ]
    if isinstance(node, ast.With | ast.AsyncWith):
        # at the keyword: the manager's own position keeps its API finding (torch.no_grad and its fix)
        keyword = "async with" if isinstance(node, ast.AsyncWith) else "with"
        span = (node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1 + len(keyword))
        return [
            Site(
                "MSM702",
                span,
                "finding.MSM702",
                {"manager": ast.get_source_segment(ctx.source, item.context_expr) or "…", "function": owner},
            )
            for item in node.items
            if not _manager_is_jit_class(item, jit_classes)
        ]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in SUBCELL_METHODS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and not node.args
    ):
        return [
            Site(
                "MSM703",
                ctx.node_range(node),
                "finding.MSM703",
                {"method": node.func.attr, "function": owner},
            )
        ]
    return []


def _form(ctx, call: ast.Call, owner: str, names_torch: bool) -> list[Site]:
    """MSM704: a Tensor method in a form GRAPH_MODE does not run on CPU. In torch code only where the
    analysis reported the torch Tensor method there; in MindSpore code (no torch import) by its form."""
    func = call.func
    if not isinstance(func, ast.Attribute) or any(isinstance(a, ast.Starred) for a in call.args):
        return []
    form = failing_form(func.attr, len(call.args), {k.arg for k in call.keywords if k.arg})
    if form is None:
        return []
    if names_torch and usage_at(ctx, attribute_range(ctx, func), [f"torch.Tensor.{func.attr}"]) is None:
        return []
    # at the arguments that choose the form: the method's own position keeps its API finding and fix
    chosen = [k for k in call.keywords if k.arg == form.keyword] if form.keyword else call.args
    first, last = ctx.node_range(chosen[0]), ctx.node_range(chosen[-1])
    span = (first[0], first[1], last[2], last[3])
    args = {"method": func.attr, "function": owner, "error": form.error}
    key = "finding.MSM704"
    if form.alternative:
        key, args = "finding.MSM704.alternative", {**args, "alternative": form.alternative}
    return [Site("MSM704", span, key, args, fixable=form.alternative is not None)]
