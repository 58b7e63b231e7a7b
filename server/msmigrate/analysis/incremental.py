"""Incremental analysis of successive versions of one file (the editor's keystrokes).

The result is always the one :func:`~msmigrate.analysis.analyzer.analyze_source` gives for the new text;
only the work differs. After a full analysis the module is kept as *chunks* (top-level statements, see
``chunks.py``). For the next version:

1. the lines that changed are found (common prefix and suffix of the line lists);
2. the chunks around them (one line of context each side) are re-parsed on their own and spliced in;
   if that region does not parse, or anything else is unusual, a full analysis runs instead;
3. the *affected* chunks are the new ones, the chunks that read a name an affected chunk binds (or
   mutates), and the chunks whose function bodies an affected chunk's code ran first (the analyzer
   analyses a body at its first call, with the bindings of that moment);
4. the affected chunks are analysed again together with what their results depend on: the chunks that
   bind the names they read, the chunks whose code first ran their bodies, and the torch imports;
5. findings of unaffected chunks are kept (moved by the number of lines the edit added or removed).

``tests/analysis/test_incremental.py`` checks the results against full analyses edit by edit.
"""

from __future__ import annotations

import ast
import logging
import warnings
from bisect import bisect_right
from dataclasses import dataclass, field

from msmigrate.analysis.analyzer import analyze_parsed, analyze_text, run_safely, syntax_error_parts
from msmigrate.analysis.chunks import Chunk, chunks_of, describe, first_line
from msmigrate.analysis.finding import FileResult, Finding
from msmigrate.analysis.options import AnalysisOptions
from msmigrate.analysis.parse import ParsedSource, SourceError, decode, parse_text, split_lines
from msmigrate.knowledge.base import KnowledgeBase

