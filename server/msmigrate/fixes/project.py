"""Fix whole projects (``msmigrate fix``): every selected fix of every file, written atomically.

The editor's fix-all and this module share one engine (:func:`msmigrate.fixes.api.fix_all`); this module
adds what a project needs: discovery (ignore rules, ``[tool.msmigrate]``), rule selection, the safe/unsafe
policy (:mod:`msmigrate.fixes.safety`), byte-exact encoding round trips (BOM, coding cookie, line endings
are kept; only the edited text changes), atomic writes (a temporary file renamed over the original, so a
file is never half-written), and a summary of what was converted and what is left for a person.
"""

from __future__ import annotations

import ast
import os
import stat as stat_mod
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msmigrate.analysis.parse import SourceError, decode, source_encoding
from msmigrate.fixes.leftover_reasons import FileLeftover, file_leftovers, torch_left
from msmigrate.fixes.safety import is_safe
from msmigrate.fixes.text import unified_diff
from msmigrate.model.finding import Finding, FindingCategory, Severity
from msmigrate.scan.model import convertible_rate
from msmigrate.scan.options import DEFAULT_MAX_FILE_BYTES

if TYPE_CHECKING:
    from msmigrate.analysis.options import AnalysisOptions
    from msmigrate.fixes.compositions import CompatModule
    from msmigrate.fixes.model import Fix
    from msmigrate.fixes.project_helper import HelperModule
    from msmigrate.knowledge.base import KnowledgeBase

# Findings a person must look at after fixing: the rest are hints or already MindSpore-shaped.
NEEDS_A_PERSON = Severity.WARNING


class FileStatus(StrEnum):
    FIXED = "fixed"  # fixes applied and written
    WOULD_FIX = "would_fix"  # fixes pending (--diff / --check: nothing written)
    UNCHANGED = "unchanged"  # nothing to fix
    SYNTAX_ERROR = "syntax_error"  # left alone: fixes need a file that parses
    READ_ONLY = "read_only"  # fixes pending but the file is read-only: not written
    ERROR = "error"  # unreadable, binary, undecodable, changed while fixing, write failed


@dataclass(slots=True)
class FixOptions:
    mindspore_version: str | None = None
    select: tuple[str, ...] = ()  # rule ids or prefixes (``MSM5``); empty = every rule
    ignore: tuple[str, ...] = ()
    unsafe: bool = False  # also apply fixes that are not known to keep the results
    write: bool = True  # False: compute diffs only (--diff, --check)
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    device: str = "CPU"  # where the fixed code will run (targets without a kernel there are replaced)

    def selected(self, rule: str) -> bool:
        rule = rule.upper()
        chosen = not self.select or any(rule.startswith(s.upper()) for s in self.select)
        return chosen and not any(rule.startswith(s.upper()) for s in self.ignore)


@dataclass(slots=True)
class FileFix:
    """What fixing one file did."""

    rel: str
    status: FileStatus
    applied: list[Fix] = field(default_factory=list)
    usages_before: int = 0
    usages_after: int = 0
    remaining: list[Finding] = field(default_factory=list)  # findings of the fixed text
    leftovers: list[FileLeftover] = field(default_factory=list)  # torch left in the fixed text, with why
    unsafe_skipped: int = 0  # fixes not applied because they are unsafe (first pass)
    diff: str = ""
    error_key: str | None = None
    error_args: dict[str, Any] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.applied)

    @property
    def torch_free(self) -> bool:
        """Converted: nothing of torch is left in the (fixed) file."""
        return self.status not in (FileStatus.ERROR, FileStatus.SYNTAX_ERROR) and not self.leftovers


