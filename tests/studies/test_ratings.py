"""``analyzer ladder``: round robin, Bradley–Terry fit, bootstrap, matrix, CLI.

The fit is checked against a direct maximisation of the same likelihood
(scipy), against strengths it must recover from simulated outcomes, and the
whole ladder against the exact win probability of the stand-in coin game.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy.optimize import minimize

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.studies.ratings import elo, fit_bradley_terry, ladder, lineups, write_ladder


def _neg_loglik(theta, counts, wins):
    """Luce choice: a seat of strategy i wins with probability pi_i / sum_k m_k pi_k."""
    pi = np.exp(theta - theta.mean())
    return -(wins.sum(axis=0) @ np.log(pi) - wins.sum(axis=1) @ np.log(counts @ pi))


def test_mm_fit_is_the_maximum_likelihood():
    """Line-ups of 2 and 4 seats, one strategy against a field: Hunter's MM and
    a direct numerical maximum agree."""
    rng = np.random.default_rng(4)
    counts = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1], [1, 3, 0], [3, 0, 1], [0, 1, 3.0]])
    wins = counts * rng.uniform(20, 80, counts.shape)
    pi = fit_bradley_terry(counts, wins, prior=0)
    best = minimize(_neg_loglik, np.zeros(3), args=(counts, wins), method="BFGS", tol=1e-12)
    ref = np.exp(best.x - best.x.mean())
    np.testing.assert_allclose(pi, ref, rtol=1e-5)
    assert math.isclose(np.exp(np.log(pi).mean()), 1.0)


def test_fit_recovers_known_strengths():
    """Outcomes drawn from the Luce model with Elo 0, +100, -200 (4 seats, one
    against a field of three): the fit finds them within 25 Elo."""
    true = np.array([0.0, 100.0, -200.0])
    pi = 10 ** (true / 400)
    rng = np.random.default_rng(7)
    rows, wins = [], []
    for a in range(3):
        for b in range(3):
            if a != b:
                m = np.zeros(3)
                m[a], m[b] = 1, 3
                p_a = pi[a] / (pi[a] + 3 * pi[b])
                w_a = rng.binomial(20_000, p_a)
                w = np.zeros(3)
                w[a], w[b] = w_a, 20_000 - w_a
                rows.append(m)
                wins.append(w)
    got = elo(fit_bradley_terry(np.array(rows), np.array(wins)), 0)
    np.testing.assert_allclose(got, true, atol=25)


def test_prior_keeps_a_strategy_that_never_wins_finite():
    counts = np.array([[1, 1.0]])
    pi = fit_bradley_terry(counts, np.array([[100.0, 0.0]]), prior=1)
    assert np.all(np.isfinite(elo(pi, 0))) and elo(pi, 0)[1] < -600


def test_lineups_rotate_the_single_seat_and_drop_duplicates():
    two = lineups(["a", "b", "c"], 2)
    assert len(two) == 6 and ("a", "b") in two and ("b", "a") in two
    four = lineups(["a", "b"], 4)
    assert len(four) == 8
    assert ("b", "a", "a", "a") in four and ("a", "a", "a", "b") in four


def _exact_share(p_lucky: float, rounds: int, field: int) -> float:
    """Exact win share of one lucky coin against ``field`` fair coins (ties shared)."""

    def pmf(p):
        return [comb(rounds, k) * p**k * (1 - p) ** (rounds - k) for k in range(rounds + 1)]

    lucky, fair = pmf(Fraction(p_lucky).limit_denominator(1000)), pmf(Fraction(1, 2))
    cdf = [sum(fair[: k + 1]) for k in range(rounds + 1)]
    share = Fraction(0)
    for k, pk in enumerate(lucky):
        below = cdf[k - 1] if k else Fraction(0)
        # j of the field tie at k, the rest below: share 1/(j+1)
        for j in range(field + 1):
            ways = comb(field, j) * fair[k] ** j * below ** (field - j)
            share += pk * ways / (j + 1)
    return float(share)


@pytest.mark.parametrize("players", [2, 4])
def test_coin_ladder_matches_the_exact_odds(players):
    r = ladder("coin", players, None, 600, seed=3, bootstrap=200)
    m = r.matrix.set_index(["strategy", "opponent"])
    exact = _exact_share(0.6, 5, players - 1)
    row = m.loc[("lucky", "fair")]
    assert row.low <= exact <= row.high
    assert row.games == 600 * players
    top = r.ratings.iloc[0]
    assert top.strategy == "lucky" and top.low > 0  # fair is the anchor (the first)
    assert top.low <= top.elo <= top.high
    if players == 2:  # the seats of one game: the shares add up to one
        assert math.isclose(row.win_share + m.loc[("fair", "lucky")].win_share, 1.0)
    # Luce model at the exact share: its Elo is near the fitted one
    implied = 400 * math.log10(exact * (players - 1) / (1 - exact))
    assert abs(top.elo - implied) < 3 * (top.high - top.low)


def test_ladder_is_deterministic_and_writes_its_files(tmp_path):
    a = ladder("coin", 3, ["lucky", "fair"], 100, seed=5, bootstrap=50)
    b = ladder("coin", 3, ["lucky", "fair"], 100, seed=5, bootstrap=50)
    assert a.ratings.equals(b.ratings) and a.matrix.equals(b.matrix)
    paths = write_ladder(a, tmp_path / "out")
    assert sorted(p.name for p in paths) == sorted(
        ["ratings.csv", "matrix.csv", "matrix_wide.csv", "ladder.json"]
    )
    doc = json.loads((tmp_path / "out" / "ladder.json").read_text())
    assert doc["seed"] == 5 and doc["players"] == 3 and len(doc["ratings"]) == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.name for p in paths)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategies": "fair,bogus"}, "--strategies: bad value 'bogus'"),
        ({"strategies": "fair"}, "at least two"),
        ({"strategies": "fair,fair"}, "each strategy once"),
        ({"anchor": "nobody"}, "--anchor: bad value 'nobody'"),
        ({"games": 1}, "--games"),
        ({"players": 9}, "players"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs, message):
    args = {"game": "coin", "players": 2, "games": 10, "seed": 1, **kwargs}
    with pytest.raises(InputError, match=message):
        ladder(**args)


@pytest.mark.parametrize("luck", [False, True], ids=["plain", "luck-adjusted"])
def test_unearth_baseline_and_balanced_on_its_frozen_row_tie_exactly(luck):
    """balanced given baseline's frozen row and baseline play the same games with
    seats swapped on the same seeds (common random numbers): each wins exactly
    half, both rate 0 (luck-adjusted: to rounding, the terms of the swapped
    games being the same sums in another order)."""
    from analyzer.unearth.defaults import BASELINE_ROW, PARAM_NAMES

    lad = ladder(
        "unearth",
        2,
        "balanced,baseline",
        12,
        2,
        strategy_params={"balanced": dict(zip(PARAM_NAMES, BASELINE_ROW, strict=True))},
        bootstrap=50,
        command=["analyzer", "ladder"],
        luck=luck,
    )
    if not luck:
        assert list(lad.matrix["win_share"]) == [0.5, 0.5]
        assert (lad.ratings[["elo", "low", "high"]] == 0).all().all()
    else:
        assert lad.info["luck_adjusted"] is True
        np.testing.assert_allclose(lad.matrix["win_share"], [0.5, 0.5], atol=1e-12)
        np.testing.assert_allclose(lad.ratings[["elo", "low", "high"]], 0.0, atol=1e-6)


def test_cli_unearth_ladder_rates_tuned_balanced_above_baseline(capsys, tmp_path):
    out = tmp_path / "lad"
    code = run_cli(
        ["ladder", "--players", "2", "--strategies", "balanced,baseline", "--games", "200"]
        + ["--seed", "2", "--bootstrap", "50", "--workers", "1", "--out", str(out)]
    )
    cap = capsys.readouterr()
    assert code == 0, cap.err
    assert "line-up 2/2" in cap.err and "Head-to-head" in cap.out
    doc = json.loads((out / "ladder.json").read_text())
    rating = {r["strategy"]: r for r in doc["ratings"]}
    assert rating["baseline"]["elo"] == 0 and rating["balanced"]["low"] > 0
    assert doc["command"].startswith("analyzer ladder")


def test_cli_bad_input_is_one_line(capsys):
    code = run_cli(["ladder", "--strategies", "balanced,nope", "--games", "5"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "'nope'" in err and "baseline" in err
    assert run_cli(["ladder", "--help"]) == 0
    assert "Examples" in capsys.readouterr().out
