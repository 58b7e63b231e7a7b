"""A rule module holds its rule, texts, examples with positions, checker and fixer; registries find them."""

from __future__ import annotations

import pytest

from msmigrate.fixes.registry import fixers_for
from msmigrate.i18n import catalogue, rule_messages
from msmigrate.rules import patterns
from msmigrate.rules.examples import CASES
from msmigrate.rules.registry import get_rule, rule_modules

WITH_TEXTS = [module for module in rule_modules() if hasattr(module, "MESSAGES")]
EXAMPLES = {rule: example for module in rule_modules() if module.__name__ != "msmigrate.rules.examples"
            for rule, example in getattr(module, "EXAMPLES", {}).items()}


def test_the_rule_families_keep_their_texts_and_examples():
    names = {module.__name__.rpartition(".")[2]: module for module in WITH_TEXTS}
    assert sorted(names) == ["autograd_function", "buffers", "cell_children", "cell_parameters",
                             "data_parallel", "device_compositions", "dynamic_attributes", "dynamic_shape",
                             "einops_layers", "grad_mode", "graph_celldict", "graph_device",
                             "graph_empty_device", "graph_helpers", "graph_list_compare", "graph_mode",
                             "init_helpers", "inplace_methods", "missing_api", "numpy_operands", "patterns",
                             "recompute", "sparse", "sparse_buffers", "torch_checks", "torch_types",
                             "weights_download"]
    for module in names.values():
        ids = [rule.id for rule in module.RULES]
        assert sorted(module.EXAMPLES) == ids
        assert {key for key in module.MESSAGES if key.startswith("rule.")} == {
            f"rule.{rule}.{part}" for rule in ids for part in ("title", "explanation")}


def test_the_pattern_family_is_one_module():
    ids = [rule.id for rule in patterns.RULES]
    assert ids == [f"MSM5{n:02d}" for n in range(1, 13) if n != 7]  # MSM507: rules/grad_mode.py
    assert sorted(patterns.EXAMPLES) == ids
    assert {key for key in patterns.MESSAGES if key.startswith("rule.")} == {
        f"rule.{rule}.{part}" for rule in ids for part in ("title", "explanation")}
    assert sorted(patterns.FIXERS) == [rule.id for rule in patterns.RULES if rule.fixable]
    assert [fixer.__name__ for fixer in fixers_for("MSM505")] == ["set_train"]
    assert [get_rule(rule) for rule in ids] == patterns.RULES


@pytest.mark.parametrize("module", WITH_TEXTS, ids=lambda m: m.__name__)
def test_the_catalogue_reads_a_rule_modules_texts_as_imported(module):
    read = dict(rule_messages())[f"rules/{module.__name__.rpartition('.')[2]}.py"]
    assert read == module.MESSAGES
    assert all(catalogue()[key] == texts for key, texts in read.items())


@pytest.mark.parametrize("rule", sorted(EXAMPLES))
def test_a_rule_modules_example_is_listed_and_found_at_its_positions(analyze, rule):
    positive, negative, positions = EXAMPLES[rule]
    assert CASES[rule] == (positive, negative)
    assert [(f.line, f.column) for f in analyze(positive).findings if f.rule == rule] == positions
    assert [f for f in analyze(negative).findings if f.rule == rule] == []
