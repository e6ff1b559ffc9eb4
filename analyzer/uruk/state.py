"""The state of one Uruk game: named arrays, the scalar slots and the trace codes.

Kernels receive a :class:`State` (as a kernel view, see :mod:`analyzer.kernels.kernel_view`)
and change its arrays in place; scalars live in ``sc`` under the ``S_*`` names
below. Arrays are sized for ``max_players`` seats; seats ``>= n`` are unused.
``-1`` is the empty sentinel in ``display``, ``inv`` and the card piles.

Card piles hold card codes (:mod:`analyzer.uruk.codes`): the deck's top card is
``deck[S_DECK_N - 1]``; the discard pile's first card is ``discard[0]`` (it is
the top when the pile is turned over). Hands are counts per invention (cards of
one invention are identical).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer.kernels.luck import luck_arrays
from analyzer.kernels.rng import QUEUE_WORDS
from analyzer.uruk.rules import N_EPOCHS, Tables

# --------------------------------------------------------------------------- scalars (sc)
S_N = 0  #: players
S_DECK_N = 1  #: cards in the deck
S_DISCARD_N = 2  #: cards in the discard pile
S_BOX_INV = 3  #: invention cards out of the game (unused level-1, removed at a reshuffle)
S_BOX_GODS = 4  #: god/disaster cards out of the game (removed at a reshuffle)
S_POOL_STONES = 5  #: settlement stones in the pool (returned by activations, droughts)
S_BOX_STONES = 6  #: settlement stones not used with this player count
S_PENDING = 7  #: god/disaster card beside the display, -1 none
S_TRIGGER = 8  #: card face down before the trigger, -1 none
S_TRIGGER_SEAT = 9  #: seat of the trigger, -1 none
S_RESHUFFLES = 10  #: times the deck was rebuilt from the discard pile
S_END = 11  #: 1 once the last stone left epoch card IV
S_FINAL = 12  #: 1 during the last round (gods and disasters drawn are discarded)
S_TURN = 13  #: turns played in the game
S_ACTIVE = 14  #: seat whose turn it is
S_CAPPED = 15  #: 1 if the game stopped at ``max_turns``
S_TRACE_N = 16  #: trace rows written
S_ACTIVATING = 17  #: 1 while an activation is handled (gods drawn then are discarded)
S_ACTIVATIONS = 18  #: god/disaster cards activated
S_GODS_HELD = 19  #: god cards lying before players (Ninurta; Marduk/Nannar reminders)
S_DISCARDED_GODS = 20  #: god/disaster cards discarded unactivated (after the first)
N_SC = 21

# --------------------------------------------------------------------------- per-seat stats
ST_TURNS = 0
ST_CARDS_TAKEN = 1
ST_MADE = 2
ST_RES_TAKEN = 3
ST_TRADED = 4
ST_VILLAGES = 5
ST_CITIES = 6
ST_AUCTIONS_WON = 7
ST_BONUS = 8  #: full bonus of a fewest-stones god
ST_SUFFERED = 9  #: disasters suffered
ST_SPARED = 10  #: disasters escaped by the highest bid
ST_ROBBED = 11  #: resources taken from this seat when the pool was empty
ST_CARD_ACTIONS = 12
ST_ACTIONS = 13  #: actions taken
N_STAT = 14
STAT_NAMES = (
    "turns",
    "cards_taken",
    "made",
    "resources_taken",
    "traded",
    "villages_built",
    "cities_built",
    "auctions_won",
    "fewest_bonus",
    "disasters_suffered",
    "disasters_spared",
    "robbed",
    "card_actions",
    "actions",
)

# --------------------------------------------------------------------------- trace events
# rows (event, turn, seat, a, b, c); see analyzer.uruk.replay for the wording
EV_FIRST = 0  #: a = level-1 invention dealt
EV_DEAL = 1  #: a = level-2 cards in hand
EV_TURN = 2  #: a = actions this turn
EV_TAKE_CARD = 3  #: a = card, b = display slot (-1: deck)
EV_MAKE = 4  #: a = invention, b = replaced invention (-1), c = colour pairs used
EV_TAKE_RES = 5  #: a = colour, b = from seat (-1: the pool), c = 1 with the function
EV_NO_RES = 6  #: a = colour (nobody else holds more)
EV_TRADE = 7  #: a = invention, b = cards traded
EV_SETTLE = 8  #: a = invention, b = epoch (0..3), c = stones now on it (1 village, 2 city)
EV_PAY = 9  #: a = colour, b = resources paid
EV_CARD_ACTION = 10  #: a = invention, b = amount
EV_GOD_DRAWN = 11  #: a = card, b = 0 beside the display, 1 trigger, 2 discarded
EV_ACTIVATE = 12  #: a = card, b = trigger seat
EV_STONE_OUT = 13  #: a = epoch the stone left (to the pool)
EV_HAND_LIMIT = 14  #: a = cards discarded
EV_BID = 15  #: a = bid value (-1: pass)
EV_WIN = 16  #: a = card, b = bid value (-1: no bid)
EV_BONUS = 17  #: a = card, b = 1 full bonus / 0 lesser, c = colour/card (-1 none)
EV_SECRET_BID = 18  #: a = resources bid, b = value with bonus
EV_SUFFER = 19  #: a = card, b = what was lost (invention, stones, cards)
EV_SPARED = 20  #: a = card, b = resources paid
EV_RESHUFFLE = 21  #: a = cards removed from the game, b = new deck size
EV_END = 22  #: the last stone left epoch card IV
EV_REFILL_IV = 23  #: a = pool stones put on epoch card IV
EV_DISPLAY = 24  #: a = card, b = display slot (refill)
EV_SCORE = 25  #: a = score, b = cities, c = win share x 1000
EV_DRAW = 26  #: a = card drawn to the hand (god effects, card actions)
EV_GAIN = 27  #: a = colour, b = resources gained from a god
EV_ROB_REPLACE = 28  #: a = colour taken from the pool by a robbed seat
EV_STONES_BACK = 29  #: a = replaced invention, b = its stones, to the pool (ruling)
EV_REMINDER_USED = 30  #: a = Marduk/Nannar card discarded after its half-price stone
# rows that make the trace checkable on its own (docs/games/uruk.md, "The trace")
EV_DEALT = 31  #: a = one level-2 card dealt to the seat's hand
EV_SETUP_DISCARD = 32  #: a = card drawn from the deck and discarded at set-up
EV_ACTION = 33  #: the seat's chosen action: a = Action, b, c = its arguments (replay.py)
EV_MAKE_CARDS = 34  #: a = cards of the invention shown, b = discount invention (-1), c = saved
EV_PAIR = 35  #: a, b = the two hand cards of one colour pair, c = their colour
EV_DISCARD = 36  #: a = hand card discarded, b = why (0 hand limit, 1 earthquake)
EV_BID_CARDS = 37  #: a = invention, b = its cards in the seat's auction bid now
EV_TRADE_POOL = 38  #: a = invention, b = its cards traded for pool resources (before robbing)
EV_SETTLE_COST = 39  #: a = settlement discount invention used (-1), b = saved, c = 1 half price
#: rows that belong to the next choice row (the options it was made among, written
#: before it): one candidate action, ``(Action, b, c)`` as an ``EV_ACTION`` row names it
EV_OPTION_ACTION = 40
#: the options of the next choice row as bit masks or bounds (a, b, c by its type; the
#: replay's ``_options``): a colour mask (``pay``, ``gain``, ``robbed_takes``, a
#: take-any ``take_resource``), an invention mask (``pair``, ``discard``,
#: ``bid_cards``, ``suffer``), a seat mask (a robbing ``take_resource``), the bid
#: values reachable (``bid``: bit v), the resources held (``secret_bid``: 0..a),
#: ``make_free``'s inventions (a), the inventions it may replace (b) and 1 for a free
#: place (c)
EV_OPTIONS = 41
#: a rebuilt deck's order after ``EV_RESHUFFLE``: a, b, c three cards, top first (-1: none)
EV_DECK_ORDER = 42

#: candidate actions a strategy may weigh in one decision
MAX_CAND = 64
#: kinds of chance event the luck terms are summed by (analyzer.uruk.luck.KIND_*)
LUCK_KINDS = 3
#: features of a seat's deal the set-up deal's luck term weighs (analyzer.uruk.luck)
N_DEAL_F = 8
#: ``State.luck_sc``: the seat and kind of the next draw (analyzer.uruk.luck), then
LUCK_SC_PILE = 2  #: the set-up's bottom pile's size (:func:`bottom_pile`)
N_LUCK_SC = 3


class State(NamedTuple):
    """All mutable arrays of one game (int64 unless said)."""

    rng: np.ndarray  #: uint64[4 + queue] the game's random stream (analyzer.kernels.rng)
    deck: np.ndarray  #: [n_cards] card codes, top = deck[S_DECK_N - 1]
    discard: np.ndarray  #: [n_cards] card codes in the order discarded
    display: np.ndarray  #: [3] central display, -1 = gap
    hand: np.ndarray  #: [P, n_inv] hand cards by invention
    inv: np.ndarray  #: [P, max_inventions] displayed invention per slot, -1 empty
    stones: np.ndarray  #: [P, max_inventions] 0 none, 1 village, 2 city
    supply: np.ndarray  #: [P, n_colours] resources
    pool: np.ndarray  #: [n_colours] resources in the common pool
    epoch: np.ndarray  #: [4] stones on epoch cards I..IV
    fn_used: np.ndarray  #: [n_inv] 1 if the active player used that function this turn
    half_price: np.ndarray  #: [P] half-price stones due (Marduk, Nannar; 0 or 1 unless "kept")
    reminders: np.ndarray  #: [P, n_gods] god cards lying before the seat as half-price reminders
    city_points: np.ndarray  #: [P] points per own city at the end (Ninurta)
    actions_next: np.ndarray  #: [P] actions of the seat's next turn
    bid: np.ndarray  #: [P, n_inv] hand cards in the running auction bid
    made: np.ndarray  #: [P, n_inv] times the seat made each invention
    stat: np.ndarray  #: [P, N_STAT] per-seat counters (ST_*)
    sc: np.ndarray  #: [N_SC] scalars (S_*)
    trace: np.ndarray  #: [rows, 6] event rows, written while S_TRACE_N < rows
    cand: np.ndarray  #: [MAX_CAND, 3] candidate actions (Action, a, b)
    cand_val: np.ndarray  #: float64[MAX_CAND] their values
    prm: np.ndarray  #: float64[P, MAX_PARAMS] each seat's parameters (strategies.PARAM_NAMES)
    work: np.ndarray  #: [P] scratch: secret bids, auction bids
    tally: np.ndarray  #: [n_colours] scratch: hand cards by colour
    #: float64[MAX_CAND, MAX_FEATURES] scratch: the features of each candidate action
    #: (the ``trained`` player, analyzer.uruk.features)
    feat: np.ndarray
    # luck terms (analyzer.uruk.luck): off when ``luck_par`` has shape (1,)
    luck_par: np.ndarray  #: float64[N_LUCK_PAR] the value estimate's parameters
    luck: np.ndarray  #: float64[LUCK_KINDS, 2, P] this game's luck by kind of event: win, score
    luck_out: np.ndarray  #: float64[rows, LUCK_KINDS, 2] each (game, seat)'s luck (store_luck)
    luck_acc: np.ndarray  #: float64[ACC_ROWS, P] one event's expectations (analyzer.kernels.luck)
    luck_vs: np.ndarray  #: float64[P] one outcome's score values
    luck_base: np.ndarray  #: float64[P] the seats' score values before the draw
    luck_cnt: np.ndarray  #: [card codes] scratch: the pile's cards by card code
    luck_gain: np.ndarray  #: float64[n_inv] scratch: each invention's worth to the seat drawn for
    luck_gv: np.ndarray  #: float64[card codes + 1] scratch: the outcomes' distinct values
    luck_gp: np.ndarray  #: float64[card codes + 1] ... their probabilities
    luck_sc: np.ndarray  #: [3] the seat and kind of the next draw, the bottom pile's size
    luck_deal: np.ndarray  #: float64[2, N_DEAL_F] the deal's weights at this player count
    luck_f: np.ndarray  #: float64[P, N_DEAL_F] scratch: each seat's deal features


#: room for a seat's strategy parameters (``strategies.N_PARAMS`` of them are used,
#: the ``trained`` player's weights from column ``features.W0``, the last three the game's)
MAX_PARAMS = 64
#: room for the features of one candidate action (``features.N_FEATURES`` are used)
MAX_FEATURES = 40


def n_cards(t: Tables) -> int:
    """Invention and god/disaster cards in the game."""
    return int(t.inv_copies.sum() + t.god_copies.sum())


def bottom_pile(t: Tables) -> int:
    """Cards of the set-up's bottom pile: level 3 and 4 inventions, gods, disasters."""
    lv = np.asarray(t.inv_level)
    return int(np.asarray(t.inv_copies)[(lv >= 3) & (lv <= 4)].sum() + np.sum(t.god_copies))


