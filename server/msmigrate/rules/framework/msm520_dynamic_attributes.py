"""MSM520: dynamic attribute access on torch modules (``getattr(nn, rnn_type)(...)``,
``getattr(torch.nn.functional, act)``): the names the access can take are read from the code, and the
access is written for MindSpore when every one of them maps (``fixes/dynamic_attribute_fixes.py``)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.dynamic_attribute_fixes import (
    dynamic_attribute_fix,
    getattr_parts,
    possible_names,
    resolve_targets,
)
from msmigrate.fixes.instance_calls import parents
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.support import BEFORE_MISSING_API, new_finding, tree_index

RULE = Rule("MSM520", C.FRAMEWORK_PATTERN, S.WARNING,
                         "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore.nn.html", fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM520.title": ("Dynamic attribute access on a torch module", "对 torch 模块的动态属性访问"),
    "rule.MSM520.explanation": (
        "getattr(nn, name) picks a torch class or function by a name the program holds, so the file keeps "
        "needing torch after every other rewrite. The names it can take are read from the code: a string "
        "literal, a dict or list of literals, the default of a parameter and the literals assigned to it, "
        "narrowed by an 'in' test against literals. When each of them has a MindSpore counterpart that "
        "takes the same arguments, the quick-fix looks the name up in the MindSpore module (or in a table of "
        "the targets); a default of getattr stands for the names MindSpore lacks. Otherwise the finding "
        "says which names have no counterpart.",
        "getattr(nn, name) 按程序中保存的名称选择 torch 的类或函数，因此其他改写完成后文件仍依赖 torch。"
        "该访问可能取到的名称从代码中读取：字符串字面量、字面量组成的字典或列表、参数的默认值及赋给它的"
        "字面量，并以针对字面量的 in 测试加以限定。当每个名称都有接收相同参数的 MindSpore 对应项时，"
        "快速修复改为在 MindSpore 模块（或目标表）中查找该名称；getattr 的默认值用于 MindSpore 没有的名称。"
        "否则该提示会指出哪些名称没有对应项。",
    ),
    "finding.MSM520": (
        "getattr on {module}: every name it can take ({names}) has a MindSpore counterpart",
        "对 {module} 的 getattr：其可能取到的每个名称（{names}）都有 MindSpore 对应项",
    ),
    "finding.MSM520.missing": (
        "getattr on {module}: no MindSpore counterpart taking the same arguments for {missing} (of {names})",
        "对 {module} 的 getattr：{missing}（共 {names}）没有接收相同参数的 MindSpore 对应项",
    ),
    "finding.MSM520.default": (
        "getattr on {module}: MindSpore has no counterpart for {missing} (of {names}); getattr's default "
        "stands for them",
        "对 {module} 的 getattr：{missing}（共 {names}）没有 MindSpore 对应项；这些名称取 getattr 的默认值",
    ),
    "finding.MSM520.unknown": (
        "getattr on {module} with a name the code does not tell: list the names it takes (a literal, a list "
        "or dict of literals, a default) so that they can be checked",
        "对 {module} 的 getattr 使用的名称无法从代码得知：请写明其可能取到的名称（字面量、字面量列表或字典、"
        "默认值），以便检查",
    ),
    "fix.dynamic_attribute.module": ("Look the name up in {module}", "改为在 {module} 中查找该名称"),
    "fix.dynamic_attribute.table": (
        "Look the name up in a table of the MindSpore targets",
        "改为在 MindSpore 目标表中查找该名称",
    ),
    "fix.dynamic_attribute.default": (
        "Use getattr's default: MindSpore has none of the names",
        "改用 getattr 的默认值：MindSpore 没有其中任何名称",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM520": (
        "import torch.nn as nn\n\n\ndef rnn(kind='LSTM'):\n    return getattr(nn, kind)(4, 8)\n",
        "import torch.nn as nn\n\n\ndef rnn():\n    return nn.LSTM(4, 8)\n",
        [(5, 12)],
    ),
}


def detect(ctx) -> Iterable[Finding]:
    found: list[Finding] = []
    up: dict[int, ast.AST] | None = None
    for call in tree_index(ctx).nodes(ast.Call):
        parts = getattr_parts(call)
        module = ctx.qualified_name(parts[0]) if parts is not None else None
        if parts is None or not module or not (module == "torch" or module.startswith("torch.")):
            continue
        ctx.cancel.raise_if_cancelled()
        module = ctx.kb.canonical(module)
        up = up if up is not None else parents(ctx.tree)
        names = possible_names(parts[1], up)
        args = {"module": module}
        if not names:
            found.append(new_finding(RULE, ctx.node_range(call), "finding.MSM520.unknown", args))
            continue
        parent = up.get(id(call))
        called = parent if isinstance(parent, ast.Call) and parent.func is call else None
        targets = resolve_targets(ctx.kb, module, names, called)
        args["names"] = ", ".join(names)
        if targets.missing and parts[2] is None:
            args["missing"] = ", ".join(targets.missing)
            found.append(new_finding(RULE, ctx.node_range(call), "finding.MSM520.missing", args))
        else:  # the fix writes it for MindSpore: a replacement to look at, not code that fails
            key = "finding.MSM520.default" if targets.missing else "finding.MSM520"
            if targets.missing:
                args["missing"] = ", ".join(targets.missing)
            finding = new_finding(RULE, ctx.node_range(call), key, args, fixable=True)
            finding.severity = S.INFORMATION
            found.append(finding)
    return found


DETECT_BEFORE = BEFORE_MISSING_API  # the API finding as the analysis reported it
FIXERS = (dynamic_attribute_fix,)
FIX_SAFETY = Safety.SAFE  # the same names, looked up in MindSpore's modules
