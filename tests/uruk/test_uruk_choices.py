"""The seats' choices inside actions and disasters (issue 26 item 4), as forced states.

The colour a robbed seat takes instead, the colours a spared seat pays, the
colour pairs of a make and the colours of a "different colours" settlement cost
are each seat's decision (:mod:`analyzer.uruk.strategies`): ``baseline`` keeps
strategies version 1's fixed rules (its twins are in ``test_uruk_forced.py``
and its frozen runs in ``test_pinned.py``), ``random`` is uniform among the
legal options, the others weigh colours and cards by their own evaluation.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from analyzer.kernels.rng import rng_seed
from analyzer.uruk import actions, gods, strategies
from tests.uruk.test_uruk_forced import base


def _colours(tb, **by):
    return [by.get(c, 0) for c in tb.rules.colours]


def test_robbed_seat_takes_the_colour_it_values_baseline_the_pool_richest():
    for who, want in (("baseline", "blue"), ("balanced", "yellow")):
        tb = base(players=["balanced", who, "balanced"])
        tb.supply(1, red=8, blue=6)
        tb.close()
        tb.s.pool[:] = 0
        tb.s.pool[tb.colour("blue")] = 5
        tb.s.pool[tb.colour("yellow")] = 1
        # the remaining resources sit with seat 2, so the totals still hold
        tb.s.supply[2] = tb.t.resources_per_colour - tb.s.pool - tb.s.supply[1]
        assert actions.take_one(tb.sv, tb.tv, 0, tb.colour("red"), 0)
        got = np.flatnonzero(tb.s.supply[1] - _colours(tb, red=7, blue=6))
        assert [tb.rules.colours[int(c)] for c in got] == [want]
        tb.check()


def test_random_robbed_seat_is_uniform_among_the_pool_colours():
    tb = base(players="random")
    tb.close()
    tb.s.pool[:] = _colours(tb, red=0, pink=3, yellow=0, blue=1)
    seen = Counter()
    for g in range(2000):
        rng_seed(tb.s.rng, 1, 2, g)
        seen[int(strategies.rob_colour(tb.sv, tb.tv, 1, tb.colour("red")))] += 1
    assert set(seen) == {tb.colour("pink"), tb.colour("blue")}
    assert abs(seen[tb.colour("pink")] - 1000) < 120  # 5 standard deviations


def test_spared_seat_pays_the_colours_it_needs_least():
    # a bare red level-4 invention and epoch I (a village pays its level in red):
    # 3 red are not enough, red is needed, so balanced pays blue; baseline pays
    # the colour it holds most of, lowest index on ties (red)
    for who, want in (("baseline", "red"), ("balanced", "blue")):
        tb = base(players=["balanced", who, "balanced"])
        red4 = next(
            x
            for x in range(tb.t.n_inv)
            if tb.t.inv_level[x] == 4 and tb.rules.colours[tb.t.inv_colour[x]] == "red"
        )
        i = actions.free_slot(tb.sv, tb.tv, 1)
        tb.s.inv[1, i] = red4
        tb.supply(1, red=3, blue=3)
        tb.close()
        gods.pay_resources(tb.sv, tb.tv, 1, 1)
        assert tb.s.supply[1, tb.colour(want)] == 2
        tb.check()


def _pair_table(who):
    """Seat 0 (top level 1) holds three useful red level-2 cards and two blue
    level-4 cards it cannot make soon (both colours can pay a pair)."""
    tb = base(players=[who, "balanced", "balanced"])
    t = tb.t
    red2 = [x for x in range(t.n_inv) if t.inv_level[x] == 2 and t.inv_colour[x] == 0]
    blue4 = [x for x in range(t.n_inv) if t.inv_level[x] == 4 and t.inv_colour[x] == 3]
    tb.s.hand[0, red2[0]] += 2
    tb.s.hand[0, red2[1]] += 1
    tb.s.hand[0, blue4[0]] += 2
    tb.close()
    return tb


@pytest.mark.parametrize(("who", "want"), [("baseline", "red"), ("balanced", "blue")])
def test_colour_pair_paid_baseline_most_cards_others_least_useful(who, want):
    tb = _pair_table(who)
    assert actions.pay_pair(tb.sv, tb.tv, 0) == tb.colour(want)
    tb.check()


@pytest.mark.slow
def test_random_colour_pair_is_uniform_among_colours_with_two_cards():
    seen = Counter()
    for g in range(600):
        tb = _pair_table("random")
        rng_seed(tb.s.rng, 3, 4, g)
        seen[int(actions.pay_pair(tb.sv, tb.tv, 0))] += 1
    assert set(seen) == {0, 3} and abs(seen[0] - 300) < 65  # 5 standard deviations


def _settle_table(who, supply):
    tb = base(players=[who, "balanced", "balanced"])
    tb.s.epoch[0] = 0  # epoch II: 2 x 2 different colours
    tb.supply(0, **supply)
    tb.close()
    return tb


def test_settle_colours_twin():
    """balanced pays the payable set of colours that costs it least (a slow twin
    over every set), random any payable set, baseline the colours held most."""
    rng = np.random.default_rng(5)
    colours = ("red", "pink", "yellow", "blue")
    for _ in range(60):
        supply = dict(zip(colours, (int(v) for v in rng.integers(0, 5, 4)), strict=True))
        tb = _settle_table("balanced", supply)
        s, t = tb.sv, tb.tv
        e = actions.stone_epoch(s, t, False)
        per, k = int(t.epoch_per_colour[e]), int(t.epoch_colours[e])
        sup = tb.s.supply[0].copy()
        order = sorted(range(4), key=lambda c: (-sup[c], c))
        used = sum(1 << c for c in order[:k])
        if not all(sup[c] >= per for c in order[:k]):
            continue  # the seat cannot pay (the action is not legal)
        need = [strategies.colour_need(s, t, 0, c) for c in range(4)]

        def cost(cs, need=need, sup=sup, per=per):
            return sum(
                (0.3 + need[c]) / (1 + 0.15 * max(sup[c] - 1 - j, 0))
                for c in cs
                for j in range(per)
            )

        payable = [
            cs for cs in itertools.combinations(range(4), k) if all(sup[c] >= per for c in cs)
        ]
        best = min(cost(cs) for cs in payable)
        got = strategies.settle_colours(s, t, 0, used, per, k, 0, -1)
        cs = tuple(c for c in range(4) if (got >> c) & 1)
        assert cs in payable and cost(cs) <= best + 1e-9
        tb.s.prm[0, strategies.P_STRATEGY] = strategies.BASELINE
        assert strategies.settle_colours(s, t, 0, used, per, k, 0, -1) == used
        tb.s.prm[0] = 0
        tb.s.prm[0, strategies.P_UNIFORM] = 1
        sets = set()
        for g in range(40 * len(payable)):
            rng_seed(tb.s.rng, 7, 8, g)
            m = strategies.settle_colours(s, t, 0, used, per, k, 0, -1)
            sets.add(tuple(c for c in range(4) if (m >> c) & 1))
        assert sets == set(payable)


def test_settlement_paid_with_the_chosen_colours():
    """A whole do_settle pays the chosen colours (2 each) and conserves resources."""
    tb = _settle_table("balanced", {"red": 4, "pink": 4, "yellow": 2, "blue": 2})
    s, t = tb.sv, tb.tv
    e = actions.stone_epoch(s, t, True)
    before = tb.s.supply[0].copy()
    used = strategies.settle_colours(s, t, 0, 0b0011, 2, 2, 0, -1)
    assert actions.do_settle(s, t, 0, 0) == e
    paid = before - tb.s.supply[0]
    assert sorted(paid.tolist()) == [0, 0, 2, 2]
    assert {c for c in range(4) if paid[c]} == {c for c in range(4) if (used >> c) & 1}
    tb.check()
