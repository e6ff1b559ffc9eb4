"""Unearth's advice remembers the exact odds of its recent questions (a table page's
taps ask most of them again): the answer is the same remembered or not."""

from __future__ import annotations

import analyzer
from analyzer.games.table import example
from analyzer.unearth import advise as A


def test_remembered_odds_give_the_same_advice(monkeypatch):
    text = example("unearth")
    first = analyzer.advise("unearth", text).to_json()
    assert A._RECENT  # the questions were remembered
    again = analyzer.advise("unearth", text).to_json()
    calls = []
    real = A.exact_odds
    monkeypatch.setattr(A, "exact_odds", lambda q, r: calls.append(q) or real(q, r))
    monkeypatch.setattr(A, "_RECENT", {})
    fresh = analyzer.advise("unearth", text).to_json()
    assert first == again == fresh
    assert calls and len(set(calls)) == len(A._RECENT)  # each question asked once
    n = len(calls)
    analyzer.advise("unearth", text.replace("bag = 40", "bag = 39"))
    assert len(calls) > n  # another bag: other questions
