"""``analyze_source``: one file's text → its findings (API usages, then the rule detectors' findings).

Pipeline: decode → parse (with recovery) → one walk collecting usages (``usages.py``) → categories from
the knowledge base (``categorize.py``) → possible Tensor APIs (``possible.py``) → rule detectors
(of every rule module ``msmigrate/registry.py`` names, ``rules/loader.detectors``) → severity settings,
disabled rules and ``# msmigrate: ignore`` comments → findings sorted by (line, column, rule). Never raises.
"""

from __future__ import annotations

import ast
import gc
import importlib
import logging
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

from msmigrate.analysis.cancel import NEVER, CancelToken
from msmigrate.analysis.categorize import ApiVerdict, categorize, possible_verdict, verdict_cache
from msmigrate.analysis.cell_leftovers import all_leftovers, cell_leftovers, may_hold_cells
from msmigrate.analysis.columns import ColumnMap
from msmigrate.analysis.context import AnalysisContext
from msmigrate.analysis.leftovers import leftover_findings, uncovered
from msmigrate.analysis.options import OFF, AnalysisOptions
from msmigrate.analysis.parse import ParsedSource, SourceError, decode, parse_text, split_lines
from msmigrate.analysis.possible import JediOracle, arguments_fit, excluded
from msmigrate.analysis.receivers import facts_for
from msmigrate.analysis.resolution import MAPPED_RULES, Resolver, plain_resolution
from msmigrate.analysis.severity import api_severity, is_api_finding, one_per_position
from msmigrate.analysis.suppress import is_suppressed, suppressions
from msmigrate.analysis.tables import NON_TORCH_PACKAGES
from msmigrate.analysis.tensor_evidence import TensorEvidence
from msmigrate.analysis.usages import Candidate, UsageCollector
from msmigrate.analysis.values import Foreign, Opaque
from msmigrate.model.finding import FileResult, Finding, Severity, UsageKind

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase

__all__ = ["AnalysisOptions", "analyze_source", "analyze_text", "analyze_parsed", "AnalysisContext"]

log = logging.getLogger(__name__)

Checker = Callable[[AnalysisContext], Iterable[Finding]]
_HINT = Severity.HINT
_WALK_RECURSION_LIMIT = 6000
_SYNTAX_ERROR_RE = re.compile(r"line (\d+|None): (.*)", re.DOTALL)


def analyze_source(
    source: str | bytes, path: str, kb: KnowledgeBase, options: AnalysisOptions | None = None,
    cancel: CancelToken = NEVER,
) -> FileResult:
    """Analyse one file's content. Bad input gives a :class:`FileResult` with ``error_key``; never raises,
    except :class:`~msmigrate.analysis.cancel.Cancelled` once ``cancel`` is cancelled."""
    try:
        text = decode(source)
    except SourceError as exc:
        return FileResult(path, error_key=exc.key, error_args=exc.args_)
    except Exception as exc:  # pragma: no cover - decode handles its own errors
        return _internal_error(path, exc)
    lines = split_lines(text)
    return run_safely(path, lines, lambda: analyze_text(text, path, kb, options, lines, cancel)[0])


def run_safely(path: str, lines: list[str], compute: Callable[[], FileResult]) -> FileResult:
    """Run an analysis of decoded text with the cycle collector paused; turn what it raises into a
    :class:`FileResult` with ``error_key`` (a too-deep tree, an internal error)."""
    try:
        with gc_paused():
            result = compute()  # the tree is freed before GC resumes
        return result
    except SourceError as exc:
        return FileResult(path, error_key=exc.key, error_args=exc.args_, lines=_line_count(lines))
    except RecursionError:
        return FileResult(path, error_key="analysis.too_complex", lines=_line_count(lines))
    except Exception as exc:
        log.exception("analysis of %s failed", path)
        return _internal_error(path, exc, _line_count(lines))


