"""Every delver card, named-wonder ability, end-of-age card and ruling, forced.

Each test sets up a game with ``engine.setup``, then builds the situation by hand
in the arrays of the :class:`State` (dice, values, hands, ruins, wonders) and
calls one engine kernel (``play_card``, ``roll_die``, ``check_claims``,
``build_wonder``, ``reveal``, ``take_turn``, ``final_scores``).

Dice are forced with explicit chance: :func:`force` queues the outcomes the
test wants (die faces, and the random strategy's choices) in the state's RNG
array, and the kernels take them before drawing (:mod:`analyzer.kernels.rng`). The draw
order is the engine's (documented at each test); a forced outcome that does not
fit the draw it meets raises, so a wrong order fails the test.
"""

import numpy as np
import pytest

from analyzer.core.seeding import root_key
from analyzer.kernels.rng import FORCED, QUEUE_WORDS, queue_outcomes, rng_below, rng_die, rng_seed
from analyzer.unearth import engine
from analyzer.unearth.claims import RANK_DICE
from analyzer.unearth.codes import WonderKind
from analyzer.unearth.memo import new_memo
from analyzer.unearth.rules import load_rules
from analyzer.unearth.scoring import PART_NAMES
from analyzer.unearth.state import (
    EV_CLAIM,
    EV_EVENT,
    EV_PLAY,
    EV_ROLL,
    EV_STONE,
    EV_TAKE_RUIN,
    N_STATS_BASE,
    S_ANCESTRAL,
    S_BOXED_N,
    S_CUR,
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_EXPEDITION,
    S_GREATER_POS,
    S_LESSER_POS,
    S_MAP,
    S_N_SLOTS,
    S_READING,
    S_REMOVED_N,
    S_ROLL_MOD,
    S_TRACE_N,
    ST_DRAWN,
    ST_PLAYED,
    State,
    new_state,
)
from analyzer.unearth.strategies import (
    DEFAULT_PARAMS,
    P_BIG_DIE,
    P_W_STONE,
    Strategy,
    _bound_at_most,
    _insert_rank,
    _pack_dice,
    _roll_ev,
    _value_if,
    best_excavation,
    die_values,
)
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables
from analyzer.unearth.tableau import (
    MIDDLE,
    N_CELLS,
    NEIGHBOURS,
    NO_WONDER,
    grow_box,
    legal_cells_boxed,
)
from tests.naive import xoshiro_next

RULES = load_rules()
NO_FALLBACK = load_rules(rulings={"token_fallback": False})
T = RULES.tables
KEY = root_key(777)
CARD = {cid: i for i, cid in enumerate(RULES.card_ids)}
DELVER = {did: i for i, did in enumerate(RULES.delver_ids)}
WONDER = {wid: i for i, wid in enumerate(RULES.wonder_ids)}
BLACK, RED, BLUE, YELLOW = (
    RULES.stone_colours.index(c) for c in ("black", "red", "blue", "yellow")
)
D6A, D6B, D6C, D4, D8 = 0, 1, 2, 3, 4
assert [int(f) for f in T.dice_faces] == [6, 6, 6, 4, 8]

# --------------------------------------------------------------------------- forcing the RNG


class Twin:
    """Plain-Python xoshiro256** with the draws of :mod:`analyzer.kernels.rng`."""

    def __init__(self, words):
        self.s = [int(w) for w in words]

    def uniform(self):
        return (xoshiro_next(self.s) >> 11) * (1.0 / 9007199254740992.0)


def die(faces, want=None):
    """One die draw (``rng_die``): ``want`` an int, a tuple of ints, or None (any)."""
    return ("die", faces, want)


def pick(n, want=None):
    """One ``rng_below(n)`` draw (a random-strategy choice or a bag draw)."""
    return ("below", n, want)


ANY = ("below", 1, None)  #: one draw whose value does not matter


def _drawn(kind, n, u):
    return 1 + int(u * n) if kind == "die" else int(u * n)


def force(s, *draws):
    """Queue the next chance outcomes of the game in ``s.rng`` (explicit chance,
    :func:`analyzer.kernels.rng.queue_outcomes`): the kernels' die rolls and picks return
    them, in order, before drawing. A draw whose value does not matter gets the
    smallest outcome. Returns the generator's words, which forced draws leave as
    they are (for :func:`draws_used`)."""
    outcomes = []
    for kind, _n, want in draws:
        if isinstance(want, tuple):
            want = want[0]
        outcomes.append(want if want is not None else (1 if kind == "die" else 0))
    queue_outcomes(s.rng, outcomes)
    return [int(w) for w in s.rng[:4]]


def draws_used(start_words, s, limit=200):
    """How many draws were made since :func:`force`: the forced outcomes taken,
    plus any the generator made after the queue ran out."""
    taken = int(s.rng[FORCED + 1])
    twin = Twin(start_words)
    end = [int(w) for w in s.rng[:4]]
    for k in range(limit):
        if twin.s == end:
            return taken + k
        twin.uniform()
    raise AssertionError("RNG state not reached")


def test_forced_outcomes_come_first_then_the_generator():
    state = np.zeros(QUEUE_WORDS + 4, np.uint64)
    rng_seed(state, 1, 2, 3)
    plain = state[:4].copy()
    queue_outcomes(state, [6, 0, 3])
    assert rng_die(state, 8) == 6 and rng_below(state, 2) == 0 and rng_die(state, 4) == 3
    assert [int(w) for w in state[:4]] == [int(w) for w in plain]  # nothing drawn yet
    twin = Twin(plain)
    assert rng_die(state, 6) == _drawn("die", 6, twin.uniform())  # queue empty: draws
    queue_outcomes(state, [7])
    with pytest.raises(ValueError, match="forced die"):
        rng_die(state, 6)
    queue_outcomes(state, [2])
    with pytest.raises(ValueError, match="forced outcome"):
        rng_below(state, 2)
    with pytest.raises(ValueError, match="outcomes for a queue of 4"):
        queue_outcomes(state, [1] * 5)


def test_twin_generator_matches_the_kernel_rng():
    state = np.zeros(4, np.uint64)
    rng_seed(state, 1, 2, 3)
    twin = Twin(state)
    for faces in (4, 6, 8, 6, 6, 20):
        assert rng_die(state, faces) == _drawn("die", faces, twin.uniform())
    assert twin.s == [int(w) for w in state]


# --------------------------------------------------------------------------- a table


