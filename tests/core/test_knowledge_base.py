"""Version resolution and import hygiene of the core."""

import subprocess
import sys

import pytest

from msmigrate.knowledge.base import closest_version, resolve_version


@pytest.mark.parametrize(
    ("given", "expected"),
    [("2.10.0", "2.6"), ("2.6.0", "2.6"), ("2.4.10", "2.4"), ("2.5.0", "2.4"), ("2.3.1", "2.3"),
     ("1.10.1", "1.10"), ("1.8", "1.10"), ("3.0", "2.6")],
)
def test_closest_version(given, expected):
    assert closest_version(given) == expected


@pytest.mark.parametrize(("given", "expected"), [("2.4", "2.4"), ("r2.3", "2.3"), ("1.10", "1.10")])
def test_resolve_version_explicit(given, expected):
    assert resolve_version(given) == expected


def test_resolve_version_rejects_garbage():
    with pytest.raises(ValueError, match="unknown MindSpore version"):
        resolve_version("banana")


def test_core_does_not_import_frameworks():
    code = (
        "import sys, msmigrate.knowledge, msmigrate.model.finding, msmigrate.rules, msmigrate.i18n\n"
        "msmigrate.i18n.catalogue(); msmigrate.rules.all_rules()\n"
        "bad = [m for m in ('torch', 'mindspore') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_auto_and_its_resolved_version_share_one_instance():
    from msmigrate.knowledge.base import get_knowledge_base

    resolved = resolve_version("auto")
    assert get_knowledge_base("auto") is get_knowledge_base(resolved)
    assert get_knowledge_base(None) is get_knowledge_base(resolved)
    assert get_knowledge_base("r2.4") is get_knowledge_base("2.4")
