"""What a scan is asked to do: :class:`ScanOptions`, and the project's ``[tool.msmigrate]`` settings."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from msmigrate.analysis.cancel import CancelToken
from msmigrate.fixes.compositions import valid_module_name
from msmigrate.i18n import t
from msmigrate.model.finding import FindingCategory
from msmigrate.scan.reading import SETTINGS_FILE_LIMIT, SkippedFile, parse_size, read_user_file

ProgressCallback = Callable[[int, int], None]  # (files done, files in total)

SEVERITY_VALUES = ("default", "error", "warning", "information", "hint", "off")  # default: the finding's own
DEFAULT_INCLUDE = ("*.py",)
DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024
DEFAULT_FILE_TIME_LIMIT = 60.0  # seconds of analysis per file (a 70,000-line file takes about 1.5 s here)


class ScanCancelled(Exception):
    """Raised by :func:`msmigrate.scan.scan_paths` when its token was cancelled."""


class ConfigError(ValueError):
    """Invalid ``[tool.msmigrate]`` settings; ``key``/``fields`` name a message in messages/scan.py."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(slots=True)
class ScanOptions:
    mindspore_version: str | None = None  # None/"auto": installed MindSpore, else the newest table
    include: tuple[str, ...] = DEFAULT_INCLUDE  # gitignore-style globs a file must match (folders walked)
    exclude: tuple[str, ...] = ()  # gitignore-style globs, relative to each scanned folder
    disabled_rules: tuple[str, ...] = ()
    severity: dict[str, str] = field(default_factory=dict)  # category → error|warning|information|hint|off
    jobs: int = field(default_factory=default_jobs)
    use_cache: bool = True
    cache_dir: Path | None = None  # None: $MSMIGRATE_CACHE_DIR or the user cache dir
    respect_gitignore: bool = True
    # jedi's inference runs within a time budget, so its answers depend on machine load; project scans
    # leave it off by default to stay reproducible (same files → same report, safe to cache)
    use_jedi: bool = False
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES  # larger files are skipped (reported with the reason)
    # seconds of analysis per file; past them the file is given up on and reported (scan.error.too_slow).
    # Bounded by a timer signal (the command line, pool workers) or a deadline the analysis checks (a
    # language server's scan thread). 0: no bound
    file_time_limit: float = DEFAULT_FILE_TIME_LIMIT
    # serve a file from the manifest when its size and timestamps are unchanged, without reading it; off:
    # every file is read and looked up by its content hash (msmigrate scan --no-mtime, the language server)
    trust_mtime: bool = True
    # where the migrated code runs: each API finding's resolution (the target its fix writes) is for it
    device: str = "CPU"
    progress: ProgressCallback | None = None
    cancel: CancelToken | None = None

    def with_project_config(self, config: dict[str, Any]) -> ScanOptions:
        """Options where the project's settings fill in what the caller left at its default.

        Command-line values win over the project file; ``exclude`` and ``disabled-rules`` add up.
        """
        merged = replace(self)
        if config.get("mindspore_version") and not self.mindspore_version:
            merged.mindspore_version = config["mindspore_version"]
        merged.exclude = tuple(dict.fromkeys((*config.get("exclude", ()), *self.exclude)))
        if config.get("include") and self.include == DEFAULT_INCLUDE:
            merged.include = tuple(config["include"])
        merged.disabled_rules = tuple(
            dict.fromkeys(r.upper() for r in (*config.get("disabled_rules", ()), *self.disabled_rules))
        )
        merged.severity = {**config.get("severity", {}), **self.severity}
        if config.get("max_file_bytes") and self.max_file_bytes == DEFAULT_MAX_FILE_BYTES:
            merged.max_file_bytes = config["max_file_bytes"]
        return merged


# pyproject key → (option name, expected type)
_CONFIG_KEYS: dict[str, tuple[str, type]] = {
    "mindspore-version": ("mindspore_version", str),
    "disabled-rules": ("disabled_rules", list),
    "exclude": ("exclude", list),
    "include": ("include", list),
    "severity": ("severity", dict),
    "max-file-size": ("max_file_bytes", int | str),
    "compat-module": ("compat_module", str),  # the helper module of compositions (fixes/compositions.py)
}


_TYPE_NAMES: dict[Any, str] = {str: "a string", list: "a list", dict: "a table", int | str: "a size"}


def load_project_config(root: Path) -> dict[str, Any]:
    """Read ``[tool.msmigrate]`` from ``root/pyproject.toml``; ``{}`` when there is none.

    Raises :class:`ConfigError` for a file that is not TOML or settings of the wrong type.
    """
    path = root / "pyproject.toml"
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(read_user_file(path, SETTINGS_FILE_LIMIT)[0].decode("utf-8"))
    except SkippedFile as skipped:
        detail = t(skipped.key, "en", **skipped.fields)
        raise ConfigError("scan.error.bad_config", path=str(path), detail=detail) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError("scan.error.bad_config", path=str(path), detail=detail) from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError("scan.error.bad_config", path=str(path), detail="[tool] is not a table")
    section = tool.get("msmigrate", {})
    if not isinstance(section, dict):
        raise ConfigError("scan.error.bad_config", path=str(path), detail="[tool.msmigrate] is not a table")
    config: dict[str, Any] = {}
    for key, value in section.items():
        if key not in _CONFIG_KEYS:
            continue  # settings of other parts (e.g. the language server) live in the same table
        name, expected = _CONFIG_KEYS[key]
        if not isinstance(value, expected) or type(value) is bool:
            raise ConfigError("scan.error.bad_config", path=str(path),
                              detail=f"{key} must be {_TYPE_NAMES[expected]}")
        if expected is list and not all(isinstance(v, str) for v in value):
            raise ConfigError("scan.error.bad_config", path=str(path), detail=f"{key} must list strings")
        if name == "max_file_bytes":
            try:
                value = parse_size(value)
            except ValueError:
                raise ConfigError("scan.error.bad_config", path=str(path),
                                  detail=f"{key} = {value!r} (a size: 5000000, \"5MB\", \"512KB\")") from None
        config[name] = value
    if "compat_module" in config and not valid_module_name(config["compat_module"]):
        raise ConfigError("scan.error.bad_compat_module", path=str(path), value=config["compat_module"])
    severity = config.get("severity", {})
    for category, level in severity.items():
        if category not in {c.value for c in FindingCategory} or level not in SEVERITY_VALUES:
            raise ConfigError(
                "scan.error.bad_config",
                path=str(path),
                detail=f"severity.{category} = {level!r} (categories: "
                f"{', '.join(c.value for c in FindingCategory)}; levels: {', '.join(SEVERITY_VALUES)})",
            )
    return config