class Table:
    """A game set up by ``engine.setup`` and cleared to a known situation:
    no dice on ruins, empty hands, no stones on ruins, 17-ruins in every slot, no
    named wonder in play, seat 0 to play. Every seat plays ``strategy``."""

    def __init__(self, players=2, strategy=Strategy.RANDOM, rules=RULES, game=0):
        self.rules = rules
        self.t = rules.tables
        self.T = pack_tables(self.t)
        self.n = players
        self.s = s = new_state(self.t, players, trace_rows=2000, claim_rows=64)
        self.S = pack_state(s)
        self.strat = np.full(players, int(strategy), np.int64)
        self.m = new_memo(self.t, players, self.strat, DEFAULT_PARAMS[self.strat])
        self.prm = self.m.prm  # each seat's parameter row, as the strategies read it
        self.M = pack_memo(self.m)
        engine.setup(self.S, self.M, self.T, players, KEY[0], KEY[1], game)
        s.hand[:] = 0
        s.die_slot[:] = -1
        s.die_value[:] = 0
        s.slot_stones[:] = 0
        s.bag[:] = self.t.stones_per_colour
        s.named_state[:] = -2
        s.effects[:] = 0
        s.sc[S_CUR] = 0
        s.sc[S_ROLL_MOD] = 0
        for slot, cid in enumerate(["A17", "B17", "C17", "D17", "E17"][: int(s.sc[S_N_SLOTS])]):
            s.slot_card[slot] = CARD[cid]
        self.claims = s.claims
        self.n_claims = s.n_claims
        s.sc[S_TRACE_N] = 0

    # set-up helpers ------------------------------------------------------
    def put(self, seat, d, slot, value):
        self.s.die_slot[seat, d] = slot
        self.s.die_value[seat, d] = value

    def ruin(self, slot, cid, **stones):
        self.s.slot_card[slot] = CARD[cid]
        self.s.slot_stones[slot] = 0
        for colour, k in stones.items():
            self.s.slot_stones[slot, RULES.stone_colours.index(colour)] = k

    def own(self, seat, wid):
        w = WONDER[wid]
        self.s.named_state[w] = seat
        self.s.effects[seat] |= 1 << int(self.t.wonder_effect[w])

    def next_card(self, cid):
        """The next card revealed from the ruins deck is ``cid``."""
        self.s.ruin_deck[self.s.sc[S_DECK_POS]] = CARD[cid]

    # kernels ---------------------------------------------------------------
    def play(self, seat, did, a=-1, b=-1):
        self.s.hand[seat, DELVER[did]] += 1
        engine.play_card(self.S, self.M, self.T, seat, DELVER[did], a, b)

    def roll(self, seat, d, slot, excavation=True):
        engine.roll_die(self.S, self.M, self.T, seat, d, slot, excavation)

    def check_claims(self):
        engine.check_claims(self.S, self.T)

    def build(self, seat, centre, T=None):
        engine.build_wonder(self.S, self.M, T or self.T, seat, centre)

    def reveal(self, slot):
        engine.reveal(self.S, self.T, slot)

    def take_turn(self, seat):
        engine.take_turn(self.S, self.M, self.T, seat)

    def scores(self):
        engine.final_scores(self.S, self.T, self.n)
        s = self.s
        return s.scores[: self.n].copy(), s.parts[: self.n].copy(), s.win[: self.n].copy()

    # reading ---------------------------------------------------------------
    def events(self, code):
        rows = self.s.trace[: self.s.sc[S_TRACE_N]]
        return rows[rows[:, 0] == code]

    def rolls(self):
        """(seat, die, slot, natural, final, kind) of every roll event."""
        return [tuple(int(x) for x in ev[[2, 3, 4, 5, 6, 7]]) for ev in self.events(EV_ROLL)]

    def stones(self, seat):
        return self.s.n_stones[seat].tolist()


def ring(table, seat, colours, centre=MIDDLE):
    """Six stones of ``colours`` around ``centre`` in ``seat``'s tableau."""
    for nb, c in zip(NEIGHBOURS[centre], colours, strict=True):
        table.s.stone[seat, nb] = c
        grow_box(table.s.box[seat], nb)
        table.s.n_stones[seat, c] += 1


# ====================================================================== delver cards


def test_ancient_map_reroll_only_the_final_roll_counts_and_card_modifiers_are_lost():
    g = Table()
    g.ruin(0, "A13", red=1)
    g.put(1, D8, 0, 7)
    g.play(0, "ancestral_claim")
    g.play(0, "ancient_map")
    assert g.s.sc[S_MAP] == 1 and g.s.sc[S_ANCESTRAL] == 1
    # natural 6 (+2: would claim 13), coin: reroll, natural 1 (+2 lost), stone colour
    force(g.s, die(6, 6), pick(2, 1), die(6, 1), ANY)
    g.roll(0, D6A, 0)
    assert g.rolls() == [(0, D6A, 0, 6, 1, 2), (0, D6A, 0, 1, 1, 0)]
    assert g.s.die_value[0, D6A] == 1  # not 3: Ancestral Claim lost on the reroll
    assert g.s.slot_card[0] == CARD["A13"]  # the first roll's claim did not happen
    assert g.stones(0)[RED] == 1  # the final natural 1 gives the stone
    assert g.s.sc[S_MAP] == 0 and g.s.sc[S_ANCESTRAL] == 0


def test_ancient_map_not_used_keeps_the_roll_its_modifiers_and_its_stone():
    g = Table()
    g.ruin(0, "A13", red=1)
    g.put(1, D8, 0, 7)
    g.play(0, "ancestral_claim")
    g.play(0, "ancient_map")
    start = force(g.s, die(6, 2), pick(2, 0), ANY)
    g.roll(0, D6A, 0)
    assert g.rolls() == [(0, D6A, 0, 2, 0, 2), (0, D6A, 0, 2, 4, 0)]
    assert g.stones(0)[RED] == 1 and g.s.slot_stones[0, RED] == 0
    assert g.s.sc[S_ANCESTRAL] == 0
    assert draws_used(start, g.s) == 3


def test_band_of_delvers_gives_a_second_excavation_and_never_a_third():
    g = Table()
    g.s.hand[0, DELVER["band_of_delvers"]] = 2
    # play Band (option 1 of 2); stop (the second Band is no longer playable: one
    # option); excavation: die 0 of 5 free, slot 0; second: die 1 (first of 4 free), slot 1
    force(
        g.s, pick(2, 1), ANY, pick(5, 0), pick(4, 0), die(6, (4, 5, 6)),
        pick(4, 0), pick(4, 1), die(6, (4, 5, 6)),
    )  # fmt: skip
    g.take_turn(0)
    excavations = [r for r in g.rolls() if r[5] == 0]
    assert [(r[1], r[2]) for r in excavations] == [(D6A, 0), (D6B, 1)]
    assert len(g.events(EV_PLAY)) == 1
    assert g.s.hand[0, DELVER["band_of_delvers"]] == 1
    assert g.s.seat_stats[0, ST_PLAYED] == 1


def test_band_of_delvers_second_roll_may_use_the_die_that_came_back():
    g = Table()
    g.ruin(0, "A9")
    g.put(1, D4, 0, 4)
    g.next_card("B9")  # revealed after the claim: 2 random stones from the bag
    g.s.hand[0, DELVER["band_of_delvers"]] = 1
    force(
        g.s, pick(2, 1), ANY, pick(5, 0), pick(4, 0), die(6, 5), ANY, ANY,
        pick(5, 0), pick(4, 1), die(6, (4, 5, 6)),
    )  # fmt: skip
    g.take_turn(0)
    assert g.s.held[0, CARD["A9"]] == 1  # 5 + 4 = 9 claimed with the d6 (5 > 4)
    excavations = [r for r in g.rolls() if r[5] == 0]
    assert [(r[1], r[2]) for r in excavations] == [(D6A, 0), (D6A, 1)]
    assert g.s.die_slot[0, D6A] == 1


