"""Cooperative cancellation: an analysis checks its token per top-level statement, per function body the
walk analyses and per rule checker; once cancelled it raises ``Cancelled`` at the next check. Uncancelled
analyses give exactly what they give without a token; a cancelled incremental step leaves a state the
next version builds on exactly."""

from __future__ import annotations

import ast
import threading

import pytest
from test_incremental import MODEL, OPTIONS, as_data

from msmigrate.analysis.analyzer import analyze_source, rule_checkers
from msmigrate.analysis.cancel import NEVER, Cancelled, CancelToken
from msmigrate.analysis.incremental import FULL, INCREMENTAL, IncrementalAnalyzer
from msmigrate.analysis.receivers import facts_for
from msmigrate.analysis.usages import UsageCollector
from msmigrate.rules.support import TreeIndex

# MODEL: 3 imports and 3 classes (6 top-level statements), each class with 2 methods the walk analyses
# after the module body (6 function bodies)
WALK_CHECKS = 6 + 6


class CancelAt(CancelToken):
    """Counts the checks; cancels itself at check number ``at`` (0: never), as another thread would
    (``force``: as closing the document does)."""

    __slots__ = ("at", "calls", "force")

    def __init__(self, at: int = 0, force: bool = False) -> None:
        super().__init__()
        self.at = at
        self.calls = 0
        self.force = force

    def raise_if_cancelled(self) -> None:
        self.calls += 1
        if self.calls == self.at:
            self.cancel(self.force)
        super().raise_if_cancelled()


def full(kb, text: str) -> list:
    return as_data(analyze_source(text, "model.py", kb, OPTIONS))


def checks_of_a_full_analysis(kb) -> int:
    token = CancelAt()
    analyze_source(MODEL, "model.py", kb, OPTIONS, token)
    return token.calls


def test_the_walk_checks_per_statement_and_per_function_body(kb):
    token = CancelAt()
    UsageCollector(facts_for(kb)).run(ast.parse(MODEL), token)
    assert token.calls == WALK_CHECKS
    token = CancelAt()
    TreeIndex(ast.parse(MODEL), token)  # the rule checkers' index: per scope (the module, 6 functions)
    assert token.calls == 1 + 6


def test_an_uncancelled_analysis_gives_the_same_result(kb):
    token = CancelAt()
    result = analyze_source(MODEL, "model.py", kb, OPTIONS, token)
    assert as_data(result) == full(kb, MODEL)
    assert len(result.findings) == 15
    # the walk's checks, one after it, one per rule checker, and those within the steps after the walk
    assert token.calls > WALK_CHECKS + 1 + len(rule_checkers())
    assert checks_of_a_full_analysis(kb) == token.calls


def test_cancelled_at_each_check_raises_there(kb):
    for at in range(1, checks_of_a_full_analysis(kb) + 1):
        token = CancelAt(at)
        with pytest.raises(Cancelled):
            analyze_source(MODEL, "model.py", kb, OPTIONS, token)
        assert token.calls == at  # stopped at that very check, no later one ran
        assert token.waited_ms() is not None and token.waited_ms() >= 0


def test_cancelled_before_it_starts(kb):
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        analyze_source(MODEL, "model.py", kb, OPTIONS, token)
    # text without torch is never analysed: nothing to stop
    assert analyze_source("x = 1\n", "plain.py", kb, OPTIONS, token).findings == []


def test_the_default_token_cannot_be_cancelled():
    NEVER.cancel()
    assert NEVER.cancelled is False
    NEVER.raise_if_cancelled()


def test_cancel_from_another_thread_stops_a_running_analysis(kb):
    big = MODEL + "".join(f"\n\ndef f{n}(x):\n    return torch.abs(x).view(-1)\n" for n in range(4000))
    token = CancelToken()
    started = threading.Event()

    class Signalling(CancelToken):
        __slots__ = ()

        def raise_if_cancelled(self) -> None:
            started.set()
            token.raise_if_cancelled()

    outcome: list[object] = []

    def work() -> None:
        try:
            outcome.append(analyze_source(big, "big.py", kb, OPTIONS, Signalling()))
        except Cancelled as exc:
            outcome.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    assert started.wait(30)
    token.cancel()
    thread.join(30)
    assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)


