"""The rulebook's worked examples as named tests (``docs/games/uruk.md``,
"Rulebook examples"), each on a hand-built position (:class:`Table`)."""

from __future__ import annotations

from analyzer.uruk import actions, engine, gods, strategies
from analyzer.uruk import state as S
from analyzer.uruk.codes import Action
from tests.uruk.test_uruk_forced import Table


def test_example_1_three_identical_cards_make_a_level_3_invention():
    # André holds three Flaschenzug (pink, level 3): one to his display, two discarded
    tb = Table(3)
    tb.show(0, "domestizierung", 1)  # a level-2 invention: level 3 is allowed
    tb.hand(0, "flaschenzug", "flaschenzug", "flaschenzug")
    tb.close()
    x = tb.code("flaschenzug")
    assert actions.can_make(tb.sv, tb.tv, 0, x, -1)
    actions.do_make(tb.sv, tb.tv, 0, x, -1)
    assert actions.slot_of(tb.sv, tb.tv, 0, x) >= 0
    assert tb.s.hand[0].sum() == 0
    assert list(tb.s.discard[: tb.s.sc[S.S_DISCARD_N]]) == [x, x]
    tb.check()


def test_example_2_level_rule_needs_a_level_3_before_a_level_4():
    # Marco: three level-2 inventions and Lehmhaus, the cards for Zahnrad (level 4)
    tb = Table(3)
    for name in ("lehmhaus", "brennofen", "strasse", "rad"):
        tb.show(0, name, 0)
    tb.hand(0, *["zahnrad"] * 4, "stadtmauer", "stadtmauer", "stadtmauer")
    tb.close()
    z = tb.code("zahnrad")
    assert not actions.can_make(tb.sv, tb.tv, 0, z, -1)
    actions.do_make(tb.sv, tb.tv, 0, tb.code("stadtmauer"), -1)  # a level-3 first
    assert actions.can_make(tb.sv, tb.tv, 0, z, 0)  # now allowed (display full: replace)
    tb.check()


def test_example_3_replaced_invention_returns_to_the_hand_and_completes_a_pair():
    # Regula replaces Lehmhaus (red 1) by Flaschenzug (pink 3) holding one
    # Flaschenzug, yellow Axt and Leier, red Stadtmauer: two pairs make up the rest
    tb = Table(3)
    for name in ("lehmhaus", "domestizierung", "brennofen", "strasse", "rad"):
        tb.show(0, name, 0)
    tb.hand(0, "flaschenzug", "axt", "leier", "stadtmauer")
    tb.close()
    x = tb.code("flaschenzug")
    lehmhaus = actions.slot_of(tb.sv, tb.tv, 0, tb.code("lehmhaus"))
    assert not actions.can_make(tb.sv, tb.tv, 0, x, -1)  # five displayed
    assert actions.can_make(tb.sv, tb.tv, 0, x, lehmhaus)  # Lehmhaus completes the red pair
    actions.do_make(tb.sv, tb.tv, 0, x, lehmhaus)
    assert tb.s.inv[0, lehmhaus] == x
    assert tb.s.hand[0].sum() == 0  # all four pair cards discarded
    discarded = sorted(tb.s.discard[: tb.s.sc[S.S_DISCARD_N]].tolist())
    want = sorted(tb.code(n) for n in ("axt", "leier", "stadtmauer", "lehmhaus"))
    assert discarded == want
    tb.check()


def test_example_4_take_one_pink_with_a_pink_level_2_invention():
    # Marco has Domestizierung (pink, level 2) and takes one pink resource. Played
    # on the shipped data as a player plays it: the take-resources action the
    # player lists for Domestizierung, its function used if it has one. An
    # assumed function that gives more on this take contradicts the example.
    tb = Table(3)
    i = tb.show(0, "domestizierung", 0)
    tb.close()
    pink = tb.colour("pink")
    k = strategies.candidates(tb.sv, tb.tv, 0)
    takes = [tuple(c) for c in tb.s.cand[:k].tolist() if c[0] == Action.TAKE_RESOURCES]
    assert takes == [(Action.TAKE_RESOURCES, i, 1)]  # with the function
    engine.do_action(tb.sv, tb.tv, 0, *takes[0])
    want = [0] * len(tb.rules.colours)
    want[pink] = 1  # one resource in all, pink
    assert tb.s.supply[0].tolist() == want and tb.s.pool[pink] == 11
    tb.check()


