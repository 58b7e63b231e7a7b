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
from msmigrate.fixes.call_layout import wrap_arguments
from msmigrate.fixes.checkpoint_fixes import checkpoint
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.init_fixes import init_rewrite
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.ordered_dicts import is_ordered_dict
from msmigrate.fixes.training_step_fixes import WHY_OPTIMIZER, StepPlan, training_step, training_step_rewrite
from msmigrate.knowledge.initializers import INIT_ARGUMENTS, INITIALIZERS
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.amp import amp_finding
from msmigrate.rules.call_advice import checkpoint_finding, device_move_message, distributed_key
from msmigrate.rules.param_groups import param_groups_written
from msmigrate.rules.support import (
    TAKEN_OVER_API_RULES,
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
    "MSM503", C.FRAMEWORK_PATTERN, S.INFORMATION, _DOCS + "api_python/mindspore.common.initializer.html",
    fixable=True,
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
TRAINING_STEP = Rule(
    "MSM506", C.FRAMEWORK_PATTERN, S.INFORMATION, _TUTORIALS + "beginner/autograd.html", fixable=True
)
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
    fixable=True,
)

RULES = [
    MODULE_FORWARD,
    SEQUENTIAL,
    INIT,
    DEVICE,
    TRAIN_MODE,
    TRAINING_STEP,
    LEARNING_RATE,
    AMP,
    DISTRIBUTED,
    DATASET,
    CHECKPOINT,
]

