"""The ``msmigrate`` settings section (same names in VS Code and LSP4IJ), read leniently.

Sources, in order: ``initializationOptions`` (the settings object itself, ``{"settings": {...}}`` or
``{"msmigrate": {...}}``), then ``workspace/configuration`` for section ``msmigrate`` once the client
is initialised, and again on every ``workspace/didChangeConfiguration``. A value of the wrong type or
outside its choices is ignored (the default stays) and reported in :attr:`Settings.problems`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msmigrate.contract.settings import (
    DEFAULT_LEVEL,
    DEVICES,
    LANGUAGES,
    MINDSPORE_VERSIONS,
    SEVERITY_LEVELS,
)
from msmigrate.model.finding import FindingCategory
from msmigrate.scan.options import DEFAULT_MAX_FILE_BYTES
from msmigrate.scan.reading import parse_size

__all__ = ["DEFAULT_LEVEL", "DEFAULT_SEVERITY", "DEVICES", "LANGUAGES", "SEVERITY_LEVELS", "Settings",
           "initialization_section"]

# ``default`` (DEFAULT_LEVEL): each finding's own severity (analysis/severity.py: a warning only where
# the code will not work on MindSpore as written); any other level overrides a whole category.
DEFAULT_SEVERITY: dict[str, str] = {category.value: DEFAULT_LEVEL for category in FindingCategory}


@dataclass(frozen=True)
class Settings:
    mindspore_version: str = "auto"
    language: str = "en"
    severity: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_SEVERITY))
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    code_lens: bool = True
    device: str = "CPU"
    python_path: str | None = None
    disabled_rules: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_BYTES  # files not open in the editor larger than this are skipped
    problems: tuple[str, ...] = ()  # "key: why" for each value that was ignored

    @classmethod
    def from_dict(cls, data: Any) -> Settings:
        """Settings from a ``msmigrate`` section (nested or with dotted keys); unknown keys ignored."""
        if not isinstance(data, dict):
            return cls()
        data = _nest(data)
        problems: list[str] = []
        values: dict[str, Any] = {}

        def choice(key: str, attr: str, choices: tuple[str, ...], normalize=lambda v: v) -> None:
            if key not in data or data[key] is None:
                return
            value = data[key]
            if isinstance(value, str) and normalize(value) in choices:
                values[attr] = normalize(value)
            else:
                problems.append(f"{key}: {value!r} not in {', '.join(choices)}")

        choice("mindsporeVersion", "mindspore_version", MINDSPORE_VERSIONS, lambda v: v.strip().lower())
        choice("language", "language", LANGUAGES, lambda v: "zh" if v.lower().startswith("zh") else v.lower())
        choice("device", "device", DEVICES, _device)
        severity = dict(DEFAULT_SEVERITY)
        raw = data.get("severity")
        if isinstance(raw, dict):
            for category, level in raw.items():
                if category in severity and isinstance(level, str) and level.lower() in SEVERITY_LEVELS:
                    severity[category] = level.lower()
                else:
                    problems.append(f"severity.{category}: {level!r}")
        elif raw is not None:
            problems.append(f"severity: {raw!r}")
        values["severity"] = severity
        for key, attr in (
            ("include", "include"),
            ("exclude", "exclude"),
            ("disabledRules", "disabled_rules"),
        ):
            raw = data.get(key)
            if raw is None:
                continue
            if isinstance(raw, str):
                raw = [raw]
            if isinstance(raw, list | tuple) and all(isinstance(v, str) for v in raw):
                items = [v.strip() for v in raw if v.strip()]
                values[attr] = tuple(v.upper() for v in items) if attr == "disabled_rules" else tuple(items)
            else:
                problems.append(f"{key}: {raw!r}")
        if "codeLens" in data and data["codeLens"] is not None:
            if isinstance(data["codeLens"], bool):
                values["code_lens"] = data["codeLens"]
            else:
                problems.append(f"codeLens: {data['codeLens']!r}")
        if data.get("maxFileSize") is not None:
            try:
                values["max_file_size"] = parse_size(data["maxFileSize"])
            except ValueError:
                problems.append(f"maxFileSize: {data['maxFileSize']!r}")
        python_path = data.get("pythonPath")
        if isinstance(python_path, str) and python_path.strip():
            values["python_path"] = python_path.strip()
        return cls(**values, problems=tuple(problems))

    @classmethod
    def from_initialization_options(cls, options: Any) -> Settings:
        """Accept the settings object itself, ``{"settings": {...}}`` or ``{"msmigrate": {...}}``."""
        return cls.from_dict(initialization_section(options))

    def severity_of(self, category: str) -> str:
        """The configured level of a category: ``default`` (the finding's own), a level, or ``off``."""
        return self.severity.get(category, DEFAULT_LEVEL)


def initialization_section(options: Any) -> dict[str, Any]:
    """The ``msmigrate`` settings inside ``initializationOptions`` (``{}`` when there are none)."""
    if not isinstance(options, dict):
        return {}
    for wrapper in ("settings", "msmigrate"):
        inner = options.get(wrapper)
        if isinstance(inner, dict):
            nested = inner.get("msmigrate")
            return nested if isinstance(nested, dict) else inner
    return options


def _device(value: str) -> str:
    lowered = value.strip().lower()
    return {"cpu": "CPU", "gpu": "GPU", "ascend": "Ascend", "npu": "Ascend"}.get(lowered, value)


def _nest(data: dict[str, Any]) -> dict[str, Any]:
    """Turn dotted keys (``"severity.missing": "error"``, ``"msmigrate.language"``) into nested ones."""
    nested: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str):
            continue
        parts = key.split(".")
        if parts[0] == "msmigrate" and len(parts) > 1:
            parts = parts[1:]
        target = nested
        for part in parts[:-1]:
            existing = target.get(part)
            if not isinstance(existing, dict):
                existing = target[part] = {}
            target = existing
        last = parts[-1]
        if isinstance(value, dict) and isinstance(target.get(last), dict):
            target[last] = {**target[last], **value}
        else:
            target[last] = value
    return nested
