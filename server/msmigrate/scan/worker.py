"""Analysis of one file's bytes, in the scanning process or in a worker process of the pool.

Results travel (and are cached) in the lossless JSON form
``{"findings": [[field values of a Finding], ...], "error_key", "error_args", "lines", "syntax_error"}``
(``syntax_error``: ``[line, detail]`` of a recovered syntax error, or ``None``; absent in older entries).
"""

from __future__ import annotations

import dataclasses
import json
import operator
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from msmigrate.analysis.cancel import NEVER, Cancelled, CancelToken, DeadlineToken
from msmigrate.model.finding import FileResult, Finding, FindingCategory, Severity, UsageKind
from msmigrate.model.resolution import Resolution

_WORKER: dict[str, Any] = {}  # per worker process: the knowledge base, analysis options, time limit
TOO_SLOW = "scan.error.too_slow"


class FileTooSlow(BaseException):
    """Raised in the analysing thread when a file's time limit has passed (a ``BaseException``, so the
    analyzer's own ``except Exception`` does not turn it into a result)."""


def analyze_file(data: bytes, rel_path: str, kb: Any, analysis_options: Any,
                 cancel: CancelToken = NEVER) -> FileResult:
    """Run the analyzer on one file; an unexpected exception becomes the file's error, never a crash
    (``Cancelled``, raised once ``cancel`` is, goes through)."""
    try:
        from msmigrate.analysis.analyzer import analyze_source

        result = analyze_source(data, rel_path, kb, analysis_options, cancel)
    except Exception as exc:  # the analyzer promises not to raise; a bug must not stop a project scan
        return FileResult(rel_path, [], "scan.error.internal", {"detail": f"{type(exc).__name__}: {exc}"})
    result.path = rel_path
    return result


def within_time(time_limit: float, rel_path: str,
                analyse: Callable[[CancelToken], FileResult]) -> FileResult:
    """``analyse(token)`` (one file's analysis), stopped after ``time_limit`` seconds (0: no limit): by a
    timer signal where :func:`bounded_time` can set one, otherwise (a language server's scan thread) by a
    :class:`DeadlineToken` the analysis checks. The file is then reported as given up on
    (``scan.error.too_slow``)."""
    too_slow = FileResult(rel_path, [], TOO_SLOW, {"seconds": f"{time_limit:g}"})
    if time_limit > 0 and not _timer_usable():
        token = DeadlineToken(time_limit)
        try:
            return analyse(token)
        except Cancelled:
            if token.expired:
                return too_slow
            raise
    try:
        with bounded_time(time_limit):
            return analyse(NEVER)
    except FileTooSlow:
        return too_slow


def _timer_usable() -> bool:
    """Whether :func:`bounded_time` can use a ``SIGALRM`` timer here (see there)."""
    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))


@contextmanager
def bounded_time(seconds: float) -> Iterator[None]:
    """Raise :class:`FileTooSlow` in this thread once ``seconds`` have passed (a ``SIGALRM`` timer).
    Only where that is possible and harmless: the main thread of a process on a system with
    ``setitimer`` (the command line, pool workers) whose real-time timer is not in use; elsewhere nothing
    is bounded here (:func:`within_time` uses a :class:`DeadlineToken` instead)."""
    if seconds <= 0 or not _timer_usable():
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise FileTooSlow()

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# Findings are cached as rows of field values (compact, quick to decode); the field order is part of the
# code fingerprint in every cache key, since it comes from model/finding.py.
FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Finding))
_ENUMS: dict[str, dict[str, Any]] = {
    "category": {c.value: c for c in FindingCategory},
    "severity": {s.value: s for s in Severity},
    "usage": {u.value: u for u in UsageKind},
}


_FIELD_VALUES = operator.attrgetter(*FIELDS)


def finding_to_row(finding: Finding) -> list[Any]:
    row = list(_FIELD_VALUES(finding))
    resolution = row[RESOLUTION]
    row[RESOLUTION] = resolution.to_json() if resolution is not None else None
    return row