@dataclass(slots=True)
class ProjectFix:
    """The result of :func:`fix_paths`."""

    files: list[FileFix]
    version: str
    root: str
    written: bool
    helper_module: HelperModule | None = None  # the module of compositions (fixes/project_helper.py)

    def fixes_by_rule(self) -> dict[str, int]:
        counts = Counter(fix.rule for f in self.files for fix in f.applied)
        return dict(sorted(counts.items()))

    @property
    def usages_before(self) -> int:
        return sum(f.usages_before for f in self.files)

    @property
    def usages_after(self) -> int:
        return sum(f.usages_after for f in self.files)

    @property
    def converted(self) -> int:
        return max(0, self.usages_before - self.usages_after)

    def left_by_category(self) -> dict[str, int]:
        counts = Counter(x.category.value for f in self.files for x in f.remaining)
        return {c.value: counts[c.value] for c in FindingCategory if counts[c.value]}

    def with_torch_left(self) -> list[FileFix]:
        """The files that still need torch (each leftover has its line and reason)."""
        return [f for f in self.files if f.leftovers]

    @property
    def nothing_left(self) -> bool:
        """No finding and nothing of torch left in any file."""
        return not any(f.remaining or f.leftovers for f in self.files)

    def needing_a_person(self) -> list[tuple[str, Finding]]:
        return [(f.rel, x) for f in self.files for x in f.remaining if x.severity.rank >= NEEDS_A_PERSON.rank]

    @property
    def pending(self) -> bool:
        """Whether fixes are (or were) due in some file: ``--check`` exits 1 then."""
        return any(f.status in (FileStatus.WOULD_FIX, FileStatus.READ_ONLY) for f in self.files)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        from msmigrate.i18n import t

        return {
            "mindspore_version": self.version,
            "root": self.root,
            "written": self.written,
            "fixes_by_rule": self.fixes_by_rule(),
            "usages_before": self.usages_before,
            "usages_after": self.usages_after,
            "converted": self.converted,
            "conversion_rate": convertible_rate(self.converted, self.usages_before),
            "left_by_category": self.left_by_category(),
            "unsafe_skipped": sum(f.unsafe_skipped for f in self.files),
            "files_torch_free": sum(1 for f in self.files if f.torch_free),
            "files_with_torch_left": len(self.with_torch_left()),
            "files": [
                {
                    "path": f.rel,
                    "status": f.status.value,
                    "fixes": len(f.applied),
                    "usages_before": f.usages_before,
                    "usages_after": f.usages_after,
                    "error": t(f.error_key, lang, **f.error_args) if f.error_key else None,
                    "torch_free": f.torch_free,
                    "leftovers": [x.to_dict(lang) for x in f.leftovers],
                    "remaining": [x.to_dict(lang) for x in f.remaining],
                }
                for f in self.files
            ],
            "helper_module": self.helper_module.to_json(lang) if self.helper_module is not None else None,
        }


def fix_source(data: bytes, rel: str, kb: KnowledgeBase, options: FixOptions,
               analysis_options: AnalysisOptions | None = None,
               compat: CompatModule | None = None) -> tuple[bytes | None, FileFix]:
    """Fix one file's bytes; returns the new bytes (``None`` when nothing changes) and the record.
    ``compat``: the project's helper module of compositions (None: compositions are not applied)."""
    from msmigrate.analysis.analyzer import analyze_source
    from msmigrate.fixes.api import fix_all

    try:
        text = decode(data)
    except SourceError as exc:
        return None, FileFix(rel, FileStatus.ERROR, error_key=exc.key, error_args=dict(exc.args_))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None) or "?"
        return None, FileFix(rel, FileStatus.SYNTAX_ERROR, error_key="fix.error.syntax",
                             error_args={"line": line, "detail": getattr(exc, "msg", str(exc))})
    from dataclasses import replace

    from msmigrate.analysis.options import AnalysisOptions

    if analysis_options is None or analysis_options.device != options.device:  # resolved for that device
        analysis_options = replace(analysis_options or AnalysisOptions(), device=options.device)
    before = analyze_source(text, rel, kb, analysis_options).findings
    unsafe_skipped: set[tuple[str, int, int]] = set()

    def accept(finding: Finding, fix: Fix) -> bool:
        if not options.selected(fix.rule) or (fix.helpers and compat is None):
            return False
        if options.unsafe or (is_safe(finding, fix=fix) and not fix.by_hand):
            return True
        unsafe_skipped.add((finding.rule, finding.line, finding.column))
        return False

    new_text, applied = fix_all(text, rel, kb, analysis_options, before, accept, options.device, compat)
    after = analyze_source(new_text, rel, kb, analysis_options).findings if applied else before
    left = file_leftovers(ast.parse(new_text) if applied else tree, new_text, rel, after, kb, options.unsafe,
                          options.device)
    left_before = file_leftovers(tree, text, rel, before, kb, options.unsafe, with_fixes=False) if applied \
        else left
    record = FileFix(
        rel, FileStatus.UNCHANGED, applied,
        usages_before=torch_left(before, left_before), usages_after=torch_left(after, left), remaining=after,
        leftovers=left, unsafe_skipped=len(unsafe_skipped),
    )
    if not applied or new_text == text:
        record.applied = []
        return None, record
    encoding = source_encoding(data)
    try:
        new_data = new_text.encode(encoding)
    except UnicodeEncodeError as exc:
        record.status = FileStatus.ERROR
        record.error_key, record.error_args = "fix.error.encode", {"encoding": encoding, "detail": str(exc)}
        return None, record
    record.diff = unified_diff(text, new_text, rel)
    record.status = FileStatus.WOULD_FIX
    return new_data, record