def test_restoration_rerolls_all_of_your_dice_on_ruins_only():
    g = Table()
    g.put(0, D6A, 0, 2)
    g.put(0, D4, 1, 1)
    g.put(1, D6A, 0, 3)
    start = force(g.s, die(6, 5), die(4, 4))
    g.play(0, "restoration")
    assert g.rolls() == [(0, D6A, 0, 5, 5, 1), (0, D4, 1, 4, 4, 1)]
    assert g.s.die_value[0, D6A] == 5 and g.s.die_value[0, D4] == 4
    assert g.s.die_slot[0, D6A] == 0 and g.s.die_slot[0, D4] == 1  # dice stay on their ruins
    assert g.s.die_value[1, D6A] == 3
    assert draws_used(start, g.s) == 2


def test_ancestral_claim_adds_two_to_the_next_d6_only():
    g = Table()
    g.play(0, "ancestral_claim")
    force(g.s, die(4, 4), die(6, 4), die(6, 4))
    g.roll(0, D4, 0)  # a d4: no bonus, the card waits for a d6
    assert g.s.die_value[0, D4] == 4 and g.s.sc[S_ANCESTRAL] == 1
    g.roll(0, D6A, 1)
    assert g.s.die_value[0, D6A] == 6 and g.s.sc[S_ANCESTRAL] == 0
    g.roll(0, D6B, 2)
    assert g.s.die_value[0, D6B] == 4


def test_ancestral_claim_does_not_touch_an_opponents_reroll():
    g = Table()
    g.put(1, D6A, 3, 2)
    g.play(0, "ancestral_claim")
    force(g.s, die(6, 4))
    g.play(0, "lost_in_the_ruins", 1, D6A)
    assert g.s.die_value[1, D6A] == 4
    assert g.s.sc[S_ANCESTRAL] == 1


FORCED_MODS = load_rules(rulings={"card_mods_on_forced_rerolls": True})


def test_ruling_switch_ancestral_claim_applies_to_the_reroll_it_forces():
    # card_mods_on_forced_rerolls (the English FAQ's reading): +2 on the opponent's d6
    g = Table(rules=FORCED_MODS)
    g.put(1, D6A, 3, 2)
    g.play(0, "ancestral_claim")
    force(g.s, die(6, 3))
    g.play(0, "lost_in_the_ruins", 1, D6A)
    assert g.s.die_value[1, D6A] == 5
    assert g.s.sc[S_ANCESTRAL] == 0  # used up on that roll


def test_ruling_switch_the_current_player_picks_the_reading_sign_against_the_owner():
    # seat 1's d6 rerolled onto a 9-ruin where it holds a 4: a natural 4 with +1
    # would claim (9) for seat 1; balanced seat 0 makes it 3 instead (total 7)
    g = Table(strategy=Strategy.BALANCED, rules=FORCED_MODS)
    g.ruin(3, "D9")
    g.put(1, D6A, 3, 1)
    g.put(1, D6B, 3, 4)
    g.play(0, "reading_the_stones")
    force(g.s, die(6, 4))
    g.play(0, "lost_in_the_ruins", 1, D6A)
    assert g.s.die_value[1, D6A] == 3 and g.s.sc[S_READING] == 0
    # the default ruling: the card waits for seat 0's own roll; the owner keeps 4
    g = Table(strategy=Strategy.BALANCED)
    g.ruin(3, "D9")
    g.put(1, D6A, 3, 1)
    g.put(1, D6B, 3, 4)
    g.play(0, "reading_the_stones")
    force(g.s, die(6, 4))
    g.play(0, "lost_in_the_ruins", 1, D6A)
    assert g.s.die_value[1, D6A] == 4 and g.s.sc[S_READING] == 1


def test_forgotten_song_rerolls_every_die_showing_the_number_by_its_owner():
    g = Table()
    g.put(0, D6A, 0, 4)
    g.put(0, D6B, 0, 5)
    g.put(1, D6C, 1, 4)
    g.put(1, D8, 2, 4)
    g.ruin(1, "B17", yellow=1)
    # seat 0's die first, then seat 1's in die order; seat 1's natural 2 takes the stone
    force(g.s, die(6, 6), die(6, 2), ANY, die(8, 8))
    g.play(0, "forgotten_song", 4)
    assert g.rolls() == [(0, D6A, 0, 6, 6, 1), (1, D6C, 1, 2, 2, 1), (1, D8, 2, 8, 8, 1)]
    assert g.s.die_value[0, D6B] == 5  # not showing 4: untouched
    assert g.stones(1)[YELLOW] == 1 and sum(g.stones(0)) == 0


def test_forlorn_takes_two_and_clamps_at_one():
    g = Table()
    g.put(1, D6A, 0, 5)
    g.put(1, D8, 1, 2)
    start = force(g.s)
    g.play(0, "forlorn", 1, D6A)
    g.play(0, "forlorn", 1, D8)
    assert g.s.die_value[1, D6A] == 3 and g.s.die_value[1, D8] == 1
    assert draws_used(start, g.s) == 0


def test_a_new_discovery_adds_two_and_clamps_at_the_faces():
    g = Table()
    g.put(1, D6A, 0, 5)
    g.put(0, D8, 1, 5)
    g.put(1, D4, 2, 3)
    g.play(0, "a_new_discovery", 1, D6A)
    g.play(0, "a_new_discovery", 0, D8)
    g.play(0, "a_new_discovery", 1, D4)
    assert g.s.die_value[1, D6A] == 6
    assert g.s.die_value[0, D8] == 7
    assert g.s.die_value[1, D4] == 4


def test_a_new_discovery_can_complete_a_claim_for_an_opponent():
    g = Table()
    g.ruin(0, "A9")
    g.put(0, D6A, 0, 4)
    g.put(1, D6A, 0, 3)
    hand0 = g.s.hand[0].sum()
    g.play(0, "a_new_discovery", 1, D6A)  # 4 + 5 = 9: seat 1 claims with its 5
    assert g.s.held[1, CARD["A9"]] == 1 and g.s.held[0, CARD["A9"]] == 0
    assert g.s.hand[0].sum() == hand0 + 1  # one consolation card for its die
    assert g.s.die_slot[0, D6A] == -1 and g.s.die_slot[1, D6A] == -1


def test_lost_in_the_ruins_rerolls_anyones_die_and_the_owner_gets_the_stone():
    g = Table()
    g.put(1, D6A, 0, 2)
    g.ruin(0, "A17", blue=1)
    force(g.s, die(6, 1), ANY)
    g.play(0, "lost_in_the_ruins", 1, D6A)
    assert g.rolls() == [(1, D6A, 0, 1, 1, 1)]
    assert g.stones(1)[BLUE] == 1 and sum(g.stones(0)) == 0


def test_reading_the_stones_minus_one_into_three_gives_no_stone():
    g = Table()
    g.ruin(0, "A17", black=2)
    g.play(0, "reading_the_stones")
    start = force(g.s, die(6, 4), pick(2, 0), die(6, 4))
    g.roll(0, D6A, 0)
    assert g.s.die_value[0, D6A] == 3
    assert sum(g.stones(0)) == 0  # a modifier into 1-3 gives no stone
    assert g.s.sc[S_READING] == 0
    g.roll(0, D6B, 0)  # only the next die
    assert g.s.die_value[0, D6B] == 4
    assert draws_used(start, g.s) == 3


