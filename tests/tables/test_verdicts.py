"""Verdicts: one line per question, the right test for each question.

The case of issue 38: a variant that moves a strategy from "significantly below
a fair share" to "not significant" must be judged by its paired change (the same
games played both ways), never by setting the two verdicts side by side.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.games import load_game
from analyzer.report.findings_view import findings_blocks
from analyzer.tables import findings as F
from analyzer.tables.verdicts import verdict

FAIR = 0.25


def _stone_path_case(seed=1, games=1500, redraw=0.6, held_back=0.96, patch=1.03):
    """Two variants of a 4-player game on the same games (common random numbers):
    seat 0 plays ``lucky``, held back as printed (its score times ``held_back``);
    the patched variant redraws ``redraw`` of the games and eases the handicap by
    ``patch``. As printed, lucky is significantly below a fair 25%; patched, its own
    test is not significant; the paired change is not significant either."""
    from analyzer.tables.aggregate import Reducer, build_tables

    rng = np.random.default_rng(seed)
    players = 4
    u = rng.random((games, players))
    v = np.where(rng.random((games, 1)) < redraw, rng.random((games, players)), u)
    frames = []
    for cell, (s, k) in enumerate(((u, held_back), (v, held_back * patch))):
        s = s.copy()
        s[:, 0] *= k
        win = (s == s.max(axis=1, keepdims=True)).astype(np.float32)
        frames.append(
            pd.DataFrame(
                {
                    "cell": np.int16(cell),
                    "order": np.int16(0),
                    "game": np.repeat(np.arange(games, dtype=np.int64), players),
                    "seat": np.tile(np.arange(players, dtype=np.int8), games),
                    "n_players": np.int8(players),
                    "strategy": pd.Categorical(["lucky", "fair", "fair", "fair"] * games),
                    "score": np.round(10 * s).astype(np.int16).reshape(-1),
                    "win": win.reshape(-1),
                    "game_turns": np.int16(5),
                }
            )
        )
    g = pd.concat(frames, ignore_index=True)
    order = [["lucky", "fair", "fair", "fair"]]
    info = {
        "game": "coin",
        "cells": [
            {"index": i, "label": lab, "players": players, "params": {"variant": k},
             "orders": order}
            for i, (k, lab) in enumerate((("a", "as printed"), ("b", "patched")))
        ],
        "pairs": [[0, 1]],
        "scenario": {
            "compare": {"a": {"label": "as printed"},
                        "b": {"label": "patched", "overrides": {"coin.rounds": 3}}},
            "questions": [
                {"id": "strategies", "params": {"strategy": "lucky"}},
                {"id": "variant_effect", "params": {"strategy": "lucky"}},
            ],
        },
    }  # fmt: skip
    tables = build_tables(Reducer(((0, 1),), game="coin")({"games": g}), info)
    return tables, info, g


def _paired_lucky(g: pd.DataFrame) -> pd.Series:
    a = g[(g["cell"] == 0) & (g["strategy"] == "lucky")].set_index(["game", "seat"])["win"]
    b = g[(g["cell"] == 1) & (g["strategy"] == "lucky")].set_index(["game", "seat"])["win"]
    return (b - a).astype(float)


def test_a_variant_is_judged_by_its_paired_change_not_by_two_verdicts():
    tables, info, g = _stone_path_case()
    st = tables["strategies"].set_index(["label", "strategy"])
    # the case: as printed significantly below a fair share, patched not
    assert st.loc[("as printed", "lucky"), "win_rate_high"] < FAIR
    assert st.loc[("patched", "lucky"), "win_rate_low"] < FAIR < st.loc[
        ("patched", "lucky"), "win_rate_high"]  # fmt: skip
    out = F.answer(tables, info, load_game("coin"))
    d = _paired_lucky(g)
    half = 1.959964 * d.std(ddof=1) / np.sqrt(len(d))
    for i, q in enumerate(out.questions):
        got = out.for_question(i)
        # the printed game first; the variant only as its paired change
        assert got[0].label == "as printed" or q["id"] == "variant_effect"
        variant = [f for f in got if f.label == "patched"]
        assert len(variant) == 1
        (change,) = variant
        assert change.n_unit == "paired seat-games" and change.reference == 0
        assert change.estimate == pytest.approx(d.mean()) and change.n == len(d)
        assert (change.low, change.high) == pytest.approx(
            (d.mean() - half, d.mean() + half), rel=1e-4)  # fmt: skip
        assert not change.significant  # the paired test: no clear change
        assert "as if independent" not in change.text
        line = out.verdict_for(i)
        assert f"{100 * change.low:+.1f}, {100 * change.high:+.1f}]" in line
    strat = out.verdict_for(0)
    assert strat.startswith("No: lucky wins ") and "less than a fair share" in strat
    assert "paired: not a clear change" in strat
    assert out.verdict_for(1).startswith("No clear change: patched instead of as printed")
    # page 1 sets no variant's own verdict against a fair share beside the printed one's
    blocks = findings_blocks(out, info)
    said = [text for style, text in blocks if style in ("sig", "ns")]
    assert not any("patched" in t and "fair" in t for t in said)
    assert any(t.startswith("No: lucky") for style, t in blocks if style == "verdict")


def test_the_paired_interval_is_narrower_than_the_independent_one():
    """The same games both ways: the paired interval of the change is narrower than
    the one that treats the two variants as independent samples."""
    tables, info, g = _stone_path_case(redraw=0.3)
    out = F.answer(tables, info, load_game("coin"))
    (change,) = [f for f in out.findings if f.question.startswith("variant_effect")]
    st = tables["strategies"].set_index(["label", "strategy"])
    a, b = st.loc[("as printed", "lucky")], st.loc[("patched", "lucky")]
    _, lo, hi = F.independent_difference(
        a["win_rate"], a["win_rate_low"], a["win_rate_high"],
        b["win_rate"], b["win_rate_low"], b["win_rate_high"],
    )  # fmt: skip
    assert change.high - change.low < 0.8 * (hi - lo)


def _rate(label, est, low, high, significant, subject="collector win rate", q="strategies"):
    f = F.Finding(q, label, subject, "t", est, low, high, 2000, "seat-games", FAIR,
                  est - FAIR, abs(est - FAIR) / FAIR, 0.01)  # fmt: skip
    from dataclasses import replace

    return replace(f, significant=significant)


def test_a_finding_over_several_fields_says_in_how_many_it_holds():
    fs = [
        _rate("v1", 0.20, 0.18, 0.22, True),
        _rate("v2", 0.21, 0.19, 0.23, True),
        _rate("v3", 0.18, 0.16, 0.20, True),
        _rate("v4", 0.27, 0.25, 0.29, False),
    ]
    fields = {"v1": "balanced", "v2": "claimer", "v3": "mixture", "v4": "baseline"}
    line = verdict("strategies", fs, fields)
    assert line.startswith(
        "No in 3 of the 4 fields of players: collector wins 7.0 points [5.0, 9.0] less than "
        "a fair share (v3: 18.0% against 25%); likewise: balanced, claimer; "
        "not clear in 1"
    )
    # a strategy that wins in one field and loses in three is not headlined as winning
    fs2 = [_rate("v1", 0.35, 0.33, 0.37, True)] + [
        _rate(k, 0.20, 0.18, 0.22, True) for k in ("v2", "v3", "v4")
    ]
    line2 = verdict("strategies", fs2, fields)
    assert line2.startswith("No in 3 of the 4 fields of players: collector wins 5.0 points")
    assert "the other way in 1 (balanced)" in line2
    # one field of two: the verdict says so first
    line3 = verdict("strategies", fs2[:1] + [_rate("v2", 0.25, 0.23, 0.27, False)], fields)
    assert line3.startswith("Yes in 1 of the 2 fields of players: collector wins 10.0 points")


def test_the_first_player_verdict_is_a_sentence_with_its_interval():
    table = pd.DataFrame(
        {"cell": [0], "label": ["default"], "players": [3], "games": [16000],
         "seat0_win": [0.36], "seat0_win_low": [0.343], "seat0_win_high": [0.377],
         "fair": [1 / 3], "advantage": [0.36 - 1 / 3], "significant": [True]}
    )  # fmt: skip
    info = {"cells": [{"index": 0, "label": "default", "players": 3}], "scenario": {}}
    out = F.answer({"first_player": table}, info, load_game("coin"))
    assert out.verdict_for(0) == (
        "Yes: the first player wins 2.7 points [1.0, 4.4] more than a fair share "
        "(36.0% against 33%)."
    )


def test_a_handful_of_seat_games_gets_a_wide_interval():
    """Two seats built it and both lost: the difference against the rest has an
    interval wide enough to include no difference (a Wald interval had width 0 on
    their side and called it significant)."""
    d, lo, hi = F.rates_difference(0, 2, 800, 1598)
    assert d == pytest.approx(-800 / 1598)
    assert lo < -0.4 and hi > 0  # Agresti-Caffo: 0/2 is no evidence
    d, lo, hi = F.rates_difference(300, 1000, 250, 1000)
    assert lo < d < hi and 0 < lo  # with many, about the Wald interval
    assert hi - lo == pytest.approx(2 * 1.959964 * np.sqrt(0.3 * 0.7 / 1e3 + 0.25 * 0.75 / 1e3),
                                    rel=0.01)  # fmt: skip


def test_a_player_count_sweep_says_players_in_words():
    rows = [(2, 0.505, 0.48, 0.53, 0.5), (3, 0.36, 0.343, 0.377, 1 / 3)]
    table = pd.DataFrame(
        {"cell": [0, 1], "label": ["players=2", "players=3"], "players": [2, 3],
         "games": [16000, 16000], "seat0_win": [r[1] for r in rows],
         "seat0_win_low": [r[2] for r in rows], "seat0_win_high": [r[3] for r in rows],
         "fair": [r[4] for r in rows], "advantage": [r[1] - r[4] for r in rows],
         "significant": [False, True]}
    )  # fmt: skip
    info = {
        "cells": [{"index": i, "label": f"players={p}", "players": p, "params": {"players": p}}
                  for i, p in enumerate((2, 3))],
        "scenario": {}, "sweep": ["players"],
    }  # fmt: skip
    out = F.answer({"first_player": table}, info, load_game("coin"))
    line = out.verdict_for(0)
    assert line.startswith("Yes: the first player wins 2.7 points [1.0, 4.4] more than a fair "
                           "share (3 players: 36.0% against 33%)")  # fmt: skip
    assert "clear in 1 of 2 (2 players: not shown)" in line
    assert "clear in 1 of 2" in line


def test_configurations_that_go_the_other_way_are_not_counted_as_agreeing():
    """A sweep where greedy wins more at full recall and less at none: 'clear in 1 of
    3', and the one that goes the other way named, never 'clear in 2 of 3'."""
    fs = [
        _rate("recall=0.0", 0.13, 0.10, 0.16, True, "greedy win rate"),
        _rate("recall=0.5", 0.25, 0.22, 0.28, False, "greedy win rate"),
        _rate("recall=1.0", 0.40, 0.37, 0.43, True, "greedy win rate"),
    ]
    line = verdict("strategies", fs)
    assert line.startswith("Yes: greedy wins 15.0 points [12.0, 18.0] more than a fair share")
    assert "clear in 1 of 3" in line and "the other way in 1 (recall=0.0)" in line
