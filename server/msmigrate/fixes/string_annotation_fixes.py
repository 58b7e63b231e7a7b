"""MSM104 on a string annotation naming torch (torchvision's ViT: ``model_state: "OrderedDict[str,
torch.Tensor]"``): each torch name in it written as its MindSpore mapping (``mindspore.Tensor``), so the
file imports no torch; only when every torch name in the string has a mapped MindSpore target.
"""

from __future__ import annotations

import ast

from msmigrate.analysis.import_names import package_imports
from msmigrate.analysis.source_text import dotted_name
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding

RULE = "MSM104"
KEY = "finding.MSM104.string"


def string_annotation(ctx: FixContext, finding: Finding) -> Fix | None:
    if finding.message_key != KEY or finding.line != finding.end_line:
        return None
    constant = next((n for n in ast.walk(ctx.tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                     and ctx.node_range(n)[:2] == (finding.line, finding.column)), None)
    if constant is None:
        return None
    try:
        annotation = ast.parse(constant.value, mode="eval")
    except SyntaxError:
        return None
    aliases = package_imports(ctx.tree, "torch", everywhere=True)
    replaced: list[tuple[ast.expr, str]] = []
    edits: list[TextEdit] = []
    for node in ast.walk(annotation):
        written = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
        head = written.split(".")[0] if written else None
        if written is None or head not in aliases or any(node is inner for inner, _ in replaced):
            continue
        qualified = aliases[head] + written[len(head):]
        row = ctx.kb.mapping(ctx.kb.canonical(qualified))
        if row is None or not row.mindspore_api:
            return None
        name, imports = ctx.mindspore_reference(row.mindspore_api, constant.lineno)
        replaced.append((node, name))
        edits += imports
        # the chain's inner parts are this name's own
        replaced += [(inner, "") for inner in ast.walk(node) if inner is not node]
    spans = sorted(((n.col_offset, n.end_col_offset or 0, text) for n, text in replaced if text),
                   reverse=True)
    if not spans:
        return None
    text = constant.value
    for start, end, name in spans:
        text = text[:start] + name + text[end:]
    quote = ctx.text(constant)[0]
    if quote not in "\"'" or quote in text:
        return None
    return Fix(RULE, "fix.string_annotation", [TextEdit(*ctx.node_range(constant), f"{quote}{text}{quote}"),
                                                *edits], {"text": text})


FIXERS = {RULE: string_annotation}
