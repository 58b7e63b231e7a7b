"""Arguments a call passes that the analysis cannot see: ``f(x, **kwargs)`` whose keys are not written in
the same function. A claim about what the call leaves out, or that it is taken as written,
then holds only for the arguments written; the finding says so instead of guessing (``conv(…, **kwargs)``
may pass ``bias``; ``torch.zeros(n, **opts)`` may pass ``device``, which the target may refuse)."""

from __future__ import annotations

import ast

from msmigrate.analysis.usage_claims import CodeIndex
from msmigrate.i18n import MessageRef, ref
from msmigrate.model.finding import Finding

_CONSISTENT = frozenset({"analysis.api.consistent", "analysis.api.derived_consistent",
                         "analysis.api.consistent_form"})
_DEFAULTS = "analysis.detail.call_defaults"


def unknown_arguments(index: CodeIndex, call: ast.Call) -> list[str]:
    """The ``**kwargs`` of ``call`` whose keys are not known (a ``**dd`` whose keys the function writes as
    a literal is known; ``*size`` is left to the positional plan)."""
    found = []
    for keyword in call.keywords:
        if keyword.arg is not None:
            continue
        value = keyword.value
        if isinstance(value, ast.Name) and index.dict_keys(index.function_of(call), value.id) is not None:
            continue
        if isinstance(value, ast.Dict) and all(isinstance(k, ast.Constant) for k in value.keys):
            continue
        found.append(f"**{ast.unparse(value)}")
    return found


def qualify(finding: Finding, index: CodeIndex, call: ast.Call | None) -> None:
    """A mapped call finding whose call passes unknown arguments: its "left out, the default differs"
    holds unless they pass the parameter, and a "same behaviour" claim covers the written ones only."""
    names = unknown_arguments(index, call) if call is not None else []
    if not names:
        return
    shown = ", ".join(names)
    args = finding.message_args
    note = ref("analysis.note.unknown_arguments", names=shown, mindspore_api=finding.mindspore_api or "")
    if finding.message_key == "resolution.message" and len(args.get("message") or ()) == 1:
        (key, fields), = args["message"]
        inner = dict(fields)
        if _qualified(inner, shown):
            finding.message_args = {**args, "message": (ref(key, **inner),)}
        elif key in _CONSISTENT:
            finding.message_args = {"message": (ref(finding.message_key, **args),), "note": (note,)}
        return
    if not _qualified(args, shown) and finding.message_key in _CONSISTENT:
        finding.message_args = {"message": (ref(finding.message_key, **args),), "note": (note,)}
        finding.message_key = "resolution.message"


def _qualified(args: dict, shown: str) -> bool:
    """Rewrite a "left out, the default differs" detail of ``args`` in place (True when there was one)."""
    details: tuple[MessageRef, ...] = tuple(args.get("details") or ())
    if not any(d[0] == _DEFAULTS for d in details):
        return False
    args["details"] = tuple(
        ref("analysis.detail.call_defaults_unknown", names=shown, **dict(d[1])) if d[0] == _DEFAULTS else d
        for d in details)
    return True