def test_reading_the_stones_plus_one_clamps_and_the_natural_face_decides_the_stone():
    g = Table()
    g.ruin(0, "A17", black=2)
    g.play(0, "reading_the_stones")
    force(g.s, die(6, 6), pick(2, 1))  # {5, 6}: 7 is clamped to 6
    g.roll(0, D6A, 0)
    assert g.s.die_value[0, D6A] == 6
    g.play(0, "reading_the_stones")
    force(g.s, die(6, 3), pick(2, 1), ANY)  # natural 3 shown as 4: still a stone
    g.roll(0, D6B, 0)
    assert g.s.die_value[0, D6B] == 4
    assert g.stones(0)[BLACK] == 1


def test_expedition_chooses_the_ruin_after_the_roll():
    g = Table()
    g.play(0, "expedition")
    force(g.s, die(6, 5), pick(4, 2))
    g.roll(0, D6A, 0)  # declared slot 0, rolled 5, put on slot 2
    assert g.s.die_slot[0, D6A] == 2 and g.s.die_value[0, D6A] == 5
    assert g.s.sc[S_EXPEDITION] == 0


def test_expedition_claimer_puts_the_roll_where_it_claims():
    g = Table(strategy=Strategy.CLAIMER)
    g.ruin(2, "C9")
    g.put(1, D4, 2, 4)
    g.play(0, "expedition")
    force(g.s, die(6, 5))
    g.roll(0, D6A, 0)
    assert g.s.held[0, CARD["C9"]] == 1


# ====================================================================== named wonders


def test_college_d8_may_get_plus_one_other_dice_and_players_not():
    g = Table()
    g.own(0, "college_of_the_overseers")
    force(g.s, die(8, 5), pick(2, 1))
    g.roll(0, D8, 0)
    assert g.s.die_value[0, D8] == 6
    start = force(g.s, die(6, 5))
    g.roll(0, D6A, 1)  # not a d8: no choice offered (one draw only)
    assert g.s.die_value[0, D6A] == 5 and draws_used(start, g.s) == 1
    start = force(g.s, die(8, 5))
    g.roll(1, D8, 2)  # seat 1 has no College
    assert g.s.die_value[1, D8] == 5 and draws_used(start, g.s) == 1


def test_columns_any_die_may_get_minus_one():
    g = Table()
    g.own(0, "harmonious_columns")
    g.ruin(0, "A17", red=1)
    force(g.s, die(6, 4), pick(2, 0))
    g.roll(0, D6A, 0)
    assert g.s.die_value[0, D6A] == 3 and sum(g.stones(0)) == 0
    force(g.s, die(4, 4), pick(2, 1))
    g.roll(0, D4, 1)
    assert g.s.die_value[0, D4] == 4


def test_edifice_may_reroll_a_four_or_five_once():
    g = Table()
    g.own(0, "shattered_edifice")
    g.ruin(0, "A17", black=1)
    force(g.s, die(6, 4), pick(2, 1), die(6, 2), ANY)
    g.roll(0, D6A, 0)
    assert g.rolls() == [(0, D6A, 0, 4, 1, 3), (0, D6A, 0, 2, 2, 0)]
    assert g.stones(0)[BLACK] == 1
    start = force(g.s, die(6, 4), pick(2, 1), die(6, 5))
    g.roll(0, D6B, 1)  # the reroll shows 5: no second reroll
    assert g.s.die_value[0, D6B] == 5 and draws_used(start, g.s) == 3
    start = force(g.s, die(6, 5), pick(2, 0))
    g.roll(0, D6C, 1)  # kept
    assert g.s.die_value[0, D6C] == 5 and draws_used(start, g.s) == 2
    assert g.rolls()[-2:] == [(0, D6C, 1, 5, 0, 3), (0, D6C, 1, 5, 5, 0)]  # logged as kept
    start = force(g.s, die(8, 6))
    g.roll(0, D8, 2)  # a 6: no reroll offered
    assert g.s.die_value[0, D8] == 6 and draws_used(start, g.s) == 1


def _flame_table(seat2_on_ruin=False):
    g = Table(players=3)
    g.own(2, "eternal_flame")
    g.ruin(0, "A9")
    g.put(0, D6A, 0, 4)
    g.put(1, D6A, 0, 3)
    if seat2_on_ruin:
        g.put(2, D4, 0, 1)
    return g


def test_eternal_flame_draws_when_a_ruin_without_its_dice_is_claimed():
    g = _flame_table()
    g.play(0, "a_new_discovery", 0, D6A)  # 6 + 3 = 9: seat 0 claims
    assert g.s.held[0, CARD["A9"]] == 1
    assert g.s.hand[1].sum() == 1 and g.s.hand[2].sum() == 1  # consolation; Flame
    assert g.s.seat_stats[2, ST_DRAWN] == 1


def test_eternal_flame_gives_nothing_extra_with_dice_there():
    g = _flame_table(seat2_on_ruin=True)
    g.play(0, "a_new_discovery", 0, D6A)  # 6 + 3 + 1 = 10: seat 0 claims
    assert g.s.held[0, CARD["A9"]] == 1
    assert g.s.hand[2].sum() == 1  # one consolation card for its one die, no Flame card


def test_eternal_flame_gives_nothing_on_a_tie():
    g = _flame_table()
    g.put(0, D6A, 0, 5)
    g.put(1, D6A, 0, 5)
    g.check_claims()
    assert [int(ev[5]) for ev in g.events(EV_CLAIM)] == [-2]
    assert g.s.hand.sum(axis=1).tolist() == [1, 1, 0]


def test_underground_library_draws_two_from_the_bag_and_keeps_one():
    g = Table()
    g.own(0, "underground_library")
    g.s.bag[:] = 0
    g.s.bag[BLACK] = 1
    g.s.bag[RED] = 1
    # natural 2 on an empty ruin; bag draws: black (0 of 2), red (0 of 1); keep red (1 of 2)
    start = force(g.s, die(6, 2), pick(2, 0), pick(1, 0), pick(2, 1))
    g.roll(0, D6A, 0)
    assert g.stones(0) == [0, 1, 0, 0]
    assert g.s.bag.tolist() == [1, 0, 0, 0]  # the other stone went back
    assert [int(ev[5]) for ev in g.events(EV_STONE)] == [1]  # from the bag
    assert draws_used(start, g.s) == 4


def test_without_the_library_one_stone_is_drawn_from_the_bag():
    g = Table()
    g.s.bag[:] = 0
    g.s.bag[BLACK] = 1
    g.s.bag[RED] = 1
    start = force(g.s, die(6, 2), pick(2, 1), ANY)
    g.roll(0, D6A, 0)
    assert g.stones(0) == [0, 1, 0, 0] and g.s.bag.tolist() == [1, 0, 0, 0]
    assert draws_used(start, g.s) == 3


def test_sanctuary_matching_value_may_get_plus_or_minus_one():
    g = Table()
    g.own(0, "sanctuary_of_the_builders")
    g.put(1, D6A, 0, 4)
    g.put(1, D6B, 1, 2)
    force(g.s, die(6, 4), pick(3, 2))  # options {3, 4, 5}
    g.roll(0, D6A, 0)
    assert g.s.die_value[0, D6A] == 5
    start = force(g.s, die(6, 4))
    g.roll(0, D6B, 1)  # no 4 on slot 1: no option
    assert g.s.die_value[0, D6B] == 4 and draws_used(start, g.s) == 1