# The family's texts (en, zh): rule titles and explanations, finding messages, quick-fix titles. The
# message catalogue (i18n.py) reads this literal without importing the module.
MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM501.title": ("nn.Module forward method", "nn.Module 的 forward 方法"),
    "rule.MSM501.explanation": (
        "A MindSpore network is a subclass of mindspore.nn.Cell, and its forward computation is the "
        "construct method. Rename forward to construct (the quick-fix also renames direct self.forward(...) "
        "calls in the class) and change the base class to nn.Cell.",
        "MindSpore 网络继承自 mindspore.nn.Cell，其前向计算写在 construct 方法中。请把 forward 重命名为 "
        "construct"
        "（快速修复会同时重命名类中直接调用的 self.forward(...)），并把基类改为 nn.Cell。",
    ),
    "rule.MSM502.title": ("nn.Sequential container", "nn.Sequential 容器"),
    "rule.MSM502.explanation": (
        "The MindSpore counterpart is nn.SequentialCell, which takes the layers as one list (or an "
        "OrderedDict). The quick-fix rewrites nn.Sequential(a, b) to nn.SequentialCell([a, b]).",
        "MindSpore 中对应的是 nn.SequentialCell，它以一个列表（或 OrderedDict）接收各层。"
        "快速修复会把 nn.Sequential(a, b) 改写为 nn.SequentialCell([a, b])。",
    ),
    "rule.MSM503.title": ("In-place weight initialization with nn.init", "用 nn.init 原地初始化权重"),
    "rule.MSM503.explanation": (
        "MindSpore initializes parameters with mindspore.common.initializer: "
        "param.set_data(initializer(HeNormal(), param.shape, param.dtype)), or by passing weight_init to the "
        "layer. kaiming_normal_ is HeNormal, xavier_uniform_ is XavierUniform, constant_ is Constant, "
        "zeros_ is Zero, normal_ is Normal, trunc_normal_ is TruncatedNormal.",
        "MindSpore 使用 mindspore.common.initializer 初始化参数：param.set_data(initializer(HeNormal(), "
        "param.shape, "
        "param.dtype))，或在创建层时传入 weight_init。kaiming_normal_ 对应 HeNormal，xavier_uniform_ 对应 "
        "XavierUniform，constant_ 对应 Constant，zeros_ 对应 Zero，"
        "normal_ 对应 Normal，trunc_normal_ 对应 TruncatedNormal。",
    ),
    "rule.MSM504.title": ("Explicit device placement", "显式的设备放置"),
    "rule.MSM504.explanation": (
        'MindSpore selects the device once per process (mindspore.set_device("GPU", 0), or set_context '
        "with device_target) and places every tensor and network there. .cuda(), .cpu(), .to(device) and "
        "torch.device are not needed; the quick-fix removes the device move.",
        'MindSpore 在进程中统一指定一次设备（mindspore.set_device("GPU", 0)，'
        "或 set_context 的 device_target），"
        "所有张量和网络都放在该设备上。不需要 .cuda()、.cpu()、.to(device) 和 torch.device；"
        "快速修复会删除这些设备迁移调用。",
    ),
    "rule.MSM505.title": ("train() / eval() mode switch", "train() / eval() 模式切换"),
    "rule.MSM505.explanation": (
        "A Cell switches between training and inference behaviour (dropout, batch norm) with "
        "set_train(True) and set_train(False). The quick-fix rewrites model.train() and model.eval().",
        "Cell 通过 set_train(True) 和 set_train(False) 在训练与推理行为（dropout、batch norm）之间切换。"
        "快速修复会改写 model.train() 和 model.eval()。",
    ),
    "rule.MSM506.title": (
        "backward() and optimizer.step() training step",
        "backward() 与 optimizer.step() 训练步骤",
    ),
    "rule.MSM506.explanation": (
        "MindSpore has no backward() on tensors. Write the forward and loss as a function, get "
        "grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters), then in each step "
        "loss, grads = grad_fn(data, label) and optimizer(grads). zero_grad() is not needed. The quick-fix "
        "rewrites a training step whose loss, zero_grad(), backward() and step() are statements of one block "
        "this way, and passes model.trainable_params() instead of model.parameters() to the optimizer.",
        "MindSpore 的张量没有 backward()。请把前向与损失计算写成函数，通过 grad_fn = "
        "mindspore.value_and_grad(forward_fn, "
        "None, optimizer.parameters) 获得求导函数，每一步执行 loss, grads = grad_fn(data, label) 和 "
        "optimizer(grads)。"
        "不需要 zero_grad()。快速修复会按此方式改写损失、zero_grad()、backward() 和 step() "
        "位于同一代码块中的训练步骤，并把传给优化器的 model.parameters() 改为 model.trainable_params()。",
    ),
    "rule.MSM508.title": (
        "Optimizer learning-rate argument and parameter groups",
        "优化器学习率参数与参数组",
    ),
    "rule.MSM508.explanation": (
        "MindSpore optimizers take the learning rate as learning_rate, which may also be a list of per-step "
        'values or a LearningRateSchedule. Changing param_groups[i]["lr"] during training is replaced by '
        "such a schedule. The quick-fix renames lr= to learning_rate=.",
        "MindSpore 优化器的学习率参数名为 learning_rate，也可以是逐步的学习率列表或 LearningRateSchedule。"
        '训练中修改 param_groups[i]["lr"] 的做法应改用这类调度。快速修复会把 lr= 重命名为 learning_rate=。',
    ),
    "rule.MSM509.title": ("Automatic mixed precision", "自动混合精度"),
    "rule.MSM509.explanation": (
        'Use mindspore.amp: auto_mixed_precision(net, "O1"/"O2") casts the network, and '
        "DynamicLossScaler scales the loss (scale before grad, unscale the gradients and check them with "
        "all_finite before optimizer(grads)). There is no autocast context.",
        '请使用 mindspore.amp：auto_mixed_precision(net, "O1"/"O2") 转换网络精度，'
        "DynamicLossScaler 负责损失缩放（求导前缩放损失，调用 optimizer(grads) 前对梯度反缩放"
        "并用 all_finite 检查）。没有 autocast 上下文。",
    ),
    "rule.MSM510.title": ("Distributed data-parallel setup", "分布式数据并行设置"),
    "rule.MSM510.explanation": (
        "Call mindspore.communication.init() and mindspore.set_auto_parallel_context(parallel_mode="
        '"data_parallel", gradients_mean=True) instead of init_process_group and wrapping the model in '
        "DistributedDataParallel; shard the dataset with num_shards/shard_id (get_group_size(), get_rank()).",
        "请调用 mindspore.communication.init() 和 "
        'mindspore.set_auto_parallel_context(parallel_mode="data_parallel", '
        "gradients_mean=True)，替代 init_process_group 和用 DistributedDataParallel 包装模型；数据集通过 "
        "num_shards/shard_id（get_group_size()、get_rank()）切分。",
    ),
    "rule.MSM511.title": ("Dataset and DataLoader", "Dataset 与 DataLoader"),
    "rule.MSM511.explanation": (
        "A map-style Dataset (with __getitem__ and __len__) can be wrapped unchanged in "
        "mindspore.dataset.GeneratorDataset(source, column_names=[...], shuffle=...). DataLoader options "
        "become pipeline calls: .batch(batch_size, drop_remainder=...) and num_parallel_workers. Return "
        "NumPy "
        "arrays from __getitem__, not tensors.",
        "map 式 Dataset（实现 __getitem__ 和 __len__）可原样包装进 mindspore.dataset.GeneratorDataset(source,"
        " "
        "column_names=[...], shuffle=...)。DataLoader 的选项变为数据管道调用：.batch(batch_size, "
        "drop_remainder=...) "
        "和 num_parallel_workers。__getitem__ 应返回 NumPy 数组而非张量。",
    ),
    "rule.MSM512.title": ("Saving and loading state dicts", "保存与加载 state dict"),
    "rule.MSM512.explanation": (
        'MindSpore stores parameters in checkpoint files: mindspore.save_checkpoint(net, "net.ckpt") and '
        'param_dict = mindspore.load_checkpoint("net.ckpt") followed by mindspore.load_param_into_net(net, '
        "param_dict). PyTorch .pth files need a one-time conversion of names and values.",
        'MindSpore 用 checkpoint 文件保存参数：mindspore.save_checkpoint(net, "net.ckpt")，以及 param_dict = '
        'mindspore.load_checkpoint("net.ckpt") 后再调用 mindspore.load_param_into_net(net, param_dict)。'
        "PyTorch 的 .pth 文件需要一次性转换参数名和数值。",
    ),
    "finding.MSM501": (
        "Rename forward to construct: {cls} becomes a mindspore.nn.Cell",
        "将 forward 重命名为 construct：{cls} 需改为 mindspore.nn.Cell 子类",
    ),
    "finding.MSM502": (
        "nn.Sequential becomes nn.SequentialCell with the layers in a list",
        "nn.Sequential 改为 nn.SequentialCell，各层放入列表",
    ),
    "finding.MSM503": (
        "{api}: initialize with mindspore.common.initializer.{initializer} via param.set_data(initializer(..."
        "))",
        "{api}：请通过 param.set_data(initializer(...)) 使用 mindspore.common.initializer.{initializer} "
        "初始化",
    ),
    "finding.MSM503.generic": (
        "{api}: initialize with mindspore.common.initializer via param.set_data(initializer(...))",
        "{api}：请通过 param.set_data(initializer(...)) 使用 mindspore.common.initializer 初始化",
    ),
    "finding.MSM504": (
        "{call} moves data between devices; MindSpore uses the device set once with mindspore.set_device",
        "{call} 在设备间迁移数据；MindSpore 使用通过 mindspore.set_device 统一指定的设备",
    ),
    "finding.MSM504.device": (
        "torch.device: select the device once with mindspore.set_device",
        "torch.device：请用 mindspore.set_device 统一指定设备",
    ),
    "finding.MSM505": (
        "{call} switches the mode; use set_train({flag})",
        "{call} 切换模式；请使用 set_train({flag})",
    ),
    "finding.MSM506": (
        "{call}: compute gradients with mindspore.value_and_grad in a training step",
        "{call}：请在训练步骤中用 mindspore.value_and_grad 计算梯度",
    ),
    "finding.MSM506.params": (
        "{call}: a MindSpore optimizer takes the network's trainable_params()",
        "{call}：MindSpore 优化器接收网络的 trainable_params()",
    ),
    "finding.MSM508": (
        "Optimizer argument lr is called learning_rate in MindSpore",
        "优化器参数 lr 在 MindSpore 中名为 learning_rate",
    ),
    "finding.MSM508.param_groups": (
        "Changing the learning rate through param_groups: pass a learning-rate schedule to the optimizer",
        "通过 param_groups 修改学习率：请向优化器传入学习率调度",
    ),
    "finding.MSM509": (
        "{api}: use mindspore.amp (auto_mixed_precision, DynamicLossScaler)",
        "{api}：请使用 mindspore.amp（auto_mixed_precision、DynamicLossScaler）",
    ),
    "finding.MSM510": (
        "{api}: use mindspore.communication.init and set_auto_parallel_context for data parallelism",
        "{api}：数据并行请使用 mindspore.communication.init 与 set_auto_parallel_context",
    ),
    "finding.MSM511": (
        "{api}: wrap the dataset in mindspore.dataset.GeneratorDataset and batch it with .batch()",
        "{api}：请用 mindspore.dataset.GeneratorDataset 包装数据集，并用 .batch() 组批",
    ),
    "finding.MSM512": (
        "{api}: use mindspore.save_checkpoint / load_checkpoint + load_param_into_net; a torch checkpoint is "
        "converted once with msmigrate convert-weights",
        "{api}：请使用 mindspore.save_checkpoint / load_checkpoint + load_param_into_net；torch 检查点需先用 "
        "msmigrate convert-weights 转换一次",
    ),
    # quick-fix titles
    "fix.pattern.construct": ("Rename forward to construct", "将 forward 重命名为 construct"),
    "fix.pattern.sequential": ("Rewrite as SequentialCell([...])", "改写为 SequentialCell([...])"),
    "fix.pattern.device": ("Remove the device move", "删除设备迁移调用"),
    "fix.pattern.set_train": ("Rewrite as set_train({flag})", "改写为 set_train({flag})"),
    "fix.pattern.training_step": (
        "Rewrite the training step with mindspore.value_and_grad",
        "用 mindspore.value_and_grad 改写训练步骤",
    ),
    "fix.pattern.training_step.loss": (
        "No automatic rewrite: backward() is not called, without arguments, on a loss variable assigned in "
        "the same block",
        "无法自动改写：backward() 不是以无参数形式在同一代码块中赋值的损失变量上调用的",
    ),
    "fix.pattern.training_step.optimizer": (
        "No automatic rewrite: the block of backward() lacks step() after it and one zero_grad() (before "
        "backward() or after step()), both without arguments on the same optimizer",
        "无法自动改写：backward() 所在代码块中缺少其后的 step() 以及一次 zero_grad()"
        "（在 backward() 之前或 step() 之后），两者须为同一优化器且均无参数",
    ),
    "fix.pattern.training_step.statement": (
        "No automatic rewrite: the statements computing the loss cannot move into a function (control "
        "flow, another training step, del, global, yield, await, := or multi-line strings)",
        "无法自动改写：计算损失的语句无法移入函数（含控制流、另一个训练步骤、del、global、yield、await、:= "
        "或多行字符串）",
    ),
    "fix.pattern.training_step.between": (
        "No automatic rewrite: statements between backward() and step() work on the gradients in .grad "
        "(in MindSpore, change the grads that value_and_grad returns, e.g. ops.clip_by_global_norm(grads))",
        "无法自动改写：backward() 与 step() 之间的语句操作 .grad 中的梯度"
        "（MindSpore 中应处理 value_and_grad 返回的 grads，例如 ops.clip_by_global_norm(grads)）",
    ),
    "fix.pattern.training_step.layout": (
        "No automatic rewrite: statements of the training step share lines",
        "无法自动改写：训练步骤的语句共用同一行",
    ),
    "fix.pattern.training_step.names": (
        "No automatic rewrite: forward_fn, grad_fn or grads already name something here",
        "无法自动改写：此处已使用 forward_fn、grad_fn 或 grads 这些名称",
    ),
    "fix.pattern.trainable_params": (
        "Pass trainable_params() to the optimizer",
        "向优化器传入 trainable_params()",
    ),
    "fix.pattern.learning_rate": (
        "Use {optimizer} and rename lr to learning_rate",
        "改用 {optimizer}，并将 lr 重命名为 learning_rate",
    ),
}

