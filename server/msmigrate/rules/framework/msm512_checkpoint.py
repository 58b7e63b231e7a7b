"""MSM512: saving and loading state dicts (``torch.save``, ``torch.load``, ``load_state_dict``, downloaded
weights) is MindSpore's checkpoint API.

``mindspore.save_checkpoint`` / ``load_checkpoint`` + ``load_param_into_net`` replace them; a torch file
is converted once with ``msmigrate convert-weights``. ``torch.save`` of plain Python objects is pickled
data, not weights (its own message, no target). ``torch.hub.load_state_dict_from_url`` and
``model_zoo.load_url`` are read with the helper module's ``load_url`` (``_weights_download.py``). The fixes
(``fixes/checkpoint_fixes.py``, the download) need the file converted: unsafe.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.fixes.checkpoint_fixes import checkpoint
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._call_advice import checkpoint_finding
from msmigrate.rules.framework._patterns import (
    DOCS,
    OPTIMIZER_NAME,
    TAKE_OVER,
    calls,
    looks_like,
    method_calls,
)
from msmigrate.rules.framework._weights_download import download, downloads
from msmigrate.rules.support import attribute_range, reference_range, report

RULE = Rule(
    "MSM512",
    C.FRAMEWORK_PATTERN,
    S.INFORMATION,
    DOCS + "api_python/mindspore/mindspore.save_checkpoint.html",
    fixable=True,
)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM512.title": ("Saving and loading state dicts", "保存与加载 state dict"),
    "rule.MSM512.explanation": (
        'MindSpore stores parameters in checkpoint files: mindspore.save_checkpoint(net, "net.ckpt") and '
        'param_dict = mindspore.load_checkpoint("net.ckpt") followed by mindspore.load_param_into_net(net, '
        "param_dict). PyTorch .pth files need a one-time conversion of names and values.",
        'MindSpore 用 checkpoint 文件保存参数：mindspore.save_checkpoint(net, "net.ckpt")，以及 param_dict = '
        'mindspore.load_checkpoint("net.ckpt") 后再调用 mindspore.load_param_into_net(net, param_dict)。'
        "PyTorch 的 .pth 文件需要一次性转换参数名和数值。",
    ),
    "finding.MSM512": (
        "{api}: use mindspore.save_checkpoint / load_checkpoint + load_param_into_net; a torch checkpoint is "
        "converted once with msmigrate convert-weights",
        "{api}：请使用 mindspore.save_checkpoint / load_checkpoint + load_param_into_net；torch 检查点需先用 "
        "msmigrate convert-weights 转换一次",
    ),
    "finding.MSM512.pickle": (
        "{api} saves Python objects here ({saved}), not weights: mindspore.save_checkpoint stores only "
        "parameters, so keep pickle (or json) for them",
        "{api} 在此保存的是 Python 对象（{saved}），不是权重：mindspore.save_checkpoint 只保存参数，"
        "请继续用 pickle（或 json）保存它们",
    ),
    "finding.MSM512.url": (
        "{api} downloads a torch checkpoint: the helper module's load_url downloads a MindSpore checkpoint "
        "and reads it with mindspore.load_checkpoint; convert the torch file once with msmigrate "
        "convert-weights and give the converted file's URL",
        "{api} 下载的是 torch 检查点：辅助模块的 load_url 下载 MindSpore 检查点并用 "
        "mindspore.load_checkpoint 读取；请先用 msmigrate convert-weights 把 torch 文件转换一次，"
        "并使用转换后文件的 URL",
    ),
    "fix.pattern.checkpoint_url": (
        "Download with {module}.load_url, which reads a MindSpore checkpoint: the URL must name the file "
        "msmigrate convert-weights converted",
        "改用 {module}.load_url 下载并读取 MindSpore 检查点：URL 必须指向经 msmigrate convert-weights "
        "转换的文件",
    ),
    "fix.pattern.checkpoint": ("Rewrite with {function}", "改写为 {function}"),
    "fix.pattern.checkpoint_load": (
        "Rewrite with mindspore.load_checkpoint; the file must be a MindSpore checkpoint: convert the torch "
        "file once with msmigrate convert-weights FILE -o FILE.ckpt --model <migrated model>",
        "改写为 mindspore.load_checkpoint；该文件必须是 MindSpore 检查点：请先用 msmigrate convert-weights "
        "FILE -o FILE.ckpt --model <迁移后的模型> 转换一次 torch 文件",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM512": (
        "import torch\ntorch.save(model.state_dict(), 'model.pth')\n",
        "import torch\nstate = torch.ones(3)\n",
        [(2, 1)],
    ),
}


CHECKPOINT_APIS = frozenset({"torch.save", "torch.load"})


def detect(ctx) -> Iterable[Finding]:
    found = []
    for call, name in calls(ctx):
        if name in CHECKPOINT_APIS:
            span = reference_range(ctx, call.func)
            found.append(checkpoint_finding(ctx, RULE, span, name, call, TAKE_OVER))
    for _call, func in method_calls(ctx, {"load_state_dict"}):
        receiver = func.value
        if ctx.receiver_kind(receiver) in (None, "module") and not looks_like(receiver, OPTIMIZER_NAME):
            found.append(report(ctx, RULE, attribute_range(ctx, func), "finding.MSM512",
                                {"api": "load_state_dict"}, apis=["torch.nn.Module.load_state_dict"],
                                convertible=TAKE_OVER, fixable=True))
    found.extend(downloads(ctx))
    return [finding for finding in found if finding is not None]


FIXERS = (checkpoint, download)
FIX_SAFETY = Safety.UNSAFE  # the checkpoint file itself must be converted
