"""MSM529: a NumPy value on the left of ``*`` or ``+`` with a tensor on the right.

torch's Tensor outranks NumPy in a binary operator (``__array_priority__``): ``np.float64(2.5) *
torch.arange(4)`` is a float32 Tensor. MindSpore's Tensor does not: NumPy's operator runs first, turns the
Tensor into an array and returns an ``numpy.ndarray`` (MindSpore 2.10), which the next MindSpore operator
refuses ("Failed calling Exp with input=numpy.ndarray"). whisper's ``sinusoids`` computes
``log_timescale_increment = np.log(max_timescale) / (channels // 2 - 1)`` and then
``torch.exp(-log_timescale_increment * torch.arange(channels // 2))``.

The rule reports ``L * R`` and ``L + R`` where the analysis knows ``R`` is a tensor and the source shows ``L``
to be a NumPy value: a call of a ``numpy`` function (``np.log(t)``), an operation or subscript of one, or a
name every assignment of which in its function is such a value. The fix writes the tensor first,
``R * L``; MindSpore's result is then a Tensor. These operators commute elementwise, but MindSpore rounds a
NumPy scalar to float32 first where torch computes a float16, bfloat16 or float64 tensor's result from the
scalar as it is, and gives a NumPy bool with an integer tensor another dtype (MindSpore 2.10). So the fix
states its safety per form (``Fix.safety``): safe where ``L`` is a NumPy float (a call of a float-valued
NumPy function such as ``np.log``, its negation, arithmetic with it, or a name bound only to such) and
``R`` a tensor of float32 or an integer dtype as the source shows (``torch.arange``/``zeros``/``ones``/
``empty``/``linspace``/``eye``, or MindSpore's ``ops``/``mint`` one, without ``dtype=``; ``x.float()``,
``x.long()``, ``x.int()``; a subscript or negation of one): there the swapped operation gives torch's
values and dtype bit for bit (tests/fixes/test_numpy_operand_safety.py: 100 scalars). Otherwise unsafe, the
title saying which side is not known (docs/per-form-safety.md).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from msmigrate.analysis.import_names import imported_name, module_imports, names_of
from msmigrate.analysis.receivers import facts_for
from msmigrate.analysis.values import TENSOR, Instance
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import new_finding

_DOC = "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.Tensor.html"
RULE = Rule("MSM529", C.FRAMEWORK_PATTERN, S.WARNING, _DOC, fixable=True)
_COMMUTING = (ast.Mult, ast.Add)
_SYMBOLS = {ast.Mult: "*", ast.Add: "+"}
_ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)
_MINDSPORE_TENSORS = ("mindspore.ops.", "mindspore.mint.")  # functions computing tensors
# NumPy functions whose value is a float for any number (an array for an array: both frameworks then raise)
_FLOAT_FUNCTIONS = frozenset({"log", "log2", "log10", "log1p", "exp", "exp2", "expm1", "sqrt", "float64",
                              "float32"})
# constructors whose tensor, without dtype=, is float32 (arange: int64 for integer arguments), alike in
# torch (default dtype float32) and in MindSpore's ops / mint
_DEFAULT_DTYPE = frozenset({"arange", "zeros", "ones", "empty", "linspace", "eye"})
_CONSTRUCTOR_MODULES = ("torch.", "mindspore.ops.", "mindspore.mint.")
_CASTS = frozenset({"float", "long", "int"})  # methods giving float32, int64, int32

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM529.title": ("NumPy value on the left of a tensor operator", "张量运算符左侧为 NumPy 值"),
    "rule.MSM529.explanation": (
        "torch's Tensor takes precedence over NumPy in a binary operator, so a NumPy scalar times a tensor "
        "is a tensor. MindSpore's Tensor does not: NumPy's operator runs first and the result is a NumPy "
        "array, which MindSpore operators refuse. The quick-fix writes the tensor first (x * a for a * x, "
        "x + a for a + x): the same values, and a Tensor in MindSpore.",
        "torch 的 Tensor 在二元运算中优先于 NumPy，因此 NumPy 标量乘以张量得到张量。"
        "MindSpore 的 Tensor 不是这样：先执行 NumPy 的运算符，结果是 NumPy 数组，MindSpore 算子不接受它。"
        "快速修复把张量写在前面（a * x 改为 x * a，a + x 改为 x + a）："
        "数值相同，在 MindSpore 中结果为 Tensor。",
    ),
    "finding.MSM529": (
        "{left} {op} tensor: in MindSpore a NumPy value on the left makes the result a NumPy array; "
        "write the tensor first",
        "{left} {op} 张量：在 MindSpore 中左侧的 NumPy 值使结果成为 NumPy 数组；请把张量写在前面",
    ),
    "fix.numpy_operand": ("Write the tensor first: {text}", "把张量写在前面：{text}"),
    "fix.numpy_operand.unsafe.value": (
        "Write the tensor first: {text} (unsafe: the NumPy value is not known to be a float; a NumPy bool "
        "with an integer tensor gives another dtype in MindSpore)",
        "把张量写在前面：{text}（不安全：无法确定该 NumPy 值是浮点数；在 MindSpore 中 NumPy 布尔值与整数张量"
        "运算得到的 dtype 不同）",
    ),
    "fix.numpy_operand.unsafe.dtype": (
        "Write the tensor first: {text} (unsafe: the tensor's dtype is not shown; MindSpore rounds the NumPy "
        "value to float32 first, so a float16, bfloat16 or float64 tensor may give other values)",
        "把张量写在前面：{text}（不安全：看不出张量的 dtype；MindSpore 先把 NumPy 值舍入为 float32，"
        "因此 float16、bfloat16 或 float64 张量的结果可能不同）",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM529": (
        "import numpy as np\nimport torch\n\n\ndef steps(n):\n    scale = np.log(10000) / n\n"
        "    return scale * torch.arange(n)\n",
        "import numpy as np\nimport torch\n\n\ndef steps(n):\n    scale = np.log(10000) / n\n"
        "    return torch.arange(n) * scale\n",
        [(7, 12)],
    ),
}


class _NumpyValues:
    """Which expressions of one module the source shows to be NumPy values."""

    def __init__(self, tree: ast.Module, names: frozenset[str],
                 is_tensor: Callable[[ast.expr], bool]) -> None:
        self.names = names
        self.is_tensor = is_tensor
        self.scope: dict[int, ast.AST] = {}
        for node in ast.walk(tree):  # outer scopes first: an inner one overrides them for its nodes
            if isinstance(node, _SCOPES):
                self.scope.update((id(n), node) for n in ast.walk(node))

    def _numpy_call(self, node: ast.expr) -> bool:
        func = node.func if isinstance(node, ast.Call) else None
        while isinstance(func, ast.Attribute):
            func = func.value
        return isinstance(func, ast.Name) and func.id in self.names

    def of(self, node: ast.expr, depth: int = 0) -> bool:
        """Whether ``node``'s value is a NumPy value (up to three assignments deep)."""
        if isinstance(node, ast.UnaryOp):
            return self.of(node.operand, depth)
        if isinstance(node, ast.Call):
            return self._numpy_call(node)
        if isinstance(node, ast.BinOp):  # NumPy with anything but a tensor (torch's Tensor wins there)
            sides = (node.left, node.right)
            return any(self.of(n, depth) for n in sides) and not any(self.is_tensor(n) for n in sides)
        if isinstance(node, ast.Subscript):
            return self.of(node.value, depth)
        if isinstance(node, ast.Name) and depth < 3:
            scope = self.scope.get(id(node))
            values = [a.value for a in ast.walk(scope) if isinstance(a, ast.Assign)
                      for t in a.targets if isinstance(t, ast.Name) and t.id == node.id] if scope else []
            values += [a.value for a in ast.walk(scope) if isinstance(a, ast.AugAssign | ast.AnnAssign)
                       and isinstance(a.target, ast.Name) and a.target.id == node.id] if scope else []
            return bool(values) and all(v is not None and self.of(v, depth + 1) for v in values)
        return False

    def float_of(self, node: ast.expr, depth: int = 0) -> bool:
        """Whether ``node`` is a NumPy float as the source shows (a call of :data:`_FLOAT_FUNCTIONS`, its
        negation, subscript or arithmetic with anything but a tensor; a name bound only to such)."""
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.USub | ast.UAdd) and self.float_of(node.operand, depth)
        if isinstance(node, ast.Call):
            return (self._numpy_call(node) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in _FLOAT_FUNCTIONS)
        if isinstance(node, ast.BinOp):
            sides = (node.left, node.right)
            return (isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div)
                    and any(self.float_of(n, depth) for n in sides)
                    and not any(self.is_tensor(n) for n in sides))
        if isinstance(node, ast.Subscript):
            return self.float_of(node.value, depth)
        if isinstance(node, ast.Name) and depth < 3:
            scope = self.scope.get(id(node))
            if scope is None:
                return False
            values = [a.value for a in ast.walk(scope) if isinstance(a, ast.Assign)
                      for t in a.targets if isinstance(t, ast.Name) and t.id == node.id]
            stores = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == node.id
                      and isinstance(n.ctx, ast.Store | ast.Del)]
            others = [n for n in ast.walk(scope) if (isinstance(n, ast.arg) and n.arg == node.id)
                      or (isinstance(n, ast.Global | ast.Nonlocal) and node.id in n.names)]
            return (bool(values) and len(values) == len(stores) and not others
                    and all(self.float_of(v, depth + 1) for v in values))
        return False


