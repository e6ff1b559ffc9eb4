"""Uruk's luck terms (issue 28, ``docs/statistics.md``): they only observe, the
draws' enumerated distributions are the engine's, their mean is zero per kind of
draw, and the checks catch a planted bias."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chisquare

import analyzer
from analyzer.core.seeding import root_key
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.luck import LUCK_COLUMNS, adjusted
from analyzer.kernels.rng import rng_seed
from analyzer.uruk import cards
from analyzer.uruk import state as S
from analyzer.uruk.engine import R_SCORE
from analyzer.uruk.game import make_job, play_raw, simulate
from analyzer.uruk.luck import (
    DEAL_L1,
    KIND_DEAL,
    KIND_HAND,
    KIND_NAMES,
    N_KINDS,
    count_pile,
    deal_features,
    load_value_params,
    pile_bounds,
)
from analyzer.uruk.rules import load_rules

RULES = load_rules()


def test_terms_only_observe_and_do_not_depend_on_the_split():
    on = analyzer.simulate(3, "balanced", 40, 5, game="uruk", luck=True)
    off = simulate(3, "balanced", 40, 5)
    assert set(LUCK_COLUMNS) <= set(on.columns) and not set(LUCK_COLUMNS) & set(off.columns)
    assert on.drop(columns=list(LUCK_COLUMNS)).equals(off)
    a = simulate(3, "balanced", 20, 5, luck=True)
    b = simulate(3, "balanced", 20, 5, first_game=20, luck=True)
    both = np.concatenate([a[list(LUCK_COLUMNS)].to_numpy(), b[list(LUCK_COLUMNS)].to_numpy()])
    np.testing.assert_array_equal(both, on[list(LUCK_COLUMNS)].to_numpy())
    # the seats' win terms of a game sum to 0 (the win values of every state sum to 1)
    sums = on.groupby("game")["luck_win"].sum().to_numpy()
    np.testing.assert_allclose(sums, 0.0, atol=1e-9)
    assert on["luck_score"].abs().max() > 0  # the terms are not all zero


def _chi2(observed, expected):
    observed = np.asarray(observed, float)
    expected = np.asarray(expected, float)
    keep = expected > 0
    assert observed[~keep].sum() == 0, "a card drawn that the enumeration gives no chance"
    return chisquare(observed[keep], expected[keep] * observed.sum() / expected.sum()).pvalue


def _draws(n, games, where, wrong=False):
    """Over ``games`` set-ups of ``n`` players: the card the engine draws next and
    the enumerated distribution of it (``wrong``: over the whole deck, its piles
    ignored), summed by card code. ``where``: ``"top"`` the next draw after the
    set-up (the level-2 pile), ``"bottom"`` the first card of the bottom pile (the
    level-2 cards drawn off), ``"reshuffle"`` the first after a reshuffle."""
    t = RULES.tables
    s = S.new_state(t, luck=load_value_params())
    sv, tv = make_view(s, "UrukState"), make_view(t, "UrukTables")
    codes = t.n_inv + t.n_gods
    seen = np.zeros(codes)
    expect = np.zeros(codes)
    key0, key1 = root_key(4242)
    for g in range(games):
        rng_seed(s.rng, key0, key1, g)
        cards.setup(sv, tv, n)
        if where == "bottom":
            s.sc[S.S_DECK_N] = S.bottom_pile(t)
        elif where == "reshuffle":
            k = s.sc[S.S_DECK_N]
            s.discard[:k] = s.deck[:k]  # a pile of known cards, turned into the deck
            s.sc[S.S_DISCARD_N] = k
            s.sc[S.S_DECK_N] = 0
            s.sc[S.S_RESHUFFLES] = 1
            cards.reshuffle(sv, tv)
        top = s.sc[S.S_DECK_N] - 1
        lo = 0 if wrong else pile_bounds(sv, top)
        count_pile(sv, tv, lo, top + 1)
        expect += s.luck_cnt[:codes] / (top + 1 - lo)
        seen[s.deck[top]] += 1
    return seen, expect


@pytest.mark.parametrize("where", ["top", "bottom", "reshuffle"])
def test_draws_enumerated_as_the_engine_shuffles_them(where):
    seen, expect = _draws(2, 3000, where)
    assert _chi2(seen, expect) > 1e-4


def test_a_wrong_enumeration_is_rejected():
    """Uniform over the whole deck (the level-2 pile on top ignored): rejected."""
    seen, expect = _draws(2, 3000, "top", wrong=True)
    keep = expect > 0
    assert chisquare(seen[keep], expect[keep] * seen.sum() / expect.sum()).pvalue < 1e-6


def _luck(players, games, seed, plant=0):
    par = load_value_params()
    if plant:
        par = np.append(par, float(plant))
    job = make_job(players, "balanced", seed, luck=True)
    res, wins, s = play_raw(job, 0, games, luck_par=par)
    return res, wins, s.luck_out[: games * players].copy()


def _z(x):
    x = np.asarray(x, float)
    return x.mean() / (x.std(ddof=1) / math.sqrt(len(x)))


@pytest.fixture(scope="module")
def fair():
    return _luck(2, 4000, 3131)


def test_luck_terms_have_mean_zero(fair):
    _, _, luck = fair
    for k in range(N_KINDS):
        for col in (0, 1):
            x = luck[:, k, col]
            assert x.std() > 0, (KIND_NAMES[k], col)
            assert abs(_z(x)) < 4, (KIND_NAMES[k], col)
    assert abs(_z(luck[:, :, 1].sum(axis=1))) < 4


@pytest.mark.slow
@pytest.mark.parametrize(
    "plant",
    [1, 2, 3, 4],
    ids=["expectation-after-outcome", "reads-deck-order", "wrong-piles", "deal-uncentred"],
)
def test_a_planted_bias_is_caught(fair, plant):
    _, _, luck = _luck(2, 4000, 3131, plant)
    kind = KIND_DEAL if plant == 4 else KIND_HAND
    assert abs(_z(luck[:, kind, 1])) > 6
    # the fair terms of the same games pass the same check
    assert abs(_z(fair[2][:, kind, 1])) < 4


def test_the_deal_term_is_centred_on_the_table():
    """The deal's win terms of a game sum to zero and its features are the
    engine's deal: a seat holding the level-1 card j has feature j set."""
    _, _, luck = _luck(3, 200, 77)
    sums = luck[:, KIND_DEAL, 0].reshape(200, 3).sum(axis=1)
    np.testing.assert_allclose(sums, 0.0, atol=1e-12)
    t = RULES.tables
    s = S.new_state(t, luck=load_value_params())
    sv, tv = make_view(s, "UrukState"), make_view(t, "UrukTables")
    rng_seed(s.rng, 1, 2, 3)
    cards.setup(sv, tv, 3)
    level1 = [x for x in range(t.n_inv) if t.inv_level[x] == 1]
    for p in range(3):
        deal_features(sv, tv, p)
        assert s.luck_f[p, level1.index(s.inv[p, 0])] == 1.0
        assert s.luck_f[p, :DEAL_L1].sum() == 1.0
        assert s.luck_f[p, DEAL_L1 + 1] == np.minimum(s.hand[p], 2).sum()


def test_plain_and_adjusted_estimates_agree(fair):
    res, wins, luck = fair
    seat0 = slice(0, None, 2)
    total = luck.sum(axis=1)
    for values, col in ((wins[seat0], 0), (res[seat0, R_SCORE], 1)):
        est = adjusted(values, total[seat0, col])
        gap = abs(est["mean"] - est["adj"])
        assert gap < 1.96 * math.hypot(est["half"], est["adj_half"])
        assert est["ratio"] < 1.02  # no variance added (removed: docs/statistics.md)


def test_off_by_default_and_the_switch_turns_them_on():
    kw = dict(game="uruk", players=2, strategies="random", games=20, seed=3)
    assert "luck_win" not in analyzer.simulate(**kw)
    assert "luck_win" in analyzer.simulate(luck=True, **kw)
    assert "luck_win" not in analyzer.simulate(luck=False, **kw)