def test_palace_is_built_on_a_three_three_ring_and_scores_six():
    g = Table()
    g.s.named_state[WONDER["palace_of_relics"]] = -1
    ring(g, 0, [RED, RED, RED, BLUE, BLUE, BLUE])
    force(g.s, pick(2, 0))  # the Palace (option 0) rather than a token
    g.build(0, MIDDLE)
    assert g.s.named_state[WONDER["palace_of_relics"]] == 0
    assert g.s.centre[0, MIDDLE] == WonderKind.NAMED
    scores, parts, _ = g.scores()
    named = dict(zip(PART_NAMES, parts[0].tolist(), strict=True))["named"]
    assert named == 6


def test_cenotaph_takes_a_random_ruin_from_the_removed_pile():
    g = Table()
    g.s.named_state[WONDER["blackened_cenotaph"]] = -1
    ring(g, 0, [RED, RED, BLUE, BLUE, BLACK, BLACK])
    n_removed = int(g.s.sc[S_REMOVED_N])
    assert n_removed == 10  # two players
    pile = g.s.removed[:n_removed].tolist()
    force(g.s, pick(2, 0), pick(n_removed, 3))
    g.build(0, MIDDLE)
    assert g.s.named_state[WONDER["blackened_cenotaph"]] == 0
    assert g.s.held[0, pile[3]] == 1
    taken = g.events(EV_TAKE_RUIN)
    assert [(int(e[3]), int(e[4])) for e in taken] == [(pile[3], WONDER["blackened_cenotaph"])]
    assert g.s.sc[S_REMOVED_N] == n_removed - 1
    assert sorted(g.s.removed[: n_removed - 1].tolist()) == sorted(pile[:3] + pile[4:])
    colour = T.card_colour[pile[3]]
    same_colour = T.card_colour[: T.n_ruins] == colour
    assert g.s.held_colour[0, colour] == g.s.held[0, : T.n_ruins][same_colour].sum()


def test_cenotaph_may_be_declined_for_a_token():
    g = Table()
    g.s.named_state[WONDER["blackened_cenotaph"]] = -1
    ring(g, 0, [RED, RED, BLUE, BLUE, BLACK, BLACK])
    force(g.s, pick(2, 1))
    g.build(0, MIDDLE)
    assert g.s.named_state[WONDER["blackened_cenotaph"]] == -1
    assert g.s.centre[0, MIDDLE] == WonderKind.LESSER and g.s.tokens[0, 0] == 1


def test_memorial_takes_the_chosen_ruin_from_the_removed_pile():
    g = Table()
    g.s.named_state[WONDER["crumbling_memorial"]] = -1
    g.s.removed[:2] = [CARD["A9"], CARD["B9"]]
    g.s.sc[S_REMOVED_N] = 2
    ring(g, 0, [BLUE] * 6)
    force(g.s, pick(2, 0), pick(2, 1))
    g.build(0, MIDDLE)
    assert g.s.held[0, CARD["B9"]] == 1 and g.s.held[0, CARD["A9"]] == 0
    taken = g.events(EV_TAKE_RUIN)
    assert [(int(e[3]), int(e[4])) for e in taken] == [(CARD["B9"], WONDER["crumbling_memorial"])]
    assert g.s.sc[S_REMOVED_N] == 1 and g.s.removed[0] == CARD["A9"]


def test_memorial_with_an_empty_removed_pile_takes_nothing():
    g = Table()
    g.s.named_state[WONDER["crumbling_memorial"]] = -1
    g.s.sc[S_REMOVED_N] = 0
    ring(g, 0, [BLUE] * 6)
    held = g.s.held[0].copy()
    start = force(g.s, pick(2, 0))
    g.build(0, MIDDLE)
    assert g.s.named_state[WONDER["crumbling_memorial"]] == 0
    assert (g.s.held[0] == held).all()
    assert len(g.events(EV_TAKE_RUIN)) == 0
    assert draws_used(start, g.s) == 1


def test_temples_tomb_and_fountain_score_from_the_final_state():
    g = Table()
    g.s.held[:] = 0
    g.s.held[0, CARD["A9"]] = 1
    g.s.held[0, CARD["B11"]] = 1
    g.s.n_stones[0] = [3, 2, 5, 4]  # black, red, blue, yellow
    for wid in ("temple_of_clarity", "tomb_of_the_last_age", "fountain_of_reflection"):
        g.own(0, wid)
    _, parts, _ = g.scores()
    named = dict(zip(PART_NAMES, parts[0].tolist(), strict=True))
    assert named["named"] == 5 + 4 + 2 * 2
    assert named["bonus"] == 5  # three named wonders
    german = Table(rules=load_rules("german"))
    german.s.held[:] = 0
    german.s.held[0, CARD["A9"]] = 1
    german.s.held[0, CARD["B11"]] = 1
    german.s.n_stones[0] = [3, 2, 5, 4]
    german.own(0, "tomb_of_the_last_age")
    _, parts, _ = german.scores()
    assert parts[0, PART_NAMES.index("named")] == 2  # two ruin colours


# ====================================================================== tokens


@pytest.mark.parametrize(
    ("colours", "lesser_left", "greater_left", "fallback", "want"),
    [
        ([RED, RED, RED, BLUE, BLUE, BLACK], True, True, True, WonderKind.LESSER),
        ([RED] * 6, True, True, True, WonderKind.GREATER),
        ([RED, RED, RED, BLUE, BLUE, BLACK], False, True, True, WonderKind.GREATER),
        ([RED] * 6, True, False, True, WonderKind.LESSER),
        ([RED, RED, RED, BLUE, BLUE, BLACK], False, True, False, NO_WONDER),
        ([RED] * 6, True, False, False, NO_WONDER),
        ([RED] * 6, False, False, True, NO_WONDER),
    ],
)
def test_token_piles_and_the_fallback_ruling(colours, lesser_left, greater_left, fallback, want):
    g = Table()
    ring(g, 0, colours)
    if not lesser_left:
        g.s.sc[S_LESSER_POS] = T.lesser_values.shape[0]
    if not greater_left:
        g.s.sc[S_GREATER_POS] = T.greater_values.shape[0]
    lesser_pos, greater_pos = int(g.s.sc[S_LESSER_POS]), int(g.s.sc[S_GREATER_POS])
    start = force(g.s)
    g.build(0, MIDDLE, None if fallback else pack_tables(NO_FALLBACK.tables))
    assert g.s.centre[0, MIDDLE] == want
    assert draws_used(start, g.s) == 0  # no named wonder in play: no choice
    if want == WonderKind.LESSER:
        assert g.s.tokens[0].tolist() == [1, 0, g.s.lesser[lesser_pos]]
    elif want == WonderKind.GREATER:
        assert g.s.tokens[0].tolist() == [0, 1, g.s.greater[greater_pos]]
    else:
        assert g.s.tokens[0].tolist() == [0, 0, 0]


# ====================================================================== claims


def test_rulebook_d8_four_beats_d6_four_in_a_game():
    g = Table(players=3)
    g.ruin(0, "A9", red=1)
    g.put(0, D8, 0, 4)
    g.put(1, D6A, 0, 4)
    g.put(2, D4, 0, 1)
    bag = g.s.bag.sum()
    g.next_card("C11")
    g.check_claims()
    assert g.s.held[0, CARD["A9"]] == 1
    assert g.s.hand.sum(axis=1).tolist() == [0, 1, 1]
    assert (g.s.die_slot == -1).all()
    assert g.s.slot_card[0] == CARD["C11"]
    assert g.s.bag.sum() == bag + 1 - 2  # the ruin's stone back, two for C11
    row = g.claims[0]
    assert row[engine.C_WINNER] == 0 and row[engine.C_FACES] == 8 and row[engine.C_DECIDED] == 1