def default_dtype_tensor(node: ast.expr, imports: dict[str, str]) -> bool:
    """Whether ``node`` is a float32 or integer tensor as the source shows (see the module doc)."""
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub) and default_dtype_tensor(node.operand, imports)
    if isinstance(node, ast.Subscript):
        return default_dtype_tensor(node.value, imports)
    if not isinstance(node, ast.Call):
        return False
    if (isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS and not node.args
            and not node.keywords and imported_name(node.func, imports) is None):
        return True  # x.float(), x.long(), x.int() (a method, not a module's function)
    full = imported_name(node.func, imports) or ""
    module, _, name = full.rpartition(".")
    return (name in _DEFAULT_DTYPE and f"{module}." in _CONSTRUCTOR_MODULES
            and all(k.arg not in ("dtype", None) for k in node.keywords)
            and not any(isinstance(a, ast.Starred) for a in node.args))


def tensor_valued(ctx, node: ast.expr, imports: dict[str, str]) -> bool:  # noqa: ANN001 - the context
    """Whether ``node`` is a tensor as the code shows: a known tensor, a torch call returning one
    (``torch.arange(n)``), a call of MindSpore's ``ops``/``mint`` functions or ``mindspore.tensor`` through
    the module's ``imports`` (as an earlier pass of the fix writes it), or a subscript or negation of such."""
    if isinstance(node, ast.UnaryOp):
        return tensor_valued(ctx, node.operand, imports)
    if isinstance(node, ast.Subscript):
        return tensor_valued(ctx, node.value, imports)
    if isinstance(node, ast.Call):
        name = ctx.qualified_name(node.func)
        result = facts_for(ctx.kb).call_result(name) if name else None
        if type(result) is Instance and result.kind == TENSOR:
            return True
        full = imported_name(node.func, imports) or ""
        if full.startswith(_MINDSPORE_TENSORS) or full in ("mindspore.tensor", "mindspore.Tensor"):
            return True
    return ctx.is_tensor(node)


