"""MSM513 and MSM514 quick-fixes: feature checks on torch written as what they are once torch is gone,
and TorchScript/FX/backend marks taken away (see ``rules/framework/msm513_feature_checks.py``,
``msm514_torch_marks.py``)."""

from __future__ import annotations

import ast

from msmigrate.fixes.blocks import block_of, remove_decorator, remove_statement, unwrap
from msmigrate.fixes.constant_fold import fold
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding

# always False when the code runs in MindSpore (no TorchScript, tracing, torch.compile or export)
FALSE_CALLS = frozenset({
    "torch.jit.is_scripting", "torch.jit.is_tracing", "torch.compiler.is_compiling",
    "torch.compiler.is_dynamo_compiling", "torch.compiler.is_exporting", "torch._dynamo.is_compiling",
    "torch.onnx.is_in_onnx_export", "torch._utils.is_compiling",
})
CUDA_AVAILABLE = "torch.cuda.is_available"
CUDA_COUNT = "torch.cuda.device_count"
VERSION = "torch.__version__"
JIT_DECORATORS = frozenset({"torch.jit.ignore", "torch.jit.unused", "torch.jit.export", "torch.jit.script",
                            "torch.fx.wrap", "torch._dynamo.disable", "torch.compiler.disable",
                            "torch.jit._overload_method", "torch.jit._overload"})
# tracing returns a module or function computing what the one given computes (for the traced paths)
TRACES = frozenset({"torch.jit.trace", "torch.jit.trace_module"})
ASSERT = "torch._assert"  # FX's traceable assert: Python's assert outside FX (torch's own code)
FINAL = "torch.jit.Final"
ANNOTATE = "torch.jit.annotate"
FX_WRAP = "torch.fx.wrap"
SDP_SWITCHES = frozenset({"torch.backends.cuda.enable_flash_sdp",
                          "torch.backends.cuda.enable_mem_efficient_sdp",
                          "torch.backends.cuda.enable_math_sdp", "torch.backends.cuda.enable_cudnn_sdp"})
SDP_CONTEXTS = frozenset({"torch.backends.cuda.sdp_kernel", "torch.nn.attention.sdpa_kernel"})
DETERMINISTIC = "torch.backends.cudnn.deterministic"
_HAL = "mindspore.hal.is_available"


def is_version_comparison(node: ast.expr, parents: dict[int, ast.AST]) -> bool:
    """Whether the value of ``torch.__version__`` at ``node`` ends up in a comparison (``>=``, ``<``…,
    also through ``version.parse(...)`` or ``.split('.')``) and nowhere else."""
    current: ast.AST = node
    while True:
        parent = parents.get(id(current))
        if isinstance(parent, ast.Compare):
            return not any(isinstance(op, ast.Is | ast.IsNot | ast.In | ast.NotIn) for op in parent.ops)
        if not isinstance(parent, ast.Call | ast.Attribute | ast.Subscript | ast.Tuple | ast.List
                          | ast.GeneratorExp | ast.ListComp | ast.comprehension | ast.keyword | ast.Starred):
            return False
        current = parent


