"""The claims the code around a mapped usage settles on its finding (read by ``analysis/resolution.py``):
what ``usage_claims.claims_of`` finds stated as a difference, arguments the analysis cannot see qualified
(``analysis/unknown_arguments.py``), and a target with no kernel on the device explained."""

from __future__ import annotations

import ast

from msmigrate.analysis.unknown_arguments import qualify
from msmigrate.analysis.usage_claims import Claims, CodeIndex, claims_of, state
from msmigrate.i18n import ref
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.model.finding import Finding, FindingCategory


def settle_claims(finding: Finding, kb: KnowledgeBase, index: CodeIndex, torch_api: str, target: str | None,
                  ref_node: ast.expr | None, call: ast.Call | None, device: str,
                  replaced: bool) -> tuple[Claims, FindingCategory]:
    """The usage's claims, stated on ``finding``, and the category its safety is judged by (the rename's
    own when another rule handles the difference)."""
    category = finding.category
    claims = claims_of(kb, index, torch_api, finding.usage, target, ref_node, call, device, replaced)
    if claims.details:
        state(finding, claims.details)
        if not claims.handled_elsewhere:
            category = finding.category
    qualify(finding, index, call)  # arguments it cannot see: the claim says so
    return claims, category


def explain_no_kernel(finding: Finding, kb: KnowledgeBase, device: str, target: str | None) -> None:
    """The message says why nothing is written: the target has no kernel on ``device``."""
    note = ref("resolution.note.no_kernel", device=device, target=target or "",
               mindspore=kb.derived_table.mindspore_version)
    message = ref(finding.message_key, **finding.message_args)
    finding.message_key, finding.message_args = "resolution.message", {
        **{k: v for k, v in finding.message_args.items() if type(v) in (str, bool, int)},
        "message": (message,), "note": (note,)}
