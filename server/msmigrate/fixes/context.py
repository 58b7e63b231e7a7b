"""What a fixer gets: the parsed file, the knowledge base and helpers in Finding coordinates.

A fixer is ``fixer(ctx: FixContext, finding: Finding) -> Fix | None`` (see ``fixes/registry.py``).
Coordinates are those of :class:`~msmigrate.analysis.finding.Finding`: 1-based lines, 1-based
code-point columns, exclusive ends. ``ast`` reports UTF-8 byte columns; :meth:`FixContext.node_range`
converts them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property

from msmigrate.analysis.finding import Finding
from msmigrate.fixes import imports
from msmigrate.fixes.model import TextEdit
from msmigrate.fixes.text import newline_of, split_lines
from msmigrate.knowledge.base import KnowledgeBase

Range = tuple[int, int, int, int]


@dataclass
class FixContext:
    source: str
    path: str
    kb: KnowledgeBase
    tree: ast.Module
    findings: list[Finding] = field(default_factory=list)

    @classmethod
    def build(cls, source: str, path: str, kb: KnowledgeBase, findings: list[Finding]) -> FixContext | None:
        """A context for ``source``, or ``None`` when it is not valid Python (no fix is offered then)."""
        try:
            tree = ast.parse(source, filename=path or "<unknown>")
        except (SyntaxError, ValueError):
            return None
        return cls(source, path, kb, tree, list(findings))

    # --- text -----------------------------------------------------------------------------------
    @cached_property
    def lines(self) -> list[str]:
        return split_lines(self.source)

    @cached_property
    def newline(self) -> str:
        return newline_of(self.source)

    @cached_property
    def _encoded(self) -> list[bytes]:
        return [line.encode("utf-8", "surrogatepass") for line in self.lines]

    def _column(self, line: int, byte_col: int) -> int:
        """1-based code-point column of a 0-based UTF-8 byte column on 1-based ``line``."""
        if 1 <= line <= len(self._encoded):
            return len(self._encoded[line - 1][:byte_col].decode("utf-8", "surrogatepass")) + 1
        return byte_col + 1

    def node_range(self, node: ast.AST) -> Range:
        """(line, column, end_line, end_column) of an ``ast`` node in Finding coordinates."""
        line, end_line = node.lineno, node.end_lineno or node.lineno
        return (
            line,
            self._column(line, node.col_offset),
            end_line,
            self._column(
                end_line, node.end_col_offset if node.end_col_offset is not None else node.col_offset
            ),
        )

    def text(self, node: ast.AST) -> str:
        """The source text of ``node``."""
        return ast.get_source_segment(self.source, node) or ""

    # --- nodes ----------------------------------------------------------------------------------
    @cached_property
    def _index(
        self,
    ) -> tuple[dict[Range, list[ast.AST]], dict[int, ast.Call], dict[tuple[int, int], ast.Attribute]]:
        by_range: dict[Range, list[ast.AST]] = {}
        call_of_func: dict[int, ast.Call] = {}
        attribute_by_end: dict[tuple[int, int], ast.Attribute] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                call_of_func[id(node.func)] = node
                by_range.setdefault(self.node_range(node), []).append(node)
            elif isinstance(node, ast.Attribute | ast.Name):
                rng = self.node_range(node)
                by_range.setdefault(rng, []).append(node)
                if isinstance(node, ast.Attribute):
                    attribute_by_end[rng[2:]] = node
        return by_range, call_of_func, attribute_by_end

    def reference_of(self, finding: Finding) -> ast.expr | None:
        """The name/attribute expression a finding points at (``torch.abs`` of ``torch.abs(x)``).

        Accepts findings whose range is the reference itself, the whole call, or only the
        attribute name (``view`` of ``x.view(...)``).
        """
        by_range, _, attribute_by_end = self._index
        key = (finding.line, finding.column, finding.end_line, finding.end_column)
        nodes = by_range.get(key, [])
        for node in nodes:
            if isinstance(node, ast.Attribute | ast.Name):
                return node
        for node in nodes:
            if isinstance(node, ast.Call):
                return node.func
        # the attribute name alone
        node = attribute_by_end.get(key[2:])
        if node is not None and key[0] == key[2] and key[3] - key[1] == len(node.attr):
            return node
        return None

    def call_of(self, finding: Finding) -> ast.Call | None:
        """The call whose function is the finding's reference, if it is called."""
        ref = self.reference_of(finding)
        return self._index[1].get(id(ref)) if ref is not None else None

    # --- MindSpore names and imports ------------------------------------------------------------
    @cached_property
    def _import_plan(self) -> imports.ImportPlan:
        return imports.ImportPlan.of(self.tree, self.lines, self.newline)

    def mindspore_reference(self, mindspore_api: str, at_line: int) -> tuple[str, list[TextEdit]]:
        """How to write ``mindspore_api`` at ``at_line``, plus the import edit it needs (if any)."""
        return self._import_plan.reference(mindspore_api, at_line)