def torch_check_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM513: the check written as its value (``False``, ``True``, the torch version, MindSpore's GPU
    check), what a known truth value decides simplified."""
    key = finding.message_key
    reference = ctx.reference_of(finding)
    if reference is None:
        return None
    args = dict(finding.message_args)
    if key == "finding.MSM513.version":
        text = repr(args["version"])
        return Fix("MSM513", "fix.torch_check.version", [TextEdit(*ctx.node_range(reference), text)], args)
    call = ctx.call_of(finding)
    if call is None or call.args or call.keywords:
        if not key.startswith("finding.MSM513.hasattr"):
            return None
    if key == "finding.MSM513.cuda" and call is not None:
        name, imports = ctx.mindspore_reference(_HAL, call.lineno)
        return Fix("MSM513", "fix.torch_check.cuda", [TextEdit(*ctx.node_range(call), f'{name}("GPU")'),
                                                      *imports])
    if key == "finding.MSM513.cuda_count" and call is not None:
        # hal.device_count raises on a MindSpore package without the backend: ask first
        available, imports = ctx.mindspore_reference(_HAL, call.lineno)
        count, _ = ctx.mindspore_reference("mindspore.hal.device_count", call.lineno)
        text = f'{count}("GPU") if {available}("GPU") else 0'
        if not isinstance(ctx.parents.get(id(call)), ast.Assign | ast.AnnAssign | ast.Return | ast.Expr):
            text = f"({text})"
        return Fix("MSM513", "fix.torch_check.cuda_count", [TextEdit(*ctx.node_range(call), text), *imports])
    value = args.get("value") == "True"
    node = call if call is not None else reference
    edits = fold(ctx, node, value)
    if edits is None:
        return None
    return Fix("MSM513", "fix.torch_check.constant", edits, {"value": repr(value)})


def torch_marker_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM514: a TorchScript/FX mark or a torch backend setting removed (``torch.jit.Final`` →
    ``typing.Final``, ``torch.jit.annotate(T, v)`` → ``v``, cudnn determinism → ``set_deterministic``)."""
    reference = ctx.reference_of(finding)
    api = finding.torch_api or ""
    if reference is None:
        return None
    args = {"api": api}
    up = ctx.parents
    if api == FINAL:
        found = ctx.module_reference("typing", "Final", reference.lineno)
        if found is None:
            return None
        name, imports = found
        return Fix("MSM514", "fix.torch_marker.final", [TextEdit(*ctx.node_range(reference), name), *imports],
                   args)
    call = up.get(id(reference))
    call = call if isinstance(call, ast.Call) and call.func is reference else None
    decorated = up.get(id(call if call is not None else reference))
    if isinstance(decorated, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and any(
            d is (call if call is not None else reference) for d in decorated.decorator_list):
        edit = remove_decorator(ctx, call if call is not None else reference)
        return Fix("MSM514", "fix.torch_marker.remove", [edit], args) if edit is not None else None
    if api == ANNOTATE and call is not None and len(call.args) == 2 and not call.keywords:
        return Fix("MSM514", "fix.torch_marker.annotate",
                   [TextEdit(*ctx.node_range(call), ctx.text(call.args[1]))], args)
    if api == ASSERT and call is not None and isinstance(up.get(id(call)), ast.Expr) and not call.keywords \
            and 1 <= len(call.args) <= 2 and not any(isinstance(a, ast.Starred) for a in call.args):
        text = "assert " + ", ".join(ctx.text(a) for a in call.args)
        return Fix("MSM514", "fix.torch_marker.assert", [TextEdit(*ctx.node_range(call), text)], args)
    if api in TRACES and call is not None and call.args and not isinstance(call.args[0], ast.Starred):
        # the examples are not run: a module in training mode would update its BatchNorm statistics
        edit = TextEdit(*ctx.node_range(call), ctx.text(call.args[0]))
        return Fix("MSM514", "fix.torch_marker.trace", [edit], args, by_hand=True)
    if api == "torch.jit.script" and call is not None and len(call.args) == 1 and not call.keywords:
        return Fix("MSM514", "fix.torch_marker.annotate",
                   [TextEdit(*ctx.node_range(call), ctx.text(call.args[0]))], args)
    statement = _statement(reference, up)
    if statement is None:
        return None
    siblings = block_of(ctx.tree, statement)
    if isinstance(statement, ast.With):
        if len(statement.items) != 1 or statement.items[0].optional_vars is not None:
            return None
        edits = unwrap(ctx, statement, statement.body, siblings)
        return Fix("MSM514", "fix.torch_marker.remove", edits, args) if edits else None
    if api == DETERMINISTIC and isinstance(statement, ast.Assign):
        name, imports = ctx.mindspore_reference("mindspore.set_deterministic", statement.lineno)
        text = f"{name}({ctx.text(statement.value)})"
        # MindSpore takes it once per process (a second call raises): to review, applied with --unsafe-fixes
        return Fix("MSM514", "fix.torch_marker.deterministic",
                   [TextEdit(*ctx.node_range(statement), text), *imports], args, by_hand=True)
    edit = remove_statement(ctx, statement, siblings)
    return Fix("MSM514", "fix.torch_marker.remove", [edit], args) if edit is not None else None


def _statement(reference: ast.expr, up: dict[int, ast.AST]) -> ast.stmt | None:
    """The statement a backend setting or an FX registration is: ``torch.backends.x.y = v`` (one target,
    a value without calls), ``torch.fx.wrap("f")`` / ``enable_flash_sdp(True)`` alone, or the ``with`` of
    ``sdp_kernel(...)``."""
    parent = up.get(id(reference))
    if isinstance(parent, ast.Assign) and parent.targets == [reference]:
        return parent if not any(isinstance(n, ast.Call) for n in ast.walk(parent.value)) else None
    if isinstance(parent, ast.Call) and parent.func is reference:
        holder = up.get(id(parent))
        if isinstance(holder, ast.Expr):
            return holder
        if isinstance(holder, ast.withitem) and holder.context_expr is parent:
            statement = up.get(id(holder))
            return statement if isinstance(statement, ast.With) else None
    return None
