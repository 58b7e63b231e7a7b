"""Quick-fix of MSM100/MSM101 findings whose resolution writes a member of another shape (a derived mapping's
or a table row's, ``Write.REWRITE``): the exact rewrite the missing-API catalogue names
(``fixes/rewrites.py``), e.g. ``x.size(1)`` → ``x.shape[1]``."""

from __future__ import annotations

from msmigrate.fixes.context import FixContext
from msmigrate.fixes.model import Fix, TextEdit
from msmigrate.fixes.rewrites import rewrite, title_args
from msmigrate.knowledge.missing_advice import CATALOGUE, NAME_FIX
from msmigrate.model.finding import Finding
from msmigrate.model.resolution import Write


def _edits(raw: list[tuple[int, int, int, int, str]]) -> list[TextEdit]:
    return [TextEdit(*edit) for edit in raw]


def derived_rewrite(ctx: FixContext, finding: Finding) -> Fix | None:
    """MSM100/MSM101 whose resolution writes a member of another shape (``x.size(1)`` →
    ``mindspore.Tensor.shape``): the catalogue's exact rewrite (``x.shape[1]``), when the catalogue names
    the same MindSpore target."""
    resolution = finding.resolution
    target = resolution.target if resolution is not None else finding.mindspore_api
    rewritten = resolution.write is Write.REWRITE if resolution is not None else (
        finding.message_key.startswith("analysis.api.derived_"))
    if not finding.torch_api or not target or not rewritten:
        return None
    entry = CATALOGUE.get(finding.torch_api)
    if entry is None or entry.fix in (None, NAME_FIX) or target not in entry.replacements:
        return None
    if target.rpartition(".")[2] == finding.torch_api.rpartition(".")[2]:
        return None  # the same member name: the mapping's own fix (if any) applies
    call = ctx.call_of(finding)
    raw = rewrite(entry.fix, ctx, call, finding.torch_api)
    if not raw or call is None:
        return None
    return Fix(finding.rule, f"fix.pattern.{entry.fix}", _edits(raw),
               title_args(entry.fix, call, finding.torch_api, ctx))


FIXERS = {"MSM100": derived_rewrite, "MSM101": derived_rewrite}
