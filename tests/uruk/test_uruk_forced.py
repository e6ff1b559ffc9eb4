"""Forced-deck tests: every god card, every disaster card, every effect kind,
the trigger rule, the deck exhausted, the hand limit and the empty pool.

:class:`Table` builds an Uruk position by hand: hands, displays, supplies,
epoch cards and the deck in an explicit order ("the next card is X"), with every
card not placed counted out of the game so the conservation invariants of
:func:`analyzer.uruk.engine.check_invariants` hold and are checked after each
test. The engine's own kernels are then called on it.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.kernels.kernel_view import make_view
from analyzer.uruk import actions, cards, engine, gods, scoring, strategies
from analyzer.uruk import state as S
from analyzer.uruk.rules import load_rules


class Table:
    """A hand-built position. Cards are named by id (``"axt"``, ``"enlil"``)."""

    def __init__(self, n=3, overrides=None, players="balanced", rulings=None):
        self.rules = load_rules(overrides or {}, rulings=rulings)
        self.t = self.rules.tables
        self.n = n
        self.s = S.new_state(self.t, trace_rows=4000)
        self.sv = make_view(self.s, "UrukState")
        self.tv = make_view(self.t, "UrukTables")
        cards.reset(self.sv)
        self.s.sc[S.S_N] = n
        self.s.actions_next[:n] = self.t.actions_per_turn
        names = [players] * n if isinstance(players, str) else list(players)
        # the hand-set rows of strategies version 1, not the tuned data rows: a
        # rule test must not move when the rows are tuned again
        prm = strategies.DEFAULT_PARAMS[[strategies.STRATEGY_NAMES.index(x) for x in names]]
        self.s.prm[: prm.shape[0], : prm.shape[1]] = prm
        # each seat's strategy code, as analyzer.uruk.game.play_raw writes it
        self.s.prm[: len(names), strategies.P_STRATEGY] = [
            strategies.STRATEGY_NAMES.index(x) for x in names
        ]
        self.prm = self.s.prm  # each seat's row, read by the kernels
        self.s.epoch[:] = self.t.epoch_stones[:, n]
        self.ids = self.rules.invention_ids + self.rules.god_ids

    def code(self, name):
        return self.ids.index(name)

    def hand(self, p, *names):
        for name in names:
            self.s.hand[p, self.code(name)] += 1
        return self

    def show(self, p, name, stones=0):
        """Display invention ``name`` for seat ``p`` with ``stones`` on it."""
        i = actions.free_slot(self.sv, self.tv, p)
        self.s.inv[p, i] = self.code(name)
        self.s.stones[p, i] = stones
        return i

    def supply(self, p, **by_colour):
        for c, k in by_colour.items():
            self.s.supply[p, self.rules.colours.index(c)] = k
        return self

    def deck(self, *names):
        """The deck, top card first."""
        codes = [self.code(x) for x in names]
        k = len(codes)
        self.s.deck[:k] = codes[::-1]
        self.s.sc[S.S_DECK_N] = k
        return self

    def display(self, *names):
        for i, name in enumerate(names):
            self.s.display[i] = self.code(name)
        return self

    def close(self):
        """Count every card, resource and stone not placed as out of the game / in
        the pool, so that the conservation invariants hold."""
        s, t = self.s, self.t
        n = self.n
        placed = np.zeros(t.n_inv + t.n_gods, np.int64)
        for c in s.deck[: s.sc[S.S_DECK_N]]:
            placed[c] += 1
        for c in s.discard[: s.sc[S.S_DISCARD_N]]:
            placed[c] += 1
        for c in s.display:
            if c >= 0:
                placed[c] += 1
        placed[: t.n_inv] += s.hand[:n].sum(axis=0)
        for x in s.inv[:n].ravel():
            if x >= 0:
                placed[x] += 1
        for c in (s.sc[S.S_PENDING], s.sc[S.S_TRIGGER]):
            if c >= 0:
                placed[c] += 1
        s.sc[S.S_BOX_INV] = t.inv_copies.sum() - placed[: t.n_inv].sum()
        held = s.sc[S.S_GODS_HELD]  # Ninurta, Marduk/Nannar reminders before players
        s.sc[S.S_BOX_GODS] = t.god_copies.sum() - placed[t.n_inv :].sum() - held
        s.pool[:] = t.resources_per_colour - s.supply[:n].sum(axis=0)
        s.sc[S.S_BOX_STONES] = (
            t.settlement_stones - s.epoch.sum() - s.stones[:n].sum() - s.sc[S.S_POOL_STONES]
        )
        assert (s.pool >= 0).all() and s.sc[S.S_BOX_STONES] >= 0
        assert s.sc[S.S_BOX_INV] >= 0 and s.sc[S.S_BOX_GODS] >= 0
        self.check()
        return self

    def check(self):
        bad = engine.check_invariants(self.sv, self.tv, self.n)
        assert bad == 0, [v for k, v in engine.INVARIANT_TEXT.items() if bad & k]

    def events(self, ev):
        rows = self.s.trace[: self.s.sc[S.S_TRACE_N]]
        return [tuple(r[2:]) for r in rows.tolist() if r[0] == ev]

    def colour(self, name):
        return self.rules.colours.index(name)

    def gods_pending(self, pending, trigger, seat):
        self.s.sc[S.S_PENDING] = self.code(pending)
        self.s.sc[S.S_TRIGGER] = self.code(trigger)
        self.s.sc[S.S_TRIGGER_SEAT] = seat
        return self

    def activate(self):
        gods.activate(self.sv, self.tv)
        self.check()


def base(n=3, **kw):
    """Three players, each with a level-1 invention and its village."""
    tb = Table(n, **kw)
    for p, first in enumerate(("lehmhaus", "tongefaess", "axt", "netz")[:n]):
        tb.show(p, first, 1)
    return tb


# --------------------------------------------------------------------------- the trigger rule


def test_first_god_lies_beside_the_display_the_second_triggers_further_ones_are_discarded():
    tb = base().deck("enlil", "nergal", "gibil", "stadtmauer").close()
    tb.s.sc[S.S_ACTIVE] = 1
    x = actions.do_take_card(tb.sv, tb.tv, 1, 3)
    assert x == tb.code("stadtmauer")
    assert tb.s.sc[S.S_PENDING] == tb.code("enlil")
    assert tb.s.sc[S.S_TRIGGER] == tb.code("nergal") and tb.s.sc[S.S_TRIGGER_SEAT] == 1
    assert tb.s.discard[0] == tb.code("gibil")  # a third card while a trigger waits
    tb.check()


def test_gods_drawn_in_the_last_round_are_discarded():
    tb = base().deck("enlil", "flaschenzug").close()
    tb.s.sc[S.S_FINAL] = 1
    actions.do_take_card(tb.sv, tb.tv, 0, 3)
    assert tb.s.sc[S.S_PENDING] == -1 and tb.s.discard[0] == tb.code("enlil")
    tb.check()


def test_the_refill_draws_gods_for_the_active_player_and_the_turn_ends_with_the_activation():
    tb = base().deck("flaschenzug", "marduk", "ischtar", "zisterne", "statuette", "leier")
    tb.display("wasserrad", "netz", "axt").close()
    tb.s.display[0] = -1  # a gap left by a taken card
    tb.s.hand[2, tb.code("wasserrad")] += 1
    tb.close()
    tb.s.sc[S.S_ACTIVE] = 2
    cards.refill_display(tb.sv, tb.tv)
    assert tb.s.display[0] == tb.code("flaschenzug")
    # the next refill meets Marduk (beside) and Ischtar (trigger by seat 2)
    tb.s.display[1] = -1
    tb.s.hand[2, tb.code("netz")] += 1
    cards.refill_display(tb.sv, tb.tv)
    assert tb.s.display[1] == tb.code("zisterne")
    assert tb.s.sc[S.S_TRIGGER_SEAT] == 2 and tb.s.sc[S.S_TRIGGER] == tb.code("ischtar")
    tb.check()


# --------------------------------------------------------------------------- activation steps


def test_activation_removes_a_stone_and_applies_the_hand_limit():
    tb = base().gods_pending("ischtar", "nergal", 0)
    tb.hand(1, *["brennofen"] * 3, *["strasse"] * 3, *["rad"] * 3, "zisterne", "leier")  # 11
    tb.deck("axt", "netz", "lehmhaus").close()
    before = tb.s.epoch.copy()
    tb.activate()
    assert tb.s.epoch[0] == before[0] - 1 and tb.s.sc[S.S_POOL_STONES] == 1
    assert tb.events(S.EV_HAND_LIMIT) == [(1, 3, 0, 0)]
    assert tb.s.sc[S.S_PENDING] == -1 and tb.s.sc[S.S_TRIGGER] == -1
    assert tb.s.hand[1].sum() <= 9  # 8, plus Ischtar's card if seat 1 chose a card


# --------------------------------------------------------------------------- the auction gods


def _auction(god, **kw):
    tb = base(**kw).gods_pending(god, "gibil", 0)
    tb.hand(0, "zisterne", "wasseruhr")  # 6 in cards
    tb.hand(1, "aquaedukt", "astronomie", "zahnrad")  # 12
    tb.hand(2, "rad")
    return tb


def test_enlil_winner_puts_a_hand_invention_on_display_for_free():
    tb = _auction("enlil", players=["balanced", "hoarder", "builder"])
    tb.hand(1, "flaschenzug", "flaschenzug")  # a level-3 invention to place after
    tb.show(1, "kanalisation", 0)  # level 2 displayed: level 3 allowed
    tb.close()
    tb.activate()
    win = tb.events(S.EV_WIN)
    assert len(win) == 1 and win[0][0] >= 0
    w = win[0][0]
    made = tb.events(S.EV_MAKE)
    assert made and made[0][0] == w and made[0][3] == -1  # free: no pairs


def test_nergal_winner_takes_three_of_one_colour():
    tb = _auction("nergal", players=["hoarder", "hoarder", "hoarder"]).close()
    tb.activate()
    ((w, code, value, _),) = tb.events(S.EV_WIN)
    assert w >= 0 and code == tb.code("nergal")
    gains = tb.events(S.EV_GAIN)
    assert gains[0][0] == w and gains[0][2] == 3
    assert tb.s.stat[w, S.ST_AUCTIONS_WON] == 1


def test_ninurta_stays_with_its_winner_and_scores_per_city():
    tb = _auction("ninurta", players=["hoarder", "hoarder", "hoarder"])
    tb.s.stones[:3, 0] = 2  # everyone has a city on the first invention
    tb.close()
    tb.activate()
    ((w, _, _, _),) = tb.events(S.EV_WIN)
    assert tb.s.city_points[w] == 1 and tb.s.sc[S.S_GODS_HELD] == 1
    parts = scoring.score_parts(tb.sv, tb.tv, w)
    assert parts[3] == 1  # one city


def test_no_bid_no_winner():
    tb = base(players="builder").gods_pending("nergal", "gibil", 0).close()  # empty hands
    tb.activate()
    assert tb.events(S.EV_WIN) == [(-1, tb.code("nergal"), -1, 0)]


# --------------------------------------------------------------------------- fewest stones


def test_gibil_fewest_stones_gets_three_of_one_colour_others_one():
    tb = base()
    tb.show(0, "brennofen", 1)
    tb.show(1, "kanalisation", 2)  # seat 2 has fewest (1 stone)
    tb.gods_pending("gibil", "enlil", 1).close()
    tb.activate()
    bonus = {r[0]: r for r in tb.events(S.EV_BONUS)}
    assert bonus[2][2] == 1 and bonus[0][2] == 0 and bonus[1][2] == 0
    assert tb.s.supply[2].sum() == 3 and tb.s.supply[0].sum() == 1 and tb.s.supply[1].sum() == 1


def test_gibil_tie_for_fewest_everyone_gets_the_lesser_bonus():
    tb = base().gods_pending("gibil", "enlil", 0).close()  # one stone each
    tb.activate()
    assert [r[2] for r in tb.events(S.EV_BONUS)] == [0, 0, 0]
    assert tb.s.supply[:3].sum() == 3


def test_marduk_half_price_for_the_next_settlement_no_other_discount():
    tb = base()
    tb.show(0, "brennofen", 1)
    tb.show(1, "gewoelbe", 1)
    tb.show(2, "zisterne", 0)  # seat 2: fewest stones (1); blue level 3
    tb.show(2, "schoepfbaum", 0)  # a settlement discount that must not combine
    tb.gods_pending("marduk", "enlil", 0).close()
    tb.activate()
    assert tb.s.half_price[2] == 1 and tb.s.half_price[0] == 0
    tb.supply(2, blue=3)
    tb.close()
    i = actions.slot_of(tb.sv, tb.tv, 2, tb.code("zisterne"))
    actions.do_settle(tb.sv, tb.tv, 2, i)
    assert tb.s.supply[2, tb.colour("blue")] == 1  # ceil(3 / 2) = 2 paid, no Schöpfbaum
    assert tb.s.half_price[2] == 0
    tb.check()


def test_nannar_half_price_others_draw_a_card():
    tb = base()
    tb.show(0, "brennofen", 1)
    tb.show(1, "kanalisation", 1)
    tb.gods_pending("nannar", "enlil", 1).deck("zisterne", "leier", "axt").close()
    tb.activate()
    assert tb.s.half_price[2] == 1
    assert tb.s.hand[1, tb.code("zisterne")] == 1 and tb.s.hand[0, tb.code("leier")] == 1


def test_ischtar_everyone_from_the_trigger_takes_a_card_or_a_resource():
    tb = base(players=["builder", "hoarder", "balanced"]).gods_pending("ischtar", "enlil", 2)
    tb.deck("zisterne", "leier", "axt").close()
    tb.activate()
    # builder values a card more than a resource, hoarder and balanced the opposite
    assert tb.s.hand[0].sum() == 1 and tb.s.supply[0].sum() == 0
    assert tb.s.supply[1].sum() == 1 and tb.s.supply[2].sum() == 1


# --------------------------------------------------------------------------- disasters


def _disaster(card, bids_high_seat=1):
    tb = base(players=["hoarder", "hoarder", "hoarder"])
    tb.supply(bids_high_seat, red=5, blue=3)
    return tb.gods_pending(card, "enlil", 0)


def test_drought_sufferers_lose_a_stone_to_the_pool_the_highest_bidder_pays():
    tb = _disaster("duerre").close()
    tb.activate()
    bids = tb.events(S.EV_SECRET_BID)
    assert [b[0] for b in bids] == [0, 1, 2] and bids[1][1] > 0
    assert tb.events(S.EV_SPARED)[0][0] == 1
    assert tb.s.supply[1].sum() == 8 - bids[1][1]
    assert tb.s.stones[0, 0] == 0 and tb.s.stones[2, 0] == 0 and tb.s.stones[1, 0] == 1
    assert tb.s.sc[S.S_POOL_STONES] == 3  # the activation's stone and two villages


def test_drought_with_everyone_tied_everyone_suffers_and_no_one_pays():
    tb = base(players="builder").gods_pending("duerre", "enlil", 0).close()  # no resources
    tb.activate()
    assert tb.events(S.EV_SPARED) == []
    assert tb.s.stones[:3].sum() == 0


def test_earthquake_discards_an_invention_without_settlement_else_three_cards():
    tb = _disaster("erdbeben")
    tb.show(0, "brennofen", 0)
    tb.hand(1, "zisterne", "leier", "rad", "rad")
    tb.hand(2, "rad", "rad", "strasse", "tonrohr")
    tb.close()
    tb.activate()
    spared = [r[0] for r in tb.events(S.EV_SPARED)]
    assert len(spared) == 1  # seat 1 holds resources, the others none
    assert spared == [1] and tb.s.hand[1].sum() == 4
    assert actions.slot_of(tb.sv, tb.tv, 0, tb.code("brennofen")) == -1
    assert tb.s.hand[2].sum() == 1  # no bare invention: three hand cards


def test_eruption_leaves_one_action_next_turn():
    tb = _disaster("vulkanausbruch").deck(*["rad"] * 10).close()
    tb.activate()
    assert list(tb.s.actions_next[:3]) == [1, 3, 1]
    engine.play_turn(tb.sv, tb.tv, 0)
    assert tb.events(S.EV_TURN)[-1] == (0, 1, 0, 0)
    assert tb.s.actions_next[0] == 3
    tb.check()


def test_secret_bids_are_chosen_before_any_is_known():
    tb = _disaster("duerre").close()
    g = tb.code("duerre") - tb.t.n_inv
    alone = [strategies.secret_bid(tb.sv, tb.tv, p, g) for p in range(3)]
    tb.s.work[:] = 99  # garbage where the bids will go: must not matter
    gods.secret_bids(tb.sv, tb.tv, g)
    assert list(tb.s.work[:3]) == alone


# --------------------------------------------------------------------------- effect kinds


def test_effect_take_resources_gives_extra_once_per_turn():
    tb = base().close()  # Lehmhaus: take_resources extra 1, red
    got = actions.do_take_resources(tb.sv, tb.tv, 0, 0, 1)
    assert got == 2 and tb.s.supply[0, tb.colour("red")] == 2
    got = actions.do_take_resources(tb.sv, tb.tv, 0, 0, 1)  # used this turn: one only
    assert got == 1
    tb.check()


def test_effect_make_discount_saves_a_card_of_its_colour():
    tb = base()
    tb.show(0, "segelschiff", 0)  # yellow make_discount, level >= 2 (seat 0: red Lehmhaus)
    tb.hand(0, "leier", "leier")  # yellow level 3 with 2 cards
    tb.close()
    assert actions.can_make(tb.sv, tb.tv, 0, tb.code("leier"), -1)
    actions.do_make(tb.sv, tb.tv, 0, tb.code("leier"), -1)
    assert tb.s.hand[0].sum() == 0 and tb.s.sc[S.S_DISCARD_N] == 1
    assert tb.s.fn_used[tb.code("segelschiff")] == 1
    tb.hand(0, "tonrohr")  # a second make the same turn pays in full
    tb.close()
    assert not actions.can_make(tb.sv, tb.tv, 0, tb.code("tonrohr"), -1)
    tb.s.fn_used[:] = 0  # the next turn
    assert actions.can_make(tb.sv, tb.tv, 0, tb.code("tonrohr"), -1)


def test_effect_settlement_discount_saves_a_resource():
    tb = base()
    tb.show(1, "muenzwesen", 0)  # pink level 2, settlement_discount 1
    tb.supply(1, pink=1)
    tb.close()
    i = actions.slot_of(tb.sv, tb.tv, 1, tb.code("muenzwesen"))
    assert actions.can_settle(tb.sv, tb.tv, 1, i)
    actions.do_settle(tb.sv, tb.tv, 1, i)
    assert tb.s.supply[1].sum() == 0 and tb.s.stones[1, i] == 1
    tb.check()


def test_effect_card_action_take_any_and_draw():
    tb = base()
    a = tb.show(0, "aquaedukt", 0)
    z = tb.show(1, "zahnrad", 0)
    tb.deck("leier", "rad", "axt").close()
    actions.do_card_action(tb.sv, tb.tv, 0, a, tb.colour("yellow"))
    assert tb.s.supply[0, tb.colour("yellow")] == 2
    assert not actions.can_card_action(tb.sv, tb.tv, 0, a)  # once per turn
    actions.do_card_action(tb.sv, tb.tv, 1, z, -1)
    assert tb.s.hand[1, tb.code("leier")] == 1 and tb.s.hand[1, tb.code("rad")] == 1
    tb.check()


def test_effect_end_points():
    tb = base()
    tb.show(2, "leier", 0)  # 1 point per displayed invention
    tb.show(2, "waage", 0)  # 1 point per 4 resources
    tb.supply(2, red=4, blue=4)
    tb.close()
    parts = scoring.score_parts(tb.sv, tb.tv, 2)
    total = sum(parts)
    # Axt village 1 + Leier 1 + Waage 1; 8 resources 2; Leier 3 + Waage 2
    assert list(parts) == [3, 2, 5, 0] and total == 10


def test_effect_bid_bonus_by_settlement():
    tb = base()
    i = tb.show(1, "leuchtturm", 0)
    tb.close()
    assert strategies.bid_bonus(tb.sv, tb.tv, 1) == 0
    tb.s.stones[1, i] = 1
    assert strategies.bid_bonus(tb.sv, tb.tv, 1) == 3
    tb.s.stones[1, i] = 2
    assert strategies.bid_bonus(tb.sv, tb.tv, 1) == 3


# --------------------------------------------------------------------------- deck, pool


def test_deck_exhausted_first_time_removes_fifteen_later_none():
    tb = base()
    tb.close()
    names = ["rad"] * 3 + ["strasse"] * 3 + ["brennofen"] * 3 + ["tonrohr"] * 3
    names += ["stadtmauer"] * 4 + ["gewoelbe"] * 4  # 20 cards
    for name in names:
        cards.discard_card(tb.sv, tb.code(name))
    tb.close()
    x = cards.draw_raw(tb.sv, tb.tv)
    assert x >= 0 and tb.s.sc[S.S_RESHUFFLES] == 1
    assert tb.s.sc[S.S_DECK_N] == 4  # 20 - 15 - 1 drawn
    # the 15 earliest discarded are gone: only Stadtmauer/Gewölbe cards remain
    left = [int(c) for c in tb.s.deck[:4]] + [int(x)]
    assert set(left) <= {tb.code("gewoelbe"), tb.code("stadtmauer")}
    for _ in range(4):
        cards.draw_raw(tb.sv, tb.tv)
    for name in names[:6]:
        cards.discard_card(tb.sv, tb.code(name))
    cards.draw_raw(tb.sv, tb.tv)
    assert tb.s.sc[S.S_RESHUFFLES] == 2 and tb.s.sc[S.S_DECK_N] == 5
    tb.s.hand[0, tb.code("rad")] += 0
    tb.close()


def test_a_pile_of_only_gods_ends_the_draw_instead_of_cycling_for_ever():
    """Every invention in the hands (nothing ever made) and only gods and
    disasters in the deck and discard pile, a trigger waiting: each god drawn is
    discarded, so a rebuilt deck would cycle for ever. The draw ends with -1
    after the pile was rebuilt once and ran out again; the cards stay counted."""
    tb = base().deck("gibil", "enlil").gods_pending("nergal", "ischtar", 0)
    cards.discard_card(tb.sv, tb.code("nannar"))
    tb.s.sc[S.S_RESHUFFLES] = 1  # not the first rebuild: no cards leave the game
    tb.close()
    assert actions.do_take_card(tb.sv, tb.tv, 1, 3) == -1
    assert tb.s.sc[S.S_RESHUFFLES] == 2  # rebuilt once during the draw, not again
    assert tb.s.sc[S.S_DECK_N] == 0 and tb.s.sc[S.S_DISCARD_N] == 3
    assert actions.draw_to_hand(tb.sv, tb.tv, 0) == -1  # and again: still no cycle
    assert tb.s.hand[:3].sum() == 0
    tb.check()


def test_a_god_rebuilt_into_the_deck_before_an_invention_still_finds_it():
    """The guard stops only a rebuilt deck without an invention: with one
    invention under the gods of the discard pile, the draw finds it."""
    tb = base().deck("gibil").gods_pending("nergal", "ischtar", 0)
    for name in ("enlil", "nannar", "rad"):
        cards.discard_card(tb.sv, tb.code(name))
    tb.s.sc[S.S_RESHUFFLES] = 1
    tb.close()
    assert actions.do_take_card(tb.sv, tb.tv, 1, 3) == tb.code("rad")
    tb.check()


def test_empty_pool_takes_from_the_richest_who_takes_another_colour():
    tb = base()
    tb.supply(1, red=7)
    tb.supply(2, red=5)
    tb.close()
    assert tb.s.pool[tb.colour("red")] == 0
    got = actions.do_take_resources(tb.sv, tb.tv, 0, 0, 0)  # Lehmhaus: red, plain
    assert got == 1 and tb.s.supply[0, tb.colour("red")] == 1
    assert tb.s.supply[1, tb.colour("red")] == 6 and tb.s.supply[1].sum() == 7
    tb.check()


def test_empty_pool_no_resource_if_you_hold_the_most():
    tb = base()
    tb.supply(0, red=8)
    tb.supply(1, red=4)
    tb.close()
    assert actions.do_take_resources(tb.sv, tb.tv, 0, 0, 0) == 0
    assert tb.events(S.EV_NO_RES) == [(0, tb.colour("red"), 0, 0)]


@pytest.mark.parametrize("p", [0, 1])
def test_pairs_twin(p):
    """``baseline``'s colour pairs equal a slow twin of strategies version 1's
    fixed rule (most cards first, then lowest level)."""
    rng = np.random.default_rng(p)
    for _ in range(40):
        tb = base(players="baseline")
        for _ in range(int(rng.integers(2, 12))):
            tb.s.hand[0, int(rng.integers(0, tb.t.n_inv))] += 1
        tb.close()
        hand = tb.s.hand[0].copy()
        colour = [int(c) for c in tb.t.inv_colour]
        level = [int(v) for v in tb.t.inv_level]
        by_colour = [sum(hand[y] for y in range(len(hand)) if colour[y] == c) for c in range(4)]
        if max(by_colour) < 2:
            continue
        want = max(range(4), key=lambda c: (by_colour[c], -c))
        order = sorted(
            (y for y in range(len(hand)) if colour[y] == want), key=lambda y: (level[y], y)
        )
        expect = hand.copy()
        left = 2
        for y in order:
            while left and expect[y]:
                expect[y] -= 1
                left -= 1
        assert actions.pay_pair(tb.sv, tb.tv, 0) == want
        assert list(tb.s.hand[0]) == list(expect)
        tb.check()


# --------------------------------------------------------------------------- bid resolution twins


@pytest.mark.parametrize("seed", range(4))
def test_disaster_resolution_twin(seed):
    """Spared and suffering seats and the payments equal a slow twin computed
    from each seat's secret bid and bid bonus."""
    rng = np.random.default_rng(seed)
    for _ in range(15):
        n = int(rng.integers(2, 5))
        tb = base(n, players=["hoarder", "balanced", "builder", "hoarder"][:n])
        tb.prm[:n, 6] = rng.uniform(0, 2, n)  # secret
        tb.s.epoch[:] = (1, 2, 2, 2)  # room for the stones shown below
        for p in range(n):
            tb.supply(p, red=int(rng.integers(0, 4)), blue=int(rng.integers(0, 4)))
            if rng.random() < 0.4:
                tb.show(p, "leuchtturm", int(rng.integers(0, 3)))
        tb.gods_pending("duerre", "enlil", int(rng.integers(0, n))).close()
        g = tb.code("duerre") - tb.t.n_inv
        bids = [int(strategies.secret_bid(tb.sv, tb.tv, p, g)) for p in range(n)]
        value = [bids[p] + int(strategies.bid_bonus(tb.sv, tb.tv, p)) for p in range(n)]
        best = max(value)
        spared = set() if value.count(best) == n else {p for p in range(n) if value[p] == best}
        supply = tb.s.supply[:n].sum(axis=1).copy()
        stones = tb.s.stones[:n].sum(axis=1).copy()
        tb.activate()
        assert {r[0] for r in tb.events(S.EV_SPARED)} == spared
        for p in range(n):
            paid = bids[p] if p in spared else 0
            assert tb.s.supply[p].sum() == supply[p] - paid
            lost = 0 if p in spared else min(1, stones[p])
            assert tb.s.stones[p].sum() == stones[p] - lost


