"""The skill gradient: known answers on the coin game, the variance shares against
a plain twin, the verdict's bar and the words."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.studies.skill import (
    CLEAR_EDGE,
    chance_shares,
    skill_gradient,
    step_lineups,
    strength_ladder,
    verdict,
)
from analyzer.tables.landscape import skill_headline, skill_sentences
from tests.studies.test_ratings import _exact_share


def test_strength_ladder_of_every_shipped_game():
    from analyzer.games import load_game

    assert strength_ladder(load_game("unearth")) == ("random", "baseline", "balanced", "search")
    assert strength_ladder(load_game("uruk")) == (
        "random",
        "baseline",
        "trained",
        "search",
    )  # strategies 5
    assert strength_ladder(load_game("colorful_treasure")) == (
        "random", "baseline", "greedy", "search",
    )  # fmt: skip


def test_step_lineups_put_the_stronger_seat_everywhere_once():
    assert step_lineups("a", "b", 3) == [("b", "a", "a"), ("a", "b", "a"), ("a", "a", "b")]


def test_verdict_uses_the_bar_above_a_fair_share():
    assert verdict(0.61, 0.70, 0.5) == "skill matters"
    assert verdict(0.45, 0.59, 0.5) == "luck decides"
    assert verdict(0.55, 0.65, 0.5) == "not settled"
    assert verdict(0.25 + CLEAR_EDGE, 0.5, 0.25) == "skill matters"  # 4 players: 35%


def test_a_lucky_coin_beats_a_fair_one_at_its_exact_rate():
    r = skill_gradient("coin", 2, 800, seed=3, rungs=["fair", "lucky"], bootstrap=100)
    row = r.table.iloc[0]
    exact = _exact_share(0.6, 5, 1)
    assert row.low <= exact <= row.high
    assert row.seat_games == 1600 and row.chance_method == "same deals, seats swapped"
    # the coins are drawn per seat from the game's stream: swapping the players
    # changes a flip only where it falls between 0.5 and 0.6, so the deal decides most
    assert row.deal_share > 0.5 and row.deal_low <= row.deal_share <= row.deal_high


def test_identical_players_swapped_replay_the_same_game():
    r = skill_gradient("coin", 2, 300, seed=1, rungs=["fair", "fair"], bootstrap=50)
    row = r.table.iloc[0]
    assert row.win_share == pytest.approx(0.5)  # each game's two seats, both fair
    assert row.deal_share == pytest.approx(1.0)  # the deal alone decides
    assert row.skill_share == pytest.approx(0.0)


def _plain_shares(tables, players):
    """The twin: the deal's and the players' shares with numpy's covariance."""
    x = np.stack([t["win"].to_numpy(float)[::players] for t in tables])
    pooled = x.reshape(-1).var()
    k = len(x)
    covs = [np.cov(x[a], x[b], bias=True)[0, 1] for a in range(k) for b in range(a + 1, k)]
    return float(np.mean(covs) / pooled), float(x.mean(axis=1).var() / pooled)


def test_chance_shares_match_the_plain_twin():
    rng = np.random.default_rng(0)
    games, players = 200, 3
    deal = rng.random(games)
    tables = []
    for k in range(players):
        w = np.zeros((games, players))
        first = (deal + 0.3 * rng.random(games) + 0.1 * k) > 0.8
        w[:, 0] = first
        w[:, 1] = ~first
        tables.append(pd.DataFrame({"win": w.reshape(-1)}))
    got = chance_shares(tables, players, 0, rng)
    deal_share, skill_share = _plain_shares(tables, players)
    assert got["deal"][0] == pytest.approx(deal_share)
    assert got["skill"][0] == pytest.approx(skill_share)
    assert "luck" not in got


def _doc(**step):
    base = {
        "players": 2, "weaker": "baseline", "stronger": "balanced", "field": "one balanced seat "
        "against 1 baseline", "games": 500, "seat_games": 1000, "win_share": 0.76, "low": 0.73,
        "high": 0.79, "fair": 0.5, "verdict": "skill matters", "chance_share": 0.3,
        "chance_low": 0.25, "chance_high": 0.35, "chance_method": "luck terms",
        "deal_share": 0.1, "deal_low": 0.05, "deal_high": 0.15,
    }  # fmt: skip
    base.update(step)
    random_step = {**base, "weaker": "random", "stronger": "baseline", "win_share": 0.99,
                   "low": 0.98, "high": 1.0}  # fmt: skip
    return {"players": 2, "clear_edge": 0.1, "steps": [random_step, base]}


def test_words_say_skill_matters_with_the_step_and_the_bar():
    doc = _doc()
    head, main = skill_headline(doc)
    assert main == 1
    assert head.startswith("Skill matters at 2 players")
    assert "balanced beats baseline 76% [73, 79] of the time" in head and "60%" in head
    text = " ".join(skill_sentences(doc))
    assert "Chance alone explains 30% [25, 35]" in text and "luck terms" in text


def test_words_say_luck_decides_when_every_sensible_step_stays_below_the_bar():
    doc = _doc(win_share=0.52, low=0.49, high=0.55, verdict="luck decides")
    head, _ = skill_headline(doc)
    assert head.startswith("Luck decides") and "52% [49, 55]" in head
    doc = _doc(win_share=0.58, low=0.52, high=0.64, verdict="not settled")
    assert skill_headline(doc)[0].startswith("Not settled")
    assert not math.isnan(doc["steps"][1]["win_share"])
