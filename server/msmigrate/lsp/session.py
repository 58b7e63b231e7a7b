"""State the feature modules share beyond the open documents, as typed fields of one object
(``MsMigrateServer.session``) rather than attributes set on the server at run time.

A feature module's own long-lived object (the diagnostics' renderer and publisher, the equivalence check's
worker) is kept by its class (:meth:`Session.keep`, :meth:`Session.kept`): this module names no feature
module, so none of them imports back into the server through it."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from msmigrate.scan.model import ScanReport

T = TypeVar("T")


@dataclass
class Session:
    """What one language-server session keeps between requests."""

    # the folders and report of the last scan (``msmigrate.exportReport`` reuses it for the same folders)
    last_report: tuple[list[str], ScanReport] | None = None
    pull_confirmations: set[str] = field(default_factory=set)  # URIs awaiting an exact re-analysis
    # what the user allowed to run in this session (lsp/consent.py): ("python", path), ("compare", ...)
    confirmed: set[Hashable] = field(default_factory=set)
    features: dict[type, object] = field(default_factory=dict)  # each feature's own object, by its class

    def keep(self, value: T) -> T:
        """Keep a feature's object (one per class) for the rest of the session; returns it."""
        self.features[type(value)] = value
        return value

    def kept(self, kind: type[T]) -> T | None:
        """The object of class ``kind`` a feature keeps, if any."""
        value = self.features.get(kind)
        return value if isinstance(value, kind) else None
