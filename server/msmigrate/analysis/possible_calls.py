"""A possible Tensor API (MSM102) called with keywords its MindSpore target takes under other names.

``x.amax(dim=1)`` where ``x``'s type is unknown: if it is a tensor, the target ``mindspore.Tensor.amax``
takes ``axis`` (``amax(dim=1)`` raises "unexpected keyword argument 'dim'" in MindSpore 2.10); the
mapping row renames ``dim`` to ``axis``. The finding's message says so for the keywords this call
passes, with the row's renames, instead of naming the target alone.
"""

from __future__ import annotations

import ast

from msmigrate.analysis.usage_claims import accepts
from msmigrate.i18n import ref
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.model.finding import Finding


def possible_keywords(finding: Finding, kb: KnowledgeBase, call: ast.Call | None) -> None:
    """Add to an MSM102 finding's message the keywords ``call`` passes that its target takes renamed."""
    target = finding.mindspore_api
    if call is None or not target or not kb.mindspore_signatures(target):
        return
    row = kb.mapping(finding.torch_api or "")
    renames = {**(row.input_renames if row else {}), **(row.param_renames if row else {})}
    # only keywords the row renames: the inventory's Tensor signatures miss some overloads (squeeze(dim=))
    renamed = [f"{k.arg}→{renames[k.arg]}" for k in call.keywords
               if k.arg and renames.get(k.arg) and not accepts(kb, target, k.arg)]
    if not renamed:
        return
    notes = (ref("analysis.note.possible_renames", mindspore_api=target, items=", ".join(renamed)),)
    if finding.message_key == "resolution.message":
        args = finding.message_args
        finding.message_args = {**args, "note": (*args.get("note", ()), *notes)}
        return
    finding.message_args = {"message": (ref(finding.message_key, **finding.message_args),),
                            "note": notes}
    finding.message_key = "resolution.message"
