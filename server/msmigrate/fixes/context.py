"""What a fixer gets: the parsed file, the knowledge base and helpers in Finding coordinates.

A fixer is ``fixer(ctx: FixContext, finding: Finding) -> Fix | None`` (see ``fixes/fixers.py``).
Coordinates are those of :class:`~msmigrate.model.finding.Finding`: 1-based lines, 1-based
code-point columns, exclusive ends. ``ast`` reports UTF-8 byte columns; :meth:`FixContext.node_range`
converts them.
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field
from functools import cached_property

from msmigrate.analysis.columns import ColumnMap
from msmigrate.analysis.resolution import plain_reference  # noqa: F401  (fixers read it from here)
from msmigrate.fixes import imports
from msmigrate.fixes.compositions import CompatModule
from msmigrate.fixes.model import TextEdit
from msmigrate.fixes.text import newline_of, split_lines
from msmigrate.knowledge.base import KnowledgeBase
from msmigrate.model.finding import Finding

Range = tuple[int, int, int, int]


def bound_arguments(call: ast.Call, names: list[str],
                    positional: list[str] | None = None) -> dict[str, ast.expr] | None:
    """The call's arguments by parameter name (``names``: the signature's, in order; ``positional``: those
    that may be passed by position, all of ``names`` when not given); None for ``*args``/``**kwargs``, too
    many positional arguments, an unknown keyword or one passed twice."""
    positional = names if positional is None else positional
    if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > len(positional):
        return None
    bound = dict(zip(positional, call.args, strict=False))
    for keyword in call.keywords:
        if keyword.arg is None or keyword.arg not in names or keyword.arg in bound:
            return None
        bound[keyword.arg] = keyword.value
    return bound


@dataclass
class _NodeIndex:
    """Names, attributes and calls of one top-level statement, by their Finding range."""

    by_range: dict[Range, list[ast.AST]]
    call_of_func: dict[int, ast.Call]
    attribute_by_end: dict[tuple[int, int], ast.Attribute]

    @classmethod
    def of(cls, ctx: FixContext, statement: ast.stmt) -> _NodeIndex:
        index = cls({}, {}, {})
        for node in ast.walk(statement):
            if isinstance(node, ast.Call):
                index.call_of_func[id(node.func)] = node
                index.by_range.setdefault(ctx.node_range(node), []).append(node)
            elif isinstance(node, ast.Attribute | ast.Name):
                rng = ctx.node_range(node)
                index.by_range.setdefault(rng, []).append(node)
                if isinstance(node, ast.Attribute):
                    index.attribute_by_end[rng[2:]] = node
        return index


@dataclass
class FixContext:
    source: str
    path: str
    kb: KnowledgeBase
    tree: ast.Module
    findings: list[Finding] = field(default_factory=list)
    device: str = "CPU"  # where the fixed code will run (API fixes pick targets with a kernel there)
    partial: bool = False  # ``tree`` holds some top-level statements only (:meth:`of_statements`)
    # where the project's helper module of compositions is (fixes/compositions.py); None: beside the file
    compat: CompatModule | None = None

    @classmethod
    def build(cls, source: str, path: str, kb: KnowledgeBase, findings: list[Finding],
              device: str = "CPU", compat: CompatModule | None = None) -> FixContext | None:
        """A context for ``source``, or ``None`` when it is not valid Python (no fix is offered then)."""
        try:
            tree = ast.parse(source, filename=path or "<unknown>")
        except (SyntaxError, ValueError):
            return None
        return cls(source, path, kb, tree, list(findings), device, compat=compat)

    @classmethod
    def of_statements(
        cls, source: str, path: str, kb: KnowledgeBase, tree: ast.Module, findings: list[Finding],
        lines: list[str] | None = None,
    ) -> FixContext:
        """A context whose ``tree`` holds only some top-level statements of ``source`` (with their real
        line numbers): the ones the fixes at hand touch, the leading imports and every statement that
        imports. ``lines``: ``source`` already split (as :func:`split_lines` does)."""
        context = cls(source, path, kb, tree, list(findings), partial=True)
        if lines is not None:
            context.__dict__["lines"] = lines  # the cached_property's slot
        return context

    # --- text -----------------------------------------------------------------------------------
    @cached_property
    def lines(self) -> list[str]:
        return split_lines(self.source)

    @cached_property
    def newline(self) -> str:
        return newline_of(self.source)

    @cached_property
    def _columns(self) -> ColumnMap:
        return ColumnMap(self.lines, self.source.isascii())

    def node_range(self, node: ast.AST) -> Range:
        """(line, column, end_line, end_column) of an ``ast`` node in Finding coordinates."""
        return self._columns.node_range(node)

    def text(self, node: ast.AST) -> str:
        """The source text of ``node`` (``ast.get_source_segment`` without splitting the whole source
        on every call)."""
        from msmigrate.analysis.source_text import segment

        return segment(self.source, node)

    # --- statements and nodes -------------------------------------------------------------------
    @cached_property
    def parents(self) -> dict[int, ast.AST]:
        """id(node) → its parent node in ``tree``."""
        from msmigrate.fixes.instance_calls import parents

        return parents(self.tree)

    @cached_property
    def _statement_spans(self) -> list[tuple[int, int]]:
        """(first line, last line) of each top-level statement, decorators included."""
        spans = []
        for stmt in self.tree.body:
            first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
            spans.append((first, stmt.end_lineno or stmt.lineno))
        return spans

    def statement_index(self, line: int) -> int | None:
        """Index in ``tree.body`` of the top-level statement spanning ``line``."""
        spans = self._statement_spans
        index = bisect.bisect_right(spans, (line, float("inf"))) - 1
        if index >= 0 and spans[index][0] <= line <= spans[index][1]:
            return index
        return None

    def statement_lines(self, first: int, last: int) -> tuple[int, int] | None:
        """The lines of the top-level statements covering lines ``first..last`` (None if outside any)."""
        spans = self._statement_spans
        touched = [span for span in spans if span[0] <= last and first <= span[1]]
        if not touched or self.statement_index(first) is None or self.statement_index(last) is None:
            return None
        return min(s for s, _ in touched), max(e for _, e in touched)

    def _index_of(self, index: int) -> _NodeIndex:
        cached = self._indexes.get(index)
        if cached is None:
            cached = self._indexes[index] = _NodeIndex.of(self, self.tree.body[index])
        return cached

    @cached_property
    def _indexes(self) -> dict[int, _NodeIndex]:
        return {}

    def reference_of(self, finding: Finding) -> ast.expr | None:
        """The name/attribute expression a finding points at (``torch.abs`` of ``torch.abs(x)``).

        Accepts findings whose range is the reference itself, the whole call, or only the
        attribute name (``view`` of ``x.view(...)``). Only the top-level statement holding the
        finding is indexed.
        """
        index = self.statement_index(finding.line)
        if index is None:
            return None
        nodes_index = self._index_of(index)
        key = (finding.line, finding.column, finding.end_line, finding.end_column)
        nodes = nodes_index.by_range.get(key, [])
        for node in nodes:
            if isinstance(node, ast.Attribute | ast.Name):
                return node
        for node in nodes:
            if isinstance(node, ast.Call):
                return node.func
        # the attribute name alone
        node = nodes_index.attribute_by_end.get(key[2:])
        if node is not None and key[0] == key[2] and key[3] - key[1] == len(node.attr):
            return node
        return None

    def call_of(self, finding: Finding) -> ast.Call | None:
        """The call whose function is the finding's reference, if it is called."""
        ref = self.reference_of(finding)
        if ref is None:
            return None
        index = self.statement_index(ref.lineno)
        return self._index_of(index).call_of_func.get(id(ref)) if index is not None else None

    # --- MindSpore names and imports ------------------------------------------------------------
    @cached_property
    def _import_plan(self) -> imports.ImportPlan:
        return imports.ImportPlan.of(self.tree, self.lines, self.newline)

    def mindspore_reference(self, mindspore_api: str, at_line: int) -> tuple[str, list[TextEdit]]:
        """How to write ``mindspore_api`` at ``at_line``, plus the import edit it needs (if any)."""
        return self._import_plan.reference(mindspore_api, at_line)

    def module_reference(self, module: str, name: str, at_line: int) -> tuple[str, list[TextEdit]] | None:
        """How to write ``module.name`` (``functools.partial``) at ``at_line``, plus the import edit it
        needs; None when the file binds ``module`` to something else."""
        return self._import_plan.module_reference(module, name, at_line)
