"""The language server's ``workspace/executeCommand`` commands: ids, typed arguments and replies.

A client passes a command's arguments positionally (``["torch.abs"]``) or as one object
(``[{"name": "torch.abs"}]``); :func:`as_object` turns either form into the object, which pygls then
structures into the command's argument class (the handler's annotation). Each argument class names its
fields in positional order (``POSITIONAL``); other fields are accepted aliases. Replies are the
``TypedDict`` classes below (or :class:`ErrorReply`). ``msmigrate dev generate`` writes all of it into
``client-vscode/src/protocol.ts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, NotRequired, TypedDict


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)


@dataclass(frozen=True)
class ScanProjectArguments:
    """The folder to scan (a path or ``file:`` URI inside the workspace); none: every workspace folder."""

    POSITIONAL: ClassVar[tuple[str, ...]] = ("path",)
    path: str | None = None
    uri: str | None = None
    folder: str | None = None

    @property
    def target(self) -> str | None:
        return _first(self.path, self.uri, self.folder)


@dataclass(frozen=True)
class DocumentArguments:
    """One file: an open document's URI, or a path inside the workspace."""

    POSITIONAL: ClassVar[tuple[str, ...]] = ("uri",)
    uri: str | None = None
    path: str | None = None

    @property
    def target(self) -> str | None:
        return _first(self.uri, self.path)


@dataclass(frozen=True)
class LookupArguments:
    """A torch name (full, or an alias such as ``F.relu``)."""

    POSITIONAL: ClassVar[tuple[str, ...]] = ("name",)
    name: str | None = None
    api: str | None = None

    @property
    def target(self) -> str | None:
        return _first(self.name, self.api)


@dataclass(frozen=True)
class ExportReportArguments:
    """A report format (default ``html``) and the scanned folder (default: every workspace folder)."""

    POSITIONAL: ClassVar[tuple[str, ...]] = ("format", "path")
    format: str | None = None
    path: str | None = None
    uri: str | None = None

    @property
    def target(self) -> str | None:
        return _first(self.path, self.uri)


@dataclass(frozen=True)
class CheckEquivalenceArguments:
    """A torch API and, optionally, the call site whose arguments the check uses (0-based line, column)."""

    POSITIONAL: ClassVar[tuple[str, ...]] = ("api", "uri", "line", "column")
    api: str | None = None
    uri: str | None = None
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class CompareModelsArguments:
    """A comparison of ``[[tool.msmigrate.compare]]`` by name (none: the only one; several: the reply lists
    them), where to find it (a ``pyproject.toml``, or a folder or file from which the nearest one up to its
    workspace folder is taken; none: the first workspace folder), ``open``: ``markdown`` (default) has the
    client show the Markdown report, ``none`` only returns it; ``timeout``: seconds per worker step."""

    POSITIONAL: ClassVar[tuple[str, ...]] = ("name", "config", "open", "timeout")
    name: str | None = None
    config: str | None = None
    open: str | None = None
    timeout: int | None = None
    uri: str | None = None  # an alias of ``config`` (a document's URI)

    @property
    def where(self) -> str | None:
        return _first(self.config, self.uri)


class ErrorReply(TypedDict):
    error: str  # in the user's language


class ScanProjectReply(TypedDict):
    cancelled: bool
    report: NotRequired[dict[str, Any]]  # the JSON report (docs/report-schema.md)
    htmlReport: NotRequired[str]
    shown: NotRequired[bool]


class ScanFileReply(TypedDict):
    path: str
    findings: list[dict[str, Any]]
    error: str | None


class FixAllReply(TypedDict):
    applied: int
    accepted: NotRequired[bool]


class ExportReportReply(TypedDict):
    format: str
    path: str
    shown: bool


class CheckEquivalenceReply(TypedDict):
    result: dict[str, Any]
    summary: str
    message: str


class CompareModelsReply(TypedDict):
    cancelled: bool
    config: str  # the pyproject.toml read
    # several comparisons and none named: {name, torch, mindspore} of each; the client asks again with one
    choices: NotRequired[list[dict[str, str]]]
    report: NotRequired[dict[str, Any]]  # CompareReport.to_json (docs/weights-and-compare.md)
    summary: NotRequired[str]  # one line, in the user's language
    markdownReport: NotRequired[str]  # the report as Markdown, written in .msmigrate/ beside the config
    shown: NotRequired[bool]  # the client was asked to show it (and did)


@dataclass(frozen=True)
class Command:
    name: str  # the client-side constant's name
    id: str
    arguments: type
    reply: type | None  # None: a free-form object (the lookup's JSON, knowledge/lookup.py ``to_json``)


COMMANDS: tuple[Command, ...] = (
    Command("scanProject", "msmigrate.scanProject", ScanProjectArguments, ScanProjectReply),
    Command("scanFile", "msmigrate.scanFile", DocumentArguments, ScanFileReply),
    Command("lookup", "msmigrate.lookup", LookupArguments, None),
    Command("fixAll", "msmigrate.fixAll", DocumentArguments, FixAllReply),
    Command("exportReport", "msmigrate.exportReport", ExportReportArguments, ExportReportReply),
    Command("checkEquivalence", "msmigrate.checkEquivalence", CheckEquivalenceArguments,
            CheckEquivalenceReply),
    Command("compareModels", "msmigrate.compareModels", CompareModelsArguments, CompareModelsReply),
)
BY_ID: dict[str, Command] = {c.id: c for c in COMMANDS}
SCAN_PROJECT, SCAN_FILE, LOOKUP, FIX_ALL, EXPORT_REPORT, CHECK_EQUIVALENCE, COMPARE_MODELS = (
    c.id for c in COMMANDS
)


def field_types(arguments: type) -> dict[str, tuple[type, ...]]:
    """The accepted JSON types of each field of an argument class (``None`` aside)."""
    kinds = {"str | None": (str,), "int | None": (int,)}
    return {f.name: kinds[str(f.type)] for f in fields(arguments)}


def as_object(command: str, arguments: Sequence[Any] | None) -> Sequence[Any] | None:
    """``arguments`` of a known command as ``[object]`` (positional values named by ``POSITIONAL``);
    the arguments unchanged for other commands."""
    known = BY_ID.get(command)
    if known is None:
        return arguments
    if arguments and isinstance(arguments[0], dict):
        names = {f.name for f in fields(known.arguments)}
        return [{k: v for k, v in arguments[0].items() if k in names}]
    positional = known.arguments.POSITIONAL  # type: ignore[attr-defined]
    return [dict(zip(positional, arguments or (), strict=False))]


def positional_problem(command: str, arguments: Sequence[Any]) -> str | None:
    """Why positional ``arguments`` of a known command do not fit its argument types, or ``None``."""
    known = BY_ID.get(command)
    if known is None or not arguments or isinstance(arguments[0], dict):
        return None
    types_of = field_types(known.arguments)
    positional = known.arguments.POSITIONAL  # type: ignore[attr-defined]
    for index, (name, value) in enumerate(zip(positional, arguments, strict=False)):
        if value is not None and (not isinstance(value, types_of[name]) or isinstance(value, bool)):
            return f"[{index}]: {type(value).__name__}"
    return None
