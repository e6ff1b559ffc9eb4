"""Exact small cases (``docs/games/colorful_treasure.md``, "Exact checks").

Chances of a fresh grid are computed exactly by enumeration with fractions
(:mod:`analyzer.colorful_treasure.exact`) and the engine's frequencies, under a
fixed seed, must agree within 4 standard errors. The layouts are those the
engine deals (:func:`~analyzer.colorful_treasure.game.deal_layouts` runs the
engine's own set-up kernel on each game's stream), and the first reveals are
read from the trace of whole games.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from analyzer.colorful_treasure.codes import Kind
from analyzer.colorful_treasure.exact import (
    exact_table,
    p_column_treasure,
    p_first_two_treasure,
    p_same_colour,
    p_same_colour_any,
)
from analyzer.colorful_treasure.game import deal_layouts, make_job, play_raw
from analyzer.colorful_treasure.rules import default_rules, load_rules
from analyzer.colorful_treasure.state import S_TRACE_N

GAMES = 20000


def within(freq: float, p: Fraction, n: int, sd: float | None = None) -> bool:
    """``freq`` is within 4 standard errors of ``p`` (binomial, unless ``sd`` is given)."""
    p = float(p)
    se = sd / math.sqrt(n) if sd is not None else math.sqrt(p * (1 - p) / n)
    return abs(freq - p) <= 4 * se


def test_the_enumerations_give_the_known_values():
    rules = default_rules()
    assert p_column_treasure(rules, 0, 2) == Fraction(2, 5)
    assert p_column_treasure(rules, 3, 3) == Fraction(3, 5)
    assert p_column_treasure(rules, 3, 5) == 1
    # first two reveals: same column 6/10 none, different columns (4/5)^2 none
    none = (100 * Fraction(6, 10) + 1125 * Fraction(4, 5) ** 2) / 1225  # 100 same-column pairs
    assert p_first_two_treasure(rules) == 1 - none
    assert p_first_two_treasure(rules) == Fraction(89, 245)
    # two columns sharing k colours: k / 25
    t = rules.tables
    shared = len(set(t.card_colour[0:3]) & set(t.card_colour[5:8]))
    assert p_same_colour(rules, 0, 1) == Fraction(shared, 25)
    assert p_same_colour_any(rules) == Fraction(1, 15)
    assert list(exact_table(rules)["fraction"]) == ["2/5", "3/5", "89/245", "1/15"]


@pytest.fixture(scope="module")
def layouts():
    return deal_layouts(default_rules(), 77, 0, GAMES)


@pytest.mark.parametrize("k", [2, 3])
def test_cards_of_a_fresh_column_include_its_treasure(layouts, k):
    t = default_rules().tables
    for w in (0, 7):
        hit = np.isin(t.card_kind[layouts[:, w * 5 : w * 5 + k]], [Kind.KEY, Kind.CHEST]).any(
            axis=1
        )
        assert within(hit.mean(), p_column_treasure(default_rules(), w, k), GAMES)


def test_two_fresh_columns_show_gems_of_one_colour(layouts):
    rules = default_rules()
    t = rules.tables
    a, b = layouts[:, 0], layouts[:, 5]
    same = (t.card_kind[a] == Kind.GEM) & (t.card_kind[b] == Kind.GEM)
    same &= t.card_colour[a] == t.card_colour[b]
    assert within(same.mean(), p_same_colour(rules, 0, 1), GAMES)
    # every ordered pair of columns at once: one average per layout, its own spread
    row0 = layouts[:, ::5]
    gem = t.card_kind[row0] == Kind.GEM
    col = t.card_colour[row0]
    match = (gem[:, :, None] & gem[:, None, :]) & (col[:, :, None] == col[:, None, :])
    off = ~np.eye(10, dtype=bool)
    per_layout = match[:, off].mean(axis=1)
    assert within(per_layout.mean(), p_same_colour_any(rules), GAMES, per_layout.std(ddof=1))


def test_first_two_reveals_of_a_fresh_grid_include_a_key_or_chest():
    # random players choose their first two places uniformly among the 50
    games = 4000
    job = make_job(2, "random", seed=31)
    _, _, _, s = play_raw(job, 0, games, trace_rows=games * 300)
    n = int(s.sc[S_TRACE_N])
    assert n < games * 300
    tr = s.trace[:n]
    first = tr[(tr[:, 0] == 1) & (tr[:, 1] == 0) & (tr[:, 5] <= 2)]
    assert len(first) == 2 * games
    kind = default_rules().tables.card_kind[first[:, 4]].reshape(games, 2)
    hit = np.isin(kind, [Kind.KEY, Kind.CHEST]).any(axis=1)
    assert within(hit.mean(), p_first_two_treasure(default_rules()), games)


def test_young_columns_hold_three_gems_and_a_diamond():
    rules = load_rules({"variant": "young"})
    t = rules.tables
    grids = deal_layouts(rules, 5, 0, 2000)
    for w in range(t.n_wonders):
        col = grids[:, w * 4 : w * 4 + 4]
        assert (np.sort(col, axis=1) == np.arange(w * 4, w * 4 + 4)).all()
        kinds = np.sort(t.card_kind[col], axis=1)
        assert (kinds == [Kind.GEM, Kind.GEM, Kind.GEM, Kind.DIAMOND]).all()
        colours = t.card_colour[col]
        assert (np.sort(colours, axis=1)[:, 1:] == np.sort(colours[0])[1:]).all()
