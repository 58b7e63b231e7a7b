"""2.6 optimizers on CPU (knowledge/device_targets.py): ``mint.optim.Adam`` runs there without changing the
weights (check reason ``no_effect``), ``mint.optim.AdamW`` has no kernel; both are replaced by the 2.4
table's ``mindspore.experimental.optim`` class, which passed the training-step check on CPU and takes
torch's parameters under their names."""

from __future__ import annotations

import pytest

import msmigrate.knowledge.device_targets as device_targets
from msmigrate.analysis.analyzer import analyze_source
from msmigrate.fixes.api import fix_all, fixes_for
from msmigrate.fixes.safety import is_safe
from msmigrate.knowledge.device_targets import NO_EFFECT, NO_KERNEL, device_failure, runnable_targets
from msmigrate.knowledge.param_facts import means_absent
from msmigrate.knowledge.verified import VerifiedStatus


def test_the_recorded_failures_of_the_2_6_optimizers() -> None:
    assert device_failure("torch.optim.Adam", "2.6", "CPU") == ("mindspore.mint.optim.Adam", NO_EFFECT)
    assert device_failure("torch.optim.AdamW", "2.6", "CPU") == ("mindspore.mint.optim.AdamW", NO_KERNEL)
    assert device_failure("torch.optim.Adam", "2.4", "CPU") is None  # experimental.optim.Adam passed
    assert device_failure("torch.optim.Adam", "2.6", "Ascend") is None  # nothing recorded there


def test_replacements_are_the_2_4_tables_verified_targets() -> None:
    adam = [(t.row.mindspore_api, t.version, t.verified, t.failure)
            for t in runnable_targets("torch.optim.Adam", "2.6")]
    assert adam == [("mindspore.experimental.optim.Adam", "2.4", True, NO_EFFECT)]
    adamw = [(t.row.mindspore_api, t.version, t.verified, t.failure)
             for t in runnable_targets("torch.optim.AdamW", "2.6")]
    # the derived CPU alternative nn.AdamWeightDecay failed its check (other defaults, another update)
    assert adamw == [("mindspore.experimental.optim.AdamW", "2.4", True, NO_KERNEL)]


SOURCE = (
    "import torch\n"
    "w = torch.nn.Parameter(torch.zeros(3))\n"
    "opt = torch.optim.Adam([w], lr=1e-3, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.01, amsgrad=True)\n"
    "opt2 = torch.optim.AdamW([w], 1e-3, (0.8, 0.9), foreach=None, fused=False, maximize=True)\n"
)


def test_fix_writes_the_experimental_optimizers_with_torchs_parameter_names(kb26) -> None:
    new, _applied = fix_all(SOURCE, "m.py", kb26)
    assert new.splitlines()[2:] == [
        "opt = mindspore.experimental.optim.Adam([w], lr=1e-3, betas=(0.8, 0.9), eps=1e-6, "
        "weight_decay=0.01, amsgrad=True)",
        "opt2 = mindspore.experimental.optim.AdamW([w], 1e-3, (0.8, 0.9), maximize=True)",
    ]
    # on Ascend nothing was recorded: the table's targets stay
    new, _applied = fix_all(SOURCE, "m.py", kb26, device="Ascend")
    assert "opt = mindspore.mint.optim.Adam([w], lr=1e-3, betas=(0.8, 0.9)" in new
    assert "opt2 = mindspore.mint.optim.AdamW([w], 1e-3, (0.8, 0.9), maximize=True)" in new


def test_the_replacements_defaults_are_torchs(kb26) -> None:
    # experimental.optim's Adam/AdamW take torch's defaults (lr 1e-3, betas, eps 1e-8, weight_decay 0 / 0.01,
    # amsgrad False): a call without arguments keeps its meaning, and nothing is said to change results
    source = "import torch\nw = torch.nn.Parameter(torch.zeros(3))\nopt = torch.optim.AdamW([w])\n"
    findings = analyze_source(source, "m.py", kb26).findings
    (finding,) = [f for f in findings if f.torch_api == "torch.optim.AdamW"]
    assert finding.message_args["changes_results"] is False
    new, _applied = fix_all(source, "m.py", kb26)
    assert new.splitlines()[-1] == "opt = mindspore.experimental.optim.AdamW([w])"


def _titles(source: str, kb, api: str) -> tuple[str, str]:
    findings = [f for f in analyze_source(source, "m.py", kb).findings if f.torch_api == api]
    (fix,) = fixes_for(source, "m.py", findings, kb)
    return fix.title("en"), fix.title("zh")


