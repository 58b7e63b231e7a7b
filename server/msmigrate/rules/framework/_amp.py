"""MSM509 for one use of a torch AMP API: mixed precision turned off for a block is no mixed precision.

``torch.autocast(…, enabled=False)`` (a ``with`` or a decorator) runs its block in the precision the code
has without autocast. MindSpore has no region autocast (``mindspore.amp.auto_mixed_precision`` casts a
whole network), so the block is kept as it is and the ``with`` (or decorator) dropped: the finding names no
target. Every other use keeps the rule's advice (``mindspore.amp``). Checked on MindSpore 2.10: there is
no ``mindspore.amp.autocast`` context manager.
"""

from __future__ import annotations

import ast

from msmigrate.model.finding import Finding
from msmigrate.rules.support import report, usage_at

AUTOCASTS = frozenset({"torch.cuda.amp.autocast", "torch.autocast", "torch.amp.autocast",
                       "torch.cpu.amp.autocast"})

def amp_finding(ctx, rule, span, name: str, convertible: frozenset[str]) -> Finding | None:
    """The MSM509 finding of a use of ``name`` at ``span`` (``report``: the API finding there becomes it)."""
    existing = usage_at(ctx, span)  # (under its canonical name: torch.amp.autocast is torch.autocast)
    call = ctx.call_of(existing) if existing is not None else None
    if name not in AUTOCASTS or call is None or not disabled(call):
        return report(ctx, rule, span, "finding.MSM509", {"api": name}, apis=[name], convertible=convertible,
                      torch_api=name)
    apis = [existing.torch_api or name] if existing is not None else [name]
    found = report(ctx, rule, span, "finding.MSM509.disabled", {"api": name}, apis=apis,
                   convertible=convertible, torch_api=name)
    for finding in (found, existing):
        if finding is not None and finding.rule == rule.id:
            finding.mindspore_api = None  # nothing replaces it: the block stays
            finding.torch_api = name  # as the code spells it
    return found


def disabled(call: ast.Call) -> bool:
    """``enabled=False`` passed as a literal."""
    return any(k.arg == "enabled" and isinstance(k.value, ast.Constant) and k.value.value is False
               for k in call.keywords)