def test_cancelled_full_analysis_leaves_nothing_to_build_on(kb):
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS)
    with pytest.raises(Cancelled):
        analyzer.analyze(MODEL, cancel=CancelAt(3))
    assert analyzer.text is None
    edited = MODEL.replace("torch.abs(y)", "torch.neg(y)", 1)
    assert as_data(analyzer.analyze(edited)) == full(kb, edited)
    assert analyzer.stats.mode == FULL


def test_cancelled_incremental_step_keeps_a_state_the_next_version_builds_on(kb):
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS)
    analyzer.analyze(MODEL)
    cancelled = MODEL.replace("torch.abs(y)", "torch.neg(y)", 1)
    token = CancelAt(2)
    with pytest.raises(Cancelled):
        analyzer.analyze(cancelled, cancel=token)
    assert token.calls == 2
    assert analyzer.text == cancelled and analyzer.provisional
    newest = cancelled.replace("F.relu(self.fc(x))", "F.gelu(self.fc(x))", 3)  # all three blocks
    assert as_data(analyzer.analyze(newest)) == full(kb, newest)
    assert analyzer.stats.mode == INCREMENTAL  # built on the cancelled step's state, not from scratch
    assert not analyzer.provisional
    # the text whose step was cancelled, sent again: its own findings, not those of the text before it
    assert as_data(analyzer.analyze(cancelled)) == full(kb, cancelled)


def test_same_text_again_after_a_cancelled_step(kb):
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS)
    analyzer.analyze(MODEL)
    cancelled = MODEL.replace("torch.abs(y)", "torch.foo_bar(y)", 1)
    with pytest.raises(Cancelled):
        analyzer.analyze(cancelled, cancel=CancelAt(1))
    result = analyzer.analyze(cancelled)
    assert as_data(result) == full(kb, cancelled)
    assert "torch.foo_bar" in [f.torch_api for f in result.findings]


def test_cancelled_confirmation_keeps_the_provisional_state(kb):
    text = MODEL + "".join(f"\nh{n} = Block0()\n" for n in range(3))
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS, allow_provisional=True, exact_line_budget=5)
    analyzer.analyze(text)
    edited = text.replace("F.relu(self.fc(x))", "F.gelu(self.fc(x))", 1)
    provisional = analyzer.analyze(edited)
    assert analyzer.provisional
    with pytest.raises(Cancelled):
        analyzer.confirm(CancelAt(1))
    assert analyzer.provisional and analyzer.text == edited
    assert as_data(analyzer.analyze(edited)) == as_data(provisional)  # unchanged text: the same result
    assert as_data(analyzer.confirm()) == full(kb, edited)
    assert not analyzer.provisional


STAR = "from torch import *\n" + MODEL  # a star import: every version is analysed in full


def test_after_a_cancelled_full_analysis_the_next_one_runs_to_its_end(kb):
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS)
    with pytest.raises(Cancelled):
        analyzer.analyze(STAR, cancel=CancelAt(3))
    edited = STAR.replace("torch.abs(y)", "torch.neg(y)", 1)
    token = CancelAt(1)  # a newer version arrives at once: this analysis goes on all the same
    assert as_data(analyzer.analyze(edited, cancel=token)) == full(kb, edited)
    assert token.shielded and not token.cancelled
    assert analyzer.stats.mode == FULL
    with pytest.raises(Cancelled):  # that one finished: the next full analysis may be cancelled again
        analyzer.analyze(STAR, cancel=CancelAt(1))


def test_a_forced_cancel_stops_a_shielded_analysis(kb):
    analyzer = IncrementalAnalyzer("model.py", kb, OPTIONS)
    with pytest.raises(Cancelled):
        analyzer.analyze(STAR, cancel=CancelAt(3))
    token = CancelAt(2, force=True)  # the document closed
    with pytest.raises(Cancelled):
        analyzer.analyze(STAR, cancel=token)
    assert token.shielded and token.calls == 2


def test_shield_withdraws_an_ordinary_cancel_but_not_a_forced_one():
    token = CancelToken()
    assert token.cancel() is True
    token.shield()
    token.raise_if_cancelled()
    assert token.cancel() is False and not token.cancelled
    assert token.cancel(force=True) is True
    with pytest.raises(Cancelled):
        token.raise_if_cancelled()
    forced = CancelToken()
    forced.cancel(force=True)
    forced.shield()
    with pytest.raises(Cancelled):
        forced.raise_if_cancelled()
