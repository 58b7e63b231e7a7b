"""Which files a scan reads: walk folders, skip tool/VCS/virtualenv/build folders and ignored paths.

Rules, in order, for everything below a scanned folder:

* folders named in :data:`SKIP_DIRS`, ``*.egg-info`` and any folder holding ``pyvenv.cfg`` are skipped;
* ``.gitignore`` files apply (those of the scanned folder's ancestors up to the Git work-tree top, then
  those met during the walk; a deeper file's ``!pattern`` re-includes), unless disabled;
* ``exclude`` globs (gitignore syntax, relative to the scanned folder) drop files and folders;
* a file is kept when its path relative to the scanned folder matches an ``include`` glob (``*.py``;
  stubs, ``*.pyi``, declare interfaces and hold no code to migrate, so they are left out by default);
* symbolic links are never followed into folders; a link to a file is read only when its target lies
  inside the scanned folder and is not read anyway under its real path.

A file named explicitly on the command line is always scanned (its suffix and ignore rules don't matter).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pathspec import GitIgnoreSpec

from msmigrate.scan.reading import SETTINGS_FILE_LIMIT, SkippedFile, read_user_file

SKIP_DIRS: frozenset[str] = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        "env",
        ".env",
        "node_modules",
        "__pycache__",
        "build",
        "dist",
        ".tox",
        ".nox",
        "site-packages",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".ipynb_checkpoints",
    }
)


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: Path  # absolute path to read (symlinks resolved)
    rel: str  # POSIX path relative to the report root, as reports show it


@dataclass(frozen=True, slots=True)
class Discovery:
    root: Path  # the report root: the common folder of everything scanned
    files: list[SourceFile]
    scanned_roots: list[Path]  # the folders (or the single files' folders) that were scanned
    # folders that could not be read: (path relative to the root, ending in "/"; the OS error text)
    unreadable: list[tuple[str, str]] = field(default_factory=list)


class _IgnoreRules:
    """Stacked gitignore specs, each applying to paths relative to its own folder (absolute strings)."""

    def __init__(self, specs: tuple[tuple[str, GitIgnoreSpec], ...] = ()) -> None:
        self.specs = specs

    def with_file(self, folder: str, gitignore: str) -> _IgnoreRules:
        try:
            lines = read_user_file(gitignore, SETTINGS_FILE_LIMIT)[0].decode("utf-8", "replace").splitlines()
        except (OSError, SkippedFile):
            return self
        return _IgnoreRules((*self.specs, (folder.rstrip(os.sep) + os.sep, GitIgnoreSpec.from_lines(lines))))

    def ignored(self, path: str, is_dir: bool) -> bool:
        verdict = False
        for base, spec in self.specs:
            if not path.startswith(base):
                continue
            rel = path[len(base):].replace(os.sep, "/")
            result = spec.check_file(rel + "/" if is_dir else rel).include
            if result is not None:
                verdict = result
        return verdict


_SUFFIX_GLOB = re.compile(r"\*\.[A-Za-z0-9_]+")


class _Globs:
    """Gitignore-style globs matched against paths relative to the scanned folder. The usual cases, no
    pattern at all and suffix patterns such as ``*.py``, are answered without pathspec (a suffix pattern
    matches a path one of whose components ends with the suffix, as in gitignore)."""

    def __init__(self, patterns: list[str]) -> None:
        self.spec = GitIgnoreSpec.from_lines(patterns)
        active = [p for p in patterns if p.strip() and not p.lstrip().startswith("#")]
        self.empty = not active
        simple = bool(active) and all(_SUFFIX_GLOB.fullmatch(p) for p in active)
        self.suffixes = tuple(p[1:] for p in active) if simple else None

    def match_file(self, rel: str) -> bool:
        if self.empty:
            return False
        suffixes = self.suffixes
        if suffixes is None:
            return self.spec.match_file(rel)
        return any(part.endswith(suffixes) for part in rel.split("/") if part)


def report_root(paths: Sequence[str | os.PathLike[str]]) -> Path | None:
    """The common folder of ``paths`` (a file counts as its folder); ``None`` if a path is missing."""
    folders = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            return None
        real = path.resolve()
        folders.append(real if real.is_dir() else real.parent)
    return Path(os.path.commonpath([str(p) for p in folders])) if folders else None


def discover(paths: Sequence[str | os.PathLike[str]], include: Iterable[str] = ("*.py",),
             exclude: Iterable[str] = (), respect_gitignore: bool = True) -> Discovery:
    """Find the files to scan under ``paths`` (files or folders). Raises ``FileNotFoundError``."""
    resolved: list[tuple[Path, bool]] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise FileNotFoundError(str(raw))
        real = path.resolve()
        resolved.append((real, real.is_dir()))
    if not resolved:
        return Discovery(Path.cwd(), [], [])
    scanned_roots = [real if is_dir else real.parent for real, is_dir in resolved]
    root = Path(os.path.commonpath([str(p) for p in scanned_roots]))
    include_spec = _Globs(list(include))
    exclude_spec = _Globs(list(exclude))

    found: dict[str, str] = {}  # real path → path as met (for the report's relative path)
    links: list[tuple[Path, Path, Path]] = []  # (link, target, scanned folder)
    unreadable: dict[str, str] = {}  # folder → why it could not be read
    for real, is_dir in resolved:
        if not is_dir:
            found.setdefault(str(real), str(real))
            continue
        rules = _ancestor_gitignores(real) if respect_gitignore else _IgnoreRules()
        _walk(real, str(real), "", rules, include_spec, exclude_spec, respect_gitignore, found, links,
              unreadable)
    for link, target, folder in links:
        if target.is_relative_to(folder) and str(target) not in found:
            found[str(target)] = str(link)
    root_text = str(root)
    prefix = root_text if root_text.endswith(os.sep) else root_text + os.sep
    files = [
        SourceFile(Path(real), shown_path(shown[len(prefix):].replace(os.sep, "/") if shown.startswith(prefix)
                                          else _relative(Path(shown), root)))
        for real, shown in found.items()
    ]
    files.sort(key=lambda f: f.rel)
    folders = sorted((shown_path(_relative(Path(folder), root)) + "/", why)
                     for folder, why in unreadable.items())
    return Discovery(root, files, scanned_roots, folders)


def shown_path(rel: str) -> str:
    """A path as reports show it: bytes of a file name that are not UTF-8 (a GBK name on a UTF-8 system,
    kept by Python as lone surrogates) become backslash escapes (``\\xc4``), so every format can hold it."""
    if rel.isascii():
        return rel
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:  # a link shown under another name: fall back to its real location
        return path.resolve().relative_to(root).as_posix()


def _ancestor_gitignores(folder: Path) -> _IgnoreRules:
    """The ``.gitignore`` files above ``folder`` inside its Git work tree (outermost first)."""
    chain: list[Path] = []
    for parent in folder.parents:
        chain.append(parent)
        if (parent / ".git").exists():
            break
    else:
        return _IgnoreRules()  # not inside a Git work tree: only the files below apply
    rules = _IgnoreRules()
    for parent in reversed(chain):
        if (parent / ".gitignore").is_file():
            rules = rules.with_file(str(parent), str(parent / ".gitignore"))
    return rules


def _is_skipped_dir(entry: os.DirEntry[str]) -> bool:
    name = entry.name
    if name in SKIP_DIRS or name.endswith(".egg-info"):
        return True
    return os.path.exists(os.path.join(entry.path, "pyvenv.cfg"))


def _walk(top: Path, folder: str, rel_folder: str, rules: _IgnoreRules, include: _Globs,
          exclude: _Globs, respect_gitignore: bool, found: dict[str, str],
          links: list[tuple[Path, Path, Path]], unreadable: dict[str, str]) -> None:
    """Walk ``folder`` (absolute, real) whose path relative to ``top`` is ``rel_folder`` (``""`` at top)."""
    gitignore = os.path.join(folder, ".gitignore")
    if respect_gitignore and os.path.isfile(gitignore):
        rules = rules.with_file(folder, gitignore)
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:  # reported as skipped, with the reason
        unreadable[folder] = exc.strerror or str(exc)
        return
    for entry in entries:
        rel = rel_folder + entry.name
        try:
            is_link = entry.is_symlink()
            is_dir = not is_link and entry.is_dir(follow_symlinks=False)
            is_file = entry.is_file(follow_symlinks=True)
        except OSError:
            continue
        if is_dir:
            if _is_skipped_dir(entry) or exclude.match_file(rel + "/") or rules.ignored(entry.path, True):
                continue
            _walk(top, entry.path, rel + "/", rules, include, exclude, respect_gitignore, found, links,
                  unreadable)
            continue
        if not is_file or not include.match_file(rel) or exclude.match_file(rel):
            continue
        if rules.ignored(entry.path, False):
            continue
        if is_link:
            path = Path(entry.path)
            try:
                links.append((path, path.resolve(strict=True), top))
            except (OSError, RuntimeError):  # dangling link or a loop
                continue
        else:
            found.setdefault(entry.path, entry.path)
