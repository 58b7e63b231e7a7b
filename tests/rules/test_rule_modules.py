"""A rule module holds its rule, texts, examples with positions, detectors and fixers; the registries find
them. A rule module (``rules/<family>/msmNNN_<name>.py``) holds exactly one rule (its contract is checked
where it is loaded, ``tests/core/test_registry.py``)."""

from __future__ import annotations

import pytest

from msmigrate.fixes.fixers import fixers_for
from msmigrate.i18n import catalogue, rule_messages
from msmigrate.registry import rule_module_names, rule_module_path
from msmigrate.rules.examples import CASES
from msmigrate.rules.loader import get_rule, rule_examples, rule_modules

MODULES = dict(zip(rule_module_names(), rule_modules(), strict=True))
EXAMPLES = rule_examples()


def test_a_rule_module_is_one_rule_with_its_own_texts_example_and_fixers():
    assert all("." in name for name in MODULES)  # every rule module is in its family
    for name, module in MODULES.items():
        rule = module.RULE
        assert name.partition(".")[2].startswith(f"msm{rule.id[3:]}_")
        assert get_rule(rule.id) is rule
        assert list(module.EXAMPLES) == [rule.id]
        assert all(rule.id in key or key.startswith("fix.") for key in module.MESSAGES)
        assert set(module.FIXERS) <= set(fixers_for(rule.id))
        assert module.__doc__.startswith(f"{rule.id}: ")


def test_the_framework_family_is_one_module_per_rule():
    ids = [module.RULE.id for name, module in MODULES.items() if name.startswith("framework.")]
    assert ids == [f"MSM5{n:02d}" for n in [*range(1, 22), 29, 30, 32, 33, 34, 35, 36]]
    assert [fixer.__name__ for fixer in fixers_for("MSM505")] == ["set_train"]
    assert [fixer.__name__ for fixer in fixers_for("MSM501")] == ["super_construct", "construct"]
    assert [fixer.__name__ for fixer in fixers_for("MSM503")] == [
        "init_by_class", "slice_or_new_tensor_init", "init_rewrite"]
    assert [fixer.__name__ for fixer in fixers_for("MSM504")] == ["device_default", "device"]
    assert [fixer.__name__ for fixer in fixers_for("MSM512")] == ["checkpoint", "download"]
    assert [fixer.__name__ for fixer in fixers_for("MSM521")] == ["add_module", "cell_parameter_fix"]


def test_msm201_is_one_module_with_the_type_names():
    """The missing-API advice and torch's type objects named as types are both MSM201's: one module, its
    fixers tried in that order, its texts (the typed constructors' too) in its MESSAGES."""
    module = MODULES["missing.msm201_equivalent"]
    assert [fixer.__name__ for fixer in fixers_for("MSM201")] == ["missing_api", "torch_type"]
    assert {"finding.MSM201.typed_tensor", "fix.pattern.typed_tensor", "fix.pattern.type_name"} <= set(
        module.MESSAGES)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_the_catalogue_reads_a_rule_modules_texts_as_imported(name):
    read = dict(rule_messages())[rule_module_path(name)]
    assert read == MODULES[name].MESSAGES
    assert all(catalogue()[key] == texts for key, texts in read.items())


@pytest.mark.parametrize("rule", sorted(EXAMPLES))
def test_a_rule_modules_example_is_listed_and_found_at_its_positions(analyze, rule):
    positive, negative, positions = EXAMPLES[rule]
    assert CASES[rule] == (positive, negative)
    assert [(f.line, f.column) for f in analyze(positive).findings if f.rule == rule] == positions
    assert [f for f in analyze(negative).findings if f.rule == rule] == []
