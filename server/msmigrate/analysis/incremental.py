"""Incremental analysis of successive versions of one file (the editor's keystrokes).

Whenever the text parses, the result is the one :func:`~msmigrate.analysis.analyzer.analyze_source`
gives for it; only the work differs. After a full analysis the module is kept as *chunks* (top-level
statements with the names they bind and read, ``chunks.py``). For the next version:

1. the lines that changed are found, and the chunks around them (one line of context each side) are
   re-parsed on their own and spliced in (``chunk_parse.py``); lines that do not parse become one
   *broken* chunk recovered on its own, so the rest of the file keeps its findings;
2. the *affected* chunks are the new ones, the chunks that read a name an affected chunk binds (or
   mutates), and the chunks whose function bodies an affected chunk's code ran first (the analyzer
   analyses a body at its first call, with the bindings of that moment) (``chunk_graph.py``);
3. the affected chunks are analysed again together with what their results depend on: the chunks that
   bind the names they read, the chunks whose code first ran their bodies, and the torch imports;
4. findings of unaffected chunks are kept (moved by the number of lines the edit added or removed).

The chunks of a full analysis are described only when the next version comes (or :meth:`prepare` is
called, e.g. once the result is published): a full analysis costs no more than ``analyze_source``.

A full analysis may hand on an *early* result first (``analyze(source, early=(lines, callback))``): the
findings of the statements within the first lines, analysed by themselves (provisional), from the same
parse and in the same run.

When step 3 would walk more than ``exact_line_budget`` lines and the caller allows it, the edited chunks
are first analysed with only what they read directly (a *provisional* result); :meth:`confirm` then
does the exact step. Anything unusual (a star import, regions that may parse only together) falls back
to a full analysis. ``tests/analysis/test_incremental.py`` checks the results against full analyses.
"""

from __future__ import annotations

import ast
import gc
import logging
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from msmigrate.analysis.analyzer import analyze_bounded, analyze_parsed, analyze_text, run_safely
from msmigrate.analysis.cancel import NEVER, Cancelled, CancelToken
from msmigrate.analysis.chunk_graph import ChunkGraph
from msmigrate.analysis.chunk_parse import (
    chunk_of_node,
    common_lines,
    mark_broken,
    parse_chunks,
    parse_region,
    parse_together,
    starts_indented,
)
from msmigrate.analysis.chunks import Chunk, chunk_at, chunks_of, first_line
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.analysis.parse import (
    ParsedSource,
    SourceError,
    decode,
    has_long_line,
    parse_text,
    split_lines,
)
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.model.finding import FileResult, Finding

log = logging.getLogger(__name__)

Early = tuple[int, Callable[[FileResult], None]]  # (first lines, callback): see IncrementalAnalyzer.analyze
EXACT_LINE_BUDGET = 800  # about 40 ms of analysis on the benchmark machine
FULL = "full"
INCREMENTAL = "incremental"
UNCHANGED = "unchanged"


@dataclass(slots=True)
class UpdateStats:
    """What the last :meth:`IncrementalAnalyzer.analyze` did (for logs and benchmarks)."""

    mode: str = FULL
    reanalysed_chunks: int = 0  # chunks walked again (incremental mode)
    affected_chunks: int = 0  # chunks whose findings were replaced
    chunks: int = 0  # chunks in the file
    broken_chunks: int = 0  # chunks that do not parse (their findings come from what recovery kept)
    provisional: bool = False  # a shortened analysis: IncrementalAnalyzer.confirm() gives the exact one