log = logging.getLogger(__name__)
_EMPTY: frozenset = frozenset()

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

    def analyze(self, source: str | bytes) -> FileResult:
        """The findings of ``source`` (the file's new content)."""
        try:
            text = decode(source)
        except SourceError as exc:
            self._state = None
            return FileResult(self.path, error_key=exc.key, error_args=exc.args_)
        lines = split_lines(text)
        return run_safely(self.path, lines, lambda: self._analyze(text, lines))

    # --- full and incremental ------------------------------------------------------------------
    def _analyze(self, text: str, lines: list[str]) -> FileResult:
        state, self._state = self._state, None  # whatever fails below, no half-updated state stays
        if state is not None:
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
        return self._full(text, lines)

    def _full(self, text: str, lines: list[str]) -> FileResult:
        self.stats = UpdateStats(FULL)
        if "torch" not in text:  # see analyze_text
            return analyze_text(text, self.path, self.kb, self.options, lines)[0]
        parsed = parse_text(text, lines, self.path)
        result, _, triggers = analyze_parsed(parsed, self.path, self.kb, self.options)
        if result.error_key is not None:
            return result
        chunks = chunks_of(parsed.tree.body)
        groups = _group(result.findings, chunks)
        if groups is None or any(chunk.star_import for chunk in chunks):
            return result
        _record_triggers(_chunk_of_node(parsed.tree, chunks) or {}, triggers)
        if parsed.syntax_error is not None:  # recovered: note which parts do not parse by themselves
            chunks = _mark_broken(chunks, lines, self.path)
        for chunk in chunks:
            if chunk.broken is None:
                chunk.nodes = []  # the tree is not kept: the chunks analysed again are parsed again
        self._state = _State(text, lines, chunks, groups, _Graph(chunks), result)
        self.stats.chunks = len(chunks)
        return result

    def _incremental(self, state: _State, text: str, lines: list[str]) -> FileResult | None:
        if "torch" not in text:
            return None
        if text == state.text:
            broken = sum(1 for chunk in state.chunks if chunk.broken)
            self.stats = UpdateStats(UNCHANGED, chunks=len(state.chunks), broken_chunks=broken)
            return state.result
        chunks = state.chunks
        prefix, suffix = _common_lines(state.text, text, state.lines, lines)
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
        if i > 0 and _starts_indented(lines, region_start, region_end + delta):
            i -= 1  # indented code continues the statement before it (after blank lines, say)
            region_start = chunks[i].start
        new_region = _parse_region(lines, region_start, region_end + delta, self.path)
        if new_region is None or any(chunk.star_import for chunk in new_region):
            return None
        removed = chunks[i : j + 1]
        region = (region_start, region_end + delta)
        if any(c.broken for c in new_region) and _joined(chunks[:i], chunks[j + 1 :], region, delta, lines,
                                                          self.path):
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
        current = set(new_chunks)
        exact = graph.affected(new_region, removed) | (state.dirty & current)
        state.dirty = set()
        exact_slice = graph.slice(exact)
        if self.allow_provisional and _lines_of(exact_slice) > self.exact_line_budget:
            # too much to analyse again now: the edited chunks (with what they read directly) first
            first = set(new_region) | {c for c in new_chunks if c.triggers & set(removed)}
            near = graph.near_slice(first)
            if not (exact <= first and exact_slice <= near):
                done = self._rerun(state, first, near, record_triggers=False)
                if done is None:
                    return None
                state.dirty = exact | done
                return state.result
        if self._rerun(state, exact, exact_slice, record_triggers=True) is None:
            return None
        return state.result

    @property
    def text(self) -> str | None:
        """The text of the last result that can be built on (``None`` after a fresh start)."""
        return self._state.text if self._state is not None else None

    @property
    def provisional(self) -> bool:
        """Whether the last result holds findings from a shortened analysis (see :meth:`confirm`)."""
        return self._state is not None and bool(self._state.dirty)

    def confirm(self) -> FileResult | None:
        """After a provisional result: analyse what the edits affected in full, as one exact step.
        Returns the exact result, or ``None`` when there was nothing to do. Never raises."""
        state, self._state = self._state, None
        if state is None or not state.dirty:
            self._state = state
            return None
        try:
            affected = state.dirty & set(state.chunks)
            state.dirty = set()
            done = self._rerun(state, affected, state.graph.slice(affected), record_triggers=True)
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
        module = _parse_chunks(lines, ordered, self.path)
        if module is None:
            return None
        parsed = ParsedSource(text, lines, module)
        mini, _, triggers = analyze_parsed(parsed, self.path, self.kb, self.options)
        unit_chunk = _chunk_of_node(module, ordered)
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
        self.stats = UpdateStats(INCREMENTAL, len(ordered), len(affected), len(chunks),
                                 sum(1 for chunk in chunks if chunk.broken), not record_triggers)
        return affected


@dataclass(slots=True, eq=False)
class _State:
    """What the last version left for the next one."""

    text: str
    lines: list[str]
    chunks: list[Chunk]
    groups: dict[Chunk, list[Finding]]  # each chunk's findings, in order
    graph: _Graph
    result: FileResult
    dirty: set[Chunk] = field(default_factory=set)  # chunks whose findings are provisional
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


