"""Dependencies between the chunks of one file version (see ``chunks.py``): which chunks an edit
affects, and what must be analysed again with them.

All of it is name-based and over-approximates: a chunk that may read a name depends on every chunk
that may bind it. Two effects of the analyzer go beyond names and are modelled too: a chunk that
assigns attributes of other objects (``impure``) may change any class it can reach, and the analyzer
analyses a function body when its first call runs (``Chunk.triggers``: whose code ran it first).
"""

from __future__ import annotations

from msmigrate.analysis.chunks import Chunk

_EMPTY: frozenset = frozenset()


class ChunkGraph:
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
