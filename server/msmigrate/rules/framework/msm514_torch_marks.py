"""MSM514: code marked for TorchScript or FX (``@torch.jit.ignore``, ``torch.jit.Final``, ``torch.fx.wrap``)
and torch's GPU kernel settings (``torch.backends.cudnn.benchmark``).

MindSpore needs none of it, except determinism, which is ``mindspore.set_deterministic``. The fix
(``fixes/torch_check_fixes.py``) removes the mark (``typing.Final`` for ``torch.jit.Final``): safe.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.fixes.torch_check_fixes import torch_marker_fix
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._torch_checks import DOCS, torch_check_findings

RULE = Rule("MSM514", C.FRAMEWORK_PATTERN, S.HINT,
                  DOCS + "api_python/mindspore/mindspore.set_deterministic.html", fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
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
    "MSM514": (
        "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    @torch.jit.ignore\n"
        "    def no_weight_decay(self):\n        return set()\n",
        "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    @staticmethod\n"
        "    def no_weight_decay():\n        return set()\n",
        [(5, 6)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    return torch_check_findings(ctx, RULE)


FIXERS = (torch_marker_fix,)
FIX_SAFETY = Safety.SAFE  # the marks compute nothing (determinism: mindspore.set_deterministic)