@pytest.mark.parametrize("seed", range(4))
def test_auction_resolution_properties(seed):
    """Open auctions on random hands: bids rise strictly, the winner is the last
    bidder standing, its value is its discarded cards' levels plus its bonus, every
    other seat passed and has its hand back."""
    rng = np.random.default_rng(100 + seed)
    for _ in range(15):
        n = int(rng.integers(2, 5))
        tb = base(n, players=["hoarder", "balanced", "builder", "hoarder"][:n])
        tb.prm[:n, 5] = rng.uniform(0, 4, n)
        tb.s.epoch[:] = (1, 2, 2, 2)  # room for the stones shown below
        for p in range(n):
            for _ in range(int(rng.integers(0, 7))):
                tb.s.hand[p, int(rng.integers(0, tb.t.n_inv))] += 1
            if rng.random() < 0.4:
                tb.show(p, "leuchtturm", int(rng.integers(0, 3)))
            tb.show(p, "zisterne", 0)  # level 3: the gods are worth something
        tb.close()
        hands = tb.s.hand[:n].copy()
        god = "nergal" if rng.random() < 0.5 else "enlil"
        g = tb.code(god) - tb.t.n_inv
        first = int(rng.integers(0, n))
        winner, value = gods.auction(tb.sv, tb.tv, g, first)
        bids = tb.events(S.EV_BID)
        raised = [b[1] for b in bids if b[1] >= 0]
        assert raised == sorted(set(raised))  # strictly rising
        if winner < 0:
            assert raised == [] and (tb.s.hand[:n] == hands).all()
            continue
        assert value == raised[-1] and [b for b in bids if b[1] >= 0][-1][0] == winner
        spent = hands[winner] - tb.s.hand[winner]
        assert (spent >= 0).all() and spent.sum() >= 1
        bonus = int(strategies.bid_bonus(tb.sv, tb.tv, winner))
        assert int((spent * tb.t.inv_level).sum()) + bonus == value
        for p in range(n):
            if p != winner:
                assert (tb.s.hand[p] == hands[p]).all()
                if any(b[0] == p for b in bids):
                    assert [b for b in bids if b[0] == p][-1][1] == -1  # passed
        assert tb.s.bid.sum() == 0
        tb.check()


