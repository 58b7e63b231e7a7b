"""Cooperative cancellation of one analysis (the language server's answer to a newer version).

The analysis checks its :class:`CancelToken` at cheap points: before each top-level statement and each
function body the usage walk analyses, and before each rule checker. Once another thread has called
:meth:`CancelToken.cancel`, the next check raises :class:`Cancelled`, a ``BaseException``, so that the
analyzer's own ``except Exception`` (which turns a bug into an error result) lets it through: a cancelled
analysis gives no result at all. Uncancelled analyses give exactly what they gave without a token.

An analysis may :meth:`~CancelToken.shield` its token against an ordinary cancel (a newer version of the
text): the language server's full analysis of a document whose previous full analysis was cancelled does,
so that a stream of edits cannot keep the document without a result; ``cancel(force=True)`` (the document
closed, the server shutting down) stops it all the same.
"""

from __future__ import annotations

import time


class Cancelled(BaseException):
    """Raised inside an analysis whose token was cancelled: its result is no longer wanted."""


class CancelToken:
    """Set from any thread (:meth:`cancel`), checked by the analysing thread (:meth:`raise_if_cancelled`)."""

    __slots__ = ("cancelled", "requested_at", "shielded", "forced")

    def __init__(self) -> None:
        self.cancelled = False
        self.requested_at: float | None = None  # ``time.perf_counter()`` of the first cancel()
        self.shielded = False
        self.forced = False

    def cancel(self, force: bool = False) -> bool:
        """Ask the analysis to stop (unless it is shielded and not ``force``); returns whether it will."""
        if self.shielded and not force:
            return False
        self.forced = self.forced or force
        if not self.cancelled:
            self.requested_at = time.perf_counter()
            self.cancelled = True
        return True

    def shield(self) -> None:
        """From now on only ``cancel(force=True)`` stops the analysis (an ordinary cancel that came
        before is withdrawn)."""
        self.shielded = True
        if self.cancelled and not self.forced:
            self.cancelled = False
            self.requested_at = None

    def raise_if_cancelled(self) -> None:
        """Raise :class:`Cancelled` once the token is cancelled."""
        if self.cancelled:
            raise Cancelled()

    def waited_ms(self) -> float | None:
        """Milliseconds from the cancel request to now (``None`` when not cancelled)."""
        if self.requested_at is None:
            return None
        return (time.perf_counter() - self.requested_at) * 1000


class DeadlineToken(CancelToken):
    """A token that also cancels itself once ``seconds`` have passed since it was made: the time limit of
    one file's analysis where no timer signal can stop it (a language server's scan thread)."""

    __slots__ = ("deadline", "expired")

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.perf_counter() + seconds
        self.expired = False

    def raise_if_cancelled(self) -> None:
        """Raise :class:`Cancelled` once cancelled or past the deadline (then ``expired`` is set)."""
        if self.cancelled:
            raise Cancelled()
        if time.perf_counter() >= self.deadline:
            self.expired = True
            raise Cancelled()


class _Never(CancelToken):
    """The default token: never cancelled (cancel() does nothing)."""

    __slots__ = ()

    def cancel(self, force: bool = False) -> bool:
        return False

    def shield(self) -> None:
        return None


NEVER: CancelToken = _Never()
