"""MSM705: einops called in code GRAPH_MODE compiles, or its layers held by a cell.

einops' own code (backend lookup, try statements) does not compile; so do the helper module's einops
adapters (MSM530).
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
from msmigrate.rules.graph._compiled import DOC
from msmigrate.rules.graph._sites import findings

RULE = Rule("MSM705", C.FRAMEWORK_PATTERN, S.INFORMATION, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM705.title": ("einops in GRAPH_MODE", "GRAPH_MODE 下的 einops"),
    "rule.MSM705.explanation": (
        "einops parses its patterns and looks up the tensor's backend at run time, with classes and try "
        "statements GRAPH_MODE does not compile (MindSpore 2.10): a cell whose construct calls rearrange, "
        "repeat or reduce, or holds a Rearrange/Reduce layer, runs in PyNative mode only (met on "
        "vit-pytorch's models through the helper module's einops adapters). For GRAPH_MODE write the "
        "pattern with reshape and transpose (swapaxes), or run the model in PyNative mode.",
        "einops 在运行时解析模式串并查找张量的后端，用到 GRAPH_MODE（MindSpore 2.10）无法编译的类与 try "
        "语句：construct 中调用 rearrange、repeat、reduce 或包含 Rearrange/Reduce 层的 Cell 只能在 "
        "PyNative 模式下运行（在经由辅助模块 einops 适配器迁移的 vit-pytorch 模型上遇到）。若需 "
        "GRAPH_MODE，请用 reshape 与 transpose（swapaxes）改写该模式，或在 PyNative 模式下运行模型。",
    ),
    "finding.MSM705": (
        "{name} in {function}: einops does not compile in GRAPH_MODE (\"Unsupported statement 'Try'\"); "
        "the model runs in PyNative mode only",
        "{function} 中的 {name}：einops 无法在 GRAPH_MODE 下编译（\"Unsupported statement 'Try'\"）；"
        "模型只能在 PyNative 模式下运行",
    ),
    "finding.MSM705.layer": (
        "{name} layer in {function}: einops does not compile in GRAPH_MODE (\"Unsupported statement "
        "'ClassDef'\"); the model runs in PyNative mode only",
        "{function} 中的 {name} 层：einops 无法在 GRAPH_MODE 下编译（\"Unsupported statement "
        "'ClassDef'\"）；模型只能在 PyNative 模式下运行",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM705": (
        "import torch.nn as nn\nfrom einops import rearrange\n\n\nclass Net(nn.Module):\n"
        "    def forward(self, x):\n        return rearrange(x, 'b c n -> b n c')\n",
        "import torch.nn as nn\nfrom einops import rearrange\n\n\ndef flip(x):\n"
        "    return rearrange(x, 'b c n -> b n c')\n",
        [(7, 16)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return findings(ctx, RULE)


FIXERS = ()