# rule id → (example that triggers the rule, counter-example that does not, the (line, column) of the
# rule's findings in the example); `msmigrate rules MSM505` shows the example, tests/rules checks all three
EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM501": (
        "import torch.nn as nn\n\nclass Net(nn.Module):\n    def forward(self, x):\n        return x\n",
        "import torch.nn as nn\n\nclass Helper:\n    def forward(self, x):\n        return x\n",
        [(4, 9)],
    ),
    "MSM502": (
        "import torch.nn as nn\nbody = nn.Sequential(nn.ReLU(), nn.Dropout(0.1))\n",
        "import torch.nn as nn\nbody = nn.ModuleList([nn.ReLU()])\n",
        [(2, 8)],
    ),
    "MSM503": (
        "import torch.nn as nn\nnn.init.kaiming_normal_(conv.weight, mode='fan_out')\n",
        "import torch.nn as nn\nconv = nn.Conv2d(3, 8, 3)\n",
        [(2, 1)],
    ),
    "MSM504": (
        "import torch\n\ndef step(x: torch.Tensor):\n    return x.cuda()\n",
        "import torch\n\ndef step(x: torch.Tensor):\n    return x.float()\n",
        [(4, 14)],
    ),
    "MSM505": (
        "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nmodel.eval()\n",
        "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nmodel.zero_grad()\n",
        [(3, 7)],
    ),
    "MSM506": (
        "import torch\n\ndef step(loss: torch.Tensor):\n    loss.backward()\n",
        "import torch\n\ndef step(loss: torch.Tensor):\n    return loss.item()\n",
        [(4, 10)],
    ),
    "MSM508": (
        "import torch\nopt = torch.optim.SGD(params, lr=0.1, momentum=0.9)\n",
        "import torch\nopt = torch.optim.SGD(params, 0.1)\n",
        [(2, 31)],
    ),
    "MSM509": (
        "import torch\nscaler = torch.cuda.amp.GradScaler()\n",
        "import torch\nscale = torch.ones(1)\n",
        [(2, 10)],
    ),
    "MSM510": (
        "import torch.distributed as dist\ndist.init_process_group('nccl')\n",
        "import torch.distributed as dist\nrank = dist.get_rank()\n",
        [(2, 1)],
    ),
    "MSM511": (
        "from torch.utils.data import DataLoader\nloader = DataLoader(data, batch_size=32)\n",
        "from torch.utils.data import random_split\nparts = random_split(data, [8, 2])\n",
        [(2, 10)],
    ),
    "MSM512": (
        "import torch\ntorch.save(model.state_dict(), 'model.pth')\n",
        "import torch\nstate = torch.ones(3)\n",
        [(2, 1)],
    ),
}

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
INIT_HELPERS = frozenset({"torch.nn.init.calculate_gain", "torch.nn.init._calculate_fan_in_and_fan_out"})
DEVICE_METHODS = frozenset({"cuda", "cpu"})
_MODEL_NAME = re.compile(r"(model|net|module|classifier|backbone|encoder|decoder)", re.IGNORECASE)
_OPTIMIZER_NAME = re.compile(r"(optim|opt$|^opt)", re.IGNORECASE)
_DEVICE_NAME = re.compile(r"(^|_)(device|dev)$", re.IGNORECASE)
_TAKE_OVER = TAKEN_OVER_API_RULES | {"MSM600"}
_METHODS = DEVICE_METHODS | {"to", "train", "eval", "backward", "load_state_dict"}  # see _method_call


