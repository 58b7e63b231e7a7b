"""MSM513: feature checks on torch (``hasattr(F, "scaled_dot_product_attention")``, ``torch.__version__``,
``torch.jit.is_scripting()``, ``torch.cuda.is_available()``) have known answers once the code runs in
MindSpore.

A ``hasattr`` is whether the name has a MindSpore counterpart (the mapping the fixes apply), the
TorchScript/tracing/compile checks are ``False``, a version comparison is evaluated for the torch version
the migration assumes (that of the API inventory), and "is CUDA available" is asked of MindSpore. The fix
(``fixes/torch_check_fixes.py``) writes the answer and keeps the code it selects
(``fixes/constant_fold.py``): safe.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.fixes.torch_check_fixes import torch_check_fix
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.framework._torch_checks import DOCS, torch_check_findings

RULE = Rule("MSM513", C.FRAMEWORK_PATTERN, S.INFORMATION,
                     DOCS + "api_python/mindspore/mindspore.hal.is_available.html", fixable=True)

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
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM513": (
        "import torch\n\ndef act(x):\n    if torch.jit.is_scripting():\n        return x\n    return x * 2\n",
        "import torch\n\ndef act(x):\n    if x.ndim > 2:\n        return x\n    return x * 2\n",
        [(4, 8)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    return torch_check_findings(ctx, RULE)


FIXERS = (torch_check_fix,)
FIX_SAFETY = Safety.SAFE  # the answer the check gives once the code runs in MindSpore
