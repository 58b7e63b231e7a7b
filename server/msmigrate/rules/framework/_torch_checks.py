"""What MSM513 (feature checks on torch) and MSM514 (TorchScript, FX and backend marks) share: the
sites both look at, classified in one order (fixes: ``fixes/torch_check_fixes.py``)."""

from __future__ import annotations

import ast

from msmigrate.fixes.instance_calls import parents
from msmigrate.fixes.torch_check_fixes import (
    ANNOTATE,
    ASSERT,
    CUDA_AVAILABLE,
    CUDA_COUNT,
    DETERMINISTIC,
    FALSE_CALLS,
    FINAL,
    FX_WRAP,
    JIT_DECORATORS,
    SDP_CONTEXTS,
    SDP_SWITCHES,
    TRACES,
    VERSION,
    is_version_comparison,
)
from msmigrate.model.finding import Finding
from msmigrate.model.rule import Rule
from msmigrate.rules.support import (
    IDIOM_TAKE_OVER,
    named_nodes,
    new_finding,
    reference_range,
    report,
    tree_index,
)

DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/"
_TAKE_OVER = IDIOM_TAKE_OVER


def torch_check_findings(ctx, rule: Rule) -> list[Finding]:
    """The findings of ``rule`` (MSM513 or MSM514): the sites both rules look at are classified once, in
    one order (a name that is a feature check is no mark)."""
    feature = rule.id == "MSM513"
    found: list[Finding | None] = []

    def take(of_feature: bool, *args, **options) -> Finding | None:
        return _taken(ctx, feature, rule, of_feature, *args, **options)

    canonical = ctx.kb.canonical
    up: dict[int, ast.AST] | None = None
    version = ctx.kb.torch_inventory.header.get("version", "")
    for call in tree_index(ctx).nodes(ast.Call):
        ctx.cancel.raise_if_cancelled()
        func = call.func
        if feature and isinstance(func, ast.Name) and func.id == "hasattr":
            found.append(_hasattr(ctx, rule, call))
    for assign in () if feature else tree_index(ctx).nodes(ast.Assign):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        written = _dotted(ctx, target) if isinstance(target, ast.Attribute) else None
        if written and written.startswith("torch.backends."):
            key = "finding.MSM514.deterministic" if written == DETERMINISTIC else "finding.MSM514.backend"
            found.append(new_finding(rule, ctx.node_range(target), key, {"api": written},
                                     torch_api=written, fixable=True))
    names = [*named_nodes(ctx, ast.Attribute), *named_nodes(ctx, ast.Name)]
    inner = {id(n.value) for n in names if isinstance(n, ast.Attribute)}
    for node in names:
        written = ctx.qualified_name(node)
        if id(node) in inner or not written or not written.startswith("torch."):
            continue
        api = canonical(written)
        if api in FALSE_CALLS or written in FALSE_CALLS:
            found.append(take(True, node, "finding.MSM513.constant",
                                {"api": api, "value": "False"}, api, written))
        elif api == CUDA_AVAILABLE:
            found.append(take(True, node, "finding.MSM513.cuda", {}, api, written))
        elif api == CUDA_COUNT:
            found.append(take(True, node, "finding.MSM513.cuda_count", {}, api, written))
        elif written == VERSION:
            if not feature:
                continue
            up = up if up is not None else parents(ctx.tree)
            compared = is_version_comparison(node, up)
            key = "finding.MSM513.version" if compared else "finding.MSM513.version_read"
            found.append(take(True, node, key, {"version": version}, VERSION, written,
                                fixable=compared))
        elif api == FINAL or written == FINAL:
            found.append(take(False, node, "finding.MSM514.final", {}, FINAL, written))
        elif api in JIT_DECORATORS or api in (ANNOTATE, ASSERT) or written in (FX_WRAP, ASSERT):
            found.append(take(False, node, "finding.MSM514.mark", {"api": api}, api, written))
        elif api in TRACES:
            found.append(take(False, node, "finding.MSM514.trace", {"api": api}, api, written))
        elif api in SDP_SWITCHES or api in SDP_CONTEXTS:
            found.append(take(False, node, "finding.MSM514.backend", {"api": api}, api, written))
    return [f for f in found if f is not None]


def _taken(ctx, feature: bool, rule: Rule, of_feature: bool, node: ast.expr, key: str, args: dict[str, str],
           api: str, written: str, fixable: bool = True) -> Finding | None:
    """The finding at ``node`` when it is of ``rule`` (``of_feature``: the site is a feature check)."""
    if feature is not of_feature:
        return None
    return report(ctx, rule, reference_range(ctx, node), key, args, apis=[api, written],
                  convertible=_TAKE_OVER, fixable=fixable, torch_api=api)


def _dotted(ctx, node: ast.Attribute) -> str | None:
    """The torch name an assigned attribute chain spells (``torch.backends.cudnn.benchmark``)."""
    parts: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    base = ctx.qualified_name(current)
    return ".".join([base, *reversed(parts)]) if base else None


def _hasattr(ctx, rule: Rule, call: ast.Call) -> Finding | None:
    """``hasattr(<torch module or class>, "<name>")``: True once migrated when the name maps."""
    if len(call.args) != 2 or call.keywords:
        return None
    owner, name = call.args
    module = ctx.qualified_name(owner)
    if not module or not isinstance(name, ast.Constant) or not isinstance(name.value, str):
        return None
    if module != "torch" and not module.startswith("torch."):
        return None
    api = ctx.kb.canonical(f"{ctx.kb.canonical(module)}.{name.value}")
    row = ctx.kb.mapping(api)
    maps = row is not None and bool(row.mindspore_api)
    key = "finding.MSM513.hasattr_true" if maps else "finding.MSM513.hasattr_false"
    return new_finding(rule, ctx.node_range(call), key, {"name": api, "value": str(maps)},
                       torch_api=api, fixable=True)