def check(ctx) -> Iterable[Finding]:
    found: list[Finding | None] = []
    index = tree_index(ctx)
    named = named_nodes(ctx, ast.Attribute)
    inner = {id(n.value) for n in named}
    classes = index.nodes(ast.ClassDef)
    modules = module_classes(ctx, classes)
    check = ctx.cancel.check
    for node in classes:
        check()
        found.extend(_class(ctx, node, node.name in modules))
    values = ctx.values
    for node in index.nodes(ast.Call):
        check()
        func = node.func
        if type(values.get(func)) is str or (type(func) is ast.Attribute and func.attr in _METHODS):
            found.extend(_call(ctx, node))  # (other calls: neither a torch name nor a method of interest)
    if "param_groups" in ctx.source:  # the only member without a torch name that matters here
        written = param_groups_written(ctx.tree, index)
        named = sorted(dict.fromkeys([*named, *written]), key=outer_first)
    references = [*named, *named_nodes(ctx, ast.Name)]
    for node in references:
        check()
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
    elif name and name.startswith("torch.nn.init.") and name not in INIT_HELPERS:  # (rules/init_helpers.py)
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
                fixable=name.rsplit(".", 1)[1] in INIT_ARGUMENTS,
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
        found.append(checkpoint_finding(ctx, CHECKPOINT, reference_range(ctx, func), name, call, _TAKE_OVER))
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
    if name and name.startswith("torch.optim.") and not name.startswith("torch.optim.lr_scheduler."):
        found.extend(_optimizer_params(ctx, call, name))
    return found