def test_example_5_trade_two_cards_of_displayed_inventions():
    # Marco trades Wasserrad (André displays it) and Flaschenzug (his own): 1 blue, 1 pink
    tb = Table(3)
    tb.show(0, "flaschenzug", 0)
    tb.show(1, "wasserrad", 0)
    tb.hand(0, "wasserrad", "flaschenzug")
    tb.close()
    mask = (1 << tb.code("wasserrad")) | (1 << tb.code("flaschenzug"))
    assert actions.do_trade(tb.sv, tb.tv, 0, mask) == 2
    assert tb.s.supply[0, tb.colour("blue")] == 1 and tb.s.supply[0, tb.colour("pink")] == 1
    assert tb.s.hand[0].sum() == 0
    tb.check()


def test_example_6_epoch_1_village_costs_the_level_in_the_colour():
    # Regula founds a village on Wasserrad (blue 2): 2 blue
    tb = Table(3)
    i = tb.show(0, "wasserrad", 0)
    tb.supply(0, blue=3, red=2)
    tb.close()
    assert actions.do_settle(tb.sv, tb.tv, 0, i) == 0
    assert tb.s.supply[0, tb.colour("blue")] == 1 and tb.s.supply[0, tb.colour("red")] == 2
    assert tb.s.stones[0, i] == 1
    tb.check()


def test_example_7_epoch_2_village_costs_two_times_two_different():
    tb = Table(3)
    i = tb.show(0, "wasserrad", 0)
    tb.supply(0, red=2, yellow=2, blue=1)
    tb.s.epoch[0] = 0  # epoch I is empty
    tb.close()
    assert actions.do_settle(tb.sv, tb.tv, 0, i) == 1
    assert tb.s.supply[0].tolist() == [0, 0, 0, 1]
    tb.check()
    tb2 = Table(3)
    j = tb2.show(0, "wasserrad", 0)
    tb2.supply(0, red=4, blue=1)  # one colour only: cannot pay
    tb2.s.epoch[0] = 0
    tb2.close()
    assert not actions.can_settle(tb2.sv, tb2.tv, 0, j)


def test_example_8_villages_from_the_lowest_card_cities_from_ii():
    # André: one invention with a village, one without; every card holds stones
    tb = Table(3)
    v = tb.show(0, "wasserrad", 1)
    bare = tb.show(0, "kanalisation", 0)
    tb.supply(0, blue=6, red=2, yellow=2)
    tb.close()
    assert actions.do_settle(tb.sv, tb.tv, 0, bare) == 0  # a village from I
    assert actions.do_settle(tb.sv, tb.tv, 0, v) == 1  # a city from II
    tb.check()


def test_example_9_enlil_auction_card_values_and_leuchtturm():
    # Regula (trigger): Rollenprinzip 2 + Astronomie 4 = 6, +3 Leuchtturm with a village
    # André: Aquädukt 4 + 2 Domestizierung 2+2 + Leuchtturm 2 = 10 (no Leuchtturm shown)
    tb = Table(2)
    tb.show(0, "leuchtturm", 1)
    tb.hand(0, "rollenprinzip", "astronomie")
    tb.hand(1, "aquaedukt", "domestizierung", "domestizierung", "leuchtturm")
    tb.gods_pending("enlil", "nergal", 0).close()
    # the example's bids: whole hands
    tb.s.hand[0, :] = 0
    tb.s.bid[0, tb.code("rollenprinzip")] = 1
    tb.s.bid[0, tb.code("astronomie")] = 1
    assert gods.bid_bonus(tb.sv, tb.tv, 0) == 3 and gods.bid_bonus(tb.sv, tb.tv, 1) == 0
    regula = 6 + gods.bid_bonus(tb.sv, tb.tv, 0)
    andre = sum(
        tb.t.inv_level[tb.code(n)]
        for n in ("aquaedukt", "domestizierung", "domestizierung", "leuchtturm")
    )
    assert regula == 9 and andre == 10
    # the kernel's open auction on the same hands (André also displays a level-3
    # invention, so he values Enlil): Regula opens with Astronomie + 3 = 7, André
    # raises with all four cards to 10, Regula cannot beat it and passes
    tb.show(1, "zisterne", 0)
    tb.s.hand[0, tb.code("rollenprinzip")] = 1
    tb.s.hand[0, tb.code("astronomie")] = 1
    tb.s.bid[0, :] = 0
    tb.close()
    tb.prm[0, 5] = 2.0  # Regula bids up to 9
    tb.prm[1, 5] = 10.0  # André bids far
    g = tb.code("enlil") - tb.t.n_inv
    winner, value = gods.auction(tb.sv, tb.tv, g, 0)
    assert (winner, value) == (1, 10)
    assert tb.events(S.EV_BID) == [(0, 7, 0, 0), (1, 10, 0, 0), (0, -1, 0, 0)]
    assert tb.s.hand[0].sum() == 2  # the loser takes her cards back
    assert tb.s.hand[1].sum() == 0 and tb.s.sc[S.S_DISCARD_N] == 4  # the winner discards four
    tb.check()