def test_rulebook_second_die_decides_in_a_game():
    g = Table()
    g.ruin(0, "A17")
    g.put(0, D6A, 0, 5)
    g.put(0, D6B, 0, 4)
    g.put(1, D6A, 0, 5)
    g.put(1, D8, 0, 4)
    g.check_claims()
    assert g.s.held[1, CARD["A17"]] == 1
    assert g.s.hand.sum(axis=1).tolist() == [2, 0]
    assert g.claims[0, engine.C_DECIDED] == 3  # second die, by faces


def test_rulebook_unbreakable_tie_boxes_the_ruin_and_everyone_draws():
    g = Table()
    g.ruin(0, "A9", blue=2)
    g.put(0, D6A, 0, 5)
    g.put(1, D6A, 0, 5)
    bag = g.s.bag.sum()
    g.next_card("E11")
    g.check_claims()
    assert g.s.held[:, CARD["A9"]].tolist() == [0, 0]
    assert g.s.sc[S_BOXED_N] == 1
    assert g.s.hand.sum(axis=1).tolist() == [1, 1]
    assert (g.s.die_slot == -1).all()
    assert g.s.slot_card[0] == CARD["E11"]
    assert g.s.bag.sum() == bag + 2 - 2
    row = g.claims[0]
    assert row[engine.C_WINNER] == -1 and row[engine.C_DECIDED] == -1


# ====================================================================== end of age


def _last_card(g, cid):
    pos = int(g.s.sc[S_DECK_POS])
    g.s.ruin_deck[pos] = CARD[cid]
    g.s.sc[S_DECK_LEN] = pos + 1
    g.s.slot_card[0] = -1


def test_day_of_rest_every_player_draws_three_and_the_slot_stays_empty():
    g = Table(players=3)
    _last_card(g, "day_of_rest")
    g.reveal(0)
    assert g.s.slot_card[0] == -1
    assert g.s.hand.sum(axis=1).tolist() == [3, 3, 3]
    assert g.s.seat_stats[:, ST_DRAWN].tolist() == [3, 3, 3]
    assert [int(ev[3]) for ev in g.events(EV_EVENT)] == [CARD["day_of_rest"]]


def test_the_gathering_every_later_roll_gets_minus_one():
    g = Table()
    g.ruin(1, "B17", red=1)
    _last_card(g, "the_gathering")
    g.reveal(0)
    assert g.s.sc[S_ROLL_MOD] == -1 and g.s.slot_card[0] == -1
    force(g.s, die(6, 4))
    g.roll(0, D6A, 1)
    assert g.s.die_value[0, D6A] == 3 and sum(g.stones(0)) == 0  # shown 3, natural 4
    force(g.s, die(6, 1), ANY)
    g.roll(0, D6B, 1)
    assert g.s.die_value[0, D6B] == 1 and g.stones(0)[RED] == 1  # clamped at 1
    g.put(1, D6A, 2, 6)
    force(g.s, die(6, 5))
    g.play(0, "lost_in_the_ruins", 1, D6A)  # rerolls too, anyone's
    assert g.s.die_value[1, D6A] == 4


def test_festival_every_later_roll_gets_plus_one():
    g = Table()
    g.ruin(1, "B17", red=1)
    _last_card(g, "festival_of_reclamation")
    g.reveal(0)
    assert g.s.sc[S_ROLL_MOD] == 1
    force(g.s, die(6, 6))
    g.roll(0, D6A, 1)
    assert g.s.die_value[0, D6A] == 6
    force(g.s, die(6, 3), ANY)
    g.roll(0, D6B, 1)
    assert g.s.die_value[0, D6B] == 4 and g.stones(0)[RED] == 1  # the natural 3 decides


@pytest.mark.parametrize(("cid", "points"), [("city_of_gold", 7), ("city_of_ash", -4)])
def test_cities_are_claimed_and_score_points_with_no_colour(cid, points):
    g = Table()
    _last_card(g, cid)
    bag = g.s.bag.sum()
    g.reveal(0)
    assert g.s.slot_card[0] == CARD[cid]
    assert g.s.slot_stones[0].sum() == T.card_stones[CARD[cid]] == bag - g.s.bag.sum()
    claim = int(T.card_claim[CARD[cid]])
    g.put(0, D8, 0, 8)
    g.put(0, D6A, 0, 6)
    g.put(0, D6B, 0, 6)
    g.put(1, D6A, 0, max(1, claim - 20))
    g.s.held[:] = 0
    g.s.held_colour[:] = 0
    g.check_claims()
    assert g.s.held[0, CARD[cid]] == 1
    assert g.s.held_colour[0].sum() == 0
    _, parts, _ = g.scores()
    got = dict(zip(PART_NAMES, parts[0].tolist(), strict=True))
    assert got["cities"] == points and got["ruin_sets"] == 0 and got["five_colour"] == 0


# ====================================================================== deck and bag


def test_empty_delver_deck_reshuffles_the_discards():
    g = Table()
    g.s.sc[S_DDECK_N] = 1
    g.s.ddeck[0] = DELVER["band_of_delvers"]
    g.s.ddisc[:] = 0
    g.s.ddisc[DELVER["ancient_map"]] = 10
    _last_card(g, "day_of_rest")
    g.reveal(0)  # six draws: the one card left, then five from the reshuffled maps
    assert g.s.hand.sum() == 6
    assert g.s.hand[:, DELVER["band_of_delvers"]].sum() == 1
    assert g.s.hand[:, DELVER["ancient_map"]].sum() == 5
    assert g.s.sc[S_DDECK_N] == 5 and g.s.ddisc.sum() == 0


def test_deck_and_discards_both_empty_draws_nothing():
    g = Table()
    g.s.sc[S_DDECK_N] = 0
    g.s.ddisc[:] = 0
    g.s.ddisc[DELVER["forlorn"]] = 2
    _last_card(g, "day_of_rest")
    g.reveal(0)
    assert g.s.hand.sum() == 2 and g.s.hand[:, DELVER["forlorn"]].sum() == 2
    assert g.s.sc[S_DDECK_N] == 0 and g.s.ddisc.sum() == 0
    assert g.s.seat_stats[:, ST_DRAWN].sum() == 2


def test_empty_bag_gives_no_stone():
    g = Table()
    g.s.bag[:] = 0
    start = force(g.s, die(6, 1))
    g.roll(0, D6A, 0)
    assert sum(g.stones(0)) == 0 and len(g.events(EV_STONE)) == 0
    assert draws_used(start, g.s) == 1


def test_stone_from_the_ruin_first_then_from_the_bag():
    g = Table()
    g.ruin(0, "A17", yellow=1)
    force(g.s, die(6, 3), ANY)
    g.roll(0, D6A, 0)
    force(g.s, die(6, 2), ANY, ANY, ANY)  # the ruin is empty now: a random stone from the bag
    g.roll(0, D6B, 0)
    assert [int(ev[5]) for ev in g.events(EV_STONE)] == [0, 1]
    assert g.stones(0)[YELLOW] >= 1 and sum(g.stones(0)) == 2
    assert g.s.slot_stones[0].sum() == 0


