"""MSM512 for downloaded weights: ``torch.hub.load_state_dict_from_url(url)`` and its older name
``torch.utils.model_zoo.load_url(url)`` (the same function; the API inventory does not list that spelling).

Both download a torch checkpoint and unpickle it. The fix calls the helper module's ``load_url`` (an adapter,
``knowledge/compositions/adapters.py``) with the same arguments: it downloads the file once and reads it
with ``mindspore.load_checkpoint``, so the URL must name a MindSpore checkpoint, converted once from the
torch file with ``msmigrate convert-weights``. Like the fix of ``torch.load``, it is applied only with
``--unsafe-fixes``: the file itself must be converted. The state dict's ``load_state_dict`` is the
``load_param_into_net`` of MSM512's own fix.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from msmigrate.fixes.composition_fixes import import_edit
from msmigrate.fixes.compositions import CompatModule, binds_otherwise
from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.model.finding import Finding, UsageKind

RULE_ID = "MSM512"  # rules/framework/msm512_checkpoint.py
DOWNLOADS = frozenset({"torch.hub.load_state_dict_from_url", "torch.utils.model_zoo.load_url"})
HELPER = "load_url"
PARAMETERS = ("url", "model_dir", "map_location", "progress", "check_hash", "file_name", "weights_only")


def fits(call: ast.Call) -> bool:
    """The call passes what ``load_url`` takes (torch's parameters)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > len(PARAMETERS):
        return False
    return all(k.arg in PARAMETERS for k in call.keywords)


def downloads(ctx) -> Iterable[Finding]:  # noqa: ANN001 - the analysis context
    for finding in ctx.usages:
        if finding.torch_api not in DOWNLOADS or finding.usage is not UsageKind.CALL:
            continue
        call = ctx.call_of(finding)
        finding.rule, finding.message_key = RULE_ID, "finding.MSM512.url"
        finding.message_args = {"api": finding.torch_api}
        finding.fixable = call is not None and call.func is not None and fits(call)
    return ()


def download(ctx: FixContext, finding: Finding) -> Fix | None:
    """``model_zoo.load_url(url, …)`` → ``ms_compat.load_url(url, …)``, the helper written into the module."""
    if finding.torch_api not in DOWNLOADS:
        return None
    call = ctx.call_of(finding)
    if call is None or not fits(call):
        return None
    compat = ctx.compat or CompatModule.beside(ctx.path)
    statement = compat.import_statement(ctx.path)
    if statement is None or binds_otherwise(ctx.tree, compat.local, statement):
        return None
    edit = TextEdit(*ctx.node_range(call.func), f"{compat.local}.{HELPER}")
    return Fix(RULE_ID, "fix.pattern.checkpoint_url", [edit, *import_edit(ctx, statement)],
               {"module": compat.name}, helpers=(HELPER,))