def fix_paths(paths: list[str], options: FixOptions | None = None) -> ProjectFix:
    """Fix every Python file under ``paths``. Raises ``FileNotFoundError`` and ``ConfigError`` like a scan,
    ``KnowledgeBaseError`` when the knowledge base is missing or damaged."""
    from msmigrate.analysis.options import AnalysisOptions
    from msmigrate.fixes.project_helper import HelperModule, project_compat
    from msmigrate.knowledge.base import get_knowledge_base
    from msmigrate.scan.discovery import discover
    from msmigrate.scan.options import ScanOptions, load_project_config
    from msmigrate.scan.runner import prepare_options, project_index_of

    options = options or FixOptions()
    scan_options = prepare_options(paths, ScanOptions(mindspore_version=options.mindspore_version,
                                                      exclude=options.exclude))
    kb = get_knowledge_base(scan_options.mindspore_version).require()  # KnowledgeBaseError: stop here
    analysis_options = AnalysisOptions(disabled_rules=frozenset(scan_options.disabled_rules), use_jedi=False,
                                       device=options.device)
    found = discover(paths, scan_options.include, scan_options.exclude, scan_options.respect_gitignore)
    # the project's module classes and built fields, as a scan sees them, before any file is rewritten
    analysis_options.module_classes, analysis_options.project_fields = project_index_of(
        found.files, options.max_file_bytes)
    compat_module = project_compat(found.root, load_project_config(found.root))
    helper = HelperModule.read(compat_module, options.max_file_bytes)
    compat = helper.compat if helper.usable else None  # a module that cannot take helpers: no compositions
    records = [fix_file(source.path, source.rel, kb, options, analysis_options, compat)
               for source in found.files]
    helper.finish({name for r in records for fix in r.applied for name in fix.helpers}, options.write)
    return ProjectFix(records, kb.version, str(found.root), options.write, helper)


def fix_file(path: Path, rel: str, kb: KnowledgeBase, options: FixOptions,
             analysis_options: AnalysisOptions | None = None, compat: CompatModule | None = None) -> FileFix:
    """Fix one file on disk (written only when ``options.write``; never partially)."""
    from msmigrate.scan.reading import SkippedFile, read_user_file

    try:  # the one reader of user files: regular files only, never blocks, size cap
        data, before_stat = read_user_file(path, options.max_file_bytes)
    except SkippedFile as skipped:
        return FileFix(rel, FileStatus.ERROR, error_key=skipped.key, error_args=dict(skipped.fields))
    except OSError as exc:
        return FileFix(rel, FileStatus.ERROR, error_key="fix.error.read",
                       error_args={"detail": exc.strerror or str(exc)})
    new_data, record = fix_source(data, rel, kb, options, analysis_options, compat)
    if new_data is None or not options.write:
        return record
    if not _writable(path, before_stat):
        record.status = FileStatus.READ_ONLY
        return record
    try:
        write_atomic(path, new_data, before_stat)
    except _ChangedMeanwhile:
        record.status, record.error_key, record.error_args = FileStatus.ERROR, "fix.error.changed", {}
        return record
    except OSError as exc:
        record.status = FileStatus.ERROR
        record.error_key, record.error_args = "fix.error.write", {"detail": exc.strerror or str(exc)}
        return record
    record.status = FileStatus.FIXED
    return record


def _writable(path: Path, info: os.stat_result) -> bool:
    """A file nobody may write (mode without write bits) counts as read-only even for root."""
    return bool(info.st_mode & 0o222) and os.access(path, os.W_OK)


class _ChangedMeanwhile(Exception):
    """The file changed on disk between reading and writing it."""


def write_atomic(path: Path, data: bytes, expected: os.stat_result | None = None) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path`` (same mode).

    With ``expected`` (the stat of the version that was read), a file modified in the meantime is left
    alone (:class:`_ChangedMeanwhile`).
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".msmigrate-tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        current = os.stat(path)
        os.chmod(tmp, stat_mod.S_IMODE(current.st_mode))
        if expected is not None and (current.st_mtime_ns, current.st_size) != (
            expected.st_mtime_ns, expected.st_size
        ):
            raise _ChangedMeanwhile()
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