def analyze_text(
    text: str,
    path: str,
    kb: KnowledgeBase,
    options: AnalysisOptions | None = None,
    lines: list[str] | None = None,
    cancel: CancelToken = NEVER,
) -> tuple[FileResult, AnalysisContext | None]:
    """Analyse decoded text; also returns the context (for callers that need the tree, e.g. fixes).

    May raise on internal errors; :func:`analyze_source` is the safe entry point.
    """
    lines = lines if lines is not None else split_lines(text)
    if "torch" not in text:  # no torch, torchvision, torchaudio or torchtext name can occur
        if may_hold_cells(text):  # only torch.nn.Module members left on a MindSpore Cell
            return analyze_cells(text, lines, path, kb, options), None
        return FileResult(path, [], lines=_line_count(lines)), None
    result, ctx, _, _ = analyze_bounded(text, lines, path, kb, options, cancel)
    return result, ctx


def analyze_cells(text: str, lines: list[str], path: str, kb: KnowledgeBase,
                  options: AnalysisOptions | None = None) -> FileResult:
    """The findings of a file that names no torch: torch.nn.Module members used on its MindSpore Cells
    (``MSM104``, ``analysis/cell_leftovers.py``); no other rule has anything to find there."""
    options = options or AnalysisOptions()
    parsed = parse_text(text, lines, path)
    found: list[Finding] = []
    if options.run_checkers:
        found = leftover_findings(cell_leftovers(parsed.tree, ColumnMap(lines, text.isascii()), kb))
    line, detail = syntax_error_parts(parsed.syntax_error)
    return FileResult(path, _settle([], found, text, options), lines=_line_count(lines),
                      syntax_error_line=line, syntax_error_detail=detail)


def analyze_bounded(
    text: str, lines: list[str], path: str, kb: KnowledgeBase, options: AnalysisOptions | None = None,
    cancel: CancelToken = NEVER,
) -> tuple[FileResult, AnalysisContext, list[tuple[object, object]], ParsedSource]:
    """Parse and analyse; when the walk runs out of room (a statement nested deeper than it can follow),
    again statement by statement, leaving out the too-deep ones (see :func:`parse_text`)."""
    parsed = parse_text(text, lines, path)
    try:
        return (*analyze_parsed(parsed, path, kb, options, cancel), parsed)
    except RecursionError:
        parsed = parse_text(text, lines, path, by_statement=True)
        return (*analyze_parsed(parsed, path, kb, options, cancel), parsed)


def analyze_parsed(
    parsed: ParsedSource, path: str, kb: KnowledgeBase, options: AnalysisOptions | None = None,
    cancel: CancelToken = NEVER,
) -> tuple[FileResult, AnalysisContext, list[tuple[object, object]]]:
    """Analyse a parsed module (``parsed.tree`` may hold only some of the text's top-level statements:
    incremental analysis). Also returns the context and the walk's on-demand triggers
    (``UsageCollector.triggers``). May raise on internal errors; raises
    :class:`~msmigrate.analysis.cancel.Cancelled` at its next check once ``cancel`` is cancelled (each
    top-level statement and function body of the walk, each finding, each rule checker and the steps of
    the longer ones: ``AnalysisContext.cancel``)."""
    options = options or AnalysisOptions()
    text, lines = parsed.text, parsed.lines
    count = _line_count(lines)
    collector = UsageCollector(facts_for(kb), options.module_classes)
    with _recursion_room():
        collector.run(parsed.tree, cancel)
    cancel.raise_if_cancelled()
    columns = ColumnMap(lines, text.isascii())

    usages: list[Finding] = []
    calls = {}
    nodes: dict[int, object] = {}  # id(finding) → its reference node (the resolution reads the code there)
    verdicts = verdict_cache(kb)
    raise_if_cancelled = cancel.raise_if_cancelled
    for usage in collector.usages:
        raise_if_cancelled()
        verdict = verdicts.get(usage.torch_api) or categorize(usage.torch_api, kb, verdicts)
        node = usage.node
        span = columns.attribute_name_range(node) if usage.member else columns.node_range(node)
        finding = _finding(verdict, span, usage.usage)
        usages.append(finding)
        nodes[id(finding)] = node
        if usage.call is not None:
            calls[id(finding)] = usage.call
    if collector.imports_torch and collector.candidates:
        evidence = TensorEvidence(parsed.tree, _torch_calls(collector.usages), kb)
        for candidate, finding in _possible(collector.candidates, text, path, kb, options, columns, evidence):
            usages.append(finding)
            nodes[id(finding)] = candidate.node
            calls[id(finding)] = candidate.call

    ctx = AnalysisContext(text, lines, parsed.tree, path, kb, usages, collector.values, calls, columns,
                          cancel=cancel, project_fields=options.project_fields)
    # one resolution per API finding, for this usage, table and device (the call's facts with the checkers)
    resolver = Resolver(kb, options.device, parsed.tree, text, ctx.is_tensor, refine=options.run_checkers,
                        values=collector.values)
    for finding in usages:
        raise_if_cancelled()
        resolver.resolve(finding, nodes.get(id(finding)), calls.get(id(finding)))  # type: ignore[arg-type]
    extra: list[Finding] = []
    found_usages = list(usages)  # a checker may fold an API finding into its own (MSM501: the nn.Module base)
    if options.run_checkers:
        for checker in rule_checkers():
            cancel.raise_if_cancelled()
            try:
                extra.extend(f for f in checker(ctx) if isinstance(f, Finding))
            except Exception:
                log.exception("rule checker %s failed on %s", getattr(checker, "__name__", checker), path)
    if options.run_checkers:  # torch left that no finding speaks for: MSM104
        left = uncovered(all_leftovers(parsed.tree, columns, kb), [*found_usages, *usages, *extra])
        extra.extend(leftover_findings(left))
    for finding in usages:
        raise_if_cancelled()
        if finding.rule not in MAPPED_RULES:  # a checker's refinement (MSM201 …): its target as it says
            finding.resolution = plain_resolution(finding, kb, options.device)
        if is_api_finding(finding):
            finding.severity = api_severity(finding, calls.get(id(finding)), kb)
    findings = _settle(usages, extra, text, options)
    line, detail = syntax_error_parts(parsed.syntax_error)
    result = FileResult(path, findings, lines=count, syntax_error_line=line, syntax_error_detail=detail)
    return result, ctx, collector.triggers


