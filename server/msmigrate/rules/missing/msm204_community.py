"""MSM204: an unmapped torch API to raise with the MindSpore community (refines MSM200 findings).

The missing-API guide's advice knows no replacement nor composition: the finding links to a new issue on the
MindSpore tracker with the API's name filled in. No quick-fix.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.model.finding import Finding
from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule
from msmigrate.rules.missing._refine import DOC, refine

RULE = Rule("MSM204", C.MISSING, S.WARNING, DOC)

MESSAGES: dict[str, tuple[str, str]] = {
    "rule.MSM204.title": (
        "Missing API to raise with the MindSpore community",
        "缺失接口：建议向 MindSpore 社区求助",
    ),
    "rule.MSM204.explanation": (
        "There is no known replacement or composition. Open an issue on the MindSpore tracker asking for the "
        "API (the link fills in its name), and meanwhile consider a custom operator.",
        "目前没有已知的替换或组合方案。请在 MindSpore 的 issue 系统中提交需求（链接已自动填入接口名），"
        "在此之前可考虑开发自定义算子。",
    ),
    "finding.MSM204": (
        "{torch_api} has no MindSpore mapping and no known replacement; ask the MindSpore community",
        "{torch_api} 没有 MindSpore 映射，也没有已知替代方案；请向 MindSpore 社区求助",
    ),
}

EXAMPLES: dict[str, tuple[str, str, list[tuple[int, int]]]] = {
    "MSM204": (
        "import torch\nopt = torch.optim.LBFGS(params)\n",
        "import torch\nopt = torch.optim.Adam(params)\n",
        [(2, 7)],
    ),
}


def detect(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    return refine(ctx, RULE.id)


FIXERS = ()
