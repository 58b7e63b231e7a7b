"""State the feature modules share beyond the open documents, as typed fields of one object
(``MsMigrateServer.session``) rather than attributes set on the server at run time."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from msmigrate.lsp.check_feature import CheckService
    from msmigrate.lsp.diagnostics import Publisher, Renderer
    from msmigrate.scan.model import ScanReport


@dataclass
class Session:
    """What one language-server session keeps between requests."""

    # the folders and report of the last scan (``msmigrate.exportReport`` reuses it for the same folders)
    last_report: tuple[list[str], ScanReport] | None = None
    renderer: Renderer | None = None  # diagnostics: shared message tables (lsp/diagnostics.py)
    publisher: Publisher | None = None  # diagnostics pushed to clients that do not pull
    pull_confirmations: set[str] = field(default_factory=set)  # URIs awaiting an exact re-analysis
    check_service: CheckService | None = None  # the equivalence check's worker (lsp/check_feature.py)
    # what the user allowed to run in this session (lsp/consent.py): ("python", path), ("compare", ...)
    confirmed: set[Hashable] = field(default_factory=set)
