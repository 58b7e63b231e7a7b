"""``msmigrate/registry.py`` lists every rule module and fix module, and everything that collects rules,
checkers, fixers, texts or examples reads that list: a module left out is reported here, a listed one that
does not import fails loudly."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import msmigrate.rules
from msmigrate import i18n, registry
from msmigrate.analysis import analyzer
from msmigrate.analysis.analyzer import analyze_source, rule_checkers
from msmigrate.fixes import registry as fix_registry
from msmigrate.knowledge.base import get_knowledge_base
from msmigrate.lsp.features import OPTIONAL_FEATURES
from msmigrate.registry import FIX_MODULES, RULE_MODULES
from msmigrate.rules import registry as rule_registry

PACKAGE = Path(registry.__file__).parent
RULE_PARTS = {"RULES", "MESSAGES", "CHECKERS", "FIXERS", "EXAMPLES"}


def top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_every_module_defining_rule_parts_is_a_listed_rule_module():
    defining = sorted(path.stem for path in (PACKAGE / "rules").glob("*.py")
                      if top_level_names(path) & RULE_PARTS)
    assert list(RULE_MODULES) == defining
    for name in RULE_MODULES:
        assert {"RULES", "MESSAGES"} <= top_level_names(PACKAGE / "rules" / f"{name}.py"), name


def test_every_fix_module_with_fixers_is_listed():
    assert list(FIX_MODULES) == sorted(path.stem for path in (PACKAGE / "fixes").glob("*.py")
                                       if "FIXERS" in top_level_names(path))


def test_every_optional_feature_module_of_the_server_is_listed():
    assert list(OPTIONAL_FEATURES) == sorted(path.stem for path in (PACKAGE / "lsp").glob("*_feature.py"))


def test_the_collectors_read_the_listed_modules_in_order():
    assert [module.__name__ for module in rule_registry.rule_modules()] == [
        f"msmigrate.rules.{name}" for name in RULE_MODULES]
    assert [where for where, _ in i18n.rule_messages()] == [f"rules/{name}.py" for name in RULE_MODULES]
    checkers = [checker for module in rule_registry.rule_modules() for checker in module.CHECKERS]
    assert list(rule_checkers()) == checkers


@pytest.fixture
def broken_rule(tmp_path, monkeypatch):
    """A listed rule module ``broken_rule`` whose import raises (an error at its first line)."""
    (tmp_path / "broken_rule.py").write_text(
        'raise RuntimeError("broken rule module")\nMESSAGES: dict = {\n}\n', encoding="utf-8")
    monkeypatch.setattr(msmigrate.rules, "__path__", [*msmigrate.rules.__path__, str(tmp_path)])
    listed = (*RULE_MODULES, "broken_rule")
    for module in (analyzer, fix_registry, rule_registry):
        monkeypatch.setattr(module, "RULE_MODULES", listed)
    caches = (rule_checkers, fix_registry._registry, rule_registry.rule_modules, rule_registry._registry)
    for cached in caches:
        cached.cache_clear()
    yield
    monkeypatch.undo()
    sys.modules.pop("msmigrate.rules.broken_rule", None)
    for cached in caches:
        cached.cache_clear()


def test_a_rule_module_that_does_not_import_fails_loudly(broken_rule):
    with pytest.raises(RuntimeError, match="broken rule module"):
        rule_checkers()
    with pytest.raises(RuntimeError, match="broken rule module"):
        fix_registry.fixers_for("MSM100")
    with pytest.raises(RuntimeError, match="broken rule module"):
        rule_registry.all_rules()
    # a file analysed meanwhile says so instead of reporting nothing
    result = analyze_source("import torch\nx = torch.ones(2)\n", "a.py", get_knowledge_base())
    assert (result.findings, result.error_key) == ([], "analysis.internal_error")
    assert result.error_args == {"detail": "RuntimeError: broken rule module"}


def test_a_listed_rule_module_without_texts_is_refused(tmp_path, monkeypatch):
    (tmp_path / "textless.py").write_text("RULES = []\nCHECKERS = []\n", encoding="utf-8")
    (tmp_path / "computed.py").write_text("MESSAGES = {\n    **dict(),\n}\n", encoding="utf-8")
    monkeypatch.setattr(i18n, "_RULES_FOLDER", tmp_path)
    monkeypatch.setattr(i18n, "RULE_MODULES", ("textless",))
    with pytest.raises(ValueError, match=r"^rules/textless.py: no MESSAGES literal"):
        i18n.rule_messages()
    monkeypatch.setattr(i18n, "RULE_MODULES", ("computed",))
    with pytest.raises(ValueError, match="malformed node"):
        i18n.rule_messages()


def test_only_listed_modules_give_texts(tmp_path, monkeypatch):
    (tmp_path / "listed.py").write_text(
        'RULES = []\nMESSAGES: dict[str, tuple[str, str]] = {\n    "rule.X.title": ("T", "标"),\n}\n',
        encoding="utf-8")
    (tmp_path / "unlisted.py").write_text('MESSAGES = {\n    "rule.Y.title": ("U", "未"),\n}\n',
                                          encoding="utf-8")
    monkeypatch.setattr(i18n, "_RULES_FOLDER", tmp_path)
    monkeypatch.setattr(i18n, "RULE_MODULES", ("listed",))
    assert i18n.rule_messages() == [("rules/listed.py", {"rule.X.title": ("T", "标")})]