def _optimizer_params(ctx, call: ast.Call, optimizer: str) -> list[Finding | None]:
    """``model.parameters()`` given to an optimizer: MindSpore's takes ``model.trainable_params()`` (the
    parameters with ``requires_grad``; ``get_parameters()`` would also train BatchNorm statistics)."""
    params = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "params"), None)
    if (
        not isinstance(params, ast.Call) or params.args or params.keywords
        or not isinstance(params.func, ast.Attribute) or params.func.attr != "parameters"
        or ctx.qualified_name(params.func.value) is not None
        or ctx.receiver_kind(params.func.value) not in (None, "module")
        or optimizer_target(ctx.kb, optimizer) is None
    ):
        return []
    span = attribute_range(ctx, params.func)
    return [
        report(
            ctx,
            TRAINING_STEP,
            span,
            "finding.MSM506.params",
            {"call": f"{short(ctx, params.func.value, 20)}.parameters()"},
            apis=["torch.nn.Module.parameters"],
            convertible=_TAKE_OVER,
            fixable=True,
            torch_api="torch.nn.Module.parameters",
        )
    ]


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
        key, args = device_move_message(ctx, call, attr)
        return [
            report(
                ctx,
                DEVICE,
                span,
                key,
                args,
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
        plan = training_step(ctx.tree, call, ctx.lines, whole_scope=False)
        if isinstance(plan, StepPlan) and (
            ctx.receiver_kind(plan.optimizer) not in (None, "optimizer")
            or ctx.qualified_name(plan.optimizer) is not None
        ):
            plan = WHY_OPTIMIZER  # zero_grad() and step() of a module or of a torch name
        args = {"call": f"{short(ctx, receiver, 20)}.backward()"}
        return [
            report(
                ctx,
                TRAINING_STEP,
                span,
                "finding.MSM506",
                args if isinstance(plan, StepPlan) else {**args, "why": plan},
                apis=["torch.Tensor.backward"],
                convertible=_TAKE_OVER,
                fixable=isinstance(plan, StepPlan),
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
                fixable=True,
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
    """``True``/``False`` (as text) for ``model.train()``, ``model.train(False)``, ``model.eval()``; the
    argument's text for ``model.train(is_training)`` (``set_train`` takes the same bool)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or call.keywords and [k.arg for k in call.keywords] != ["mode"]:
        return None
    values = [*call.args, *(k.value for k in call.keywords)]
    if func.attr == "eval":
        return "False" if not values else None
    if not values:
        return "True"
    if len(values) != 1 or isinstance(values[0], ast.Starred):
        return None
    if isinstance(values[0], ast.Constant):
        return str(values[0].value) if isinstance(values[0].value, bool) else None
    return ast.unparse(values[0])


def sequential_fixable(call: ast.Call) -> bool:
    return not call.keywords


def optimizer_target(kb, optimizer: str) -> str | None:
    """The MindSpore optimizer a torch one becomes: its mapping's (the table row, or a derived mapping:
    ``torch.optim.SGD`` → ``mindspore.experimental.optim.SGD``), else the first catalogued replacement of
    the missing-API advice."""
    row = kb.mapping(optimizer)
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
    row = kb.mapping(optimizer)
    return optimizer_target(kb, optimizer) is not None and (row is None or "lr" not in row.param_renames)


# --- param_groups: only writing to a group changes the learning rate -------------------------------
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
    if name in AMP_APIS:
        return [amp_finding(ctx, AMP, span, name, _TAKE_OVER)]
    if name in DISTRIBUTED_APIS:
        return [
            report(
                ctx,
                DISTRIBUTED,
                span,
                distributed_key(name),
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
    """MSM502: ``nn.Sequential(a, b)`` → ``nn.SequentialCell([a, b])`` (an OrderedDict is kept);
    the layers' text, comments and line breaks stay as written."""
    call = ctx.call_of(finding)
    if call is None or call.keywords:
        return None
    # the full MindSpore name: ``nn`` still means torch.nn in a file being migrated
    name, import_edits = ctx.mindspore_reference("mindspore.nn.SequentialCell", finding.line)
    single_dict = len(call.args) == 1 and is_ordered_dict(ctx, call.args[0])
    brackets = [] if single_dict or not call.args else wrap_arguments(ctx, call, "[", "]")
    if brackets is None:
        return None
    edit = TextEdit(*ctx.node_range(call.func), name)
    return Fix("MSM502", "fix.pattern.sequential", [edit, *brackets, *import_edits])


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
    values = [*call.args, *(k.value for k in call.keywords)]
    if values and not isinstance(values[0], ast.Constant):  # the argument as written
        flag = ctx.text(values[0])
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
    "MSM503": init_rewrite,
    "MSM504": device,
    "MSM505": set_train,
    "MSM506": training_step_rewrite,
    "MSM508": learning_rate,
    "MSM512": checkpoint,
}