def test_fix_titles_say_why_the_table_target_is_replaced(kb26) -> None:
    assert _titles(SOURCE, kb26, "torch.optim.Adam") == (
        "Replace torch.optim.Adam with mindspore.experimental.optim.Adam "
        "(mindspore.mint.optim.Adam runs on CPU in MindSpore 2.10 but changes nothing: its "
        "optimizer step leaves the weights as they were, without an error; this target, from the 2.4 table, "
        "was verified on CPU)",
        "将 torch.optim.Adam 替换为 mindspore.experimental.optim.Adam"
        "（mindspore.mint.optim.Adam 在 MindSpore 2.10 的 CPU 上可以运行但没有任何效果：其优化器步骤不报错，"
        "权重却保持不变；该目标来自 2.4 映射表，已在 CPU 上验证）",
    )
    assert _titles(SOURCE, kb26, "torch.optim.AdamW")[0] == (
        "Replace torch.optim.AdamW with mindspore.experimental.optim.AdamW (arguments: −foreach, −fused; "
        "then review the documented differences) (mindspore.mint.optim.AdamW has no CPU kernel in MindSpore "
        "2.10; this target, from the 2.4 table, was verified on CPU)"
    )


def test_verified_replacements_are_safe(kb26) -> None:
    findings = {f.torch_api: f for f in analyze_source(SOURCE, "m.py", kb26).findings}
    assert is_safe(findings["torch.optim.Adam"], kb26) is True
    assert is_safe(findings["torch.optim.AdamW"], kb26) is True


def test_execution_options_are_dropped_only_where_they_mean_the_default(kb26) -> None:
    assert means_absent("mindspore.experimental.optim.AdamW", "foreach", "None")
    assert means_absent("mindspore.mint.optim.Adam", "decoupled_weight_decay", "False")
    assert not means_absent("mindspore.mint.optim.Adam", "decoupled_weight_decay", "True")  # that is AdamW
    source = "import torch\nw = torch.nn.Parameter(torch.zeros(3))\nopt = torch.optim.Adam([w], fused=True)\n"
    findings = [f for f in analyze_source(source, "m.py", kb26).findings if f.torch_api == "torch.optim.Adam"]
    (fix,) = fixes_for(source, "m.py", findings, kb26)
    assert fix.edits == [] and fix.title("en") == (
        "No automatic fix for torch.optim.Adam: mindspore.experimental.optim.Adam does not take 'fused'; "
        "rewrite this argument by hand (see the difference page)."
    )


def _status(api: str, status: str, reason: str | None, mindspore_api: str) -> VerifiedStatus:
    return VerifiedStatus(api, mindspore_api, status, reason, "CPU", "2.13.0", "2.10.0", None)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch):
    """Verified statuses given by the test (``{(torch_api, table): status}``), the caches cleared around."""
    import msmigrate.knowledge.verified as verified

    table: dict[tuple[str, str], VerifiedStatus] = {}
    monkeypatch.setattr(verified, "verified_status",
                        lambda api, version=None, device="CPU", folder=None: table.get((api, version)))
    device_targets._runnable_targets.cache_clear()
    yield table
    device_targets._runnable_targets.cache_clear()


def test_a_target_without_effect_gives_way_to_verified_targets_only(recorded) -> None:
    from msmigrate.knowledge.base import get_knowledge_base

    api = "torch.abs"  # an API without derived candidates: only the tables' rows are tried
    mint = get_knowledge_base("2.6").row(api).mindspore_api
    other = get_knowledge_base("2.4").row(api).mindspore_api
    assert (mint, other) == ("mindspore.mint.abs", "mindspore.ops.abs")
    # the 2.4 target's only recorded difference: int32 where torch gives int64 (same values)
    recorded[(api, "2.4")] = VerifiedStatus(api, other, "fail", "dtype_mismatch", "CPU", None, None, None,
                                            note="int32_indices")
    recorded[(api, "2.6")] = _status(api, "error", NO_KERNEL, mint)
    assert [(t.row.mindspore_api, t.verified) for t in runnable_targets(api, "2.6")] == [(other, False)]
    recorded[(api, "2.6")] = _status(api, "fail", NO_EFFECT, mint)
    device_targets._runnable_targets.cache_clear()
    assert runnable_targets(api, "2.6") == ()
    recorded[(api, "2.4")] = _status(api, "pass", None, other)
    device_targets._runnable_targets.cache_clear()
    assert [(t.row.mindspore_api, t.verified, t.failure) for t in runnable_targets(api, "2.6")] == [
        (other, True, NO_EFFECT)]
    # a plain value mismatch is no device failure: the table's target stands
    recorded[(api, "2.6")] = _status(api, "fail", "value_mismatch", mint)
    assert device_failure(api, "2.6", "CPU") is None