class _Graph:
    """Which chunks bind and read which names, kept up to date as chunks are replaced."""

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = list(chunks)
        self.binders: dict[str, set[Chunk]] = {}
        self.readers: dict[str, set[Chunk]] = {}
        for chunk in chunks:
            self._add(chunk)
        self._mutations()

    def _add(self, chunk: Chunk) -> None:
        for name in chunk.binds:
            self.binders.setdefault(name, set()).add(chunk)
        for name in chunk.reads:
            self.readers.setdefault(name, set()).add(chunk)

    def replace(self, removed: list[Chunk], added: list[Chunk], chunks: list[Chunk]) -> None:
        """``removed`` gave way to ``added``; ``chunks`` are the file's chunks now."""
        for chunk in removed:
            for name in chunk.binds:
                self.binders[name].discard(chunk)
            for name in chunk.reads:
                self.readers[name].discard(chunk)
        for chunk in added:
            self._add(chunk)
        self.chunks = chunks
        self._mutations()

    def _mutations(self) -> None:
        """A chunk that assigns attributes of other objects may change any class it can reach: it
        counts as binding every name its dependencies read (names only imports bind hold modules and
        foreign objects, which the analyzer never changes)."""
        self.mutated: dict[Chunk, set[str]] = {}
        self.mutators: dict[str, set[Chunk]] = {}
        impure = [chunk for chunk in self.chunks if chunk.impure]
        if not impure:
            return
        imported = {
            name for name, found in self.binders.items() if found and all(c.imports_only for c in found)
        }
        for chunk in impure:
            names = {name for dep in self._deps_closure({chunk}) for name in dep.reads} - imported
            self.mutated[chunk] = names
            for name in names:
                self.mutators.setdefault(name, set()).add(chunk)

    def binders_of(self, name: str) -> set[Chunk]:
        found = self.binders.get(name, _EMPTY)
        mutators = self.mutators.get(name)
        return found | mutators if mutators else found

    def _deps_closure(self, seeds: set[Chunk]) -> set[Chunk]:
        found = set(seeds)
        pending = list(seeds)
        while pending:
            for name in pending.pop().reads:
                for dep in self.binders.get(name, _EMPTY):
                    if dep not in found:
                        found.add(dep)
                        pending.append(dep)
        return found
    def bound_by(self, chunk: Chunk) -> set[str]:
        """Names whose value the chunk decides or changes."""
        return set(chunk.binds) | self.mutated.get(chunk, set())

    def affected(self, new_region: list[Chunk], removed: list[Chunk]) -> set[Chunk]:
        """Chunks whose findings may differ from the last version's."""
        affected: set[Chunk] = set(new_region)
        pending: list[Chunk] = list(new_region)
        pending_names: set[str] = set()
        for chunk in removed:
            pending_names |= set(chunk.binds)
            if chunk.impure:  # what it changed before the edit: the readers and the classes' own chunks
                pending_names |= set(chunk.reads)
                for name in chunk.reads:
                    for binder in self.binders.get(name, ()):
                        if binder not in affected:
                            affected.add(binder)
                            pending.append(binder)
        removed_set = set(removed)
        for chunk in self.chunks:  # bodies the edited code ran first: they run at another moment now
            if chunk not in affected and chunk.triggers & removed_set:
                affected.add(chunk)
                pending.append(chunk)
        names_done: set[str] = set()
        while pending or pending_names:
            if pending:
                chunk = pending.pop()
                names = self.bound_by(chunk)
                if chunk in self.mutated:  # the mutated classes' own chunks see other attributes
                    for name in self.mutated[chunk]:
                        for binder in self.binders.get(name, ()):
                            if binder not in affected:
                                affected.add(binder)
                                pending.append(binder)
                pending_names |= names
                for other in self.chunks:
                    if other not in affected and chunk in other.triggers:
                        affected.add(other)
                        pending.append(other)
                continue
            name = pending_names.pop()
            if name in names_done:
                continue
            names_done.add(name)
            for reader in self.readers.get(name, ()):
                if reader not in affected:
                    affected.add(reader)
                    pending.append(reader)
        return affected

    def near_slice(self, seeds: set[Chunk]) -> set[Chunk]:
        """A shortened slice for a provisional result: the seeds, the chunks binding the names they
        read (not what those read in turn), the chunks whose code first ran their bodies, and the
        torch imports."""
        found = set(seeds) | {chunk for chunk in self.chunks if chunk.imports_torch}
        for chunk in seeds:
            for name in chunk.reads:
                found |= self.binders_of(name)
            found |= chunk.triggers
        return found

    def slice(self, affected: set[Chunk]) -> set[Chunk]:
        """What must be analysed again with the affected chunks: their dependencies, the chunks whose
        code first ran their bodies, and every torch import (the analyzer notes whether there is one)."""
        seeds = set(affected) | {chunk for chunk in self.chunks if chunk.imports_torch}
        found = set(seeds)
        pending = list(seeds)
        binders_of = self.binders_of
        while pending:
            chunk = pending.pop()
            for name in chunk.reads:
                for dep in binders_of(name):
                    if dep not in found:
                        found.add(dep)
                        pending.append(dep)
            for trigger in chunk.triggers:
                if trigger not in found:
                    found.add(trigger)
                    pending.append(trigger)
        return found