def syntax_error_parts(message: str | None) -> tuple[int | None, str | None]:
    """``ParsedSource.syntax_error`` ("line N: msg") → (N, msg); (None, None) for a file that parsed."""
    if message is None:
        return None, None
    match = _SYNTAX_ERROR_RE.fullmatch(message)
    if match is None:
        return None, message
    return (int(match[1]) if match[1].isdigit() else None), match[2]


def _finding(verdict: ApiVerdict, span: tuple[int, int, int, int], usage: UsageKind) -> Finding:
    """A finding at ``span``; its severity is settled later, in :func:`_settle`."""
    line, column, end_line, end_column = span
    return Finding(
        line, column, end_line, end_column, verdict.torch_api, verdict.mindspore_api, verdict.category,
        verdict.rule, _HINT, verdict.message_key, dict(verdict.message_args), verdict.fixable, usage,
        verdict.written_api,
    )


def _torch_calls(usages: list) -> list[tuple[str, ast.Call]]:
    return [(usage.torch_api, usage.call) for usage in usages if usage.call is not None]


def _possible(candidates: list[Candidate], text: str, path: str, kb: KnowledgeBase,
              options: AnalysisOptions, columns: ColumnMap, evidence: TensorEvidence):
    """The candidates that become findings: possible Tensor APIs, or definite ones when jedi knows or
    a torch call in the same scope takes the receiver as its tensor (``analysis/tensor_evidence.py``)."""
    oracle: JediOracle | None = None
    shared = facts_for(kb).shared_members
    for candidate in candidates:
        name = candidate.node.attr
        torch_api = "torch.Tensor." + name
        if excluded(name) or not arguments_fit(candidate.call, kb.torch_signatures(torch_api)):
            continue
        if evidence.is_tensor(candidate.node.value):
            yield candidate, _finding(categorize(torch_api, kb), columns.attribute_name_range(candidate.node),
                                      UsageKind.TENSOR_METHOD)
            continue
        verdict = possible_verdict(torch_api, kb)
        usage = UsageKind.CALL
        ask = options.use_jedi and options.jedi_budget_ms > 0 and _ask_jedi(candidate.receiver_value)
        if name in shared and not ask:
            continue  # ``m.to(device)``, ``m.half()``: modules have them too; a Tensor finding needs a tensor
        if ask:
            if oracle is None:
                oracle = JediOracle(text, path, options.jedi_budget_ms / 1000)
            receiver = candidate.node.value
            line = receiver.end_lineno or receiver.lineno
            column = columns.column(line, receiver.end_col_offset or 0) - 2  # last character, 0-based
            answer = oracle.receiver_type(line, max(column, 0))
            if answer == "":
                continue  # jedi knows the receiver and it is not a tensor
            if answer == "torch.Tensor":
                verdict, usage = categorize(torch_api, kb), UsageKind.TENSOR_METHOD
            elif name in shared:
                continue
        yield candidate, _finding(verdict, columns.attribute_name_range(candidate.node), usage)