_CATEGORY, _SEVERITY, _USAGE = (FIELDS.index(name) for name in ("category", "severity", "usage"))
_CATEGORIES, _SEVERITIES, _USAGES = _ENUMS["category"], _ENUMS["severity"], _ENUMS["usage"]
ARGS = FIELDS.index("message_args")
RESOLUTION = FIELDS.index("resolution")


def finding_from_row(row: list[Any]) -> Finding:
    if type(row) is not list or len(row) != len(FIELDS):
        raise ValueError("not a cached finding")
    values = row.copy()
    _validate_position(values[:_POSITION])
    _validate_kind(values)
    values[_CATEGORY] = _CATEGORIES[values[_CATEGORY]]
    values[_SEVERITY] = _SEVERITIES[values[_SEVERITY]]
    values[_USAGE] = _USAGES[values[_USAGE]]  # (_validate_kind froze the message arguments)
    return Finding(*values)


# --- validation of what is read back: a cached value of the wrong type or shape raises ValueError (the
# cache treats it as a miss), so it can neither crash a scan nor reach a report
_OPTIONAL_TEXT = (str, type(None))
# message arguments: plain values, or (nested) lists of them: message references, 4 levels each (list,
# reference, fields, field), which nest (a derived mapping's provenance holds its evidence)
_MAX_DEPTH = 24  # (a resolution's note nests the replaced mapping's message in the finding's)
_TEXT_FIELDS = {
    FIELDS.index(name): kinds
    for name, kinds in (("torch_api", _OPTIONAL_TEXT), ("mindspore_api", _OPTIONAL_TEXT), ("rule", (str,)),
                        ("written_api", _OPTIONAL_TEXT),
                        ("message_key", (str,)))
}
_FIXABLE = FIELDS.index("fixable")
_MESSAGE_KEY = FIELDS.index("message_key")


def _validate_position(numbers: list[Any]) -> None:
    if numbers and (set(map(type, numbers)) != {int} or min(numbers) < 0):
        raise ValueError("not a cached position")


def _validate_kind(values: list[Any]) -> None:
    """The fields after the position of a cached finding (``values``: all fields, position included)."""
    from msmigrate.i18n import catalogue

    for index, kinds in _TEXT_FIELDS.items():
        if not isinstance(values[index], kinds):
            raise ValueError(f"cached {FIELDS[index]} of type {type(values[index]).__name__}")
    if type(values[_FIXABLE]) is not bool or values[_MESSAGE_KEY] not in catalogue():
        raise ValueError("not a cached finding")
    if not isinstance(values[ARGS], dict) or not _plain(values[ARGS], _MAX_DEPTH):
        raise ValueError("not cached message arguments")
    for index, table in ((_CATEGORY, _CATEGORIES), (_SEVERITY, _SEVERITIES), (_USAGE, _USAGES)):
        if not isinstance(values[index], str) or values[index] not in table:
            raise ValueError(f"cached {FIELDS[index]} {values[index]!r}")
    values[ARGS] = frozen_args(values[ARGS])  # (a new dict when it changes: the caller's row is a copy)
    _validate_message(values[_MESSAGE_KEY], values[ARGS])
    if values[RESOLUTION] is not None:
        values[RESOLUTION] = Resolution.from_json(values[RESOLUTION])  # ValueError when damaged


def _validate_message(key: str, args: dict[str, Any]) -> None:
    """The message renders with these arguments (the fields it names, message references that exist):
    told from the message's fields (:func:`msmigrate.i18n.renders`), else by rendering it."""
    from msmigrate.i18n import renders, t

    fits = renders(key, {**args, "_": None})  # as below: formatted even without arguments
    if fits is True:
        return
    if fits is False:
        raise ValueError(f"cached message {key!r} does not render: KeyError")
    for lang in ("en", "zh"):
        try:
            t(key, lang, **{**args, "_": None})  # one field more: t() formats even without arguments
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"cached message {key!r} does not render: {type(exc).__name__}") from None


_SCALARS = frozenset({str, int, float, bool, type(None)})  # (exact types: a quick test before isinstance)