class IncrementalAnalyzer:
    """Analyses successive versions of one file; :meth:`analyze` never raises."""

    def __init__(
        self,
        path: str,
        kb: KnowledgeBase,
        options: AnalysisOptions | None = None,
        *,
        allow_provisional: bool = False,
        exact_line_budget: int = EXACT_LINE_BUDGET,
    ) -> None:
        self.path = path
        self.kb = kb
        self.options = options or AnalysisOptions()
        # with ``allow_provisional``, an edit whose exact re-analysis would walk more than
        # ``exact_line_budget`` lines first gets a provisional result (see confirm())
        self.allow_provisional = allow_provisional
        self.exact_line_budget = exact_line_budget
        self.stats = UpdateStats()
        self._state: _State | None = None  # None: the next version gets a full analysis
        self._deferred: _Deferred | None = None  # a full analysis whose chunks are not described yet
        self._cancel: CancelToken = NEVER  # the token of the analysis running now (see analyze)
        self._full_cancelled = False  # the last full analysis begun was cancelled (see analyze)

    def analyze(self, source: str | bytes, early: Early | None = None, cancel: CancelToken = NEVER
                ) -> FileResult:
        """The findings of ``source`` (the file's new content). ``early`` = (``first_lines``, ``callback``):
        when this is a full analysis of text that parses and runs past ``first_lines`` lines, ``callback``
        first gets the findings of the top-level statements ending within them, analysed by themselves (a
        provisional result: a body there that a later statement calls first may be analysed differently in
        full); it runs on this thread, before the full analysis goes on.

        Once ``cancel`` is cancelled, raises :class:`~msmigrate.analysis.cancel.Cancelled` at the analysis's
        next check: a cancelled incremental step keeps what the next version builds on (the chunks it
        did not finish are analysed again then); a cancelled full analysis leaves nothing to build on, so
        the next full analysis shields its token (:meth:`CancelToken.shield`): only a forced cancel stops
        it, and a stream of edits cannot keep the file without a result."""
        try:
            text = decode(source)
        except SourceError as exc:
            self._state = self._deferred = None
            return FileResult(self.path, error_key=exc.key, error_args=exc.args_)
        lines = split_lines(text)
        self._cancel = cancel
        try:
            return run_safely(self.path, lines, lambda: self._analyze(text, lines, early))
        finally:
            self._cancel = NEVER

    # --- full and incremental ------------------------------------------------------------------
    def _analyze(self, text: str, lines: list[str], early: Early | None = None) -> FileResult:
        state, self._state = self._state or self._describe(), None  # no half-updated state stays
        if state is not None and not has_long_line(lines):  # (a statement left out: see parse_text)
            try:
                result = self._incremental(state, text, lines)
            except RecursionError:
                result = None
            except Exception:  # a bug here must cost only time: analyse the whole file instead
                log.exception("incremental analysis of %s failed; analysing the whole file", self.path)
                result = None
            if result is not None:
                self._state = state
                return result
        if self._full_cancelled:
            self._cancel.shield()
        try:
            result = self._full(text, lines, early)
        except Cancelled:
            self._full_cancelled = True
            raise
        self._full_cancelled = False
        return result

    def _full(self, text: str, lines: list[str], early: Early | None = None) -> FileResult:
        self.stats = UpdateStats(FULL)
        self._deferred = None
        if "torch" not in text:  # see analyze_text
            return analyze_text(text, self.path, self.kb, self.options, lines)[0]
        cancel = self._cancel
        if early is not None and len(lines) > early[0] and not has_long_line(lines):
            parsed = parse_text(text, lines, self.path)  # what analyze_bounded does, the early part between
            self._give_early(parsed, *early)
            try:
                result, _, triggers = analyze_parsed(parsed, self.path, self.kb, self.options, cancel)
            except RecursionError:
                parsed = parse_text(text, lines, self.path, by_statement=True)
                result, _, triggers = analyze_parsed(parsed, self.path, self.kb, self.options, cancel)
        else:
            result, _, triggers, parsed = analyze_bounded(text, lines, self.path, self.kb, self.options,
                                                          cancel)
        if result.error_key is not None or parsed.skipped:  # statements left out: the next version anew
            return result
        body = parsed.tree.body
        if parsed.syntax_error is None:  # the chunks are described when needed (see _describe)
            top = {id(node): node.lineno for node in body}
            runs = [(top[id(unit)], top[id(trigger)]) for unit, trigger in triggers
                    if id(unit) in top and id(trigger) in top]
            self._deferred = _Deferred(text, lines, result, runs)
            self.stats.chunks = _chunk_count(body)
            return result
        chunks = chunks_of(body)
        groups = _group(result.findings, chunks)
        if groups is None or any(chunk.star_import for chunk in chunks):
            return result
        _record_triggers(chunk_of_node(parsed.tree, chunks) or {}, triggers)
        if parsed.syntax_error is not None:  # recovered: note which parts do not parse by themselves
            chunks = mark_broken(chunks, lines, self.path)
        for chunk in chunks:
            if chunk.broken is None:
                chunk.nodes = []  # the tree is not kept: the chunks analysed again are parsed again
        self._state = _State(text, lines, chunks, groups, ChunkGraph(chunks), result)
        self.stats.chunks = len(chunks)
        return result

    def _incremental(self, state: _State, text: str, lines: list[str]) -> FileResult | None:
        if "torch" not in text:
            return None
        if text == state.text:
            if state.stale:
                return None  # the step that was to give this text's result was cancelled: analyse anew
            broken = sum(1 for chunk in state.chunks if chunk.broken)
            self.stats = UpdateStats(UNCHANGED, chunks=len(state.chunks), broken_chunks=broken)
            return state.result
        chunks = state.chunks
        prefix, suffix = common_lines(state.text, text, state.lines, lines)
        delta = len(lines) - len(state.lines)
        # the changed old lines are prefix+1 .. len(old)-suffix (1-based); take the chunks touching them
        # or the lines next to them
        first_changed, last_changed = prefix + 1, len(state.lines) - suffix
        i = bisect_right(state.ends(), first_changed - 2)  # first chunk ending on or after line `prefix`
        j = bisect_right(state.starts(), last_changed + 1) - 1  # last one starting by the line after
        region_start, region_end = max(first_changed, 1), last_changed
        if i <= j:
            region_start = min(region_start, chunks[i].start)
            region_end = max(region_end, chunks[j].end)
        else:
            j = i - 1  # no chunk there: an edit between statements
        if i > 0 and starts_indented(lines, region_start, region_end + delta):
            i -= 1  # indented code continues the statement before it (after blank lines, say)
            region_start = chunks[i].start
        new_region = parse_region(lines, region_start, region_end + delta, self.path)
        if new_region is None or any(chunk.star_import for chunk in new_region):
            return None
        removed = chunks[i : j + 1]
        region = (region_start, region_end + delta)
        broken = any(c.broken for c in new_region)
        if broken and parse_together(chunks[:i], chunks[j + 1 :], region, delta, lines, self.path):
            return None  # with another place that does not parse, the text may parse as a whole
        after = chunks[j + 1 :]
        for chunk in after:
            chunk.start += delta
            chunk.end += delta
        new_chunks = [*chunks[:i], *new_region, *after]
        graph = state.graph
        graph.replace(removed, new_region, new_chunks)
        groups = state.groups
        for chunk in removed:
            groups.pop(chunk, None)
        if delta:
            for chunk in after:
                if chunk in groups:
                    groups[chunk] = _moved(groups[chunk], delta)
        state.update(text, lines, new_chunks, state.result)
        state.unconfirmed = any(chunk.broken for chunk in new_chunks)
        current = set(new_chunks)
        exact = graph.affected(new_region, removed) | (state.dirty & current)
        state.dirty = set()
        exact_slice = graph.slice(exact)
        if self.allow_provisional and _lines_of(exact_slice) > self.exact_line_budget:
            # too much to analyse again now: the edited chunks (with what they read directly) first
            first = set(new_region) | {c for c in new_chunks if c.triggers & set(removed)}
            near = graph.near_slice(first)
            if not (exact <= first and exact_slice <= near):
                done = self._rerun_or_keep(state, exact, first, near, record_triggers=False)
                if done is None:
                    return None
                state.dirty = exact | done
                return state.result
        if self._rerun_or_keep(state, exact, exact, exact_slice, record_triggers=True) is None:
            return None
        return state.result

    def _rerun_or_keep(self, state: _State, exact: set[Chunk], affected: set[Chunk], reanalysed: set[Chunk],
                       record_triggers: bool, stale: bool = True) -> set[Chunk] | None:
        """:meth:`_rerun`; when it is cancelled, ``state`` is kept with ``exact`` marked as still to analyse
        (with ``stale``: the state was already updated to a new text, its result is an older text's),
        then :class:`Cancelled` goes on up."""
        try:
            return self._rerun(state, affected, reanalysed, record_triggers)
        except Cancelled:
            state.dirty = exact
            state.stale = stale
            self._state = state
            raise

    def _give_early(self, parsed: ParsedSource, first_lines: int, callback: Callable[[FileResult], None]
                    ) -> None:
        """Hand ``callback`` the findings of the statements ending within ``first_lines`` (see analyze)."""
        body = parsed.tree.body
        first = [node for node in body if (node.end_lineno or node.lineno) <= first_lines]
        if parsed.syntax_error is not None or parsed.skipped or not first or len(first) == len(body):
            return
        try:
            module = ParsedSource(parsed.text, parsed.lines, ast.Module(body=first, type_ignores=[]))
            result = analyze_parsed(module, self.path, self.kb, self.options, self._cancel)[0]
            if result.error_key is None:
                callback(result)
        except Exception:  # (RecursionError, a bug): the full analysis says what there is to say
            log.debug("no early result for %s", self.path, exc_info=True)

    def prepare(self) -> bool:
        """Describe the chunks of the last full analysis now (else the next version does it first): for
        idle time after its result is out. Returns whether the next version can be analysed incrementally."""
        if self._state is None and self._deferred is not None:
            collecting = gc.isenabled()
            gc.disable()  # the tree parsed again has no cycles (as in run_safely): no collections meanwhile
            try:
                self._state = self._describe()
            finally:
                if collecting:
                    gc.enable()
        return self._state is not None

    def _describe(self) -> _State | None:
        """The state of the deferred full analysis: its text parsed again and split into described chunks
        (the analysis's tree is not kept); ``None`` when nothing is deferred or the text cannot be split."""
        deferred, self._deferred = self._deferred, None
        if deferred is None:
            return None
        try:
            parsed = parse_text(deferred.text, deferred.lines, self.path)
            if parsed.syntax_error is not None or parsed.skipped:
                return None
            chunks = chunks_of(parsed.tree.body)
        except (RecursionError, MemoryError, SourceError):
            return None
        except Exception:  # a bug here must cost only time: the next version is analysed in full
            log.exception("describing the statements of %s failed", self.path)
            return None
        groups = _group(deferred.result.findings, chunks)
        if groups is None or any(chunk.star_import for chunk in chunks):
            return None
        starts = [chunk.start for chunk in chunks]
        for unit_line, trigger_line in deferred.runs:
            target, source = chunk_at(chunks, starts, unit_line), chunk_at(chunks, starts, trigger_line)
            if target is not None and source is not None:
                target.triggers.add(source)
        for chunk in chunks:
            chunk.nodes = []  # the tree is not kept: the chunks analysed again are parsed again
        return _State(deferred.text, deferred.lines, chunks, groups, ChunkGraph(chunks), deferred.result)

    @property
    def text(self) -> str | None:
        """The text of the last result that can be built on (``None`` after a fresh start)."""
        if self._deferred is not None:
            return self._deferred.text
        return self._state.text if self._state is not None else None

    def statements_for(self, text: str, lines: list[int]) -> ast.Module | None:
        """A module of just the top-level statements covering ``lines`` (1-based), the leading import
        block and every statement that imports: what quick fixes look at, parsed without the rest of
        the file. ``None`` unless ``text`` is the last analysed text and it parses."""
        self.prepare()
        state = self._state
        if state is None or state.text != text or any(chunk.broken for chunk in state.chunks):
            return None
        chunks = state.chunks
        wanted: set[Chunk] = {chunk for chunk in chunks if chunk.import_related}
        for chunk in chunks:  # the leading block, and the statement after it (where the block ends)
            wanted.add(chunk)
            if not chunk.import_block:
                break
        starts = state.starts()
        for line in lines:
            chunk = chunk_at(chunks, starts, line)
            if chunk is None:
                return None
            wanted.add(chunk)
        return parse_chunks(state.lines, [chunk for chunk in chunks if chunk in wanted], self.path)

    @property
    def provisional(self) -> bool:
        """Whether the last result holds findings from a shortened analysis, or from an edit over a
        statement that does not parse (see :meth:`confirm`)."""
        return self._state is not None and (bool(self._state.dirty) or self._state.unconfirmed)

    @property
    def fresh_pending(self) -> bool:
        """Whether only a fresh analysis of the text is pending (an edit over a statement that does not
        parse, nothing shortened): :meth:`fresh` gives it without touching this analyzer's state."""
        state = self._state
        return state is not None and state.unconfirmed and not state.dirty

    def fresh(self, text: str, cancel: CancelToken = NEVER) -> FileResult | None:
        """A fresh analysis of ``text`` if it is the last analysed text (``None`` otherwise). Reads nothing
        this analyzer changes, so it may run in another thread while :meth:`analyze` runs. Never raises
        (but :class:`Cancelled` once ``cancel`` is cancelled)."""
        state = self._state
        if state is None or state.text != text:
            return None
        lines = state.lines
        return run_safely(
            self.path, lines, lambda: analyze_text(text, self.path, self.kb, self.options, lines, cancel)[0]
        )

    def confirm(self, cancel: CancelToken = NEVER) -> FileResult | None:
        """After a provisional result: analyse what the edits affected in full, as one exact step.
        Returns the exact result, or ``None`` when there was nothing to do. Never raises (but
        :class:`Cancelled` once ``cancel`` is cancelled; the provisional state is then kept)."""
        state, self._state = self._state, None
        if state is None or not (state.dirty or state.unconfirmed):
            self._state = state
            return None
        self._cancel = cancel
        try:
            return self._confirm(state)
        except Cancelled:
            if self._state is None:
                self._state = state
            raise
        finally:
            self._cancel = NEVER

    def _confirm(self, state: _State) -> FileResult | None:
        if state.unconfirmed:  # what a fresh open of the text gives
            return run_safely(self.path, state.lines, lambda: self._full(state.text, state.lines))
        try:
            affected = state.dirty & set(state.chunks)
            state.dirty = set()
            done = self._rerun_or_keep(state, affected, affected, state.graph.slice(affected),
                                       record_triggers=True, stale=state.stale)
        except Exception:
            log.exception("confirming the analysis of %s failed", self.path)
            done = None
        if done is None:  # analyse the whole file instead
            return run_safely(self.path, state.lines, lambda: self._full(state.text, state.lines))
        self._state = state
        return state.result

    def _rerun(
        self, state: _State, affected: set[Chunk], reanalysed: set[Chunk], record_triggers: bool
    ) -> set[Chunk] | None:
        """Analyse ``reanalysed`` (the chunks of ``state``'s text) and take the findings of ``affected``
        and of the chunks whose bodies their code now runs first. Returns those chunks (``None`` when
        the chunks do not parse or analyse as before)."""
        text, lines, chunks = state.text, state.lines, state.chunks
        ordered = [chunk for chunk in chunks if chunk in reanalysed]
        module = parse_chunks(lines, ordered, self.path)
        if module is None:
            return None
        parsed = ParsedSource(text, lines, module)
        mini, _, triggers = analyze_parsed(parsed, self.path, self.kb, self.options, self._cancel)
        unit_chunk = chunk_of_node(module, ordered)
        if mini.error_key is not None or unit_chunk is None:
            return None
        if record_triggers:
            for chunk in ordered:
                chunk.triggers = set()
            run_by = _record_triggers(unit_chunk, triggers)
        else:
            run_by = _runs(unit_chunk, triggers)
        # bodies an affected chunk's code now runs first are affected too (their analysis moved)
        affected = set(affected)
        pending = list(affected)
        while pending:
            for target in run_by.get(pending.pop(), ()):
                if target not in affected:
                    affected.add(target)
                    pending.append(target)
        fresh = _group(mini.findings, ordered)
        if fresh is None:
            return None
        groups = state.groups
        for chunk in affected:
            groups[chunk] = fresh.get(chunk, [])
        findings = [finding for chunk in chunks for finding in groups.get(chunk, ())]
        broken = next((chunk.broken for chunk in chunks if chunk.broken), (None, None))
        state.result = FileResult(self.path, findings, lines=mini.lines, syntax_error_line=broken[0],
                                  syntax_error_detail=broken[1])
        state.stale = False
        self.stats = UpdateStats(INCREMENTAL, len(ordered), len(affected), len(chunks),
                                 sum(1 for chunk in chunks if chunk.broken), not record_triggers)
        return affected


