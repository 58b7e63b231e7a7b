"""The one registry of the modules rules and fixes come from, by name. Nothing is imported here: the layers
that read a kind of module import the ones named (``tests/core/test_registry.py`` keeps the lists whole).

* Rule modules, :func:`rule_module_names`: the modules found in ``msmigrate/rules/<family>/``
  (:data:`RULE_FAMILIES`), one rule each, named ``msmNNN_<name>.py`` and taken in rule-id order (a file whose
  name starts with ``_`` is the family's shared code, not a rule). ``rules/loader.py`` imports them all and
  checks each one's contract (``docs/ARCHITECTURE.md``, "A rule"); ``i18n.py`` reads their ``MESSAGES`` from
  the source (:func:`rule_module_path`), without importing them.
* :data:`FIX_MODULES` – ``msmigrate/fixes/<name>.py`` whose ``FIXERS`` fix the API findings the analysis
  reports itself (``analysis/api_rules.py``), collected before the rule modules' fixers.

The order of :func:`rule_module_names` is the order the detectors run and the fixers are tried in. A rule
module that fails to import raises where it is imported: a broken rule stops the product loudly instead of
silently reporting nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

RULES_FOLDER = Path(__file__).resolve().parent / "rules"
# family package → the hundreds of its rule ids
RULE_FAMILIES: dict[str, str] = {
    "missing": "MSM2xx",
    "dynamic_shape": "MSM3xx",
    "sparse": "MSM4xx",
    "framework": "MSM5xx",
    "graph": "MSM7xx",
}
RULE_FILE = re.compile(r"^msm(\d{3})_[a-z0-9_]+\.py$")

FIX_MODULES: tuple[str, ...] = (
    "add_module_fixes",
    "api_fixes",
    "container_fixes",
    "derived_fixes",
    "string_annotation_fixes",
)


def family_rule_modules(folder: Path | None = None) -> tuple[str, ...]:
    """The rule modules of the family packages under ``folder``, as names relative to ``msmigrate.rules``
    (``framework.msm515_recompute``), in rule-id order. Any other ``.py`` file of a family that does not
    start with ``_`` raises: a misnamed rule file would otherwise be skipped silently."""
    folder = folder or RULES_FOLDER
    found: list[tuple[str, str]] = []
    for family in RULE_FAMILIES:
        for path in sorted((folder / family).glob("*.py")):
            if path.name.startswith("_"):
                continue
            match = RULE_FILE.match(path.name)
            if match is None:
                raise ValueError(f"rules/{family}/{path.name}: a rule module is named msmNNN_<name>.py "
                                 "(a family's shared code starts with '_')")
            found.append((match.group(1), f"{family}.{path.stem}"))
    ids = [number for number, _ in found]
    if len(set(ids)) != len(ids):
        twice = sorted({number for number in ids if ids.count(number) > 1})
        raise ValueError(f"two rule modules for MSM{twice[0]}")
    return tuple(name for _, name in sorted(found))


def rule_module_names() -> tuple[str, ...]:
    """Every rule module, relative to ``msmigrate.rules`` (``framework.msm515_recompute``), in rule-id
    order."""
    return family_rule_modules()


def rule_module(name: str) -> str:
    """The dotted name of rule module ``name``."""
    return f"msmigrate.rules.{name}"


def rule_module_path(name: str) -> str:
    """Rule module ``name``'s file, relative to ``msmigrate/`` (``rules/framework/msm515_recompute.py``)."""
    return f"rules/{name.replace('.', '/')}.py"


def fix_module(name: str) -> str:
    """The dotted name of fix module ``name``."""
    return f"msmigrate.fixes.{name}"
