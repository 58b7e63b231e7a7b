"""MSM530: einops in migrated code, whose torch layers and functions need a MindSpore backend.

``from einops.layers.torch import Rearrange`` imports torch (the layers are ``torch.nn.Module`` classes),
and einops' functions (``rearrange``, ``repeat``, ``reduce``, ``pack``, ``unpack``) find no backend for a
MindSpore tensor in einops 0.8 ("Tensor type unknown to einops"). In a file being migrated (it imports
torch), the fix imports these names from the project's helper module instead, where the adapters of
``knowledge/compositions/adapters.py`` give einops a MindSpore backend and the layers as Cells taking the
same arguments: ``from einops.layers.torch import Rearrange`` → ``from ms_compat import Rearrange``. Names
einops offers that have no adapter (``EinMix``; ``einsum``, whose MindSpore operator has no CPU kernel) stay
imported from einops; a statement importing only such names from the torch layers is reported without a fix.
Every use of a layer's name is reported with the import that binds it (its fix covers them).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.compositions import CompatModule
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.knowledge.compositions.adapters import adapter_for
from msmigrate.model.finding import Finding, UsageKind
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import BEFORE_MISSING_API, new_finding

DOC = "https://www.mindspore.cn/tutorials/en/r2.6.0/model_migration/model_migration.html"
RULE = Rule("MSM530", C.FRAMEWORK_PATTERN, S.INFORMATION, DOC, fixable=True)
LAYERS = "einops.layers.torch"

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM530.title": ("einops on MindSpore tensors", "在 MindSpore 张量上使用 einops"),
    "rule.MSM530.explanation": (
        "einops.layers.torch's Rearrange and Reduce are torch modules, and einops 0.8 has no backend for "
        "MindSpore tensors, so its rearrange, repeat and reduce raise \"Tensor type unknown to einops\" once "
        "the tensors are MindSpore's. The fix imports these names from the project's helper module, which "
        "gives einops a MindSpore backend (reshape, transpose, reductions, tiling) and provides Rearrange "
        "and Reduce as Cells taking the same arguments. EinMix and einsum have no such helper.",
        "einops.layers.torch 的 Rearrange、Reduce 是 torch 模块，而 einops 0.8 没有 MindSpore 张量的后端，"
        "张量换成 MindSpore 的之后，其 rearrange、repeat、reduce 会报 \"Tensor type unknown to einops\"。"
        "修复改为从项目辅助模块导入这些名字：辅助模块为 einops 提供 MindSpore 后端（reshape、transpose、"
        "归约、平铺），并以参数相同的 Cell 提供 Rearrange 和 Reduce。EinMix 和 einsum 没有对应的辅助实现。",
    ),
    "finding.MSM530": (
        "{names} from {module}: import from the helper module ({helper}), where einops has a MindSpore "
        "backend",
        "从 {module} 导入的 {names}：改为从辅助模块（{helper}）导入，其中为 einops 提供了 MindSpore 后端",
    ),
    "finding.MSM530.none": (
        "{names} from {module}: torch layers without a MindSpore helper; write them as a Cell",
        "从 {module} 导入的 {names}：没有对应 MindSpore 辅助实现的 torch 层，请改写为 Cell",
    ),
    "finding.MSM530.use": (
        "{name} comes from {module}; the fix of its import (line {line}) makes it the helper module's",
        "{name} 来自 {module}；其导入语句（第 {line} 行）的修复会改为使用辅助模块中的实现",
    ),
    "fix.einops_import": (
        "Import {names} from the helper module {module}",
        "改为从辅助模块 {module} 导入 {names}",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM530": (
        "import torch\nfrom einops.layers.torch import Rearrange\n\nflat = Rearrange('b c h w -> b c')\n",
        "import numpy\nfrom einops import rearrange\n\nflat = rearrange(numpy.ones((2, 3)), 'a b -> b a')\n",
        [(2, 1), (4, 8)],
    ),
}


def _einops_imports(tree: ast.Module) -> list[ast.ImportFrom]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0
            and node.module in (LAYERS, "einops")]


def _migrated(ctx) -> bool:  # noqa: ANN001
    """A file that imports torch (einops' layers for torch included): its tensors become MindSpore's."""
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "torch" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                node.module.split(".")[0] == "torch" or node.module == LAYERS):
            return True
    return False


def adapted(node: ast.ImportFrom) -> tuple[list[ast.alias], list[ast.alias]]:
    """The names of an einops import with an adapter, and the others."""
    found = [a for a in node.names if adapter_for(f"{node.module}.{a.name}") is not None]
    return found, [a for a in node.names if a not in found]


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    if "einops" not in ctx.source:
        return []
    imports = _einops_imports(ctx.tree)
    if not imports or not _migrated(ctx):
        return []
    found: list[Finding] = []
    layers: dict[str, ast.ImportFrom] = {}
    for node in imports:
        names, others = adapted(node)
        if not names and node.module != LAYERS:
            continue
        span = (node.lineno, node.col_offset + 1, node.end_lineno or node.lineno, node.end_col_offset + 1)
        shown = ", ".join(a.name for a in (names or others))
        key = "finding.MSM530" if names else "finding.MSM530.none"
        found.append(new_finding(RULE, span, key, {"names": shown, "module": node.module,
                                                   "helper": "ms_compat"}, fixable=bool(names),
                                 usage=UsageKind.IMPORT))
        if node.module == LAYERS:
            layers.update({(a.asname or a.name): node for a in names})
    for name in ast.walk(ctx.tree):
        if isinstance(name, ast.Name) and name.id in layers and isinstance(name.ctx, ast.Load):
            statement = layers[name.id]
            found.append(new_finding(RULE, ctx.node_range(name), "finding.MSM530.use",
                                     {"name": name.id, "module": LAYERS, "line": statement.lineno}))
    return found


def from_helper_module(statement: str, names: str) -> str:
    """``statement`` (how a file imports the helper module: ``import ms_compat``, ``from . import
    ms_compat``, ``from pkg import ms_compat``) as an import of ``names`` from it."""
    node = ast.parse(statement).body[0]
    if isinstance(node, ast.Import):
        return f"from {node.names[0].name} import {names}"
    assert isinstance(node, ast.ImportFrom)
    package = "." * node.level + (node.module or "")
    module = node.names[0].name
    return f"from {package}{'' if package.endswith('.') or not package else '.'}{module} import {names}"


def einops_import(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM530: the names with an adapter imported from the helper module, the others still from einops."""
    node = next((n for n in _einops_imports(ctx.tree) if n.lineno == finding.line
                 and n.col_offset + 1 == finding.column), None)
    if node is None or finding.message_key != "finding.MSM530":
        return None
    names, others = adapted(node)
    compat = ctx.compat or CompatModule.beside(ctx.path)
    statement = compat.import_statement(ctx.path)
    if statement is None or not names:
        return None
    listed = ", ".join(f"{a.name} as {a.asname}" if a.asname else a.name for a in names)
    text = from_helper_module(statement, listed)
    if others:
        rest = ", ".join(f"{a.name} as {a.asname}" if a.asname else a.name for a in others)
        indent = ctx.lines[node.lineno - 1][: node.col_offset]
        text += f"{ctx.newline}{indent}from {node.module} import {rest}"
    edit = TextEdit(*ctx.node_range(node), text)
    helpers = tuple(adapter_for(f"{node.module}.{a.name}").helper for a in names)  # type: ignore[union-attr]
    return Fix(RULE.id, "fix.einops_import", [edit], {"names": ", ".join(a.name for a in names),
                                                     "module": compat.name}, helpers=helpers)


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (einops_import,)
FIX_SAFETY = Safety.SAFE  # einops through the helper module's MindSpore backend (tested against einops)
