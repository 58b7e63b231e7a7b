"""``msmigrate/registry.py`` names every rule module (found in the family packages of ``rules/``) and every
fix module, and everything that collects rules, detectors, fixers, texts or examples reads
those names: a module left out is reported here, one that does not import or breaks the rule contract fails
loudly, naming its file."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from msmigrate import i18n, registry
from msmigrate.analysis.analyzer import analyze_source, rule_checkers
from msmigrate.fixes import fixers as fix_registry
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.lsp.features import OPTIONAL_FEATURES
from msmigrate.registry import FIX_MODULES, RULE_FAMILIES, rule_module_names
from msmigrate.rules import loader as rule_registry
from msmigrate.rules.loader import RuleModuleError

PACKAGE = Path(registry.__file__).parent
RULE_PARTS = {"RULES", "RULE", "MESSAGES", "CHECKERS", "FIXERS", "EXAMPLES", "FIX_SAFETY", "EXTRA_DETECTORS",
              "DETECT_AFTER", "DETECT_BEFORE"}


def top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_every_module_defining_rule_parts_is_a_rule_module():
    # no module of rules/ itself declares rule parts: every rule is one module of its family
    flat = [path.name for path in (PACKAGE / "rules").glob("*.py") if top_level_names(path) & RULE_PARTS]
    assert flat == []
    families = sorted(path.parent.name for path in (PACKAGE / "rules").glob("*/__init__.py"))
    assert set(families) <= set(RULE_FAMILIES)
    in_families = {f"{path.parent.name}.{path.stem}" for family in families
                   for path in (PACKAGE / "rules" / family).glob("*.py") if not path.name.startswith("_")}
    assert in_families == {name for name in rule_module_names() if "." in name}
    shared = [path for family in families for path in (PACKAGE / "rules" / family).glob("_*.py")
              if path.name != "__init__.py"]
    assert [path.name for path in shared if top_level_names(path) & RULE_PARTS] == []


def test_rule_modules_are_in_rule_id_order():
    names = rule_module_names()
    ids = [module.RULE.id for module in rule_registry.rule_modules()]
    assert ids == sorted(ids) == [f"MSM{name.partition('.')[2][3:6]}" for name in names]
    assert len(set(ids)) == len(ids)
    assert "framework.msm515_recompute" in names


def test_every_fix_module_with_fixers_is_listed():
    assert list(FIX_MODULES) == sorted(path.stem for path in (PACKAGE / "fixes").glob("*.py")
                                       if "FIXERS" in top_level_names(path))


def test_every_optional_feature_module_of_the_server_is_listed():
    assert list(OPTIONAL_FEATURES) == sorted(path.stem for path in (PACKAGE / "lsp").glob("*_feature.py"))


def test_the_collectors_read_the_rule_modules_in_order():
    names = rule_module_names()
    assert [module.__name__ for module in rule_registry.rule_modules()] == [
        f"msmigrate.rules.{name}" for name in names]
    assert [where for where, _ in i18n.rule_messages()] == [f"rules/{name.replace('.', '/')}.py"
                                                            for name in names]
    detectors = [detector for module in rule_registry.rule_modules() for detector in
                 [module.detect, *(extra.detect for extra in getattr(module, "EXTRA_DETECTORS", ()))]]
    assert sorted(map(id, rule_checkers())) == sorted(map(id, detectors))


def test_detectors_run_in_rule_id_order_but_where_a_module_says():
    from msmigrate.model.rule import Detector
    from msmigrate.rules.framework import msm504_device, msm505_train_mode, msm507_grad_mode
    from msmigrate.rules.missing import msm201_equivalent, msm204_community

    order = rule_checkers()
    shown = [f"{detector.__module__.rpartition('.')[2]}.{detector.__name__}" for detector in order
             if detector.__module__ in {module.__name__ for module in (
                 msm201_equivalent, msm204_community, msm504_device, msm505_train_mode, msm507_grad_mode)}]
    # MSM507 takes over the API finding before MSM201-MSM204 refine it; MSM201's second detector refines
    # the torch.device MSM504 reported (a type named), so it runs after MSM504's while MSM201's own
    # detect keeps its rule-id place
    assert msm507_grad_mode.DETECT_BEFORE == ("MSM201", "MSM202", "MSM203", "MSM204")
    assert msm201_equivalent.EXTRA_DETECTORS == (
        Detector(msm201_equivalent.detect_torch_types, after=("MSM504",)),)
    assert shown == ["msm507_grad_mode.detect", "msm201_equivalent.detect", "msm204_community.detect",
                     "msm504_device.detect", "msm201_equivalent.detect_torch_types",
                     "msm505_train_mode.detect"]


def test_a_rule_modules_fixers_and_safety_are_found_by_its_rule_id():
    from msmigrate.model.resolution import Safety
    from msmigrate.rules.framework import msm515_recompute as module

    assert fix_registry.fixers_for("MSM515") == module.FIXERS == (module.direct_call,)
    assert fix_registry.declared_safety("MSM515") is Safety.SAFE
    assert fix_registry.declared_safety("MSM100") is None


@pytest.fixture
def extra_rules(tmp_path, monkeypatch):
    """Add rule modules in ``tmp_path/framework/`` to the framework family (``write(name, text)``)."""
    from msmigrate.rules import framework

    folder = tmp_path / "framework"
    folder.mkdir()
    found = registry.family_rule_modules

    def families() -> tuple[str, ...]:
        return tuple(sorted([*found(), *found(tmp_path)], key=lambda name: name.partition(".")[2]))

    monkeypatch.setattr(framework, "__path__", [*framework.__path__, str(folder)])
    monkeypatch.setattr(registry, "family_rule_modules", families)
    monkeypatch.setattr(i18n, "_PACKAGE", tmp_path)  # only the texts test reads them (from tmp_path)
    caches = (rule_checkers, fix_registry._fixers_by_rule, rule_registry.loaded, rule_registry._rules_by_id,
              rule_registry.detectors, rule_registry.rule_fixers, rule_registry.fix_safeties)
    for cached in caches:
        cached.cache_clear()
    written: list[str] = []

    def write(name: str, text: str) -> None:
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
        written.append(f"msmigrate.rules.framework.{name}")

    yield write
    monkeypatch.undo()
    for name in written:
        sys.modules.pop(name, None)
    for cached in caches:
        cached.cache_clear()


def test_a_rule_module_that_does_not_import_fails_loudly(extra_rules):
    extra_rules("msm599_broken", 'raise RuntimeError("broken rule module")\n')
    message = r"^rules/framework/msm599_broken.py: does not import: RuntimeError: broken rule module$"
    with pytest.raises(RuleModuleError, match=message):
        rule_checkers()
    with pytest.raises(RuleModuleError, match=message):
        fix_registry.fixers_for("MSM100")
    with pytest.raises(RuleModuleError, match=message):
        rule_registry.all_rules()
    # a file analysed meanwhile says so instead of reporting nothing
    result = analyze_source("import torch\nx = torch.ones(2)\n", "a.py", get_knowledge_base())
    assert (result.findings, result.error_key) == ([], "analysis.internal_error")
    detail = ("RuleModuleError: rules/framework/msm599_broken.py: does not import: "
              "RuntimeError: broken rule module")
    assert result.error_args == {"detail": detail}


GOOD = '''"""MSM599: a rule for the contract test."""

from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.resolution import Safety
from msmigrate.model.rule import Rule

RULE = Rule("MSM599", C.FRAMEWORK_PATTERN, S.INFORMATION, "https://example.org", fixable=True)
MESSAGES = {
    "rule.MSM599.title": ("T", "标"),
    "rule.MSM599.explanation": ("E", "解"),
}
EXAMPLES = {"MSM599": ("import torch\\n", "import numpy\\n", [])}


def detect(ctx):
    return []


def fixer(ctx, finding):
    return None


FIXERS = (fixer,)
FIX_SAFETY = Safety.SAFE
'''

BROKEN = [
    ("no RULE", GOOD.replace("RULE = Rule", "OTHER = Rule"), "no RULE = Rule(...)"),
    ("FIXERS without FIX_SAFETY", GOOD.replace("FIX_SAFETY = Safety.SAFE", ""), "FIXERS without FIX_SAFETY"),
    ("a key of another rule",
     GOOD.replace('"rule.MSM599.explanation": ("E", "解"),',
                  '"rule.MSM599.explanation": ("E", "解"),\n    "finding.MSM598": ("F", "发"),'),
     "MESSAGES key 'finding.MSM598' is not MSM599's"),
    ("a title missing", GOOD.replace('"rule.MSM599.title": ("T", "标"),', ""),
     "MESSAGES has no rule.MSM599.title"),
    ("one language", GOOD.replace('("E", "解")', '("E", "")'),
     r"MESSAGES\['rule.MSM599.explanation'\] is not"),
    ("two rules",
     GOOD.replace("EXAMPLES =", "TWO = Rule('MSM598', C.FRAMEWORK_PATTERN, S.HINT, '')\nEXAMPLES ="),
     "more than one Rule"),
    ("no detector", GOOD.replace("def detect(ctx)", "def find(ctx)"), r"no detect\(ctx\)"),
    ("fixers as a dict", GOOD.replace("FIXERS = (fixer,)", 'FIXERS = {"MSM599": fixer}'),
     "FIXERS is a tuple"),
    ("fixable without fixers", GOOD.replace("FIXERS = (fixer,)", "FIXERS = ()"),
     r"Rule\(fixable=True\) but 0"),
    ("another id in the name", GOOD, "RULE is MSM599, the file name says otherwise"),
    ("no docstring line", GOOD.replace('"""MSM599: a rule', '"""A rule'),
     "the module docstring starts with 'MSM599: "),
    ("examples of another id", GOOD.replace('EXAMPLES = {"MSM599"', 'EXAMPLES = {"MSM598"'), "EXAMPLES = "),
    ("an order that is no rule id", GOOD + 'DETECT_AFTER = ("MSM5",)\n',
     "DETECT_AFTER is a tuple of rule ids"),
    ("an extra detector that is a function",
     GOOD + "EXTRA_DETECTORS = (detect,)\n", r"EXTRA_DETECTORS is a tuple of Detector\(function, after="),
    ("an extra detector's place that is no rule id",
     GOOD + "from msmigrate.model.rule import Detector\n"
     "EXTRA_DETECTORS = (Detector(detect, after='MSM504'),)\n",
     r"EXTRA_DETECTORS is a tuple of Detector"),
]

PLACES = [
    ("a rule without a detector", 'DETECT_AFTER = ("MSM100",)\n',
     "MSM100 has no detector to run before or after"),
    ("an extra detector after an unknown rule",
     "from msmigrate.model.rule import Detector\nEXTRA_DETECTORS = (Detector(detect, after=('MSM598',)),)\n",
     "MSM598 has no detector to run before or after"),
    ("places that contradict", 'DETECT_AFTER = ("MSM504",)\nDETECT_BEFORE = ("MSM501",)\n',
     "DETECT_BEFORE and DETECT_AFTER contradict"),
]


@pytest.mark.parametrize(("case", "text", "message"), BROKEN, ids=[case for case, _, _ in BROKEN])
def test_a_rule_module_that_breaks_the_contract_is_refused_with_its_file(extra_rules, case, text, message):
    name = "msm598_misnamed" if case == "another id in the name" else "msm599_contract"
    extra_rules(name, text)
    with pytest.raises(RuleModuleError, match=rf"^rules/framework/{name}.py: {message}"):
        rule_registry.all_rules()


@pytest.mark.parametrize(("case", "text", "message"), PLACES, ids=[case for case, _, _ in PLACES])
def test_a_detector_placed_where_it_cannot_run_is_refused_with_its_file(extra_rules, case, text, message):
    extra_rules("msm599_contract", GOOD + text)
    rule_registry.all_rules()  # the module itself keeps the contract
    with pytest.raises(RuleModuleError, match=rf"^rules/framework/msm599_contract.py: {message}$"):
        rule_registry.detectors()


def test_an_extra_detector_runs_at_its_own_place(extra_rules):
    extra_rules("msm599_contract", GOOD + "from msmigrate.model.rule import Detector\n\n\n"
                "def late(ctx):\n    return []\n\n\n"
                "EXTRA_DETECTORS = (Detector(late, before=('MSM201',)),)\nDETECT_AFTER = ('MSM705',)\n")
    names = [f"{detector.__module__.rpartition('.')[2]}.{detector.__name__}" for detector in rule_checkers()]
    # before MSM201: after the detectors already placed there (MSM507, ... MSM533), just before MSM201's
    assert names.index("msm599_contract.late") == names.index("msm201_equivalent.detect") - 1
    assert names[names.index("msm533_inplace_methods.detect") + 1] == "msm599_contract.late"
    # its detect after MSM705: moved from its rule-id place to just after MSM705's detector
    assert names[names.index("msm705_einops.detect") + 1] == "msm599_contract.detect"
    assert names[-1] == "msm712_map_closure.detect"


def test_a_rule_module_that_keeps_the_contract_is_loaded(extra_rules):
    extra_rules("msm599_contract", GOOD)
    assert [fixer.__name__ for fixer in fix_registry.fixers_for("MSM599")] == ["fixer"]
    assert "MSM599" in [rule.id for rule in rule_registry.all_rules()]


def test_a_misnamed_file_in_a_family_is_refused(tmp_path):
    (tmp_path / "framework").mkdir()
    (tmp_path / "framework" / "recompute.py").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^rules/framework/recompute.py: a rule module is named msmNNN_"):
        registry.family_rule_modules(tmp_path)


def test_a_rule_module_without_texts_is_refused(tmp_path, monkeypatch):
    (tmp_path / "rules" / "framework").mkdir(parents=True)
    (tmp_path / "rules" / "framework" / "msm598_textless.py").write_text("RULE = None\n", encoding="utf-8")
    (tmp_path / "rules" / "framework" / "msm599_computed.py").write_text("MESSAGES = {\n    **dict(),\n}\n",
                                                                         encoding="utf-8")
    monkeypatch.setattr(i18n, "_PACKAGE", tmp_path)
    monkeypatch.setattr(i18n, "rule_module_names", lambda: ("framework.msm598_textless",))
    with pytest.raises(ValueError, match=r"^rules/framework/msm598_textless.py: no MESSAGES literal"):
        i18n.rule_messages()
    monkeypatch.setattr(i18n, "rule_module_names", lambda: ("framework.msm599_computed",))
    with pytest.raises(ValueError, match=r"^rules/framework/msm599_computed.py: MESSAGES must be a literal"):
        i18n.rule_messages()


def test_only_rule_modules_give_texts(tmp_path, monkeypatch):
    (tmp_path / "rules" / "framework").mkdir(parents=True)
    (tmp_path / "rules" / "framework" / "msm599_listed.py").write_text(
        'RULE = None\nMESSAGES: dict[str, tuple[str, str]] = {\n    "rule.X.title": ("T", "标"),\n}\n',
        encoding="utf-8")
    (tmp_path / "rules" / "framework" / "_shared.py").write_text(
        'MESSAGES = {\n    "rule.Y.title": ("U", "未"),\n}\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "_PACKAGE", tmp_path)
    monkeypatch.setattr(i18n, "rule_module_names",
                        lambda: registry.family_rule_modules(tmp_path / "rules"))
    assert i18n.rule_messages() == [("rules/framework/msm599_listed.py", {"rule.X.title": ("T", "标")})]
