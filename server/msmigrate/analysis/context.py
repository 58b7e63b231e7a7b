"""What rule checkers see of an analysed file (the contract of docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from msmigrate.analysis.cancel import NEVER, CancelToken
from msmigrate.analysis.columns import ColumnMap
from msmigrate.analysis.values import TENSOR, Instance
from msmigrate.model.finding import Finding

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase


@dataclass(slots=True)
class AnalysisContext:
    """One per analysed file. ``usages`` are the API findings; checkers may refine them in place
    (``rule``, ``message_key``, ``message_args``, ``fixable``) and return new findings."""

    source: str
    lines: list[str]
    tree: ast.Module
    path: str
    kb: KnowledgeBase
    usages: list[Finding]
    values: dict[ast.AST, object] = field(default_factory=dict, repr=False)
    calls: dict[int, ast.Call] = field(default_factory=dict, repr=False)
    columns: ColumnMap | None = field(default=None, repr=False)
    _nodes: list[ast.AST] | None = field(default=None, repr=False)
    _by_type: dict[tuple[type, ...], list[ast.AST]] = field(default_factory=dict, repr=False)
    memo: dict[str, Any] = field(default_factory=dict, repr=False)  # per-file data the checkers share
    # the analysis's cancel token: a checker with a long loop calls ``ctx.cancel.raise_if_cancelled()`` in it
    cancel: CancelToken = field(default=NEVER, repr=False)
    # (name, form, file) of the fields the project builds (``analysis/project_fields.field_index``)
    project_fields: Iterable[tuple[str, str, str]] = field(default=(), repr=False)

    def qualified_name(self, node: ast.expr) -> str | None:
        """The full torch name an expression refers to (``F.relu`` → ``torch.nn.functional.relu``)."""
        value = self.values.get(node)
        return value if type(value) is str else None

    def receiver_kind(self, node: ast.expr) -> str | None:
        """``"tensor"``, ``"module"`` or ``"optimizer"`` when the expression's value is known to be one."""
        value = self.values.get(node)
        return value.kind if type(value) is Instance else None

    def is_tensor(self, node: ast.expr) -> bool:
        return self.receiver_kind(node) == TENSOR

    def node_range(self, node: ast.AST) -> tuple[int, int, int, int]:
        """``(line, column, end_line, end_column)`` in Finding coordinates (1-based, code points)."""
        columns = self.columns or ColumnMap(self.lines, self.source.isascii())
        return columns.node_range(node)

    def walk(self) -> list[ast.AST]:
        """Every node of the tree (``ast.walk`` order), computed once for all checkers."""
        if self._nodes is None:
            self._nodes = list(ast.walk(self.tree))
        return self._nodes

    def nodes_of(self, *types: type) -> list[ast.AST]:
        """The nodes of the given types (``ctx.nodes_of(ast.Call)``), computed once per set of types."""
        found = self._by_type.get(types)
        if found is None:
            found = self._by_type[types] = [node for node in self.walk() if isinstance(node, types)]
        return found

    def call_of(self, finding: Finding) -> ast.Call | None:
        """The call expression an API finding belongs to (``None`` for a reference that is not called)."""
        return self.calls.get(id(finding))
