"""Cooperative cancellation of one analysis (the language server's answer to a newer version).

The analysis checks its :class:`CancelToken` at cheap points: before each top-level statement and each
function body the usage walk analyses, and before each rule checker. Once another thread has called
:meth:`CancelToken.cancel`, the next check raises :class:`Cancelled`, a ``BaseException``, so that the
analyzer's own ``except Exception`` (which turns a bug into an error result) lets it through: a cancelled
analysis gives no result at all. Uncancelled analyses give exactly what they gave without a token.
"""

from __future__ import annotations

import time


class Cancelled(BaseException):
    """Raised inside an analysis whose token was cancelled: its result is no longer wanted."""


class CancelToken:
    """Set from any thread (:meth:`cancel`), checked by the analysing thread (:meth:`check`)."""

    __slots__ = ("cancelled", "requested_at")

    def __init__(self) -> None:
        self.cancelled = False
        self.requested_at: float | None = None  # ``time.perf_counter()`` of the first cancel()

    def cancel(self) -> None:
        if not self.cancelled:
            self.requested_at = time.perf_counter()
            self.cancelled = True

    def check(self) -> None:
        """Raise :class:`Cancelled` once the token is cancelled."""
        if self.cancelled:
            raise Cancelled()

    def waited_ms(self) -> float | None:
        """Milliseconds from the cancel request to now (``None`` when not cancelled)."""
        if self.requested_at is None:
            return None
        return (time.perf_counter() - self.requested_at) * 1000


class _Never(CancelToken):
    """The default token: never cancelled (cancel() does nothing)."""

    __slots__ = ()

    def cancel(self) -> None:
        return None


NEVER: CancelToken = _Never()
