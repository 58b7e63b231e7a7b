"""Per-analysis settings (from the CLI, ``pyproject.toml`` or the language-server settings)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from msmigrate.model.finding import FindingCategory, Severity

OFF = "off"


class ProjectIndex(NamedTuple):
    """What the analysis of one file knows of the project's other files, built by the scan, ``msmigrate
    fix`` and the language server (``scan/runner.project_index``): ``AnalysisOptions.module_classes`` and
    ``AnalysisOptions.project_fields``."""

    module_classes: frozenset[str] = frozenset()
    fields: Iterable[tuple[str, str, str]] = ()  # a tuple, or the editor's DeferredIndex


@dataclass(slots=True)
class AnalysisOptions:
    """``severities`` overrides a category's default severity (``"off"`` drops its findings);
    ``disabled_rules`` drops findings by rule id; jedi settles unknown receivers within ``jedi_budget_ms``
    per file (0 or ``use_jedi=False`` turns it off); ``device`` (``CPU``, ``GPU``, ``Ascend``) is where the
    migrated code runs (``analysis/resolution.py``)."""

    severities: dict[FindingCategory | str, Severity | str] = field(default_factory=dict)
    disabled_rules: frozenset[str] | set[str] | list[str] = frozenset()
    use_jedi: bool = True
    jedi_budget_ms: float = 200.0
    run_checkers: bool = True
    # the project's nn.Module subclasses (analysis/project_classes.py): their instances are modules
    module_classes: frozenset[str] = frozenset()
    # the fields the project's files build, with their value forms (analysis/project_fields.py)
    project_fields: Iterable[tuple[str, str, str]] = ()
    # where the migrated code runs: each API finding's resolution (the target the fix writes) is for it
    device: str = "CPU"

    def severity_for(self, category: FindingCategory) -> Severity | str | None:
        """The configured severity (a :class:`Severity` or ``"off"``), or ``None`` for the rule default."""
        value = self.severities.get(category)
        if value is None:
            value = self.severities.get(category.value)
        if value is None:
            return None
        if isinstance(value, Severity):
            return value
        text = str(value).lower()
        if text == OFF:
            return OFF
        try:
            return Severity(text)
        except ValueError:
            return None  # an unknown level in the settings: keep the rule's default

    def disabled(self) -> frozenset[str]:
        return frozenset(r.upper() for r in self.disabled_rules)