@dataclass(slots=True, eq=False)
class _Deferred:
    """A full analysis of text that parses, before its chunks are described (:meth:`IncrementalAnalyzer.
    prepare`)."""

    text: str
    lines: list[str]
    result: FileResult
    # (line of a top-level statement, line of the one whose code first ran its bodies): Chunk.triggers
    runs: list[tuple[int, int]]


def _chunk_count(body: list[ast.stmt]) -> int:
    """How many chunks ``chunks_of(body)`` makes (statements sharing a line go together)."""
    count, end = 0, 0
    for node in body:
        if not count or first_line(node) > end:
            count += 1
            end = 0
        end = max(end, node.end_lineno or node.lineno)
    return count


@dataclass(slots=True, eq=False)
class _State:
    """What the last version left for the next one."""

    text: str
    lines: list[str]
    chunks: list[Chunk]
    groups: dict[Chunk, list[Finding]]  # each chunk's findings, in order
    graph: ChunkGraph
    result: FileResult
    dirty: set[Chunk] = field(default_factory=set)  # chunks whose findings are provisional
    # built by an edit over a statement that does not parse: a fresh analysis (which recovers the whole
    # file instead) may differ there, so confirm() analyses the whole text
    unconfirmed: bool = False
    # the step to ``text`` was cancelled: ``result`` is an older text's, ``dirty`` the chunks to analyse
    stale: bool = False
    _starts: list[int] | None = None
    _ends: list[int] | None = None

    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [chunk.start for chunk in self.chunks]
        return self._starts

    def ends(self) -> list[int]:
        if self._ends is None:
            self._ends = [chunk.end for chunk in self.chunks]
        return self._ends

    def update(self, text: str, lines: list[str], chunks: list[Chunk], result: FileResult) -> None:
        self.text, self.lines, self.chunks, self.result = text, lines, chunks, result
        self._starts = self._ends = None
        self.stale = False