def test_played_cards_go_to_the_discards_and_are_counted():
    g = Table()
    g.play(0, "forlorn", 1, D6A)  # no die there: nothing happens, still played
    assert g.s.ddisc[DELVER["forlorn"]] >= 1
    assert g.s.seat_stats[0, N_STATS_BASE + DELVER["forlorn"]] == 1


# ====================================================================== strategy shortcuts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_die_values_equal_the_plain_evaluation_die_by_die(players):
    """``die_values`` (one pass, used for Lost in the Ruins, Forgotten Song,
    Restoration, A New Discovery and Forlorn) against ``_value_if`` (set the die,
    summarise the ruin afresh), for every seat, die on a ruin and value, on random
    tables: dice of every seat on the ruins, ruins held, hidden ruins."""
    gen = np.random.default_rng(players)
    checked = 0
    for game in range(25):
        g = Table(players, Strategy.BALANCED, game=game)
        n_slots = int(g.s.sc[S_N_SLOTS])
        for slot in range(n_slots):
            g.s.slot_card[slot] = gen.integers(0, T.n_ruins)
        g.s.held_colour[:players] = gen.integers(0, 3, (players, T.n_ruin_colours))
        for q in range(players):
            for d, faces in enumerate(T.dice_faces):
                if gen.random() < 0.6:
                    g.put(q, d, int(gen.integers(0, n_slots)), int(gen.integers(1, faces + 1)))
        n_dice = len(T.dice_faces)
        for p in range(players):
            for q in range(players):
                for d, faces in enumerate(T.dice_faces):
                    if g.s.die_slot[q, d] < 0:
                        continue
                    before = g.s.die_value.copy()
                    die_values(g.S, g.M, g.T, p, q, d, -1)  # every face, the engine's signature
                    out = g.m.dvals[q * n_dice + d]
                    plain = [_value_if(g.S, g.M, g.T, p, q, d, v) for v in range(1, faces + 1)]
                    assert list(out[1 : faces + 1]) == plain, (game, p, q, d)
                    assert (g.s.die_value == before).all()
                    # some faces only (A New Discovery, Forlorn): the others left alone
                    want = int(gen.integers(0, 1 << faces)) << 1
                    part = g.m.dvals[q * n_dice + d]
                    part[:] = np.nan
                    die_values(g.S, g.M, g.T, p, q, d, want)
                    for v in range(1, faces + 1):
                        assert part[v] == plain[v - 1] if want >> v & 1 else np.isnan(part[v])
                    checked += 1
    assert checked > 100


def _best_excavation(s, m, t, p, n_anc, n_read, use_map, expedition, refill=True, floor=-1e18):
    """``best_excavation`` with every argument given (its defaults), as the engine
    calls it: the version compiled for the games, not one more compiled for the
    tests (a cold numba cache compiles each omitted-argument signature anew)."""
    return best_excavation(s, m, t, p, n_anc, n_read, use_map, expedition, refill, floor)


_MODIFIER_WONDERS = ("college_of_the_overseers", "harmonious_columns", "sanctuary_of_the_builders")


def _random_excavation_table(gen, game, plain=False, empty=0.1, wonders=_MODIFIER_WONDERS):
    """A table for seat 0's excavation choice: 2-4 seats, random ruins (a share
    ``empty`` of slots empty) with or without a stone, dice of every seat on them,
    seat 0 with a die in its pool, each of ``wonders`` owned by seat 0 with odds 0.3.
    ``plain``: the Table's 17s as set up, no stones, no dice. None if no ruin is out."""
    players = int(gen.integers(2, 5))
    g = Table(players, Strategy.BALANCED, game=game)
    n_slots = int(g.s.sc[S_N_SLOTS])
    for slot in range(n_slots):
        if plain:
            break
        g.s.slot_card[slot] = gen.integers(0, T.n_ruins) if gen.random() < 1 - empty else -1
        g.s.slot_stones[slot, 0] = gen.integers(0, 2)
    if (g.s.slot_card[:n_slots] < 0).all():
        return None
    occupied = [slot for slot in range(n_slots) if g.s.slot_card[slot] >= 0]
    for q in range(players):
        for d, faces in enumerate(T.dice_faces):
            if gen.random() < (0.3 if q == 0 else 0.5) and not plain:
                g.put(q, d, int(gen.choice(occupied)), int(gen.integers(1, faces + 1)))
    if (g.s.die_slot[0] >= 0).all():
        g.s.die_slot[0, D8] = -1
    for wid in wonders:
        if gen.random() < 0.3:
            g.own(0, wid)
    return g


def test_pruned_excavation_choice_equals_the_plain_loop():
    """``best_excavation`` looks at (die, ruin) pairs best bound first and skips
    the rest once no bound can win; it must give the plain loop's answer (the
    first best pair in (die, ruin) order, and its gain), with and without
    modifiers, an Ancient Map and roll-modifying wonders."""
    gen = np.random.default_rng(11)
    compared = 0
    for game in range(40):
        # every fourth: the Table's 17s, no stones, no dice: ties between ruins
        g = _random_excavation_table(gen, game, plain=game % 4 == 0)
        if g is None:
            continue
        occupied = [slot for slot in range(int(g.s.sc[S_N_SLOTS])) if g.s.slot_card[slot] >= 0]
        for n_anc, n_read, use_map in ((0, 0, False), (1, 0, False), (0, 1, True), (1, 1, False)):
            got, *got_pair = _best_excavation(g.S, g.M, g.T, 0, n_anc, n_read, use_map, False)
            got_pair = tuple(got_pair)
            best, pair, faces_seen = -1e18, (-1, -1), set()
            for d, faces in enumerate(T.dice_faces):
                if g.s.die_slot[0, d] >= 0 or faces in faces_seen:
                    continue
                faces_seen.add(faces)
                # the biggest die's opportunity cost (big_die), when another waits
                waits = any(g.s.die_slot[0, e] < 0 for e in range(len(T.dice_faces)) if e != d)
                big = faces == max(T.dice_faces) and waits
                cost = g.m.prm[0, P_BIG_DIE] if big else 0.0
                for slot in occupied:
                    ev = _roll_ev(g.S, g.M, g.T, 0, slot, d, n_anc, n_read, use_map) - cost
                    if ev > best:
                        best, pair = ev, (d, slot)
            assert (got, got_pair) == (best, pair), (game, n_anc, n_read, use_map)
            compared += 1
    assert compared > 100


def test_no_expedition_gains_more_than_the_best_bound():
    """The delver phase skips an Expedition when the best (die, ruin) gain bound of
    the plain excavation's sorted pairs cannot beat the card's bar
    (``_bound_at_most``): the Expedition's exact gain must then be below the bar."""
    gen = np.random.default_rng(17)
    checked = 0
    for game in range(60):
        g = _random_excavation_table(gen, game, empty=0.0, wonders=("harmonious_columns",))
        plain = _best_excavation(g.S, g.M, g.T, 0, 0, 0, False, False)[0]
        top = float(g.m.cand_ub[0])
        expedition = _best_excavation(g.S, g.M, g.T, 0, 0, 0, False, True, False)[0]
        assert plain <= top + 1e-9 and expedition <= top + 1e-9, game
        assert _bound_at_most(g.S, g.M, 0, top + 1e-9)
        assert not _bound_at_most(g.S, g.M, 0, expedition - 1e-6)
        checked += 1
    assert checked == 60


