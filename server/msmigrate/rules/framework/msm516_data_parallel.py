"""MSM516: single-process data parallelism (``nn.DataParallel``, ``nn.parallel.data_parallel``).

Both split a batch over the GPUs of one process and compute what the module computes; MindSpore runs a
network on the one device of its process (data parallelism across devices is a multi-process set-up, see
MSM510). So ``nn.DataParallel(model)`` is ``model`` (the wrapper's ``.module`` is the model itself: the
file's ``<wrapper>.module`` reads become the model), and ``data_parallel(model, x)`` is ``model(x)``
(a tuple of inputs is unpacked, ``module_kwargs`` become keywords, as torch does).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.blocks import block_of, remove_lines
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import BEFORE_MISSING_API, IDIOM_TAKE_OVER, reference_range, report, tree_index

RULE = Rule("MSM516", C.FRAMEWORK_PATTERN, S.INFORMATION,
                     "https://www.mindspore.cn/docs/en/r2.6.0/api_python/nn/mindspore.nn.Cell.html",
                     fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM516.title": ("Single-process data parallelism", "单进程数据并行"),
    "rule.MSM516.explanation": (
        "nn.DataParallel and nn.parallel.data_parallel split a batch over the GPUs of one process and "
        "compute what the module computes. A MindSpore network runs on the one device of its process (data "
        "parallelism across devices is a multi-process set-up: mindspore.communication.init and "
        "set_auto_parallel_context). The quick-fix uses the module itself: DataParallel(model) becomes "
        "model (and wrapper.module becomes the model), data_parallel(model, x) becomes model(x).",
        "nn.DataParallel 与 nn.parallel.data_parallel 在一个进程内把批数据分到多个 GPU 上，计算结果与模块"
        "本身相同。MindSpore 网络运行在其进程的一个设备上（跨设备的数据并行需多进程设置："
        "mindspore.communication.init 与 set_auto_parallel_context）。快速修复直接使用模块本身："
        "DataParallel(model) 改为 model（wrapper.module 也改为该模型），"
        "data_parallel(model, x) 改为 model(x)。",
    ),
    "finding.MSM516": (
        "{api}: a MindSpore network runs on its process's device; use the module itself",
        "{api}：MindSpore 网络运行在其进程的设备上；请直接使用模块本身",
    ),
    "fix.data_parallel.module": ("Use {module} itself", "直接使用 {module}"),
    "fix.data_parallel.call": ("Call {module} directly", "直接调用 {module}"),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM516": (
        "import torch.nn as nn\n\nmodel = nn.DataParallel(nn.Linear(2, 2))\n",
        "import torch.nn as nn\n\nmodel = nn.Linear(2, 2)\n",
        [(3, 9)],
    ),
}

WRAPPERS = frozenset({"torch.nn.DataParallel", "torch.nn.parallel.DataParallel"})
FUNCTIONS = frozenset({"torch.nn.parallel.data_parallel"})
_TAKE_OVER = IDIOM_TAKE_OVER | {"MSM510"}


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call in tree_index(ctx).nodes(ast.Call):
        written = ctx.qualified_name(call.func)
        api = ctx.kb.canonical(written) if written else None
        if api in WRAPPERS or api in FUNCTIONS or written in WRAPPERS or written in FUNCTIONS:
            name = written if written in WRAPPERS | FUNCTIONS else api
            fixable = (_module(call) is not None) if name in WRAPPERS else _call_parts(call) is not None
            finding = report(ctx, RULE, reference_range(ctx, call.func), "finding.MSM516",
                             {"api": name}, apis=[name, written], convertible=_TAKE_OVER, fixable=fixable,
                             torch_api=name)
            if finding is not None:
                found.append(finding)
    return found


def _module(call: ast.Call) -> ast.expr | None:
    """The module of ``DataParallel(module, device_ids=…, output_device=…, dim=…)``."""
    if not call.args or isinstance(call.args[0], ast.Starred) or any(k.arg is None for k in call.keywords):
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    return call.args[0] if "module" not in keywords else None


def _call_parts(call: ast.Call) -> tuple[ast.expr, ast.expr | None, ast.expr | None] | None:
    """(module, inputs, module_kwargs) of ``data_parallel(module, inputs, ...)``."""
    names = ["module", "inputs", "device_ids", "output_device", "dim", "module_kwargs"]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords) \
            or len(call.args) > len(names):
        return None
    bound = dict(zip(names, call.args, strict=False))
    bound.update({k.arg: k.value for k in call.keywords if k.arg})
    if "module" not in bound:
        return None
    kwargs = bound.get("module_kwargs")
    if kwargs is not None and not (isinstance(kwargs, ast.Dict) and all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in kwargs.keys)):
        if not (isinstance(kwargs, ast.Constant) and kwargs.value is None):
            return None
    return bound["module"], bound.get("inputs"), kwargs


def data_parallel_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    call = ctx.call_of(finding)
    if call is None:
        return None
    if finding.torch_api in WRAPPERS:
        return _unwrap_module(ctx, call)
    parts = _call_parts(call)
    if parts is None:
        return None
    module, inputs, kwargs = parts
    keywords = [f"{k.value}={ctx.text(v)}" for k, v in zip(kwargs.keys, kwargs.values, strict=True)
                if isinstance(k, ast.Constant)] if isinstance(kwargs, ast.Dict) else []
    name = _grouped(ctx, module)
    if isinstance(inputs, ast.Tuple):
        text = f"{name}({', '.join([*(ctx.text(e) for e in inputs.elts), *keywords])})"
    elif inputs is None or (isinstance(inputs, ast.Constant) and inputs.value is None):
        text = f"{name}({', '.join(keywords)})"
    elif isinstance(inputs, ast.Name | ast.Attribute | ast.Subscript):
        # a value of unknown type: torch unpacks a tuple of inputs and passes anything else as the input
        value = ctx.text(inputs)
        more = "".join(f", {k}" for k in keywords)
        text = f"{name}(*{value}{more}) if isinstance({value}, tuple) else {name}({value}{more})"
        if not isinstance(ctx.parents.get(id(call)), ast.Assign | ast.AnnAssign | ast.Return | ast.Expr):
            text = f"({text})"
    else:
        text = f"{name}({', '.join([ctx.text(inputs), *keywords])})"
    return Fix("MSM516", "fix.data_parallel.call", [TextEdit(*ctx.node_range(call), text)],
               {"module": ctx.text(module)})


def _grouped(ctx: FixContext, node: ast.expr) -> str:
    text = ctx.text(node)
    return text if isinstance(node, ast.Name | ast.Attribute | ast.Call | ast.Subscript) else f"({text})"


def _unwrap_module(ctx: FixContext, call: ast.Call) -> Fix | None:
    """``nn.DataParallel(model)`` → ``model``; ``model = nn.DataParallel(model)`` goes; the file's reads of
    ``<wrapper>.module`` become the wrapper (the same model)."""
    module = _module(call)
    if module is None:
        return None
    args = {"module": ctx.text(module)}
    statement = ctx.parents.get(id(call))
    edits: list[TextEdit] = []
    target = None
    if isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Name | ast.Attribute):
            edits += _module_reads(ctx, ctx.text(target))
        if ctx.text(target) == ctx.text(module):  # model = DataParallel(model)
            edit = remove_lines(ctx, statement, block_of(ctx.tree, statement))
            if edit is not None:
                return Fix("MSM516", "fix.data_parallel.module", [edit, *edits], args)
    edits.append(TextEdit(*ctx.node_range(call), ctx.text(module)))
    return Fix("MSM516", "fix.data_parallel.module", edits, args)


def _module_reads(ctx: FixContext, wrapper: str) -> list[TextEdit]:
    """``<wrapper>.module`` → ``<wrapper>`` everywhere in the file."""
    edits = []
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Attribute) and node.attr == "module" and isinstance(node.ctx, ast.Load) \
                and ctx.text(node.value) == wrapper:
            edits.append(TextEdit(*ctx.node_range(node), wrapper))
    return edits


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (data_parallel_fix,)
FIX_SAFETY = Safety.SAFE  # one process computes the same module