def _group(findings: list[Finding], chunks: list[Chunk]) -> dict[Chunk, list[Finding]] | None:
    """Each chunk's findings (in order); ``None`` if one lies outside every chunk."""
    starts = [chunk.start for chunk in chunks]
    groups: dict[Chunk, list[Finding]] = {}
    for finding in findings:
        chunk = chunk_at(chunks, starts, finding.line)
        if chunk is None:
            return None
        groups.setdefault(chunk, []).append(finding)
    return groups


def _record_triggers(
    unit_chunk: dict[int, Chunk], triggers: list[tuple[object, object]]
) -> dict[Chunk, set[Chunk]]:
    """:func:`_runs`, also noted on each chunk (``Chunk.triggers``: whose code first ran its bodies)."""
    run_by = _runs(unit_chunk, triggers)
    for source, targets in run_by.items():
        for target in targets:
            target.triggers.add(source)
    return run_by


def _runs(unit_chunk: dict[int, Chunk], triggers: list[tuple[object, object]]) -> dict[Chunk, set[Chunk]]:
    """Runner chunk → chunks whose bodies its code ran first (nothing is noted on the chunks)."""
    run_by: dict[Chunk, set[Chunk]] = {}
    for unit, trigger in triggers:
        target, source = unit_chunk.get(id(unit)), unit_chunk.get(id(trigger))
        if target is not None and source is not None:
            run_by.setdefault(source, set()).add(target)
    return run_by


def _lines_of(chunks: set[Chunk]) -> int:
    return sum(chunk.end - chunk.start + 1 for chunk in chunks)


def _moved(findings: list[Finding], delta: int) -> list[Finding]:
    """Copies ``delta`` lines further down (they share ``message_args``: the language server's
    diagnostic cache recognises a moved finding by it)."""
    return [
        Finding(f.line + delta, f.column, f.end_line + delta, f.end_column, f.torch_api, f.mindspore_api,
                f.category, f.rule, f.severity, f.message_key, f.message_args, f.fixable, f.usage,
                f.written_api)
        for f in findings
    ]


