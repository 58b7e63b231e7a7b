"""MSM702: a ``with`` statement in ``construct`` whose manager is not a ``@jit_class`` instance.

``warnings.catch_warnings()``, ``contextlib.nullcontext()``, even ``mindspore._no_grad()``: "Only support
jit_class instance". Reported at the ``with`` keyword: the manager's own position keeps its API finding.
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
from msmigrate.rules.graph._compiled import JIT_CLASS_DOC, NET
from msmigrate.rules.graph._sites import findings

RULE = Rule("MSM702", C.FRAMEWORK_PATTERN, S.WARNING, JIT_CLASS_DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM702.title": ("with statement in construct", "construct 中的 with 语句"),
    "rule.MSM702.explanation": (
        "GRAPH_MODE compiles a with statement only when its context manager is an instance of a class "
        "decorated with @mindspore.jit_class; warnings.catch_warnings(), contextlib.nullcontext(), torch's "
        "no_grad() and MindSpore's own _no_grad() are not, and compilation stops with \"Only support "
        'jit_class instance". Remove the with statement from construct (keep its body), use '
        "mindspore.ops.stop_gradient on the values that need no gradient, or make the manager a "
        "@jit_class.",
        "GRAPH_MODE 只在上下文管理器是 @mindspore.jit_class 修饰的类的实例时才能编译 with 语句；"
        "warnings.catch_warnings()、contextlib.nullcontext()、torch 的 no_grad() 以及 MindSpore 自己的 "
        '_no_grad() 都不是，编译会报错 "Only support jit_class instance"。请从 construct 中去掉 with 语句'
        "（保留其中的代码），对不需要梯度的值使用 mindspore.ops.stop_gradient，或把管理器改为 @jit_class。",
    ),
    "finding.MSM702": (
        'with {manager} in {function}: GRAPH_MODE compiles with only over a @jit_class instance ("Only '
        'support jit_class instance"); remove the with statement from construct or make the manager a '
        "@jit_class",
        '{function} 中的 with {manager}：GRAPH_MODE 只能编译 @jit_class 实例上的 with（"Only support '
        'jit_class instance"）；请从 construct 中去掉该 with 语句，或把管理器改为 @jit_class',
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM702": (
        "import warnings\n"
        + NET
        + "        with warnings.catch_warnings():\n            return self.a(x)\n",
        "import warnings\n" + NET + "        return self.a(x)\n\n    def helper(self):\n"
        "        with warnings.catch_warnings():\n            pass\n",
        [(7, 9)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
