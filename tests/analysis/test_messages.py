"""Messages of API findings are written from the mapping facts, in English and Chinese."""

from __future__ import annotations

import json
import re

from msmigrate.analysis.categorize import categorize, describe_differences
from msmigrate.i18n import t, t_list
from msmigrate.knowledge.model import DefaultDifference, MappingCategory, MappingRow


def _row(**fields) -> MappingRow:
    base = {
        "torch_api": "torch.nn.Linear",
        "mindspore_api": "mindspore.nn.Dense",
        "category": MappingCategory.PARAM_NAMES,
        "section": "torch.nn",
    }
    base.update(fields)
    return MappingRow(**base)


def test_differences_are_described_from_facts():
    row = _row(
        param_renames={"in_features": "in_channels", "out_features": "out_channels"},
        torch_only_params=("device", "dtype"),
        default_differences=(DefaultDifference("bias", "True", "False"),),
        diff_page="Linear.md",
    )
    details = describe_differences(row)
    assert details == {"details": (
        ("analysis.detail.renames", (("items", "in_features→in_channels, out_features→out_channels"),)),
        ("analysis.detail.torch_only", (("items", "device, dtype"),)),
        ("analysis.detail.defaults", (("items", "bias: True vs False"),)),
        ("analysis.detail.diff_page", ()),
    )}
    hash(tuple(details.items()))  # hashable: the language server caches rendered messages by arguments
    assert t_list(details["details"], "en") == (
        "parameter names differ: in_features→in_channels, out_features→out_channels; "
        "not supported by MindSpore: device, dtype; different defaults: bias: True vs False; "
        "see the difference page"
    )
    assert t_list(details["details"], "zh") == (
        "参数名不同：in_features→in_channels, out_features→out_channels；MindSpore 不支持：device, dtype；"
        "默认值不同：bias: True vs False；请参阅差异对比页面"
    )


def test_category_text_when_no_facts_are_parsed():
    assert describe_differences(_row(category=MappingCategory.NO_INPLACE)) == {
        "details": (("analysis.detail.no_inplace", ()),),
    }
    no_inplace = describe_differences(_row(category=MappingCategory.NO_INPLACE))["details"]
    assert t_list(no_inplace, "en") == "MindSpore has no inplace parameter"
    assert t_list(no_inplace, "zh") == "MindSpore 没有 inplace 参数"
    assert describe_differences(_row(category=MappingCategory.DIFF_PAGE)) == {
        "details": (("analysis.detail.diff_page", ()),),
    }


def test_long_lists_are_shortened():
    row = _row(torch_only_params=("a", "b", "c", "d", "e", "f"))
    assert describe_differences(row) == {
        "details": (("analysis.detail.torch_only", (("items", "a, b, c, d, …"),)),),
    }


def test_differences_message_is_rendered_in_the_requested_language():
    args = {"torch_api": "torch.arange", "mindspore_api": "mindspore.mint.arange", "version": "2.6",
            **describe_differences(_row(default_differences=(DefaultDifference("end", None, None),),
                                        diff_page="arange.md"))}
    assert t("analysis.api.differences", "en", **args) == (
        "torch.arange → mindspore.mint.arange (different defaults: end; see the difference page)."
    )
    assert t("analysis.api.differences", "zh", **args) == (
        "torch.arange → mindspore.mint.arange（默认值不同：end；请参阅差异对比页面）。"
    )
    # the same arguments after a JSON round trip (scan cache): tuples became lists, same text
    loaded = json.loads(json.dumps(args))
    assert loaded["details"] == [["analysis.detail.defaults", [["items", "end"]]],
                                 ["analysis.detail.diff_page", []]]
    assert t("analysis.api.differences", "zh", **loaded) == t("analysis.api.differences", "zh", **args)


