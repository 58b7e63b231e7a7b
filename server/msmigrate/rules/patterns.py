"""MSM5xx: PyTorch framework idioms and their MindSpore counterparts (the ResNet-50 function analysis).

Where the analyzer already reported the same site as an unmapped API (``MSM200``–``MSM204``, ``MSM102``)
or as data processing (``MSM600``), the pattern rule takes that finding over, so a site gets one
diagnostic; at mapped sites the pattern finding comes in addition to the mapping finding.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from msmigrate.analysis.values import UserClass
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.support import (
    API_RULES,
    attribute_range,
    named_nodes,
    new_finding,
    outer_first,
    reference_range,
    report,
    short,
    tree_index,
    usage_at,
)

_DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/"
_TUTORIALS = "https://www.mindspore.cn/tutorials/en/r2.3.1/"

MODULE_FORWARD = Rule(
    "MSM501", C.FRAMEWORK_PATTERN, S.INFORMATION, _DOCS + "api_python/nn/mindspore.nn.Cell.html", fixable=True
)
SEQUENTIAL = Rule(
    "MSM502",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    _DOCS + "api_python/nn/mindspore.nn.SequentialCell.html",
    fixable=True,
)
INIT = Rule(
    "MSM503", C.FRAMEWORK_PATTERN, S.INFORMATION, _DOCS + "api_python/mindspore.common.initializer.html"
)
DEVICE = Rule(
    "MSM504",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    _DOCS + "api_python/mindspore/mindspore.set_context.html",
    fixable=True,
)
TRAIN_MODE = Rule(
    "MSM505",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    _DOCS + "api_python/nn/mindspore.nn.Cell.html#mindspore.nn.Cell.set_train",
    fixable=True,
)
TRAINING_STEP = Rule("MSM506", C.FRAMEWORK_PATTERN, S.INFORMATION, _TUTORIALS + "beginner/autograd.html")
GRAD_MODE = Rule("MSM507", C.FRAMEWORK_PATTERN, S.INFORMATION, _TUTORIALS + "beginner/autograd.html")
LEARNING_RATE = Rule(
    "MSM508",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    _DOCS + "api_python/mindspore.nn.html#dynamic-learning-rate",
    fixable=True,
)
AMP = Rule("MSM509", C.FRAMEWORK_PATTERN, S.INFORMATION, _TUTORIALS + "advanced/mixed_precision.html")
DISTRIBUTED = Rule(
    "MSM510",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    _DOCS + "api_python/mindspore/mindspore.set_auto_parallel_context.html",
)
DATASET = Rule(
    "MSM511",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    _DOCS + "api_python/dataset/mindspore.dataset.GeneratorDataset.html",
)
CHECKPOINT = Rule(
    "MSM512",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    _DOCS + "api_python/mindspore/mindspore.save_checkpoint.html",
)

RULES = [
    MODULE_FORWARD,
    SEQUENTIAL,
    INIT,
    DEVICE,
    TRAIN_MODE,
    TRAINING_STEP,
    GRAD_MODE,
    LEARNING_RATE,
    AMP,
    DISTRIBUTED,
    DATASET,
    CHECKPOINT,
]

INITIALIZERS = {
    "kaiming_normal_": "HeNormal",
    "kaiming_uniform_": "HeUniform",
    "xavier_uniform_": "XavierUniform",
    "xavier_normal_": "XavierNormal",
    "constant_": "Constant",
    "zeros_": "Zero",
    "ones_": "One",
    "normal_": "Normal",
    "trunc_normal_": "TruncatedNormal",
    "uniform_": "Uniform",
    "orthogonal_": "Orthogonal",
    "eye_": "Identity",
    "dirac_": "Dirac",
    "sparse_": "Sparse",
}
GRAD_MODE_APIS = frozenset(
    {
        "torch.no_grad",
        "torch.enable_grad",
        "torch.set_grad_enabled",
        "torch.inference_mode",
        "torch.autograd.no_grad",
        "torch.autograd.enable_grad",
        "torch.autograd.set_grad_enabled",
        "torch.autograd.grad_mode.no_grad",
    }
)
AMP_APIS = frozenset(
    {
        "torch.cuda.amp.autocast",
        "torch.autocast",
        "torch.amp.autocast",
        "torch.cpu.amp.autocast",
        "torch.cuda.amp.GradScaler",
        "torch.amp.GradScaler",
        "torch.cpu.amp.GradScaler",
    }
)
DISTRIBUTED_APIS = frozenset(
    {
        "torch.distributed.init_process_group",
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.DataParallel",
        "torch.nn.parallel.DataParallel",
        "torch.utils.data.distributed.DistributedSampler",
        "torch.utils.data.DistributedSampler",
    }
)
DATASET_CLASSES = frozenset(
    {
        "torch.utils.data.Dataset",
        "torch.utils.data.IterableDataset",
        "torch.utils.data.dataset.Dataset",
        "torch.utils.data.dataset.IterableDataset",
    }
)
DATALOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
CHECKPOINT_APIS = frozenset({"torch.save", "torch.load"})
DEVICE_METHODS = frozenset({"cuda", "cpu"})
_MODEL_NAME = re.compile(r"(model|net|module|classifier|backbone|encoder|decoder)", re.IGNORECASE)
_OPTIMIZER_NAME = re.compile(r"(optim|opt$|^opt)", re.IGNORECASE)
_DEVICE_NAME = re.compile(r"(^|_)(device|dev)$", re.IGNORECASE)
_TAKE_OVER = API_RULES | {"MSM600"}
_METHODS = DEVICE_METHODS | {"to", "train", "eval", "backward", "load_state_dict"}  # see _method_call


def check(ctx) -> Iterable[Finding]:
    found: list[Finding | None] = []
    index = tree_index(ctx)
    named = named_nodes(ctx, ast.Attribute)
    inner = {id(n.value) for n in named}
    classes = index.nodes(ast.ClassDef)
    modules = module_classes(ctx, classes)
    for node in classes:
        found.extend(_class(ctx, node, node.name in modules))
    values = ctx.values
    for node in index.nodes(ast.Call):
        func = node.func
        if type(values.get(func)) is str or (type(func) is ast.Attribute and func.attr in _METHODS):
            found.extend(_call(ctx, node))  # (other calls: neither a torch name nor a method of interest)
    if "param_groups" in ctx.source:  # the only member without a torch name that matters here
        written = param_groups_written(ctx.tree)
        named = sorted(dict.fromkeys([*named, *written]), key=outer_first)
    references = [*named, *named_nodes(ctx, ast.Name)]
    for node in references:
        if type(node.ctx) is ast.Load and id(node) not in inner:
            # torch.cuda inside torch.cuda.amp.autocast is no reference of its own
            found.extend(_reference(ctx, node))
    return [f for f in found if f is not None]


CHECKERS = [check]


# --- classes: Module subclasses, Dataset subclasses --------------------------------------------------
def is_module_base(ctx, base: ast.expr) -> bool:
    name = ctx.qualified_name(base)
    if name == "torch.nn.Module":
        return True
    if name and name.startswith("torch.nn.") and ctx.kb.torch_kind(name) == "class":
        return name.rsplit(".", 1)[1][:1].isupper() and "." not in name[len("torch.nn.") :]
    value = ctx.values.get(base)
    return isinstance(value, UserClass) and value.kind == "module"


def forward_name_range(
    ctx, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[int, int, int, int] | None:
    """The range of the name in ``def forward(``."""
    line = ctx.lines[function.lineno - 1] if function.lineno - 1 < len(ctx.lines) else ""
    match = re.search(r"\bdef\s+(" + re.escape(function.name) + r")\b", line)
    if match is None:
        return None
    return (function.lineno, match.start(1) + 1, function.lineno, match.end(1) + 1)


def module_classes(ctx, classes: list[ast.ClassDef]) -> set[str]:
    """Names of the file's classes that are torch modules, also through other classes of the file."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in classes:
            if node.name not in found and any(
                is_module_base(ctx, base) or (isinstance(base, ast.Name) and base.id in found)
                for base in node.bases
            ):
                found.add(node.name)
                changed = True
    return found


def _class(ctx, node: ast.ClassDef, is_module: bool) -> list[Finding | None]:
    found: list[Finding | None] = []
    if is_module:
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "forward":
                span = forward_name_range(ctx, stmt)
                if span:
                    _fold_module_base(ctx, node)
                    found.append(
                        new_finding(
                            MODULE_FORWARD,
                            span,
                            "finding.MSM501",
                            {"cls": node.name},
                            torch_api="torch.nn.Module.forward",
                            fixable=True,
                        )
                    )
    for base in node.bases:
        name = ctx.qualified_name(base)
        if name in DATASET_CLASSES:
            found.append(
                report(
                    ctx,
                    DATASET,
                    reference_range(ctx, base),
                    "finding.MSM511",
                    {"api": name},
                    apis=[name],
                    convertible=_TAKE_OVER,
                    torch_api=name,
                )
            )
    return found


def _fold_module_base(ctx, node: ast.ClassDef) -> None:
    """``class M(nn.Module)`` with a ``forward``: MSM501 says M becomes a ``mindspore.nn.Cell``, so the
    base's own finding (``torch.nn.Module`` → ``mindspore.nn.Cell``) is dropped: one finding per class."""
    for base in node.bases:
        if ctx.qualified_name(base) == "torch.nn.Module":
            existing = usage_at(ctx, reference_range(ctx, base), ["torch.nn.Module"])
            if existing is not None and existing.rule in _TAKE_OVER:
                ctx.usages.remove(existing)


# --- calls ---------------------------------------------------------------------------------------------
def _looks_like(node: ast.expr, pattern: re.Pattern[str]) -> bool:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        if isinstance(node, ast.Attribute):
            return bool(pattern.search(node.attr))
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and bool(pattern.search(node.id))


def _is_device(ctx, node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.split(":")[0] in {"cuda", "cpu", "mps", "xpu", "npu"}
    if isinstance(node, ast.Call):
        return ctx.qualified_name(node.func) == "torch.device"
    if isinstance(node, ast.Attribute) and node.attr == "device":
        return True
    return isinstance(node, ast.Name) and bool(_DEVICE_NAME.search(node.id))


def device_move_fixable(ctx, call: ast.Call) -> bool:
    """Whether removing ``.cuda()`` / ``.cpu()`` / ``.to(device)`` keeps the same meaning otherwise."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in DEVICE_METHODS:
        return not call.args and all(k.arg == "non_blocking" for k in call.keywords)
    return (
        func.attr == "to"
        and len(call.args) == 1
        and _is_device(ctx, call.args[0])
        and all(k.arg == "non_blocking" for k in call.keywords)
    )


def _receiver_is_model(ctx, node: ast.expr) -> bool:
    kind = ctx.receiver_kind(node)
    return kind == "module" or (
        kind is None and ctx.qualified_name(node) is None and _looks_like(node, _MODEL_NAME)
    )


def _call(ctx, call: ast.Call) -> list[Finding | None]:
    func = call.func
    name = ctx.qualified_name(func)
    found: list[Finding | None] = []
    if name == "torch.nn.Sequential":
        found.append(
            report(
                ctx,
                SEQUENTIAL,
                reference_range(ctx, func),
                "finding.MSM502",
                {},
                apis=[name],
                convertible=_TAKE_OVER,
                fixable=sequential_fixable(call),
                torch_api=name,
            )
        )
    elif name and name.startswith("torch.nn.init."):
        initializer = INITIALIZERS.get(name.rsplit(".", 1)[1])
        key = "finding.MSM503" if initializer else "finding.MSM503.generic"
        found.append(
            report(
                ctx,
                INIT,
                reference_range(ctx, func),
                key,
                {"api": name, "initializer": initializer},
                apis=[name],
                convertible=_TAKE_OVER,
                torch_api=name,
            )
        )
    elif name in DATALOADERS:
        found.append(
            report(
                ctx,
                DATASET,
                reference_range(ctx, func),
                "finding.MSM511",
                {"api": name},
                apis=[name],
                convertible=_TAKE_OVER,
                torch_api=name,
            )
        )
    elif name in CHECKPOINT_APIS:
        found.append(
            report(
                ctx,
                CHECKPOINT,
                reference_range(ctx, func),
                "finding.MSM512",
                {"api": name},
                apis=[name],
                convertible=_TAKE_OVER,
                torch_api=name,
            )
        )
    elif (
        name
        and name.startswith("torch.optim.")
        and not name.startswith("torch.optim.lr_scheduler.")
        and not _target_takes_lr(ctx.kb, name)
    ):
        for keyword in call.keywords:
            if keyword.arg == "lr":
                line, column, _, _ = ctx.node_range(keyword)
                found.append(
                    new_finding(
                        LEARNING_RATE,
                        (line, column, line, column + 2),
                        "finding.MSM508",
                        {},
                        torch_api=name,
                        fixable=learning_rate_fixable(ctx.kb, name),
                    )
                )
    elif name is None and isinstance(func, ast.Attribute):
        found.extend(_method_call(ctx, call, func))
    return found


def _method_call(ctx, call: ast.Call, func: ast.Attribute) -> list[Finding | None]:
    attr = func.attr
    if attr not in _METHODS:
        return []
    receiver = func.value
    kind = ctx.receiver_kind(receiver)
    span = attribute_range(ctx, func)
    if kind == "optimizer" or ctx.qualified_name(receiver) is not None:
        return []
    if attr in DEVICE_METHODS or (attr == "to" and call.args and _is_device(ctx, call.args[0])):
        if attr in DEVICE_METHODS and call.args and not isinstance(call.args[0], ast.Constant | ast.Name):
            return []
        apis = [f"torch.Tensor.{attr}", f"torch.nn.Module.{attr}"]
        return [
            report(
                ctx,
                DEVICE,
                span,
                "finding.MSM504",
                {"call": f".{attr}()"},
                apis=apis,
                convertible=_TAKE_OVER,
                fixable=device_move_fixable(ctx, call),
                torch_api=_device_method_api(ctx, func, kind),
            )
        ]
    if attr in {"train", "eval"} and _receiver_is_model(ctx, receiver) and train_mode_flag(call) is not None:
        flag = train_mode_flag(call)
        return [
            report(
                ctx,
                TRAIN_MODE,
                span,
                "finding.MSM505",
                {"call": f"{short(ctx, receiver, 20)}.{attr}()", "flag": flag},
                apis=[f"torch.nn.Module.{attr}"],
                convertible=_TAKE_OVER,
                fixable=True,
                torch_api=f"torch.nn.Module.{attr}",
            )
        ]
    if attr == "backward" and kind in (None, "tensor") and len(call.args) <= 1:
        return [
            report(
                ctx,
                TRAINING_STEP,
                span,
                "finding.MSM506",
                {"call": f"{short(ctx, receiver, 20)}.backward()"},
                apis=["torch.Tensor.backward"],
                convertible=_TAKE_OVER,
                torch_api="torch.Tensor.backward",
            )
        ]
    if attr == "load_state_dict" and kind in (None, "module") and not _looks_like(receiver, _OPTIMIZER_NAME):
        return [
            report(
                ctx,
                CHECKPOINT,
                span,
                "finding.MSM512",
                {"api": "load_state_dict"},
                apis=["torch.nn.Module.load_state_dict"],
                convertible=_TAKE_OVER,
            )
        ]
    return []


def _device_method_api(ctx, func: ast.Attribute, kind: str | None) -> str | None:
    """``torch.nn.Module.to`` on a module, ``torch.Tensor.to`` on a tensor (or the API the analyzer
    reported there); none when the receiver's kind is unknown (modules and tensors both have it)."""
    if kind == "module":
        return f"torch.nn.Module.{func.attr}"
    if kind == "tensor":
        return f"torch.Tensor.{func.attr}"
    existing = usage_at(ctx, attribute_range(ctx, func))
    return existing.torch_api if existing is not None else None


def train_mode_flag(call: ast.Call) -> str | None:
    """``True``/``False`` (as text) for ``model.train()``, ``model.train(False)``, ``model.eval()``."""
    func = call.func
    if not isinstance(func, ast.Attribute) or call.keywords and [k.arg for k in call.keywords] != ["mode"]:
        return None
    values = [*call.args, *(k.value for k in call.keywords)]
    if func.attr == "eval":
        return "False" if not values else None
    if not values:
        return "True"
    if len(values) == 1 and isinstance(values[0], ast.Constant) and isinstance(values[0].value, bool):
        return str(values[0].value)
    return None


def sequential_fixable(call: ast.Call) -> bool:
    return not call.keywords


def optimizer_target(kb, optimizer: str) -> str | None:
    """The MindSpore optimizer a torch one becomes: its mapping row's, else the first catalogued
    replacement of the missing-API advice (``torch.optim.SGD`` → ``mindspore.nn.SGD`` in 2.6)."""
    row = kb.row(optimizer)
    if row is not None:
        return row.mindspore_api or None
    from msmigrate.knowledge.missing_advice import advice_for

    advice = advice_for(optimizer, kb)
    return advice.replacements[0] if advice is not None and advice.replacements else None


def _target_takes_lr(kb, optimizer: str) -> bool:
    """Whether the MindSpore optimizer it becomes (``mindspore.mint.optim.Adam`` …) names it ``lr`` too."""
    target = optimizer_target(kb, optimizer)
    if target is None:
        return False
    signatures = kb.mindspore_signatures(target)
    return any(param["name"] == "lr" for signature in signatures for param in signature)


def learning_rate_fixable(kb, optimizer: str) -> bool:
    """The rename needs a known MindSpore optimizer (``learning_rate=`` is no keyword of the torch one);
    the mapping fix renames ``lr`` itself when the optimizer's row says so, and then this rule does not."""
    row = kb.row(optimizer)
    return optimizer_target(kb, optimizer) is not None and (row is None or "lr" not in row.param_renames)


# --- param_groups: only writing to a group changes the learning rate -------------------------------
def param_groups_written(tree: ast.Module) -> list[ast.Attribute]:
    """The ``x.param_groups`` whose groups the code writes to: ``opt.param_groups[0]["lr"] = v``,
    ``for g in opt.param_groups: g["lr"] *= 0.1`` (also ``g.update(...)``), ``g = opt.param_groups[0]``
    then ``g["lr"] = v``. Reading a group (``print(g["lr"])``) changes nothing."""
    found: list[ast.Attribute] = []
    holders: dict[str, list[ast.Attribute]] = {}  # name bound to a group (or the list) → its param_groups
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            groups = _param_groups_in(node.iter)
            for name in _target_names(node.target) if groups else ():
                holders.setdefault(name, []).extend(groups)
        elif isinstance(node, ast.Assign) and not _written_targets(node.targets):
            groups = _param_groups_in(node.value)
            for target in node.targets if groups else ():
                for name in _target_names(target):
                    holders.setdefault(name, []).extend(groups)
    for node in ast.walk(tree):
        for target in _written_targets(_assign_targets(node)):
            base = target
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
                if isinstance(base, ast.Attribute) and base.attr == "param_groups":
                    found.append(base)
                    break
            else:
                if isinstance(base, ast.Name):
                    found.extend(holders.get(base.id, ()))
        if (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("update", "setdefault", "__setitem__")
            and isinstance(node.func.value, ast.Name)
        ):
            found.extend(holders.get(node.func.value.id, ()))
    return list(dict.fromkeys(found))


def _param_groups_in(node: ast.expr) -> list[ast.Attribute]:
    """``opt.param_groups`` read by ``node`` as a whole or indexed (``enumerate(opt.param_groups)`` too)."""
    while isinstance(node, ast.Subscript) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id in ("enumerate", "list") and node.args
    ):
        node = node.value if isinstance(node, ast.Subscript) else node.args[0]
    return [node] if isinstance(node, ast.Attribute) and node.attr == "param_groups" else []


def _target_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for elt in target.elts for name in _target_names(elt)]
    return []