def _plain(value: Any, depth: int) -> bool:
    """JSON scalars, lists (tuples) and string-keyed objects of them, nested at most ``depth`` deep."""
    if type(value) in _SCALARS or value is None or isinstance(value, str | int | float):
        return True
    if depth <= 0:
        return False
    scalars, inner = _SCALARS, depth - 1
    if isinstance(value, list | tuple):
        for item in value:
            if type(item) not in scalars and not _plain(item, inner):
                return False
        return True
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or (type(item) not in scalars and not _plain(item, inner)):
                return False
        return True
    return False


def _tuples(value: Any) -> Any:
    if type(value) is not list:
        return value
    return tuple([_tuples(item) if type(item) is list else item for item in value])


def frozen_args(args: Any) -> Any:
    """Message arguments as the analyzer made them: JSON turned their tuples (message references, see
    ``i18n.ref``) into lists; they become tuples again (equal to a fresh analysis's, and hashable)."""
    if type(args) is dict and list in map(type, args.values()):
        return {name: _tuples(value) for name, value in args.items()}
    return args


# --- compact form (scan manifests): the fields after the position, a "kind", are shared by many findings
# (every use of one API), so a finding is 5 numbers: line, column, end_line, end_column, index into a
# table of kinds; ``rows`` is the flat list of those numbers.
_POSITION = 4
_ROW = _POSITION + 1
if FIELDS[:_POSITION] != ("line", "column", "end_line", "end_column"):  # pragma: no cover
    raise ImportError("a Finding no longer starts with its position: update the compact cache form")


def compact(value: dict[str, Any], kinds: dict[Any, int], table: list[Any]) -> dict[str, Any]:
    """A result in cache form → compact form; new kinds are appended to ``table`` (``kinds`` indexes it)."""
    rows = []
    for row in value["findings"]:
        kind = row[_POSITION:]
        try:
            args = row[ARGS]
            identity: Any = (*row[_POSITION:ARGS], tuple(frozen_args(args).items()) if type(args) is dict
                             else args, *row[ARGS + 1 : RESOLUTION],
                             json.dumps(row[RESOLUTION], sort_keys=True), *row[RESOLUTION + 1 :])
            position = kinds.get(identity)
        except TypeError:  # an unhashable value
            identity = json.dumps(kind, sort_keys=True, default=str)
            position = kinds.get(identity)
        if position is None:
            position = kinds[identity] = len(table)
            table.append(kind)
        rows.extend(row[:_POSITION])
        rows.append(position)
    return {"rows": rows, "error_key": value.get("error_key"), "error_args": value.get("error_args") or {},
            "lines": value.get("lines") or 0, "syntax_error": value.get("syntax_error")}


def expand(value: dict[str, Any], table: list[Any]) -> dict[str, Any]:
    """A result in compact form → cache form (raises on a malformed value)."""
    rows = value["rows"]
    if len(rows) % _ROW:
        raise ValueError("malformed compact rows")
    findings = [[*rows[i : i + _POSITION], *table[rows[i + _POSITION]]] for i in range(0, len(rows), _ROW)]
    return {**value, "findings": findings}