def detect(ctx) -> Iterable[Finding]:
    imports = module_imports(ctx.tree)
    names = names_of(imports, "numpy")
    if not names:
        return []
    values = _NumpyValues(ctx.tree, names, lambda node: tensor_valued(ctx, node, imports))
    found = []
    for node in ctx.nodes_of(ast.BinOp):
        if (isinstance(node.op, _COMMUTING) and tensor_valued(ctx, node.right, imports)
                and values.of(node.left)):
            form = ("exact" if default_dtype_tensor(node.right, imports) else "dtype") if values.float_of(
                node.left) else "value"
            found.append(new_finding(RULE, ctx.node_range(node), "finding.MSM529",
                                     {"left": ast.unparse(node.left), "op": _SYMBOLS[type(node.op)],
                                      "form": form}, fixable=True))
    return found


def _operand(ctx: FixContext, node: ast.expr) -> str:
    text = ctx.text(node)
    plain = isinstance(node, _ATOMS) or (isinstance(node, ast.UnaryOp) and isinstance(node.operand, _ATOMS))
    return text if plain else f"({text})"


def numpy_operand_fix(ctx: FixContext, finding: Finding) -> Fix | None:
    """``L * R`` → ``R * L`` (``+`` alike) for the operation the finding spans, on one line."""
    span = (finding.line, finding.column, finding.end_line, finding.end_column)
    node = next((n for n in ast.walk(ctx.tree) if isinstance(n, ast.BinOp) and isinstance(n.op, _COMMUTING)
                 and ctx.node_range(n) == span), None)
    if node is None or node.lineno != node.end_lineno:
        return None
    text = f"{_operand(ctx, node.right)} {_SYMBOLS[type(node.op)]} {_operand(ctx, node.left)}"
    form = finding.message_args.get("form")
    if form == "exact":  # a NumPy float and a float32 or integer tensor (see the module doc)
        return Fix(RULE.id, "fix.numpy_operand", [TextEdit(*span, text)], {"text": text}, safety=Safety.SAFE)
    key = f"fix.numpy_operand.unsafe.{form if form in ('value', 'dtype') else 'value'}"
    return Fix(RULE.id, key, [TextEdit(*span, text)], {"text": text}, safety=Safety.UNSAFE)


FIXERS = (numpy_operand_fix,)
FIX_SAFETY = Safety.UNSAFE  # each fix states its own (the form it rewrites); this is for none that does not