def _assign_targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    return []


def _written_targets(targets: list[ast.expr]) -> list[ast.expr]:
    """The item/attribute assignments among ``targets`` (``g["lr"] = …``, not ``lr = …``)."""
    return [t for t in targets if isinstance(t, ast.Subscript | ast.Attribute)]


# --- plain references: grad mode, amp, distributed, torch.device, param_groups -------------------------
def _reference(ctx, node: ast.Attribute | ast.Name) -> list[Finding | None]:
    name = ctx.qualified_name(node)
    if name is None:
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "param_groups"
            and (ctx.receiver_kind(node.value) == "optimizer" or _looks_like(node.value, _OPTIMIZER_NAME))
        ):  # (only the param_groups that are written reach here, see param_groups_written)
            return [new_finding(LEARNING_RATE, attribute_range(ctx, node), "finding.MSM508.param_groups", {})]
        return []
    span = reference_range(ctx, node)
    if name in GRAD_MODE_APIS:
        return [
            report(
                ctx,
                GRAD_MODE,
                span,
                "finding.MSM507",
                {"api": name},
                apis=[name],
                convertible=_TAKE_OVER,
                torch_api=name,
            )
        ]
    if name in AMP_APIS:
        return [
            report(
                ctx,
                AMP,
                span,
                "finding.MSM509",
                {"api": name},
                apis=[name],
                convertible=_TAKE_OVER,
                torch_api=name,
            )
        ]
    if name in DISTRIBUTED_APIS:
        return [
            report(
                ctx,
                DISTRIBUTED,
                span,
                "finding.MSM510",
                {"api": name},
                apis=[name],
                convertible=_TAKE_OVER,
                torch_api=name,
            )
        ]
    if name in {"torch.device", "torch.cuda.set_device"}:
        return [
            report(
                ctx,
                DEVICE,
                span,
                "finding.MSM504.device",
                {},
                apis=[name],
                convertible=_TAKE_OVER,
                torch_api=name,
            )
        ]
    return []


