"""``scan_paths``: discover files, reuse cached results, analyse the rest (in parallel), build the report."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any

from msmigrate.analysis.analyzer import gc_paused
from msmigrate.analysis.options import ProjectIndex
from msmigrate.knowledge.base import VERSIONS, get_knowledge_base, resolve_version
from msmigrate.model.finding import FileResult, Severity
from msmigrate.scan.cache import Manifest, ResultCache, content_hash, file_key, scan_key_prefix
from msmigrate.scan.discovery import discover, report_root
from msmigrate.scan.model import ScanReport
from msmigrate.scan.options import ConfigError, ScanCancelled, ScanOptions, load_project_config
from msmigrate.scan.reading import SkippedFile, kind_of, not_regular, read_user_file
from msmigrate.scan.worker import (
    TOO_SLOW,
    CompactReader,
    analyze_chunk,
    analyze_file,
    init_worker,
    result_from_cache,
    result_to_cache,
    within_time,
)

_CHUNKS_PER_JOB = 4
# bugs are not remembered, nor files given up on (that depends on the machine's load)
_NOT_CACHED = frozenset({"scan.error.internal", "analysis.internal_error", TOO_SLOW})
_MAX_CHUNK = 32


def prepare_options(paths: Sequence[str | os.PathLike[str]], options: ScanOptions | None) -> ScanOptions:
    """Caller's options merged with the report root's ``[tool.msmigrate]`` (raises ``ConfigError``)."""
    options = options or ScanOptions()
    root = report_root(paths)
    return options.with_project_config(load_project_config(root)) if root else options


def scan_paths(paths: Sequence[str | os.PathLike[str]], options: ScanOptions | None = None) -> ScanReport:
    """Scan files and folders. Raises ``FileNotFoundError``, ``ConfigError``, ``ScanCancelled``, or
    ``KnowledgeBaseError`` when files need analysing and the knowledge base is missing or damaged."""
    options = prepare_options(paths, options)
    try:
        version = resolve_version(options.mindspore_version)
    except ValueError:
        raise ConfigError(
            "scan.error.bad_version", version=options.mindspore_version, choices=", ".join(VERSIONS)
        ) from None
    found = discover(paths, options.include, options.exclude, options.respect_gitignore)
    analysis_options = _analysis_options(options)
    cache = ResultCache(options.cache_dir) if options.use_cache else None
    root = str(found.root)
    limit = options.max_file_bytes
    # the manifest is named without the project index, which is built from its files' outlines
    manifest_prefix = scan_key_prefix(version, analysis_options)
    read: dict[str, tuple[bytes, list[list]]] = {}  # files read for the index: bytes, outline
    with gc_paused():
        manifest = cache.manifest(root, manifest_prefix) if cache is not None else None
        index = _project_index(found.files, limit, manifest if options.trust_mtime else None,
                               read if manifest is not None else None)
        analysis_options.module_classes, analysis_options.project_fields = index

    def outline_of(rel: str, data: bytes) -> list[list]:
        before = read.pop(rel, None)
        return before[1] if before is not None and before[0] == data else _outline(data)

    prefix = scan_key_prefix(version, analysis_options)
    total = len(found.files)
    done = 0
    _progress(options, 0, total)

    results: dict[str, FileResult] = {}
    pending: list[tuple[str, bytes, str]] = []  # (relative path, bytes, cache key)
    hashed: dict[str, tuple[os.stat_result, str, list[list]]] = {}  # stat, hash, outline (pending)
    try:
        with gc_paused():  # (cached results, read files: nothing here makes reference cycles)
            for source in found.files:
                _raise_if_cancelled(options)
                rel = source.rel
                try:
                    stat = os.stat(source.path)
                except OSError as exc:
                    results[rel] = FileResult(rel, [], "scan.error.read",
                                              {"detail": exc.strerror or str(exc)})
                    done += 1
                    _progress(options, done, total)
                    continue
                cached = tried = None
                if (manifest is not None and options.trust_mtime and stat.st_size <= limit
                        and kind_of(stat.st_mode) is None):
                    cached, tried = _from_manifest(manifest, cache, prefix, rel, stat)
                if cached is None:
                    data, error, stat = _read(source.path, limit, stat)
                    if error is not None:
                        results[rel] = FileResult(rel, [], *error)
                        if manifest is not None:
                            manifest.forget(rel)
                    else:
                        assert data is not None
                        data_hash = content_hash(data)
                        key = file_key(prefix, rel, data_hash)
                        value = cache.get(key) if cache is not None and key != tried else None
                        cached = _decoded(cache, key, rel, value)
                        if cached is None:
                            pending.append((rel, data, key))
                            if manifest is not None:
                                hashed[rel] = (stat, data_hash, outline_of(rel, data))
                            continue
                        if manifest is not None:
                            manifest.record(rel, stat, data_hash, key, value, outline_of(rel, data))
                if cached is not None:
                    results[rel] = cached
                done += 1
                _progress(options, done, total)

        for rel, key, result in _analyze(pending, version, analysis_options, options):
            results[rel] = result
            if cache is not None and result.error_key not in _NOT_CACHED:
                value = result_to_cache(result)
                cache.put(key, value)
                if manifest is not None:
                    stat, data_hash, outline = hashed[rel]
                    manifest.record(rel, stat, data_hash, key, value, outline)
            done += 1
            _progress(options, done, total)
    finally:
        hits, misses = (cache.hits, cache.misses) if cache else (0, len(pending))
        if cache is not None:
            if manifest is not None:
                cache.save_manifest(root, manifest_prefix, manifest)
            cache.close()

    files = [_apply_settings(results[f.rel], options) for f in found.files]
    if found.unreadable:  # folders the walk could not read, listed among the files with the reason
        files += [FileResult(rel, [], "scan.error.unreadable_folder", {"detail": why})
                  for rel, why in found.unreadable]
        files.sort(key=lambda f: f.path)
    return ScanReport(files, version, root=str(found.root), cache_hits=hits, cache_misses=misses)


def _analysis_options(options: ScanOptions) -> Any:
    """What the analyzer is told. Rule selection and severities are applied after the cache (see
    :func:`_apply_settings`), so changing them does not invalidate cached results."""
    from msmigrate.analysis.options import AnalysisOptions

    return AnalysisOptions(use_jedi=options.use_jedi, device=options.device)


def project_index(paths: Sequence[str | os.PathLike[str]], include: tuple[str, ...] = ("*.py",),
                  exclude: tuple[str, ...] = (), limit: int = 1024 * 1024,
                  fields: bool = True) -> ProjectIndex:
    """The project facts of the Python files under ``paths`` (the language server's workspace, the
    package of a model ``msmigrate compare`` runs); without ``fields``, the module classes only (a line
    scan: no file is parsed)."""
    try:
        found = discover(paths, include, exclude)
    except (OSError, ValueError):
        return ProjectIndex()
    return _project_index(found.files, limit, fields=fields)


def project_index_of(files: list[Any], limit: int = 1024 * 1024) -> ProjectIndex:
    """The project facts of the discovered ``files`` (``msmigrate fix`` builds them before writing)."""
    return _project_index(files, limit)


def _project_index(files: list[Any], limit: int, manifest: Manifest | None = None,
                   read: dict[str, tuple[bytes, list[list]]] | None = None,
                   fields: bool = True) -> ProjectIndex:
    """The project's nn.Module subclasses (a line scan of the class headers) and the fields its files build
    (``analysis/project_fields.py``) over all scanned files; part of the analysis options, so of the cache
    key: a new module class or list field re-analyses the files. The outline (:func:`_outline`) of a file
    unchanged since ``manifest`` was saved comes from it, without reading the file; those of the files read
    are kept in ``read`` with their bytes."""
    from msmigrate.analysis.project_classes import index_of_headers
    from msmigrate.analysis.project_fields import field_index

    outlines: list[tuple[str, list[list]]] = []
    for source in files:
        if manifest is not None:
            try:
                stat = os.stat(source.path)
            except OSError:
                stat = None
            if stat is not None and stat.st_size <= limit and kind_of(stat.st_mode) is None:
                known = manifest.known_outline(source.rel, stat)
                if known is not None:
                    outlines.append((source.rel, known))
                    continue
        try:
            data, _ = read_user_file(source.path, limit)  # regular files only (no FIFO, /dev/zero)
        except (OSError, SkippedFile):
            continue
        found = _outline(data, fields)
        if read is not None:
            read[source.rel] = (data, found)
        outlines.append((source.rel, found))
    return ProjectIndex(index_of_headers((rel, outline[0]) for rel, outline in outlines),
                        field_index((rel, outline[1]) for rel, outline in outlines))


def _outline(data: bytes, fields: bool = True) -> list[list]:
    """What the project index reads of a file's bytes, kept in the scan's manifest: ``[class headers
    (analysis/project_classes.class_headers), built fields (analysis/project_fields.file_fields)]``."""
    from msmigrate.analysis.project_classes import class_headers
    from msmigrate.analysis.project_fields import file_fields

    text = data.decode("utf-8", "replace")
    headers = class_headers(text) if b"class" in data or b"->" in data else []  # "->": annotated factories
    return [headers, file_fields(text) if fields else []]


def _progress(options: ScanOptions, done: int, total: int) -> None:
    if options.progress is not None:
        options.progress(done, total)


def _raise_if_cancelled(options: ScanOptions) -> None:
    if options.cancel is not None and options.cancel.cancelled:
        raise ScanCancelled()


def _read(path: Path, limit: int, before: os.stat_result
          ) -> tuple[bytes | None, tuple[str, dict[str, Any]] | None, os.stat_result]:
    """The file's bytes and ``fstat`` (``before``: a stat just before), or the reason it is skipped: not a
    regular file, larger than ``limit``, unreadable."""
    if kind_of(before.st_mode) is not None:  # known without opening it (a FIFO, a device …)
        skipped = not_regular(before.st_mode)
        return None, (skipped.key, skipped.fields), before
    try:
        data, info = read_user_file(path, limit)
    except SkippedFile as skipped:
        return None, (skipped.key, skipped.fields), before
    except OSError as exc:
        return None, ("scan.error.read", {"detail": exc.strerror or str(exc)}), before
    return data, None, info


def _decoded(cache: ResultCache | None, key: str, rel: str,
             value: dict[str, Any] | None) -> FileResult | None:
    """The result of a cache entry, or ``None`` (an entry of an unexpected shape is dropped)."""
    if value is None:
        return None
    try:
        return result_from_cache(rel, value)
    except (KeyError, TypeError, ValueError):  # an entry of an unexpected shape: analyse again
        if cache is not None:
            cache.delete(key)
            cache.hits -= 1
            cache.misses += 1
        return None


def _from_manifest(manifest: Manifest, cache: ResultCache | None, prefix: str, rel: str,
                   stat: os.stat_result) -> tuple[FileResult | None, str | None]:
    """An unchanged file's result without reading it (from the manifest, else from the store), and the
    key looked up in the store, if any."""
    known = manifest.known_hash(rel, stat)
    if known is None or cache is None:
        return None, None
    key = file_key(prefix, rel, known)
    outline = manifest.entries[rel][6]  # (kept: a malformed result drops the entry)
    result = manifest.result(rel, key)
    if result is not None:
        cache.hits += 1
        return result, None
    value = cache.get(key)
    result = _decoded(cache, key, rel, value)
    if result is not None:
        manifest.record(rel, stat, known, key, value, outline)
    return result, key


def _apply_settings(result: FileResult, options: ScanOptions) -> FileResult:
    """Drop findings of disabled rules or of categories set to ``off``; apply severity overrides."""
    if not options.disabled_rules and not options.severity:
        return result
    disabled = {r.upper() for r in options.disabled_rules}
    kept = []
    for finding in result.findings:
        level = options.severity.get(finding.category.value)
        if finding.rule in disabled or level == "off":
            continue
        own = not level or level == "default"  # the finding's own severity (analysis/severity.py)
        kept.append(finding if own else replace(finding, severity=Severity(level)))
    return replace(result, findings=kept)


def _analyze(pending: list[tuple[str, bytes, str]], version: str, analysis_options: Any,
             options: ScanOptions):
    """Yield ``(relative path, cache key, FileResult)`` for every pending file."""
    if pending:  # one clear error before any file is analysed (KnowledgeBaseError), not one per file
        get_knowledge_base(version).require()
    jobs = max(1, options.jobs)
    if jobs == 1 or len(pending) < 2:
        yield from _analyze_here(pending, version, analysis_options, options)
        return
    keys = {rel: key for rel, _, key in pending}
    size = max(1, min(_MAX_CHUNK, len(pending) // (jobs * _CHUNKS_PER_JOB)))
    chunks = [[(rel, data) for rel, data, _ in pending[i : i + size]] for i in range(0, len(pending), size)]
    finished: set[str] = set()
    context = _mp_context()
    if context.get_start_method() == "fork":
        _preload(version)  # forked workers share the loaded tables instead of each loading them
    executor = ProcessPoolExecutor(
        max_workers=min(jobs, len(chunks)), mp_context=context,
        initializer=init_worker, initargs=(version, analysis_options, options.file_time_limit),
    )
    waiting: set[Future[Any]] = set()
    try:
        waiting = {executor.submit(analyze_chunk, chunk) for chunk in chunks}
        while waiting:
            completed, waiting = wait(waiting, timeout=0.2, return_when=FIRST_COMPLETED)
            _raise_if_cancelled(options)
            for future in completed:
                table, results = future.result()
                reader = CompactReader(table)
                for rel, data in results:
                    finished.add(rel)
                    yield rel, keys[rel], _from_worker(rel, data, reader)
    except BrokenProcessPool:  # a worker died (out of memory, killed): finish in this process
        rest = [item for item in pending if item[0] not in finished]
        yield from _analyze_here(rest, version, analysis_options, options)
    finally:
        # Every chunk done: wait for the workers to exit. ``wait=False`` leaves the pool's manager thread
        # running into interpreter exit, where it may write to a closed wake-up pipe ("OSError: [Errno 9]
        # Bad file descriptor" on stderr, seen under load); only a cancelled or failed scan stops early.
        executor.shutdown(wait=not waiting, cancel_futures=True)


def _from_worker(rel: str, data: dict[str, Any], reader: CompactReader | None = None) -> FileResult:
    """A pool worker's result (in cache form, or in compact form read with ``reader``); one that fails the
    cache checks is the file's internal error (a bug)."""
    try:
        return result_from_cache(rel, data) if reader is None else reader.result(rel, data)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return FileResult(rel, [], "scan.error.internal", {"detail": f"{type(exc).__name__}: {exc}"})


def _analyze_here(pending: list[tuple[str, bytes, str]], version: str, analysis_options: Any,
                  options: ScanOptions):
    kb = get_knowledge_base(version)
    for rel, data, key in pending:
        _raise_if_cancelled(options)
        yield rel, key, within_time(options.file_time_limit, rel,
                                    lambda token: analyze_file(data, rel, kb, analysis_options,  # noqa: B023
                                                               token))


def _mp_context() -> multiprocessing.context.BaseContext:
    """``fork`` when it is safe (a single-threaded caller such as the CLI), otherwise ``spawn``."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _preload(version: str) -> None:
    """What every forked worker would otherwise build for itself: the tables, the torch facts the walk
    uses, the rule modules."""
    from msmigrate.analysis.analyzer import rule_checkers
    from msmigrate.analysis.receivers import facts_for

    kb = get_knowledge_base(version).require()
    facts_for(kb)
    rule_checkers()