def _common_lines(old_text: str, new_text: str, old: list[str], new: list[str]) -> tuple[int, int]:
    """How many lines two versions share at the start and (not overlapping those) at the end. May
    count fewer than there are (never more): the region analysed again is then a little larger."""
    if "\r" in old_text or "\r" in new_text:
        return _common_line_ends(old, new)
    # the longest common prefix and suffix of the texts, by bisection with C-speed comparisons
    low, high = 0, min(len(old_text), len(new_text))
    while low < high:
        middle = (low + high + 1) // 2
        if old_text[:middle] == new_text[:middle]:
            low = middle
        else:
            high = middle - 1
    prefix_chars = low
    low, high = 0, min(len(old_text), len(new_text)) - prefix_chars
    while low < high:
        middle = (low + high + 1) // 2
        if old_text[len(old_text) - middle :] == new_text[len(new_text) - middle :]:
            low = middle
        else:
            high = middle - 1
    # lines entirely inside the common prefix end with a line break in it; likewise for the suffix
    prefix = old_text.count("\n", 0, prefix_chars)
    suffix = old_text.count("\n", len(old_text) - low) if low else 0
    return prefix, min(suffix, len(old) - prefix, len(new) - prefix)


def _common_line_ends(old: list[str], new: list[str]) -> tuple[int, int]:
    """Lengths of the common prefix and (not overlapping it) common suffix of two line lists."""
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    limit -= prefix
    while suffix < limit and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    return prefix, suffix


def _parse_region(lines: list[str], start: int, end: int, path: str) -> list[Chunk] | None:
    """Chunks of the new text's lines ``start..end`` (1-based, inclusive) parsed on their own, with
    their real line numbers. Lines that do not parse become one *broken* chunk holding what the
    analyzer's recovery keeps of them; ``None`` when even that fails."""
    text = "\n" * (start - 1) + "\n".join(lines[start - 1 : end]) if end >= start else ""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=path)
    except SyntaxError:
        return _recover_region(lines, start, end, path)
    except (ValueError, MemoryError, RecursionError):
        return None
    chunks = chunks_of(tree.body)
    for chunk in chunks:
        chunk.nodes = []
    return chunks


def _recover_region(lines: list[str], start: int, end: int, path: str) -> list[Chunk] | None:
    if end < start:
        return None
    padded = [""] * (start - 1) + lines[start - 1 : end]
    try:
        parsed = parse_text("\n".join(padded), padded, path)
    except (SourceError, RecursionError, MemoryError):
        return None
    chunk = Chunk(start, end, list(parsed.tree.body))
    describe(chunk)
    chunk.broken = syntax_error_parts(parsed.syntax_error or "line None: invalid syntax")
    chunk.parsed_start = start
    return [chunk]


def _joined(
    before: list[Chunk], after: list[Chunk], region: tuple[int, int], delta: int, lines: list[str], path: str
) -> bool:
    """Whether the edited region (``region``: new lines, not parsing) and the other broken chunks
    (``before`` and ``after`` it, in old lines) parse together, from the first to the last of them."""
    spans = [(c.start, c.end) for c in before if c.broken]
    spans += [(c.start + delta, c.end + delta) for c in after if c.broken]
    if not spans:
        return False
    spans.append(region)
    return _own_error(lines, min(s for s, _ in spans), max(e for _, e in spans), path) is None