def new_state(
    t: Tables,
    trace_rows: int = 0,
    queue: int = 0,
    luck=None,
    luck_rows: int = 0,
    luck_deal=None,
) -> State:
    """A zeroed state for ``t`` (``trace_rows`` trace rows, ``queue`` forced outcomes).
    ``luck`` (``None``: off): the luck terms' parameters (float64[N_LUCK_PAR], one
    more for a planted test bias), their totals written for ``luck_rows`` rows;
    ``luck_deal``: the set-up deal's weights (float64[2, N_DEAL_F]; None: zero)."""
    p = t.max_players
    luck_sc = np.zeros(N_LUCK_SC, np.int64)
    luck_sc[LUCK_SC_PILE] = bottom_pile(t)
    cards = max(n_cards(t), 1)
    i = np.int64
    return State(
        rng=np.zeros(QUEUE_WORDS + queue if queue else 4, np.uint64),
        deck=np.full(cards, -1, i),
        discard=np.full(cards, -1, i),
        display=np.full(3, -1, i),
        hand=np.zeros((p, t.n_inv), i),
        inv=np.full((p, t.max_inventions), -1, i),
        stones=np.zeros((p, t.max_inventions), i),
        supply=np.zeros((p, t.n_colours), i),
        pool=np.zeros(t.n_colours, i),
        epoch=np.zeros(N_EPOCHS, i),
        fn_used=np.zeros(t.n_inv, i),
        half_price=np.zeros(p, i),
        reminders=np.zeros((p, max(t.n_gods, 1)), i),
        city_points=np.zeros(p, i),
        actions_next=np.zeros(p, i),
        bid=np.zeros((p, t.n_inv), i),
        made=np.zeros((p, t.n_inv), i),
        stat=np.zeros((p, N_STAT), i),
        sc=np.zeros(N_SC, i),
        trace=np.zeros((trace_rows, 6), i),
        cand=np.zeros((MAX_CAND, 3), i),
        cand_val=np.zeros(MAX_CAND, np.float64),
        prm=np.zeros((p, MAX_PARAMS), np.float64),
        work=np.zeros(p, i),
        tally=np.zeros(t.n_colours, i),
        feat=np.zeros((MAX_CAND, MAX_FEATURES), np.float64),
        **luck_arrays(luck, LUCK_KINDS, p, luck_rows),
        luck_cnt=np.zeros(t.n_inv + max(t.n_gods, 1), i),
        luck_gain=np.zeros(t.n_inv, np.float64),
        luck_gv=np.zeros(t.n_inv + max(t.n_gods, 1) + 1, np.float64),
        luck_gp=np.zeros(t.n_inv + max(t.n_gods, 1) + 1, np.float64),
        luck_sc=luck_sc,
        luck_deal=np.zeros((2, N_DEAL_F)) if luck_deal is None else np.array(luck_deal, float),
        luck_f=np.zeros((p, N_DEAL_F), np.float64),
    )