@pytest.mark.parametrize("seed", range(3))
def test_make_candidates_are_exactly_the_legal_makes(seed):
    """The player's fast pairs count (hand tallied by colour once) offers a make
    exactly when :func:`actions.can_make` allows it (free slot, or replacing an
    invention of lower level)."""
    rng = np.random.default_rng(200 + seed)
    for _ in range(60):
        tb = base()
        for name in rng.choice(tb.rules.invention_ids, int(rng.integers(0, 5)), replace=False):
            if actions.slot_of(tb.sv, tb.tv, 0, tb.code(name)) < 0:
                tb.show(0, str(name), 0)
        for _ in range(int(rng.integers(1, 14))):
            tb.s.hand[0, int(rng.integers(0, tb.t.n_inv))] += 1
        tb.s.epoch[:] = 0
        tb.close()
        k = strategies.candidates(tb.sv, tb.tv, 0)
        got = {(int(a), int(b)) for kind, a, b in tb.s.cand[:k].tolist() if kind == 1}
        level = tb.t.inv_level
        want = set()
        for x in range(tb.t.n_inv):
            if actions.can_make(tb.sv, tb.tv, 0, x, -1):
                want.add((x, -1))
            for r in range(tb.t.max_inventions):
                y = tb.s.inv[0, r]
                if y >= 0 and level[y] < level[x] and actions.can_make(tb.sv, tb.tv, 0, x, r):
                    want.add((x, r))
        assert got == want


