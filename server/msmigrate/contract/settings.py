"""The ``msmigrate`` settings section: one table for the server (``lsp/config.py``) and both editor clients.

``msmigrate dev generate`` writes it into the VS Code manifest (``contributes.configuration`` and the
``config.*`` keys of ``package.nls*.json``), the LSP4IJ settings schema and defaults, and
``client-vscode/src/protocol.ts``. Descriptions are messages (``messages/settings.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from msmigrate.knowledge.base import VERSIONS
from msmigrate.model.finding import FindingCategory

SECTION = "msmigrate"
MINDSPORE_VERSIONS: tuple[str, ...] = ("auto", *VERSIONS)
LANGUAGES = ("en", "zh")
DEVICES = ("CPU", "GPU", "Ascend")
# ``default``: each finding's own severity (analysis/severity.py); any other level overrides a category
SEVERITY_LEVELS = ("default", "error", "warning", "information", "hint", "off")
DEFAULT_LEVEL = "default"
IMPORT_STRATEGIES = ("useBundled", "fromEnvironment")
RULE_ID_PATTERN = "^[Mm][Ss][Mm]\\d{3}$"

VSCODE = "vscode"
LSP4IJ = "lsp4ij"
BOTH = (VSCODE, LSP4IJ)


@dataclass(frozen=True)
class Setting:
    """One setting: ``key`` inside the section (dotted for nested ones), its JSON type and default."""

    key: str
    type: str  # "string" | "boolean" | "array" (of strings)
    default: Any
    choices: tuple[str, ...] = ()
    choice_messages: tuple[str, ...] = ()  # message keys describing each choice (VS Code)
    choice_labels: tuple[str, ...] = ()  # literal labels of the choices (VS Code), when not messages
    item_pattern: str | None = None
    scope: str = "resource"  # VS Code's scope
    clients: tuple[str, ...] = BOTH  # VSCODE only: a setting of the VS Code client itself
    message: str = ""  # description message key; default ``settings.<key>``
    note: str = ""  # message appended to the VS Code description (LSP4IJ says it once, on the parent)
    lsp4ij_message: str = ""  # description for LSP4IJ when it differs

    @property
    def description_key(self) -> str:
        return self.message or f"settings.{self.key}"


def _severity(category: str) -> Setting:
    return Setting(f"severity.{category}", "string", DEFAULT_LEVEL, SEVERITY_LEVELS,
                   note="settings.severity.default_note")


SETTINGS: tuple[Setting, ...] = (
    Setting("interpreter", "array", [], clients=(VSCODE,)),
    Setting("importStrategy", "string", "useBundled", IMPORT_STRATEGIES, scope="window", clients=(VSCODE,),
            choice_messages=tuple(f"settings.importStrategy.{s}" for s in IMPORT_STRATEGIES)),
    Setting("mindsporeVersion", "string", "auto", MINDSPORE_VERSIONS),
    Setting("language", "string", "en", LANGUAGES, choice_labels=("English", "中文"),
            lsp4ij_message="settings.language.lsp4ij"),
    *(_severity(category.value) for category in FindingCategory),
    Setting("include", "array", []),
    Setting("exclude", "array", []),
    Setting("codeLens", "boolean", True),
    Setting("device", "string", "CPU", DEVICES),
    Setting("pythonPath", "string", ""),
    Setting("disabledRules", "array", [], item_pattern=RULE_ID_PATTERN),
    Setting("maxFileSize", "string", "10MB"),
    Setting("trace.server", "string", "off", ("off", "messages", "verbose"), scope="window",
            clients=(VSCODE,), message="settings.trace"),
)

# the object holding the per-category severities in LSP4IJ's nested settings
SEVERITY_GROUP_MESSAGE = "settings.severity"


def server_defaults() -> dict[str, Any]:
    """The defaults of the settings the server reads, by key."""
    return {s.key: s.default for s in SETTINGS if LSP4IJ in s.clients}