def _mark_broken(chunks: list[Chunk], lines: list[str], path: str) -> list[Chunk]:
    """After a recovered full parse: chunks whose lines do not parse on their own keep their recovered
    nodes and are marked broken; code lines recovery dropped entirely (outside every chunk) become
    broken chunks without nodes."""
    out: list[Chunk] = []
    previous_end = 0
    for chunk in [*chunks, None]:
        gap_end = chunk.start - 1 if chunk is not None else len(lines)
        code = [n for n in range(previous_end + 1, gap_end + 1) if _is_code(lines[n - 1])]
        if code:
            gap = Chunk(code[0], code[-1], [])
            gap.broken = _own_error(lines, gap.start, gap.end, path) or (gap.start, "invalid syntax")
            gap.parsed_start = gap.start
            out.append(gap)
        if chunk is None:
            break
        error = _own_error(lines, chunk.start, chunk.end, path)
        if error is not None:
            chunk.broken, chunk.parsed_start = error, chunk.start
        out.append(chunk)
        previous_end = chunk.end
    return out


def _starts_indented(lines: list[str], start: int, end: int) -> bool:
    """Whether the first code line of ``lines[start..end]`` (1-based) is indented."""
    for line in lines[start - 1 : end]:
        if _is_code(line):
            return line[0] in " \t\f"
    return False


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _own_error(lines: list[str], start: int, end: int, path: str) -> tuple[int | None, str | None] | None:
    """(line, message) of the syntax error of lines ``start..end`` parsed alone; ``None`` if they parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse("\n".join(lines[start - 1 : end]), filename=path)
    except SyntaxError as exc:
        return (exc.lineno + start - 1 if exc.lineno else start), exc.msg
    except (ValueError, MemoryError, RecursionError):
        return start, "invalid syntax"
    return None


def _parse_chunks(lines: list[str], chunks: list[Chunk], path: str) -> ast.Module | None:
    """A module of just these chunks (in order), parsed from their lines with blank lines in between,
    so every node has its real line number; ``None`` if it does not parse as the chunks did."""
    pieces: list[str] = []
    recovered: list[ast.stmt] = []
    line = 1
    for chunk in chunks:
        if chunk.broken is not None:  # what recovery made of it, moved to where it is now
            if chunk.start != chunk.parsed_start:
                for node in chunk.nodes:
                    ast.increment_lineno(node, chunk.start - chunk.parsed_start)
                chunk.parsed_start = chunk.start
            recovered.extend(chunk.nodes)
            continue
        pieces.append("\n" * (chunk.start - line))
        pieces.append("\n".join(lines[chunk.start - 1 : chunk.end]))
        line = chunk.end
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = ast.parse("".join(pieces), filename=path)
    except (SyntaxError, ValueError, MemoryError):
        return None
    if recovered:
        module.body = sorted([*module.body, *recovered], key=first_line)
    return module


def _chunk_of_node(module: ast.Module, chunks: list[Chunk]) -> dict[int, Chunk] | None:
    """Top-level node id → its chunk; ``None`` if a node lies outside every chunk."""
    starts = [chunk.start for chunk in chunks]
    found: dict[int, Chunk] = {}
    for node in module.body:
        index = bisect_right(starts, node.lineno) - 1
        if index < 0 or node.lineno > chunks[index].end:
            return None
        found[id(node)] = chunks[index]
    return found


def _group(findings: list[Finding], chunks: list[Chunk]) -> dict[Chunk, list[Finding]] | None:
    """Each chunk's findings (in order); ``None`` if one lies outside every chunk."""
    starts = [chunk.start for chunk in chunks]
    groups: dict[Chunk, list[Finding]] = {}
    for finding in findings:
        index = bisect_right(starts, finding.line) - 1
        if index < 0 or finding.line > chunks[index].end:
            return None
        groups.setdefault(chunks[index], []).append(finding)
    return groups


def _record_triggers(
    unit_chunk: dict[int, Chunk], triggers: list[tuple[object, object]]
) -> dict[Chunk, set[Chunk]]:
    """Note on each chunk which chunks' code first ran its bodies; returns runner → chunks it ran."""
    run_by: dict[Chunk, set[Chunk]] = {}
    for unit, trigger in triggers:
        target, source = unit_chunk.get(id(unit)), unit_chunk.get(id(trigger))
        if target is not None and source is not None:
            target.triggers.add(source)
            run_by.setdefault(source, set()).add(target)
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
                f.category, f.rule, f.severity, f.message_key, f.message_args, f.fixable, f.usage)
        for f in findings
    ]