def test_last_stone_of_epoch_iv_ends_the_game_and_pool_stones_return_to_iv():
    tb = base()
    i = tb.show(0, "wasserrad", 1)  # a city on it needs a stone from II-IV
    tb.supply(0, red=2, yellow=2, blue=2)
    tb.s.epoch[:] = (2, 0, 0, 1)
    tb.s.sc[S.S_POOL_STONES] = 2  # returned earlier by activations
    tb.close()
    assert actions.do_settle(tb.sv, tb.tv, 0, i) == 3  # the city comes from IV
    assert tb.s.sc[S.S_END] == 1
    assert tb.s.epoch[3] == 2 and tb.s.sc[S.S_POOL_STONES] == 0  # back on card IV
    assert tb.events(S.EV_END) and tb.events(S.EV_REFILL_IV)
    tb.check()


def test_an_activation_can_take_the_last_stone_of_iv():
    tb = base().gods_pending("ischtar", "enlil", 0).deck("rad", "rad", "rad")
    tb.s.epoch[:] = (0, 0, 0, 1)
    tb.close()
    tb.activate()
    assert tb.s.sc[S.S_END] == 1
    # the stone went to the pool and, card IV being empty, straight back onto it
    assert tb.s.epoch[3] == 1 and tb.s.sc[S.S_POOL_STONES] == 0


def test_gods_drawn_while_an_activation_is_handled_are_discarded():
    tb = base().gods_pending("nannar", "enlil", 0)
    tb.show(0, "brennofen", 1)
    tb.show(1, "strasse", 1)  # seat 2 has the fewest stones; seats 0, 1 draw
    tb.deck("rad", "gibil", "strasse").close()
    tb.activate()
    assert tb.s.hand[0, tb.code("rad")] == 1 and tb.s.hand[1, tb.code("strasse")] == 1
    assert tb.events(S.EV_GOD_DRAWN) == [(0, tb.code("gibil"), 2, 0)]
    assert tb.s.sc[S.S_PENDING] == -1
