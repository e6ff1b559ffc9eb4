"""Uruk's version-2 evaluation (issue 27's flaws), as forced states.

Every strategy but ``baseline`` knows its last turn (cards left in hand score
nothing), trades hand cards when the resources are worth more than the cards,
and values a resource by the settlement it will buy. ``baseline`` keeps
version 1's evaluation (its frozen runs are in ``test_pinned.py``).
"""

from __future__ import annotations

from analyzer.uruk import state as S
from analyzer.uruk import strategies
from analyzer.uruk.codes import Action
from tests.uruk.test_uruk_forced import base


def _chosen(tb, p):
    k = strategies.candidates(tb.sv, tb.tv, p)
    i = strategies.choose(tb.sv, tb.tv, p, k)
    return int(tb.s.cand[i, 0]), float(tb.s.cand_val[i])


def _last_turn_table(who):
    tb = base(players=[who, "balanced", "balanced"])
    tb.display("axt", "netz", "stadtmauer")
    tb.supply(0, red=2)  # two red: a third and a fourth would score a point
    tb.close()
    return tb


def test_last_turn_goes_to_points_not_to_cards():
    tb = _last_turn_table("balanced")
    tb.s.sc[S.S_FINAL] = 1
    kind, value = _chosen(tb, 0)
    assert kind != Action.TAKE_CARD.value
    # no take-card candidate is worth more than the worst scoring action
    k = strategies.candidates(tb.sv, tb.tv, 0)
    cards = [tb.s.cand_val[i] for i in range(k) if tb.s.cand[i, 0] == Action.TAKE_CARD.value]
    assert cards and max(cards) == strategies.LAST_CARD


def test_baseline_does_not_know_the_last_turn():
    tb = _last_turn_table("baseline")
    tb.s.sc[S.S_FINAL] = 1
    before = _chosen(tb, 0)
    tb.s.sc[S.S_FINAL] = 0
    assert _chosen(tb, 0) == before


def test_trades_cards_whose_resource_is_worth_more():
    """Seat 0 holds two more Lehmhaus (it displays one: the cards make nothing);
    a version-2 seat trades them, baseline weighs them as version 1 did."""
    for who in ("balanced", "builder", "hoarder"):
        tb = base(players=[who, "balanced", "balanced"])
        tb.hand(0, "lehmhaus", "lehmhaus")
        tb.close()
        k = strategies.candidates(tb.sv, tb.tv, 0)
        trades = [i for i in range(k) if tb.s.cand[i, 0] == Action.TRADE.value]
        assert trades and tb.s.cand_val[trades[0]] > 0, who


def test_a_resource_is_worth_the_settlement_it_buys():
    """A bare red level-4 invention at epoch I (a village costs 4 red, brings
    4 - 1 = 3 points): red is worth 3/4 point per resource to a version-2 seat;
    blue buys only a share of a city on Lehmhaus (2 x 2 different colours for 1
    point: 1/4 point per resource), its end value."""
    tb = base(players=["balanced", "baseline", "balanced"])
    red4 = next(
        x
        for x in range(tb.t.n_inv)
        if tb.t.inv_level[x] == 4 and tb.rules.colours[tb.t.inv_colour[x]] == "red"
    )
    for p in (0, 1):
        i = next(j for j in range(tb.t.max_inventions) if tb.s.inv[p, j] < 0)
        tb.s.inv[p, i] = red4  # the same invention for both seats
    tb.close()
    s, t = tb.sv, tb.tv
    red, blue = tb.colour("red"), tb.colour("blue")
    assert strategies.buy_rate(s, t, 0, red) == 0.75
    assert strategies.buy_rate(s, t, 0, blue) == 0.25
    assert strategies.resource_value(s, t, 0, red) == 3.0
    assert strategies.resource_value(s, t, 0, blue) == 1.0
    # baseline: version 1's need-based value (1.3 for a colour it lacks)
    assert strategies.resource_value(s, t, 1, red) == 1.3


def test_rows_by_player_count_from_the_data_file():
    """Each seat plays its strategy's row for the game's player count, each row
    was found by the tune command recorded beside it, and the version is the data's."""
    from analyzer.games import load_game
    from analyzer.uruk import defaults
    from analyzer.uruk.game import param_rows

    doc = defaults.data()
    for name in defaults.TUNED_NAMES:
        for n in (2, 3, 4):
            table = doc["strategies"][name][str(n)]
            assert table["command"].startswith(f"analyzer tune --game uruk --players {n} ")
            assert f"--strategy {name} " in table["command"] and table["confirm"]
            row = param_rows([name] + ["baseline"] * (n - 1))[0]
            assert tuple(row) == defaults.default_row(name, n)
            assert row[0] == 0.0  # never the random player's switch
    assert param_rows(["balanced"] * 2)[0].tolist() != param_rows(["balanced"] * 4)[0].tolist()
    assert load_game("uruk").strategies_version == defaults.version() == "5"
    floors = {s.name: s.share_floor for s in load_game("uruk").strategies}
    assert floors["builder"][0] == ("pts_inventions",) and floors["balanced"] is None