def _cold_copy(g):
    """Views of a copy of Table ``g``'s game state and of a cold strategy memo for
    the same strategies and parameters (the game is not touched by forgetting)."""
    cold = State(*(a.copy() for a in g.s))
    memo = new_memo(g.t, g.n, g.m.strat.copy(), g.m.given.copy())
    return pack_state(cold), pack_memo(memo)


@pytest.mark.slow
def test_memo_across_summaries_equals_a_cold_memo():
    """The slot values and face gains are memoised per seat and slot across
    decisions and turns (``fill_slot_cache``). After dice move, values change,
    ruins are claimed, stones run out, wonders and the event's modifier change
    and parameters change, every answer must equal a cold memo's."""
    gen = np.random.default_rng(23)
    compared = 0
    for game in range(12):
        players = int(gen.integers(2, 5))
        g = Table(players, Strategy.BALANCED, game=game)
        n_slots = int(g.s.sc[S_N_SLOTS])
        prm = g.m.given  # the memo's own rows: the strategies must notice a change
        for step in range(40):
            what = int(gen.integers(0, 8))
            slot = int(gen.integers(0, n_slots))
            q = int(gen.integers(0, players))
            d = int(gen.integers(0, len(T.dice_faces)))
            if what <= 2:  # a die lands, moves or changes value
                g.put(q, d, slot, int(gen.integers(1, T.dice_faces[d] + 1)))
            elif what == 3:  # a die goes back to its pool
                g.s.die_slot[q, d] = -1
            elif what == 4:  # a ruin is held: worths change
                g.s.held_colour[q, int(gen.integers(0, T.n_ruin_colours))] += 1
            elif what == 5:  # a new ruin, or stones run out on one
                if gen.random() < 0.5:
                    g.s.slot_card[slot] = gen.integers(0, T.n_ruins)
                else:
                    g.s.slot_stones[slot] = 0
                    g.s.bag[:] = 0 if gen.random() < 0.5 else T.stones_per_colour
            elif what == 6:  # wonders and the event's modifier
                wid = (
                    "college_of_the_overseers",
                    "harmonious_columns",
                    "sanctuary_of_the_builders",
                )
                if gen.random() < 0.5:
                    g.own(q, wid[int(gen.integers(0, 3))])
                else:
                    g.s.sc[S_ROLL_MOD] = int(gen.integers(-1, 2))
            elif gen.random() < 0.5:  # a designer's parameter change between batches
                # w_stone half the time: its memo (the face gains) is renewed on its own
                col = P_W_STONE if gen.random() < 0.5 else int(gen.integers(0, prm.shape[1]))
                prm[q, col] += 0.25
            else:  # a stone in q's tableau: its ring closeness, so its stone worth, change
                cells = np.zeros(N_CELLS, np.int64)
                n = legal_cells_boxed(g.s.stone[q], g.s.centre[q], T.neigh, g.s.box[q], cells)
                cell = int(cells[int(gen.integers(0, n))])
                colour = int(gen.integers(0, T.n_stone_colours))
                g.s.stone[q, cell] = colour
                g.s.n_stones[q, colour] += 1
                grow_box(g.s.box[q], cell)
            p = int(gen.integers(0, players))
            if (g.s.die_slot[p] >= 0).all():
                g.s.die_slot[p, int(gen.integers(0, len(T.dice_faces)))] = -1
            n_anc, n_read = int(gen.integers(0, 2)), int(gen.integers(0, 2))
            use_map, expedition = bool(gen.random() < 0.3), bool(gen.random() < 0.2)
            got = _best_excavation(g.S, g.M, g.T, p, n_anc, n_read, use_map, expedition)
            cold, cold_memo = _cold_copy(g)
            want = _best_excavation(cold, cold_memo, g.T, p, n_anc, n_read, use_map, expedition)
            assert got == want, (game, step, what)
            compared += 1
    assert compared == 12 * 40


def test_packed_dice_are_equal_exactly_when_the_dice_are():
    """``_pack_dice`` (the key of the slot-summary memo): two tables give the same
    pair of integers on a slot exactly when the same dice show the same values there."""
    gen = np.random.default_rng(31)
    g = Table(4, Strategy.BALANCED)
    cfg = g.m.dice_cfg
    seen = {}
    for _ in range(3000):
        g.s.die_slot[:] = -1
        for q in range(4):
            for d, faces in enumerate(T.dice_faces):
                if gen.random() < 0.3:
                    g.put(q, d, int(gen.integers(0, 2)), int(gen.integers(1, faces + 1)))
        assert _pack_dice(g.S, g.M)
        for slot in range(2):
            dice = tuple(
                (q, d, int(g.s.die_value[q, d]))
                for q in range(4)
                for d in range(len(T.dice_faces))
                if g.s.die_slot[q, d] == slot
            )
            key = (int(cfg[slot, 0]), int(cfg[slot, 1]))
            assert seen.setdefault(key, dice) == dice
    assert len(seen) > 1000
    g.s.die_value[0, 0] = 9  # a value that does not fit 3 bits: nothing is compared
    g.s.die_slot[0, 0] = 0
    assert not _pack_dice(g.S, g.M)


def test_sanctuary_memo_sees_the_values_a_summary_does_not_hold():
    """The Sanctuary's +/-1 depends on every value on the ruin, which a slot summary
    (total, ranks) does not hold: values on the ruin change, the summary does not,
    and the face gains of the Sanctuary's owner must follow the values."""
    g = Table(3, Strategy.BALANCED)
    g.own(0, "sanctuary_of_the_builders")
    g.put(1, 0, 0, 6)
    g.put(2, 1, 0, 4)
    g.put(2, 2, 0, 3)  # seat 1 leads on the 17 with its 6; total 13
    _best_excavation(g.S, g.M, g.T, 0, 0, 0, False, False)
    g.put(2, 1, 0, 5)
    g.put(2, 2, 0, 2)  # the same total and ranks; now a natural 5 may become a 6
    _best_excavation(g.S, g.M, g.T, 0, 0, 0, False, False)
    cold, cold_memo = _cold_copy(g)
    _best_excavation(cold, cold_memo, g.T, 0, 0, 0, False, False)  # summarise, as a decision does
    for d in range(len(T.dice_faces)):
        if g.s.die_slot[0, d] < 0:
            warm = _roll_ev(g.S, g.M, g.T, 0, 0, d, 0, 0, False)
            assert warm == _roll_ev(cold, cold_memo, g.T, 0, 0, d, 0, 0, False), d
    assert _roll_ev(g.S, g.M, g.T, 0, 0, D8, 0, 0, False) > 0


def test_insert_rank_packs_the_best_six_keys_with_the_new_one():
    """``_insert_rank`` (a seat's rank on a ruin with one more die) against packing
    the sorted keys by hand, as ``claims.player_rank`` ranks dice."""
    gen = np.random.default_rng(5)
    for _ in range(500):
        n = int(gen.integers(0, 7))
        keys = sorted((int(x) for x in gen.integers(33, 300, n)), reverse=True)
        arr = np.zeros(8, np.int64)
        arr[:n] = keys
        k = int(gen.choice([0, int(gen.integers(33, 300))]))
        best = sorted([*keys, k], reverse=True)[:RANK_DICE]
        best += [0] * (RANK_DICE - len(best))
        expect = 0
        for key in best:
            expect = expect * 1024 + key
        assert _insert_rank(arr, n, k) == expect