def test_real_verdicts(kb):
    linear = categorize("torch.nn.Linear", kb)
    assert linear.mindspore_api == "mindspore.nn.Dense"
    assert linear.rule == "MSM101" and linear.fixable
    assert kb.row("torch.nn.Linear").param_renames  # the 2.4 table documents the renames
    assert linear.message_args["details"][0] == (
        "analysis.detail.renames",
        (("items", "bias→has_bias, in_features→in_channels, out_features→out_channels"),),
    )
    abs_ = categorize("torch.abs", kb)
    assert (abs_.category.value, abs_.rule, abs_.fixable) == ("consistent", "MSM100", True)
    missing = categorize("torch.save", kb)
    assert (missing.category.value, missing.rule, missing.fixable) == ("missing", "MSM200", False)
    typo = categorize("torch.nn.Conv2", kb)
    assert typo.category.value == "unknown_torch_name"
    assert typo.message_key == "analysis.api.unknown_suggest"
    assert typo.message_args["suggestion"].startswith("torch.nn.Conv")
    private = categorize("torch._C._nothing_here", kb)  # a private name: no typo suggested
    assert private.message_key == "analysis.api.unknown_private"
    assert t(private.message_key, "en", **private.message_args) == (
        "torch._C._nothing_here is a private torch name, outside the public API the inventory lists; "
        "MindSpore has no counterpart: write what it does with public APIs.")
    loader = categorize("torch.utils.data.DataLoader", kb)
    assert (loader.category.value, loader.rule) == ("data_processing", "MSM600")
    assert loader.mindspore_api == "mindspore.dataset.GeneratorDataset"


def test_differences_message_shows_only_its_own_language(kb):
    verdict = categorize("torch.nn.Linear", kb)
    en = t(verdict.message_key, "en", **verdict.message_args)
    zh = t(verdict.message_key, "zh", **verdict.message_args)
    assert en.startswith("torch.nn.Linear → mindspore.nn.Dense (parameter names differ: ")
    assert en.endswith("see the difference page).")
    assert not re.search(r"[\u4e00-\u9fff]", en)
    assert zh.startswith("torch.nn.Linear → mindspore.nn.Dense（参数名不同：")
    assert zh.endswith("请参阅差异对比页面）。")
    assert "parameter names" not in zh


def test_typo_suggestion_needs_a_similar_last_part(kb):
    """A shared module prefix alone is no typo (box_iou is not roi_align); real typos get a suggestion."""
    box_iou = categorize("torchvision.ops.box_iou", kb)  # the inventory lists torchvision's cited names
    assert (box_iou.category.value, box_iou.message_key) == ("unknown_torch_name",
                                                             "analysis.api.unknown_uncovered")
    assert "suggestion" not in box_iou.message_args
    assert t(box_iou.message_key, "en", **box_iou.message_args) == (
        "torchvision.ops.box_iou: the API inventory lists torchvision only where a mapping table cites it, "
        "and no MindSpore mapping is known for this name.")
    nms = categorize("torchvision.ops.nmss", kb)
    assert nms.message_args["suggestion"] == "torchvision.ops.nms"
    assert categorize("torch.nn.functionl.relu", kb).message_args["suggestion"] == "torch.nn.functional.relu"
    assert categorize("torch.Tensor.viw", kb).message_args["suggestion"] == "torch.Tensor.view"


def test_member_mapped_to_the_same_name_is_not_fixable():
    """x.mean() → mindspore.Tensor.mean needs no rewrite: reports must not promise a quick-fix."""
    from msmigrate.knowledge.base import get_knowledge_base

    kb26 = get_knowledge_base("2.6")
    mean = categorize("torch.Tensor.mean", kb26)
    assert (mean.mindspore_api, mean.rule, mean.fixable) == ("mindspore.Tensor.mean", "MSM100", False)
    assert categorize("torch.abs", kb26).fixable is True  # torch.abs → mindspore.mint.abs is a rewrite
    assert categorize("torch.Tensor.view", get_knowledge_base("2.4")).fixable is False
    # same name but renamed parameters (dim → axis): the call's keywords can still be rewritten
    summed = categorize("torch.Tensor.sum", get_knowledge_base("2.4"))
    assert (summed.mindspore_api, summed.fixable) == ("mindspore.Tensor.sum", True)
