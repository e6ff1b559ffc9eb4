"""The strategy meta-game's equilibrium: known answers, intervals that cover a
planted equilibrium, and a ladder's ``ladder.json`` keys."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.studies.equilibrium import (
    entropy_bits,
    equilibrium,
    equilibrium_sentences,
    meta_payoff,
    solve,
)
from analyzer.studies.ratings import ladder, write_ladder

RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])  # S[i, j]: i beats j


def _brute_force_value(m: np.ndarray, x: np.ndarray) -> float:
    """The worst a mixture ``x`` does against every pure reply (the twin of the LP's value)."""
    return float(min(x @ m[:, j] for j in range(m.shape[1])))


def test_rock_paper_scissors_mixes_in_thirds():
    x, v = solve(meta_payoff(RPS))
    assert np.allclose(x, 1 / 3, atol=1e-7)
    assert abs(v) < 1e-9
    assert math.isclose(entropy_bits(x), math.log2(3), rel_tol=1e-6)


def test_a_dominated_strategy_gets_no_share():
    # rock-paper-scissors plus "dud", which every strategy beats 70% of the time
    s = np.full((4, 4), 0.5)
    s[:3, :3] = RPS
    s[:3, 3] = 0.7
    s[3, :3] = 0.3
    x, _ = solve(meta_payoff(s))
    assert x[3] == 0.0
    assert np.allclose(x[:3], 1 / 3, atol=1e-7)


def test_a_pure_equilibrium_plays_one_strategy():
    # "ace" beats everyone; the rest cycle
    s = np.full((4, 4), 0.5)
    s[1:, 1:] = RPS
    s[0, 1:] = [0.55, 0.6, 0.52]
    s[1:, 0] = 1 - s[0, 1:]
    m = meta_payoff(s)
    x, v = solve(m)
    assert x.tolist() == [1.0, 0.0, 0.0, 0.0]
    assert abs(v) < 1e-12  # a symmetric game's value; against any other strategy it gains
    assert min(x @ m[:, j] for j in (1, 2, 3)) == pytest.approx(2 * 0.02)  # 52%: M = 2 S - 1
    assert entropy_bits(x) == 0.0


def test_an_uneven_cycle_mixes_in_the_planted_shares():
    x_true, m = _planted()
    x, v = solve(m)
    assert np.allclose(x, x_true, atol=1e-7) and abs(v) < 1e-9
    # no mixture does better against every reply (the brute-force twin on a grid)
    grid = [np.array([a, b, 1 - a - b]) for a in np.linspace(0, 1, 41)
            for b in np.linspace(0, 1, 41) if a + b <= 1 + 1e-12]  # fmt: skip
    best = max(_brute_force_value(m, g) for g in grid)
    assert best <= _brute_force_value(m, x) + 1e-9


def test_the_lp_matches_a_brute_force_search_on_random_games():
    """On random antisymmetric games the LP's mixture does at least as well against
    every reply as the best mixture of a fine grid (the slow, obviously correct twin)."""
    rng = np.random.default_rng(7)
    grid = [np.array([a, b, 1 - a - b]) for a in np.linspace(0, 1, 61)
            for b in np.linspace(0, 1, 61) if a + b <= 1 + 1e-12]  # fmt: skip
    for _ in range(20):
        s = rng.random((3, 3))
        m = meta_payoff(s)
        x, v = solve(m)
        assert np.all(x >= 0) and math.isclose(x.sum(), 1.0)
        assert _brute_force_value(m, x) >= max(_brute_force_value(m, g) for g in grid) - 1e-9
        assert _brute_force_value(m, x) == pytest.approx(0.0, abs=1e-9)  # symmetric: value 0


def _planted():
    """An uneven rock-paper-scissors whose equilibrium is (0.5, 0.3, 0.2)."""
    x_true = np.array([0.5, 0.3, 0.2])
    k = 0.6
    a, b, c = x_true[2] * k, x_true[1] * k, x_true[0] * k  # null vector of M is (c, b, a)
    m = np.array([[0, a, -b], [-a, 0, c], [b, -c, 0]])
    return x_true, m


def _synthetic_ladder(seed: int, games: int = 1500):
    """Per-game outcomes of a 2-player ladder with the planted equilibrium: every
    ordered pair plays ``games`` games in each seat order; win probabilities
    ``1/2 + M/2``."""
    x_true, m = _planted()
    p = 0.5 + m / 2
    names = ("rock", "paper", "scissors")
    rng = np.random.default_rng(seed)
    per_game = {}
    for i in range(3):
        for j in range(3):
            if i < j:
                first = (rng.random(games) < p[i, j]).astype(float)  # i in seat 0
                second = (rng.random(games) < p[i, j]).astype(float)  # i in seat 1
                per_game[(names[i], names[j])] = (first + second) / 2
                per_game[(names[j], names[i])] = 1 - per_game[(names[i], names[j])]
    return names, per_game, x_true


@pytest.mark.slow
def test_bootstrap_intervals_cover_a_planted_equilibrium():
    covered = 0
    for seed in range(10):
        names, per_game, x_true = _synthetic_ladder(seed)
        eq = equilibrium(names, per_game, bootstrap=1000, seed=seed)
        ok = bool(np.all((eq.low <= x_true) & (x_true <= eq.high)))
        covered += ok
        assert np.all(eq.low <= eq.shares + 1e-12) and np.all(eq.shares <= eq.high + 1e-12)
    assert covered >= 9, f"covered in {covered} of 10 seeds"


def test_equilibrium_is_deterministic_and_sums_to_one():
    names, per_game, _ = _synthetic_ladder(0, games=300)
    a = equilibrium(names, per_game, bootstrap=50, seed=1)
    b = equilibrium(names, per_game, bootstrap=50, seed=1)
    assert np.array_equal(a.shares, b.shares) and np.array_equal(a.low, b.low)
    assert math.isclose(a.shares.sum(), 1.0)
    doc = a.as_dict()
    assert set(doc["equilibrium"]) == set(names)
    assert all(len(v) == 2 for v in doc["equilibrium_interval"].values())


@pytest.mark.parametrize("players", [2, 3])
def test_ladder_json_gains_the_equilibrium(tmp_path, players):
    # at 3 players the meta-game is one seat against a field of two
    r = ladder("coin", players, ["fair", "lucky"], 300, seed=4, bootstrap=100)
    paths = write_ladder(r, tmp_path)
    doc = json.loads((tmp_path / "ladder.json").read_text())
    assert doc["equilibrium"] == {"fair": 0.0, "lucky": 1.0}  # lucky wins 2/3: it dominates
    assert doc["equilibrium_interval"]["lucky"][1] == 1.0
    assert doc["entropy"] == 0.0
    for key in ("ratings", "matrix", "anchor", "games_total"):  # the old keys stay
        assert key in doc
    assert len(paths) == 4
    words = " ".join(equilibrium_sentences(doc))
    assert "lucky dominates" in words and f"at {players} players" in words


def test_sentences_for_a_mix_name_every_share_with_its_interval():
    doc = {
        "strategies": ["claimer", "collector", "random"],
        "players": 2,
        "games_total": 1000,
        "equilibrium": {"claimer": 0.58, "collector": 0.42, "random": 0.0},
        "equilibrium_interval": {
            "claimer": [0.45, 0.70],
            "collector": [0.30, 0.55],
            "random": [0.0, 0.0],
        },  # fmt: skip
        "entropy": 0.98,
        "entropy_interval": [0.9, 1.0],
    }
    text = " ".join(equilibrium_sentences(doc))
    assert "no strategy dominates" in text
    assert "claimer 58% [45, 70] and collector 42% [30, 55]" in text
    assert "random" in text  # the field is named
    assert equilibrium_sentences({"ratings": []}) == []
