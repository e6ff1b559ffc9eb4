"""Colorful Treasure's luck terms (issue 28, ``docs/statistics.md``): they only
observe, a reveal's outcome distribution is the engine's deal, their mean is zero,
and the checks catch a planted bias."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chisquare

from analyzer.colorful_treasure.game import deal_layouts, make_job, play_raw, simulate
from analyzer.colorful_treasure.luck import KIND_NAMES, N_KINDS, load_value_params
from analyzer.colorful_treasure.rules import load_rules
from analyzer.kernels.luck import LUCK_COLUMNS, adjusted

RULES = load_rules()


def test_terms_only_observe_and_do_not_depend_on_the_split():
    on = simulate(3, "greedy", 40, 5, luck=True)
    off = simulate(3, "greedy", 40, 5, luck=False)
    assert set(LUCK_COLUMNS) <= set(on.columns) and not set(LUCK_COLUMNS) & set(off.columns)
    assert on.drop(columns=list(LUCK_COLUMNS)).equals(off)
    a = simulate(3, "greedy", 20, 5, luck=True)
    b = simulate(3, "greedy", 20, 5, first_game=20, luck=True)
    both = np.concatenate([a[list(LUCK_COLUMNS)].to_numpy(), b[list(LUCK_COLUMNS)].to_numpy()])
    np.testing.assert_array_equal(both, on[list(LUCK_COLUMNS)].to_numpy())
    # the seats' win terms of a game sum to 0 (the win values of every state sum to 1)
    sums = on.groupby("game")["luck_win"].sum().to_numpy()
    np.testing.assert_allclose(sums, 0.0, atol=1e-9)
    assert on["luck_score"].abs().max() > 0  # the terms are not all zero


def _chi2(observed, probs):
    observed = np.asarray(observed, float)
    return chisquare(observed, np.asarray(probs, float) * observed.sum()).pvalue


def test_reveals_enumerated_as_the_engine_deals_them():
    """A place never seen holds each of its wonder's cards never seen alike (the
    terms' enumeration), in the engine's own deals: the first place of a column
    over its five cards; the second, once the first is seen, over the other four."""
    t = RULES.tables
    rows = t.rows
    grids = deal_layouts(RULES, 77, 0, 20_000)
    first = grids[:, 0]  # wonder 0, row 0
    counts = np.bincount(first, minlength=rows)[:rows]
    assert _chi2(counts, np.full(rows, 1 / rows)) > 1e-4
    seen = first == 0  # card 0 was seen at row 0: row 1 is uniform over the others
    second = grids[seen, 1]
    counts = np.bincount(second, minlength=rows)[1:rows]
    assert counts.sum() == seen.sum()
    assert _chi2(counts, np.full(rows - 1, 1 / (rows - 1))) > 1e-4
    # a wrong enumeration (the seen card still possible) is rejected
    wrong = np.bincount(second, minlength=rows)[:rows]
    assert _chi2(wrong + 0.0, np.full(rows, 1 / rows)) < 1e-6


def _luck(players, games, seed, plant=0, rules=None):
    par = load_value_params()
    if plant:
        par = np.append(par, float(plant))
    job = make_job(players, "greedy", seed, rules, steals=False, luck=True)
    res, wins, _, s = play_raw(job, 0, games, luck_par=par)
    return res, wins, s.luck_out.copy()


def _z(x):
    x = np.asarray(x, float)
    return x.mean() / (x.std(ddof=1) / math.sqrt(len(x)))


@pytest.fixture(scope="module")
def fair():
    return _luck(2, 4000, 2929)


def test_luck_terms_have_mean_zero(fair):
    _, _, luck = fair
    for k in range(N_KINDS):
        for col in (0, 1):
            x = luck[:, k, col]
            if x.std() > 0:
                assert abs(_z(x)) < 4, (KIND_NAMES[k], col)
    assert abs(_z(luck[:, :, 1].sum(axis=1))) < 4


def test_luck_terms_have_mean_zero_with_the_action_tiles():
    """Peeks (a seat alone sees a card) are counted as seen: the reveals' terms stay fair."""
    _, _, luck = _luck(3, 1500, 3131, rules=load_rules({"tiles": "a"}))
    assert abs(_z(luck[:, :, 1].sum(axis=1))) < 4
    assert abs(_z(luck[:, :, 0].sum(axis=1))) < 4


@pytest.mark.parametrize("plant", [1, 2])
def test_a_planted_bias_is_caught(plant):
    _, _, luck = _luck(2, 4000, 2929, plant)
    assert abs(_z(luck[:, :, 1].sum(axis=1))) > 6


def test_plain_and_adjusted_estimates_agree(fair):
    res, wins, luck = fair
    from analyzer.colorful_treasure.engine import R_SCORE

    total = luck.sum(axis=1)
    seat0 = slice(0, None, 2)
    for values, col in ((wins[seat0], 0), (res[seat0, R_SCORE] / 60.0, 1)):
        est = adjusted(values, total[seat0, col])
        gap = abs(est["mean"] - est["adj"])
        assert gap < 2 * max(est["half"], est["adj_half"])
        assert est["ratio"] < 1.0  # the terms remove some variance


def test_terms_are_off_by_default_and_the_switch_turns_them_on():
    """Colorful Treasure declares its terms off (they cost more than they save so far):
    ``analyzer.simulate`` and a scenario without ``[output] luck`` play without them,
    ``luck=True`` / ``luck = true`` with them, the same games either way."""
    import analyzer
    from analyzer.runs.scenario_file import parse_scenario

    kw = dict(game="colorful_treasure", players=3, strategies="greedy", games=30, seed=7)
    plain = analyzer.simulate(**kw)
    on = analyzer.simulate(luck=True, **kw)
    assert not set(LUCK_COLUMNS) & set(plain.columns)
    assert set(LUCK_COLUMNS) <= set(on.columns)
    assert on.drop(columns=list(LUCK_COLUMNS)).equals(plain)
    raw = {
        "game": "colorful_treasure",
        "players": 2,
        "games": 10,
        "seed": 1,
        "strategies": "greedy",
    }
    assert parse_scenario(raw, "x.toml").luck is None
    assert parse_scenario({**raw, "output": {"luck": True}}, "x.toml").luck is True
