"""The missing-API catalogue and advice: coverage, validity against the tables, rendering, refinement."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from msmigrate.fixes.rewrites import REWRITES
from msmigrate.i18n import catalogue
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.knowledge.missing_advice import (
    CATALOGUE,
    NAME_FIX,
    RECEIVER_FUNCTION,
    RULE_FOR_POLICY,
    Policy,
    advice_for,
)
from msmigrate.knowledge.missing_advice_frequent import RECIPE_NOTES, rows
from msmigrate.knowledge.snippets import SNIPPETS
from msmigrate.model.finding import FindingCategory
from msmigrate.rules.loader import get_rule

FIXTURE = Path(__file__).parent / "fixtures" / "real_world_training.py"



def test_catalogue_covers_at_least_100_unmapped_torch_apis(kb):
    # 253 + torch.jit.ignore/unused/export (advice: remove the decorator) - torch.nn.LogSoftmax (the 2.6
    # table's torch.nn.LogSoftMax row, read as torch's LogSoftmax, maps it) + torch.nn.Module.compile (not
    # Cell.compile: advice mindspore.jit) + 52 answers for the most frequent missing APIs of real code (the
    # recipe entries of knowledge/facts/missing_advice.toml)
    assert len(CATALOGUE) == 256 + len(rows()) == 308
    for api in CATALOGUE:
        assert kb.is_torch_api(api), api
        assert kb.torch_entry(api) is not None, api
        assert kb.row(api) is None, f"{api} has a row in the 2.6 table"


def test_catalogue_entries_are_complete(kb):
    messages = catalogue()
    for api, entry in CATALOGUE.items():
        assert f"advice.note.{entry.note}" in messages, api
        assert entry.snippet is None or entry.snippet in SNIPPETS, api
        assert entry.fix is None or entry.fix in REWRITES or entry.fix in (NAME_FIX, RECEIVER_FUNCTION), api
        assert entry.pattern_rule is None or get_rule(entry.pattern_rule).id == entry.pattern_rule
        if entry.policy in (Policy.EQUIVALENT, Policy.COMPOSE, Policy.CUSTOM_OPERATOR):
            # a decorator to remove; a note that is the answer itself (the finding says it)
            recipe = f"advice.note.{entry.note}" in RECIPE_NOTES
            assert entry.replacements or entry.note == "jit_decorator" or recipe, api
        if entry.policy is Policy.COMPOSE and entry.note != "lr_list":
            assert entry.snippet, api


def test_replacements_are_real_mindspore_apis(kb):
    named = {r for entry in CATALOGUE.values() for r in entry.replacements}
    # the complete inventory lists them all, submodules (mindspore.hal, mindspore.runtime, mindspore.scipy)
    # and sparse-tensor methods included
    assert {r for r in named if not kb.mindspore_has(r)} == set()


def test_every_policy_is_used():
    assert {entry.policy for entry in CATALOGUE.values()} == set(Policy)


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippets_parse(name):
    ast.parse(SNIPPETS[name])


def test_real_world_code_reports_at_least_100_catalogued_apis(analyze):
    result = analyze(FIXTURE.read_text(encoding="utf-8"))
    assert result.error_key is None
    # the catalogue cites torch.amp.GradScaler, the finding names the canonical torch.GradScaler
    cited = [f.written_api or f.torch_api for f in result.findings]
    seen = {name for name in cited if name in CATALOGUE}
    assert len(seen) >= 100
    # 248 + torch.distributed.ReduceOp, whose member ReduceOp.SUM (listed by the complete inventory) is
    # reported with the class's advice (nn.LogSoftmax, mapped by the 2.6 table, is no catalogued API)
    assert len(seen) == 248 and "torch.distributed.ReduceOp" not in seen
    sum_op = next(f for f in result.findings if f.torch_api == "torch.distributed.ReduceOp.SUM")
    assert sum_op.rule == RULE_FOR_POLICY[CATALOGUE["torch.distributed.ReduceOp"].policy]
    assert sum_op.mindspore_api == "mindspore.ops.ReduceOp"
    composed = set()
    for finding in result.findings:
        cited = finding.written_api or finding.torch_api
        if finding.category is FindingCategory.MISSING and cited in CATALOGUE:
            if finding.message_key == "finding.MSM202.composition":  # a verified composition answers
                composed.add(cited)
                assert finding.rule == "MSM202", finding
                continue
            assert finding.rule == RULE_FOR_POLICY[CATALOGUE[cited].policy], finding
    assert composed == {"torch.nn.RMSNorm", "torch.nn.functional.rms_norm", "torch.nn.utils.rnn.pad_sequence",
                        "torch.take_along_dim", "torch.nn.functional.layer_norm", "torch.nn.ModuleList",
                        "torch.nn.ModuleDict", "torch.nn.Module.modules", "torch.nn.Module.named_parameters"}


def test_real_world_code_policies_at_exact_places(analyze):
    result = analyze(FIXTURE.read_text(encoding="utf-8"))
    found = {(f.line, f.column): (f.rule, f.torch_api, f.fixable) for f in result.findings}
    assert found[(63, 13)] == ("MSM201", "torch.nn.functional.adaptive_max_pool2d", True)
    assert found[(78, 20)] == ("MSM201", "torch.Tensor.view", True)
    assert found[(78, 27)] == ("MSM201", "torch.Tensor.size", True)
    assert found[(78, 40)] == ("MSM201", "torch.Tensor.contiguous", True)
    assert found[(83, 14)] == ("MSM202", "torch.nn.utils.rnn.pad_sequence", True)  # its composition
    assert found[(155, 11)] == ("MSM202", "torch.kthvalue", False)
    assert found[(230, 13)] == ("MSM204", "torch.optim.LBFGS", False)
    assert found[(274, 16)] == ("MSM204", "torch.nn.utils.spectral_norm", False)
    assert found[(289, 9)] == ("MSM201", "torch.float", True)
    assert found[(316, 11)] == ("MSM203", "torch.segment_reduce", False)


def test_advice_markdown_for_equivalent_replacement(kb):
    advice = advice_for("nn.AdaptiveMaxPool2d", kb)
    assert advice is not None and advice.policy is Policy.EQUIVALENT and advice.rule == "MSM201"
    text = advice.render_markdown("en")
    assert text.startswith("**Missing API: use an equivalent replacement** (MSM201)")
    assert "`mindspore.nn.AdaptiveMaxPool2d`" in text
    assert advice.other_versions == {
        "2.3": "mindspore.nn.AdaptiveMaxPool2d",
        "2.4": "mindspore.nn.AdaptiveMaxPool2d",
    }
    assert "2.4" not in text  # lookup shows the other table versions; the advice does not repeat them
    zh = advice.render_markdown("zh")
    assert zh.startswith("**缺失接口：使用等价替换** (MSM201)")
    assert "[向 MindSpore 社区求助](https://gitee.com/mindspore/mindspore/issues/new?title=" in zh


def test_community_link_opens_an_issue_with_the_api_name(kb):
    advice = advice_for("torch.nn.utils.spectral_norm", kb)
    assert advice.community_url() == (
        "https://gitee.com/mindspore/mindspore/issues/new?title="
        "%5BFeature%5D%20Support%20an%20equivalent%20of%20torch.nn.utils.spectral_norm"
    )


def test_custom_operator_advice_mentions_aot_and_ascend(kb):
    advice = advice_for("torch.segment_reduce", kb)
    assert advice.policy is Policy.CUSTOM_OPERATOR
    text = advice.render_text("en")
    assert 'func_type="aot"' in text and "Ascend needs its own operator development" in text
    assert "https://www.mindspore.cn/docs/en/r2.5.0/model_train/custom_program/op_custom.html" in text
    assert (
        "mindspore.ops.Custom: https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.Custom.html"
        in text
    )
    assert "https://www.mindspore.cn/docs/zh-CN/r2.5.0/migration_guide/use_third_party_op.html" in (
        advice.render_text("zh")
    )


def test_compose_advice_shows_the_snippet(kb):
    advice = advice_for("torch.nn.RMSNorm", kb)
    assert advice.policy is Policy.COMPOSE
    markdown = advice.render_markdown("en")
    assert "```python\n" + SNIPPETS["rms_norm"].rstrip() + "\n```" in markdown


def test_function_form_is_derived_from_the_table(kb):
    advice = advice_for("torch.Tensor.acos", kb)
    assert advice.policy is Policy.EQUIVALENT and advice.fix == "function_form"
    assert advice.replacements == ("mindspore.mint.acos",)
    assert advice.note("en").startswith("Its function form torch.acos maps to mindspore.mint.acos")


def test_other_version_mapping_is_offered(kb):
    advice = advice_for("torch.Tensor", kb)
    assert advice.policy is Policy.EQUIVALENT
    assert advice.replacements == ("mindspore.Tensor",)


def test_uncatalogued_api_keeps_every_policy_open(kb):
    advice = advice_for("torch.aminmax", kb)
    assert advice.policy is None and advice.rule == "MSM200"
    assert "mindspore.ops.Custom" in advice.render_text("en")


def test_no_advice_for_mapped_or_unknown_names(kb):
    assert advice_for("torch.abs", kb) is None
    assert advice_for("torch.not_a_function", kb) is None
    assert advice_for("torch.utils.data.random_split", kb) is None
    assert advice_for("torch.nn.Sequential", get_knowledge_base("2.4")) is None


def test_advice_json_is_bilingual(kb):
    advice = advice_for("torch.msort", kb)
    en, zh = advice.to_json("en"), advice.to_json("zh")
    assert (
        en["policy"] == 1
        and en["rule"] == "MSM201"
        and en["mindspore_apis"] == ["mindspore.mint.sort", "mindspore.ops.topk"]
    )
    assert en["title"] == "Missing API: use an equivalent replacement"
    assert zh["title"] == "缺失接口：使用等价替换"


@pytest.mark.parametrize("version", ["2.4", "2.6"])
def test_every_catalogue_entry_has_a_message_for_its_finding(version):
    """The message a missing-API finding gets exists in both languages for every catalogued API (an API
    asking the community had a ``finding.MSM204.drop`` key that no catalogue holds: the scan crashed)."""
    from msmigrate.rules.missing._refine import message_key

    kb = get_knowledge_base(version)
    keys = {}
    for name in CATALOGUE:
        advice = advice_for(name, kb)
        if advice is not None and advice.policy is not None:
            keys[name] = message_key(RULE_FOR_POLICY[advice.policy], advice)
    assert keys["torch.optim.LBFGS"] == "finding.MSM204"
    missing = {name: key for name, key in keys.items() if key not in catalogue()}
    assert missing == {}