# Quick-fixes (fixes/registry.py collects FIXERS)


def construct(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM501: rename ``def forward`` to ``construct`` and the class's own ``self.forward(`` calls."""
    for cls in ast.walk(ctx.tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for stmt in cls.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "forward":
                line = ctx.lines[stmt.lineno - 1]
                column = _name_column(line, "forward")
                if stmt.lineno != finding.line or column != finding.column:
                    continue
                if any(
                    isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "construct"
                    for s in cls.body
                ):
                    return None
                edits = [TextEdit(stmt.lineno, column, stmt.lineno, column + len("forward"), "construct")]
                for node in ast.walk(cls):
                    if (
                        isinstance(node, ast.Attribute)
                        and node.attr == "forward"
                        and isinstance(node.value, ast.Name)
                        and node.value.id == "self"
                    ):
                        _, _, end_line, end_column = ctx.node_range(node)
                        edits.append(
                            TextEdit(end_line, end_column - len("forward"), end_line, end_column, "construct")
                        )
                return Fix("MSM501", "fix.pattern.construct", edits)
    return None


def _name_column(line: str, name: str) -> int:
    match = re.search(r"\bdef\s+(" + name + r")\b", line)
    return match.start(1) + 1 if match else -1


def sequential(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM502: ``nn.Sequential(a, b)`` → ``nn.SequentialCell([a, b])`` (an OrderedDict argument is kept)."""
    call = ctx.call_of(finding)
    if call is None or call.keywords:
        return None
    # the full MindSpore name: ``nn`` still means torch.nn in a file being migrated
    name, import_edits = ctx.mindspore_reference("mindspore.nn.SequentialCell", finding.line)
    items = [ctx.text(a) for a in call.args]
    single_dict = (
        len(call.args) == 1
        and isinstance(call.args[0], ast.Call)
        and (ctx.text(call.args[0].func).endswith("OrderedDict"))
    )
    argument = items[0] if single_dict else ("[" + ", ".join(items) + "]" if items else "")
    edit = TextEdit(*ctx.node_range(call), f"{name}({argument})")
    return Fix("MSM502", "fix.pattern.sequential", [edit, *import_edits])


def device(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM504: drop ``.cuda()`` / ``.cpu()`` / ``.to(device)``; a statement of its own is removed whole,
    and so is ``x = x.to(device)`` (it would become ``x = x``)."""
    call = ctx.call_of(finding)
    if call is None or not device_move_fixable(_Names(ctx), call):
        return None
    statement = _statement_of(ctx.tree, call)
    if statement is not None and (isinstance(statement, ast.Expr) or _self_assignment(ctx, statement, call)):
        line, column, end_line, end_column = ctx.node_range(statement)
        siblings = _siblings(ctx.tree, statement)
        if siblings is None or len(siblings) > 1:
            if (
                ctx.lines[line - 1][: column - 1].strip() == ""
                and ctx.lines[end_line - 1][end_column - 1 :].strip() == ""
            ):
                return Fix("MSM504", "fix.pattern.device", [TextEdit(line, 1, end_line + 1, 1, "")])
        return Fix("MSM504", "fix.pattern.device", [TextEdit(line, column, end_line, end_column, "pass")])
    raw = _drop_member_call(ctx, call)
    return Fix("MSM504", "fix.pattern.device", [TextEdit(*edit) for edit in raw]) if raw else None


def _self_assignment(ctx: FixContext, statement: ast.stmt, call: ast.Call) -> bool:
    """``x = x.cuda()`` / ``self.x = self.x.to(device)``: the move is the whole value, assigned back."""
    return (
        isinstance(statement, ast.Assign)
        and statement.value is call
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name | ast.Attribute)
        and isinstance(call.func, ast.Attribute)
        and ctx.text(statement.targets[0]) == ctx.text(call.func.value)
    )


def _drop_member_call(ctx: FixContext, call: ast.Call):
    from msmigrate.fixes.rewrites import drop_call

    stripped = ast.Call(func=call.func, args=[], keywords=[])
    ast.copy_location(stripped, call)
    stripped.end_lineno, stripped.end_col_offset = call.end_lineno, call.end_col_offset
    return drop_call(ctx, stripped, "")


class _Names:
    """Adapter giving the fix context the ``qualified_name`` the pattern predicates ask for."""

    def __init__(self, ctx: FixContext) -> None:
        self.ctx = ctx

    def qualified_name(self, node: ast.expr) -> str | None:
        return "torch.device" if self.ctx.text(node) in {"torch.device", "device"} else None


def _statement_of(tree: ast.Module, target: ast.AST) -> ast.stmt | None:
    """The expression statement or assignment whose whole value is ``target``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr | ast.Assign) and node.value is target:
            return node
    return None


def _siblings(tree: ast.Module, statement: ast.stmt) -> list[ast.stmt] | None:
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and statement in block:
                return block
    return None


def set_train(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM505: ``model.train()`` → ``model.set_train(True)``; ``model.eval()`` → ``set_train(False)``."""
    call = ctx.call_of(finding)
    if call is None or not isinstance(call.func, ast.Attribute):
        return None
    flag = train_mode_flag(call)
    if flag is None:
        return None
    _, _, end_line, end_column = ctx.node_range(call.func)
    start_column = end_column - len(call.func.attr)
    call_end = ctx.node_range(call)
    edit = TextEdit(end_line, start_column, call_end[2], call_end[3], f"set_train({flag})")
    return Fix("MSM505", "fix.pattern.set_train", [edit], {"flag": flag})


def learning_rate(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM508: ``torch.optim.SGD(p, lr=0.1)`` → ``mindspore.nn.SGD(p, learning_rate=0.1)``.

    The optimizer is replaced in the same fix: ``learning_rate=`` alone would break the torch call. The
    replacement edit is the one the mapping fix makes, so fix-all merges the two.
    """
    if finding.message_key != "finding.MSM508" or not finding.torch_api:
        return None
    target = optimizer_target(ctx.kb, finding.torch_api)
    if target is None or not learning_rate_fixable(ctx.kb, finding.torch_api):
        return None
    for call in ast.walk(ctx.tree):
        if not isinstance(call, ast.Call):
            continue
        for keyword in call.keywords:
            if keyword.arg != "lr":
                continue
            line, column, _, _ = ctx.node_range(keyword)
            if (line, column) != (finding.line, finding.column):
                continue
            edits = [TextEdit(line, column, line, column + 2, "learning_rate")]
            text, import_edits = ctx.mindspore_reference(target, call.func.lineno)
            if ctx.text(call.func) != text:
                edits += [TextEdit(*ctx.node_range(call.func), text), *import_edits]
            return Fix("MSM508", "fix.pattern.learning_rate", edits, {"optimizer": target})
    return None


FIXERS = {
    "MSM501": construct,
    "MSM502": sequential,
    "MSM504": device,
    "MSM505": set_train,
    "MSM508": learning_rate,
}
