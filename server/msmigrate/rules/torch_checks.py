"""MSM513: feature checks on torch; MSM514: TorchScript, FX and torch backend marks.

Model code asks torch about itself: ``hasattr(F, "scaled_dot_product_attention")``,
``torch.__version__ >= "1.13"``, ``torch.jit.is_scripting()``, ``torch.cuda.is_available()``. Once the
code runs in MindSpore the answers are known: a ``hasattr`` is whether the name has a MindSpore
counterpart (the mapping the fixes apply), the TorchScript/tracing/compile checks are ``False``, a version
comparison is evaluated for the torch version the migration assumes (that of the API inventory), and
"is CUDA available" is asked of MindSpore. It also marks code for TorchScript or FX (``@torch.jit.ignore``,
``torch.jit.Final``, ``torch.fx.wrap``) and sets torch's GPU kernels (``torch.backends.cudnn.benchmark``):
MindSpore needs none of it, except determinism, which is ``mindspore.set_deterministic``.
Fixes: ``fixes/torch_check_fixes.py`` (the constant and what it decides: ``fixes/constant_fold.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

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
    torch_check_fix,
    torch_marker_fix,
)
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.support import (
    IDIOM_TAKE_OVER,
    named_nodes,
    new_finding,
    reference_range,
    report,
    tree_index,
)

_DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/"
FEATURE_CHECK = Rule("MSM513", C.FRAMEWORK_PATTERN, S.INFORMATION,
                     _DOCS + "api_python/mindspore/mindspore.hal.is_available.html", fixable=True)
TORCH_MARK = Rule("MSM514", C.FRAMEWORK_PATTERN, S.HINT,
                  _DOCS + "api_python/mindspore/mindspore.set_deterministic.html", fixable=True)
RULES = [FEATURE_CHECK, TORCH_MARK]

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM513.title": ("Feature check on torch", "对 torch 的特性检查"),
    "rule.MSM513.explanation": (
        "Code that asks torch about itself has a known answer once it runs in MindSpore. hasattr on a torch "
        "module is whether the name has a MindSpore counterpart (otherwise the code's fallback runs); "
        "torch.jit.is_scripting(), is_tracing() and the torch.compile checks are False; a comparison of "
        "torch.__version__ is evaluated for the torch version the migration assumes; "
        "torch.cuda.is_available() becomes mindspore.hal.is_available(\"GPU\") (device_count likewise). The "
        "quick-fix writes the answer and keeps only the branch it selects.",
        "询问 torch 自身的代码在 MindSpore 中运行时答案是确定的：对 torch 模块的 hasattr 取决于该名称是否有 "
        "MindSpore 对应项（否则执行代码中的备选分支）；torch.jit.is_scripting()、is_tracing() 以及 "
        "torch.compile 相关检查为 False；torch.__version__ 的比较按迁移所依据的 torch 版本求值；"
        "torch.cuda.is_available() 改为 mindspore.hal.is_available(\"GPU\")（device_count 同理）。"
        "快速修复写入该答案，"
        "并只保留它选中的分支。",
    ),
    "rule.MSM514.title": (
        "TorchScript, FX and torch backend settings",
        "TorchScript、FX 与 torch 后端设置",
    ),
    "rule.MSM514.explanation": (
        "Decorators and calls that prepare code for TorchScript or FX (@torch.jit.ignore, @torch.jit.unused, "
        "torch.fx.wrap, torch.jit.annotate) and settings of torch's GPU kernels "
        "(torch.backends.cudnn.benchmark, allow_tf32, sdp_kernel) have no role in MindSpore: the quick-fix "
        "removes them. torch.jit.Final is typing.Final; torch.backends.cudnn.deterministic becomes "
        "mindspore.set_deterministic, which MindSpore accepts once per process (to review).",
        "为 TorchScript 或 FX 准备代码的装饰器和调用（@torch.jit.ignore、@torch.jit.unused、torch.fx.wrap、"
        "torch.jit.annotate）以及 torch GPU 算子的设置（torch.backends.cudnn.benchmark、allow_tf32、"
        "sdp_kernel）在 MindSpore 中没有作用：快速修复会删除它们。torch.jit.Final 即 typing.Final；"
        "torch.backends.cudnn.deterministic 改为 mindspore.set_deterministic，"
        "MindSpore 每个进程只接受一次该设置（需检查）。",
    ),
    "finding.MSM513.hasattr_true": (
        "Feature check: {name} has a MindSpore counterpart, so the check is True once migrated",
        "特性检查：{name} 有 MindSpore 对应项，迁移后该检查为 True",
    ),
    "finding.MSM513.hasattr_false": (
        "Feature check: {name} has no MindSpore counterpart, so the check is False once migrated (the "
        "fallback code runs)",
        "特性检查：{name} 没有 MindSpore 对应项，迁移后该检查为 False（执行备选代码）",
    ),
    "finding.MSM513.constant": (
        "{api}() is False when the code runs in MindSpore (no TorchScript, tracing or torch.compile)",
        "代码在 MindSpore 中运行时 {api}() 为 False（没有 TorchScript、tracing 或 torch.compile）",
    ),
    "finding.MSM513.version": (
        "torch.__version__ is compared: there is no torch once migrated; compare the torch version the "
        "migration assumes ({version})",
        "比较了 torch.__version__：迁移后没有 torch；请与迁移所依据的 torch 版本（{version}）比较",
    ),
    "finding.MSM513.version_read": (
        "torch.__version__ is read: there is no torch once migrated; write the version the code was written "
        "for, or mindspore.__version__",
        "读取了 torch.__version__：迁移后没有 torch；请写明代码所针对的版本，或使用 mindspore.__version__",
    ),
    "finding.MSM513.cuda": (
        "torch.cuda.is_available(): ask MindSpore with mindspore.hal.is_available(\"GPU\")",
        "torch.cuda.is_available()：请用 mindspore.hal.is_available(\"GPU\") 询问 MindSpore",
    ),
    "finding.MSM513.cuda_count": (
        "torch.cuda.device_count(): ask MindSpore with mindspore.hal.device_count(\"GPU\")",
        "torch.cuda.device_count()：请用 mindspore.hal.device_count(\"GPU\") 询问 MindSpore",
    ),
    "finding.MSM514.mark": (
        "{api} prepares code for TorchScript or FX; MindSpore needs no such mark: remove it",
        "{api} 用于为 TorchScript 或 FX 准备代码；MindSpore 不需要此类标记：请删除它",
    ),
    "finding.MSM514.trace": (
        "{api} compiles the module for TorchScript by running it on example inputs; MindSpore runs the "
        "module itself (mindspore.jit compiles it where wanted): use the module as it is",
        "{api} 通过在示例输入上运行模块将其编译为 TorchScript；MindSpore 直接运行该模块"
        "（需要时用 mindspore.jit 编译）：请直接使用该模块",
    ),
    "finding.MSM514.final": (
        "torch.jit.Final is typing.Final outside TorchScript",
        "在 TorchScript 之外 torch.jit.Final 即 typing.Final",
    ),
    "finding.MSM514.backend": (
        "{api} sets torch's GPU kernels; MindSpore has no such setting",
        "{api} 用于设置 torch 的 GPU 算子；MindSpore 没有此类设置",
    ),
    "finding.MSM514.deterministic": (
        "torch.backends.cudnn.deterministic: use mindspore.set_deterministic",
        "torch.backends.cudnn.deterministic：请使用 mindspore.set_deterministic",
    ),
    "fix.torch_check.constant": (
        "Write {value} and keep the code it selects",
        "写为 {value}，并保留其选中的代码",
    ),
    "fix.torch_check.version": (
        "Compare with \"{version}\", the torch version the migration assumes",
        "与迁移所依据的 torch 版本 \"{version}\" 比较",
    ),
    "fix.torch_check.cuda": (
        "Use mindspore.hal.is_available(\"GPU\")",
        "改用 mindspore.hal.is_available(\"GPU\")",
    ),
    "fix.torch_check.cuda_count": (
        "Use mindspore.hal.device_count(\"GPU\") (0 without a GPU backend)",
        "改用 mindspore.hal.device_count(\"GPU\")（没有 GPU 后端时为 0）",
    ),
    "fix.torch_marker.remove": ("Remove {api}", "删除 {api}"),
    "fix.torch_marker.final": ("Use typing.Final", "改用 typing.Final"),
    "fix.torch_marker.annotate": ("Keep the value only", "只保留其值"),
    "fix.torch_marker.trace": (
        "Use the module itself (to review: the example inputs are no longer run, which in training mode "
        "updated BatchNorm statistics)",
        "直接使用该模块（需检查：不再运行示例输入；在训练模式下运行示例输入会更新 BatchNorm 统计量）",
    ),
    "fix.torch_marker.assert": ("Use Python's assert, which torch._assert wraps",
                                "改用 Python 的 assert（torch._assert 即对它的封装）"),
    "fix.torch_marker.deterministic": (
        "Use mindspore.set_deterministic (to review: MindSpore accepts it once per process; a second call "
        "raises an error)",
        "改用 mindspore.set_deterministic（需检查：MindSpore 每个进程只接受一次设置，再次调用会报错）",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM513": (
        "import torch\n\ndef act(x):\n    if torch.jit.is_scripting():\n        return x\n    return x * 2\n",
        "import torch\n\ndef act(x):\n    if x.ndim > 2:\n        return x\n    return x * 2\n",
        [(4, 8)],
    ),
    "MSM514": (
        "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    @torch.jit.ignore\n"
        "    def no_weight_decay(self):\n        return set()\n",
        "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    @staticmethod\n"
        "    def no_weight_decay():\n        return set()\n",
        [(5, 6)],
    ),
}

_TAKE_OVER = IDIOM_TAKE_OVER


def check(ctx) -> Iterable[Finding]:
    found: list[Finding | None] = []
    canonical = ctx.kb.canonical
    up: dict[int, ast.AST] | None = None
    version = ctx.kb.torch_inventory.header.get("version", "")
    for call in tree_index(ctx).nodes(ast.Call):
        ctx.cancel.check()
        func = call.func
        if isinstance(func, ast.Name) and func.id == "hasattr":
            found.append(_hasattr(ctx, call))
    for assign in tree_index(ctx).nodes(ast.Assign):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        written = _dotted(ctx, target) if isinstance(target, ast.Attribute) else None
        if written and written.startswith("torch.backends."):
            key = "finding.MSM514.deterministic" if written == DETERMINISTIC else "finding.MSM514.backend"
            found.append(new_finding(TORCH_MARK, ctx.node_range(target), key, {"api": written},
                                     torch_api=written, fixable=True))
    names = [*named_nodes(ctx, ast.Attribute), *named_nodes(ctx, ast.Name)]
    inner = {id(n.value) for n in names if isinstance(n, ast.Attribute)}
    for node in names:
        written = ctx.qualified_name(node)
        if id(node) in inner or not written or not written.startswith("torch."):
            continue
        api = canonical(written)
        if api in FALSE_CALLS or written in FALSE_CALLS:
            found.append(_taken(ctx, FEATURE_CHECK, node, "finding.MSM513.constant",
                                {"api": api, "value": "False"}, api, written))
        elif api == CUDA_AVAILABLE:
            found.append(_taken(ctx, FEATURE_CHECK, node, "finding.MSM513.cuda", {}, api, written))
        elif api == CUDA_COUNT:
            found.append(_taken(ctx, FEATURE_CHECK, node, "finding.MSM513.cuda_count", {}, api, written))
        elif written == VERSION:
            up = up if up is not None else parents(ctx.tree)
            compared = is_version_comparison(node, up)
            key = "finding.MSM513.version" if compared else "finding.MSM513.version_read"
            found.append(_taken(ctx, FEATURE_CHECK, node, key, {"version": version}, VERSION, written,
                                fixable=compared))
        elif api == FINAL or written == FINAL:
            found.append(_taken(ctx, TORCH_MARK, node, "finding.MSM514.final", {}, FINAL, written))
        elif api in JIT_DECORATORS or api in (ANNOTATE, ASSERT) or written in (FX_WRAP, ASSERT):
            found.append(_taken(ctx, TORCH_MARK, node, "finding.MSM514.mark", {"api": api}, api, written))
        elif api in TRACES:
            found.append(_taken(ctx, TORCH_MARK, node, "finding.MSM514.trace", {"api": api}, api, written))
        elif api in SDP_SWITCHES or api in SDP_CONTEXTS:
            found.append(_taken(ctx, TORCH_MARK, node, "finding.MSM514.backend", {"api": api}, api, written))
    return [f for f in found if f is not None]


def _taken(ctx, rule: Rule, node: ast.expr, key: str, args: dict[str, str], api: str, written: str,
           fixable: bool = True) -> Finding | None:
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


def _hasattr(ctx, call: ast.Call) -> Finding | None:
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
    return new_finding(FEATURE_CHECK, ctx.node_range(call), key, {"name": api, "value": str(maps)},
                       torch_api=api, fixable=True)


CHECKERS = [check]
FIXERS = {"MSM513": torch_check_fix, "MSM514": torch_marker_fix}
