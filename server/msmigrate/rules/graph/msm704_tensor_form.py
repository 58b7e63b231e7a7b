"""MSM704: a Tensor-method form MindSpore runs in PyNative but not in GRAPH_MODE on CPU.

``x.chunk(2, dim=1)``, ``x.transpose(1, 2)`` (``knowledge/graph_mode_forms.py``). In torch code only where the
analysis reported the torch Tensor method there; in MindSpore code by its form. The fix writes the form
that runs in both modes with the same result (``fixes/graph_form_fixes.py``): safe.
What GRAPH_MODE compiles: ``_compiled.py``; the sites of MSM701–MSM705 are found in one walk
(``_sites.py``). Each failure was met by ``msmigrate compare`` and is checked under MindSpore 2.10
(``tests/rules/test_graph_mode_rules.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.fixes.graph_form_fixes import graph_form
from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule
from msmigrate.rules.graph._compiled import DOC, NET
from msmigrate.rules.graph._sites import findings

RULE = Rule("MSM704", C.FRAMEWORK_PATTERN, S.INFORMATION, DOC, fixable=True)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM704.title": (
        "Tensor method form GRAPH_MODE does not run on CPU",
        "GRAPH_MODE 在 CPU 上无法运行的 Tensor 方法写法",
    ),
    "rule.MSM704.explanation": (
        "MindSpore's Tensor methods take torch's spelling in PyNative mode, but in GRAPH_MODE on CPU "
        "(MindSpore 2.10) the keyword dim of chunk, split, cumsum, sort, std and median selects an overload "
        "whose operator has no CPU kernel, and transpose takes a full permutation (two dimensions are one "
        "only for a 2-D tensor). "
        "Where the message names an equivalent form (dim passed by position, swapaxes), it runs in both "
        "modes with the same result.",
        "MindSpore 的 Tensor 方法在 PyNative 模式下接受 torch 的写法，但在 CPU 上的 GRAPH_MODE"
        "（MindSpore 2.10）中，chunk、split、cumsum、sort、std、median 的关键字参数 dim 会选中一个"
        "没有 CPU 内核的重载，transpose 则要求完整的维度排列（只有二维张量的两个维度才构成完整排列）。"
        "若消息给出了等价写法（按位置传 dim、swapaxes），该写法在两种模式下都能运行且结果相同。",
    ),
    "finding.MSM704": (
        "x.{method}(…) in {function}: this form runs in PyNative mode only; "
        'GRAPH_MODE on CPU fails ("{error}")',
        "{function} 中的 x.{method}(…)：这种写法只能在 PyNative 模式下运行；CPU 上的 GRAPH_MODE 会失败"
        '（"{error}"）',
    ),
    "finding.MSM704.alternative": (
        "x.{method}(…) in {function}: this form runs in PyNative mode only; "
        'GRAPH_MODE on CPU fails ("{error}"); {alternative} runs in both',
        "{function} 中的 x.{method}(…)：这种写法只能在 PyNative 模式下运行；CPU 上的 GRAPH_MODE 会失败"
        '（"{error}"）；{alternative} 在两种模式下都能运行',
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM704": (
        "import torch\n" + NET + "        a, b = torch.ones(2, 4).chunk(2, dim=1)\n        return a\n",
        "import torch\n" + NET + "        a, b = torch.ones(2, 4).chunk(2, 1)\n        return a\n",
        [(7, 42)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = (graph_form,)
FIX_SAFETY = Safety.SAFE  # the same call in torch's meaning, in a form that also runs in GRAPH_MODE
