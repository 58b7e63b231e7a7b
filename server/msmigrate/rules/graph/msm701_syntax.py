"""MSM701: syntax the graph compiler rejects inside ``construct``.

``try``, ``del``, ``nonlocal``, ``import``, ``match``, a nested ``class`` or ``async def``, ``yield``,
``:=``, set literals ("Unsupported statement 'Try'", "Unsupported expression 'Yield'"): reported at the
statement's keyword or at the expression.
What GRAPH_MODE compiles: ``_compiled.py``; the sites of MSM701–MSM705 are found in one walk
(``_sites.py``). Each failure was met by ``msmigrate compare`` and is checked under MindSpore 2.10
(``tests/rules/test_graph_mode_rules.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, NET
from msmigrate.rules.graph._sites import findings

RULE = Rule("MSM701", C.FRAMEWORK_PATTERN, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM701.title": ("Syntax GRAPH_MODE does not compile", "GRAPH_MODE 无法编译的语法"),
    "rule.MSM701.explanation": (
        "In GRAPH_MODE (and under mindspore.jit) construct and what it calls are compiled, and the compiler "
        "of MindSpore 2.10 rejects try statements, del, nonlocal, import, match, nested class and async "
        "definitions, yield (generators, contextmanager methods), the := operator and set literals. The "
        "model runs in PyNative mode and stops at compilation in GRAPH_MODE. Move such code out of "
        "construct (into __init__ or the training script) or write it without that syntax.",
        "在 GRAPH_MODE（以及 mindspore.jit）下，construct 及其调用的代码会被编译，"
        "MindSpore 2.10 的编译器不支持 "
        "try 语句、del、nonlocal、import、match、嵌套的 class 与 async 定义、yield（生成器、contextmanager "
        "方法）、:= 运算符和集合字面量。模型在 PyNative 模式下可以运行，在 GRAPH_MODE 下编译失败。"
        "请把这类代码移出 "
        "construct（放到 __init__ 或训练脚本中），或改用其他写法。",
    ),
    "finding.MSM701": (
        "{what} in {function}: GRAPH_MODE does not compile it (\"Unsupported {kind} '{node}'\"); "
        "the model runs "
        "in PyNative mode only",
        "{function} 中的 {what}：GRAPH_MODE 无法编译（\"Unsupported {kind} '{node}'\"）；模型只能在 PyNative "
        "模式下运行",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM701": (
        NET + "        try:\n            y = self.a(x)\n        except ValueError:\n            y = x\n"
        "        del x\n        return y\n",
        NET + "        y = self.a(x)\n        return y\n",
        [(6, 9), (10, 9)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