def _ask_jedi(receiver_value: object) -> bool:
    """Receivers that come from another module of the project: jedi may follow the import."""
    if type(receiver_value) is Opaque:
        return True
    return type(receiver_value) is Foreign and receiver_value.name.partition(".")[0] not in NON_TORCH_PACKAGES


def _settle(
    usages: list[Finding], extra: list[Finding], text: str, options: AnalysisOptions
) -> list[Finding]:
    """Apply the severity settings, disabled rules and ignore comments; one finding per position."""
    disabled = options.disabled()
    ignored = suppressions(text)
    configured_for: dict = {}
    out: list[Finding] = []
    for finding in [*usages, *extra]:
        rule = finding.rule
        if rule in disabled or (disabled and rule.upper() in disabled):
            continue
        if ignored and is_suppressed(rule, finding.line, ignored):
            continue
        category = finding.category
        key = id(category)  # enum members hash in Python code; their identity is enough here
        if key not in configured_for:
            configured_for[key] = options.severity_for(category)
        configured = configured_for[key]
        if configured == OFF:
            continue
        if configured is not None:
            finding.severity = configured
        out.append(finding)
    out.sort(key=lambda f: (f.line, f.column, f.rule))
    return one_per_position(out)


@cache
def rule_checkers() -> tuple[Checker, ...]:
    """The rule modules' detectors, in their order (``rules/loader.py``, imported by name: the rules sit
    above the analysis). A rule module that fails to import or breaks the rule contract raises: a broken
    rule must not silently stop reporting."""
    return importlib.import_module("msmigrate.rules.loader").detectors()


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cycle collector paused for work that makes no reference cycles (analysing one file's tree,
    decoding cached results): the collector would only traverse many live objects again and again.
    Reference counting still frees everything; the collector is re-enabled afterwards if it was on."""
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_ROOM_LOCK = threading.Lock()
_room_users = 0  # analyses (threads) inside _recursion_room
_room_restore = 0  # the limit to restore when the last one leaves (0: leave it)


@contextmanager
def _recursion_room():
    """The walk recurses a few frames per level of the syntax tree, whose depth ``ast.parse`` bounds
    (about a thousand levels under the default limit): give the walk room for that depth (e.g. a
    generated 900-term sum). Only Python frames are added, so the C stack is not at risk. The limit is
    process-wide: with analyses in two threads (the server's fresh confirmations), the first one in
    raises it and the last one out restores it."""
    global _room_users, _room_restore
    with _ROOM_LOCK:
        if _room_users == 0:
            limit = sys.getrecursionlimit()
            _room_restore = limit if limit < _WALK_RECURSION_LIMIT else 0
            if _room_restore:
                sys.setrecursionlimit(_WALK_RECURSION_LIMIT)
        _room_users += 1
    try:
        yield
    finally:
        with _ROOM_LOCK:
            _room_users -= 1
            if _room_users == 0 and _room_restore:
                sys.setrecursionlimit(_room_restore)


def _line_count(lines: list[str]) -> int:
    if not lines or lines == [""]:
        return 0
    return len(lines) - 1 if lines[-1] == "" else len(lines)


def _internal_error(path: str, exc: BaseException, lines: int = 0) -> FileResult:
    detail = f"{type(exc).__name__}: {exc}"
    args = {"detail": detail[:300]}
    return FileResult(path, error_key="analysis.internal_error", error_args=args, lines=lines)
