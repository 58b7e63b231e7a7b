"""A difference table that states a change of parameter order row by row is not a list of renames."""

from __future__ import annotations

import pytest

from msmigrate.datagen.importer.facts import _without_reorders
from msmigrate.knowledge.base import get_knowledge_base


def test_pairs_that_only_move_parameters_are_dropped() -> None:
    # TensorSum.md: dim | axis, keepdim | dtype, dtype | keepdims (order differs, not names)
    assert _without_reorders({"dim": "axis", "keepdim": "dtype", "dtype": "keepdims"}) == {"dim": "axis"}
    # TripletMarginLoss.md: eps | swap, swap | eps
    assert _without_reorders({"eps": "swap", "swap": "eps"}) == {}
    assert _without_reorders({"in_features": "in_channels", "bias": "has_bias"}) == {
        "in_features": "in_channels",
        "bias": "has_bias",
    }


@pytest.mark.parametrize("version", ["2.3", "2.4"])
def test_bundled_tables_hold_no_swapped_renames(version: str) -> None:
    kb = get_knowledge_base(version)
    assert kb.row("torch.Tensor.sum").param_renames == {"dim": "axis"}
    assert kb.row("torch.nn.TripletMarginLoss").param_renames == {}
    assert kb.row("torch.nn.functional.triplet_margin_loss").param_renames == {}
    for row in kb.rows():
        renames = row.param_renames
        assert not set(renames) & set(renames.values()), row.torch_api


def test_quick_fix_no_longer_renames_eps_to_swap() -> None:
    from msmigrate.analysis.analyzer import AnalysisOptions, analyze_source
    from msmigrate.fixes.api import fixes_for
    from msmigrate.fixes.text import apply_edits

    kb = get_knowledge_base("2.4")
    source = "import torch\n\nloss = torch.nn.TripletMarginLoss(margin=1.0, eps=1e-6)\n"
    # on GPU (mindspore.nn.TripletMarginLoss has no CPU kernel: on CPU the fix explains, with no edit)
    findings = analyze_source(source, "t.py", kb, AnalysisOptions(use_jedi=False, device="GPU")).findings
    fixes = [fix for fix in fixes_for(source, "t.py", findings, kb) if fix.edits]
    assert [apply_edits(source, fix.edits).splitlines()[-1] for fix in fixes] == [
        "loss = mindspore.nn.TripletMarginLoss(margin=1.0, eps=1e-6)"
    ]
    on_cpu = analyze_source(source, "t.py", kb, AnalysisOptions(use_jedi=False)).findings
    explained = [(fix.title_key, fix.edits) for fix in fixes_for(source, "t.py", on_cpu, kb)]
    assert explained == [("fix.no_kernel", [])]