class CompactReader:
    """Findings from compact rows; each kind of the table is decoded once."""

    def __init__(self, table: list[Any]) -> None:
        self.table = table
        self._decoded: dict[int, list[Any]] = {}

    def result(self, rel_path: str, value: dict[str, Any]) -> FileResult:
        """Raises ``KeyError``, ``TypeError``, ``ValueError`` or ``IndexError`` on a malformed value."""
        decoded = self._decoded
        findings = []
        rows = value["rows"]
        if type(rows) is not list or len(rows) % _ROW:
            raise ValueError("malformed compact rows")
        numbers = [iter(rows)] * _ROW  # one iterator five times: the numbers five by five
        _validate_position(rows)  # positions and kind indexes alike: numbers from 0 up
        for line, column, end_line, end_column, index in zip(*numbers, strict=True):
            kind = decoded.get(index)
            if kind is None:
                kind = decoded[index] = self._decode(index)
            before, args, after = kind
            # message arguments are copied: never shared between findings
            findings.append(Finding(line, column, end_line, end_column, *before, args.copy(), *after))
        return FileResult(rel_path, findings, *_file_fields(value))

    def _decode(self, index: int) -> tuple[list[Any], dict[str, Any], list[Any]]:
        """The kind's fields before the message arguments, the arguments, the fields after them."""
        if type(index) is not int or index < 0:
            raise IndexError(index)
        kind = self.table[index]
        if type(kind) is not list or len(kind) != len(FIELDS) - _POSITION:
            raise ValueError("not a cached finding kind")
        values = [0] * _POSITION + kind
        _validate_kind(values)
        values[_CATEGORY] = _CATEGORIES[values[_CATEGORY]]
        values[_SEVERITY] = _SEVERITIES[values[_SEVERITY]]
        values[_USAGE] = _USAGES[values[_USAGE]]  # (_validate_kind froze the message arguments)
        return values[_POSITION:ARGS], values[ARGS], values[ARGS + 1 :]


def result_to_cache(result: FileResult) -> dict[str, Any]:
    return {
        "findings": [finding_to_row(f) for f in result.findings],
        "error_key": result.error_key,
        "error_args": {k: v if isinstance(v, str | int | float | bool) else str(v)
                       for k, v in result.error_args.items()},
        "lines": result.lines,
        "syntax_error": [result.syntax_error_line, result.syntax_error_detail] if result.recovered else None,
    }


def result_from_cache(rel_path: str, data: dict[str, Any]) -> FileResult:
    """Raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed value."""
    if type(data) is not dict or type(data.get("findings")) is not list:
        raise ValueError("not a cached result")
    return FileResult(rel_path, [finding_from_row(row) for row in data["findings"]], *_file_fields(data))


def _file_fields(value: dict[str, Any]) -> tuple[Any, ...]:
    """``error_key``, ``error_args``, ``lines`` and the syntax error of a cached result, checked."""
    from msmigrate.i18n import catalogue

    key, args, lines = value.get("error_key"), value.get("error_args") or {}, value.get("lines") or 0
    if key is not None and (type(key) is not str or key not in catalogue()):
        raise ValueError("not a cached error")
    if type(args) is not dict or not _plain(args, 1) or type(lines) is not int or lines < 0:
        raise ValueError("not a cached result")
    if key is not None:
        _validate_message(key, args)
    return key, dict(args), lines, *_syntax_error(value.get("syntax_error"))


def _syntax_error(value: Any) -> tuple[int | None, str | None]:
    """A cached ``[line, detail]`` (or ``None``) → the two fields of :class:`FileResult`."""
    if value is None:
        return None, None
    if type(value) is not list or len(value) != 2:
        raise ValueError("not a cached syntax error")
    line, detail = value
    if (line is not None and type(line) is not int) or type(detail) is not str:
        raise ValueError("not a cached syntax error")
    return line, detail


def init_worker(mindspore_version: str, analysis_options: Any, time_limit: float = 0.0) -> None:
    from msmigrate.knowledge.base import get_knowledge_base

    _WORKER["kb"] = get_knowledge_base(mindspore_version)
    _WORKER["options"] = analysis_options
    _WORKER["time_limit"] = time_limit


def analyze_chunk(chunk: list[tuple[str, bytes]]) -> tuple[list[Any], list[tuple[str, dict[str, Any]]]]:
    """Pool entry point: analyse several files; return their results in compact form with the table of
    their finding kinds (the scanning process checks each kind once, not each finding: see
    :class:`CompactReader`)."""
    kb, options, limit = _WORKER["kb"], _WORKER["options"], _WORKER.get("time_limit", 0.0)
    kinds: dict[Any, int] = {}
    table: list[Any] = []
    results = []
    for rel, data in chunk:
        result = within_time(limit, rel, lambda token: analyze_file(data, rel, kb, options, token))  # noqa: B023
        results.append((rel, compact(result_to_cache(result), kinds, table)))
    return table, results
