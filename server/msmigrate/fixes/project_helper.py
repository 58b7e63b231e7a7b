"""``msmigrate fix``'s side of the helper module of compositions: read it once before the files are fixed,
write the helpers the applied fixes call once after (``fixes/compositions.py`` says where it is).

The module is created when missing; an existing one only gets the helpers it lacks (its own text, the
user's edits included, stays). One that cannot take them (not valid Python, not a regular file, unreadable)
turns the composition fixes off for the run, with a message, so no file imports a helper that is not there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msmigrate.fixes.compositions import DEFAULT_MODULE, CompatModule
from msmigrate.fixes.text import unified_diff
from msmigrate.knowledge.compositions.catalogue import helpers_with_needs
from msmigrate.knowledge.compositions.helper_module import BrokenModule, missing_helpers, updated_text


def project_compat(root: Path, config: dict[str, Any]) -> CompatModule:
    """The project's helper module: ``compat_module`` of its ``[tool.msmigrate]`` (checked there), else
    ``ms_compat`` at ``root``."""
    return CompatModule(root, config.get("compat_module") or DEFAULT_MODULE)


@dataclass(slots=True)
class HelperModule:
    """The helper module as read before fixing, and what fixing did to it."""

    compat: CompatModule
    existing: str | None = None  # its text; None when there is none yet
    error_key: str | None = None  # why it cannot take helpers (compositions are not applied then)
    error_args: dict[str, Any] = field(default_factory=dict)
    status: str = "unchanged"  # created | extended | would_create | would_extend | unchanged | error
    added: list[str] = field(default_factory=list)  # the helpers written (or due)
    diff: str = ""

    @property
    def rel(self) -> str:
        return self.compat.path.relative_to(self.compat.root).as_posix()

    @property
    def usable(self) -> bool:
        return self.error_key is None

    @classmethod
    def read(cls, compat: CompatModule, max_bytes: int) -> HelperModule:
        from msmigrate.analysis.parse import SourceError, decode
        from msmigrate.scan.reading import SkippedFile, read_user_file

        found = cls(compat)
        path = compat.path
        if not path.exists() and not path.is_symlink():
            return found
        try:
            found.existing = decode(read_user_file(path, max_bytes)[0])
            missing_helpers(found.existing, [])
        except SkippedFile as skipped:
            found._fail(skipped.key, tuple(skipped.fields.items()))
        except SourceError as exc:
            found._fail(exc.key, tuple(exc.args_.items()))
        except BrokenModule as exc:
            found._fail("fix.error.helper_broken", (("detail", str(exc)),))
        except OSError as exc:
            found._fail("fix.error.read", (("detail", exc.strerror),))
        return found

    def _fail(self, key: str, fields: tuple[tuple[str, object], ...]) -> None:
        """Record why the module cannot take helpers (``key``, ``fields``: the reason's message)."""
        self.error_key, self.status = "fix.error.helper_module", "error"
        self.error_args = {"path": self.rel, "detail": ((key, fields),)}

    def finish(self, helpers: set[str], write: bool) -> None:
        """Add ``helpers`` (those the applied fixes call) to the module, on disk when ``write``."""
        from msmigrate.safe_paths import write_inside

        if not self.usable or not helpers:
            return
        ordered = helpers_with_needs(sorted(helpers))
        text = updated_text(self.existing, ordered)
        if text is None:
            return
        self.added = missing_helpers(self.existing, ordered)
        self.diff = unified_diff(self.existing or "", text, self.rel)
        created = self.existing is None
        if not write:
            self.status = "would_create" if created else "would_extend"
            return
        try:
            write_inside(self.compat.root, self.compat.path.relative_to(self.compat.root).parts, text)
        except OSError as exc:
            self._fail("fix.error.write", (("detail", str(exc)),))
            return
        self.status = "created" if created else "extended"

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        from msmigrate.i18n import t

        return {"path": self.rel, "status": self.status, "helpers": list(self.added),
                "error": t(self.error_key, lang, **self.error_args) if self.error_key else None}
