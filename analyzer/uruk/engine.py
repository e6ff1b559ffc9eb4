"""The whole game (kernels): turns, the end, scoring, invariants, result rows.

Implements "A turn" (three actions, the refill, the activation after the turn)
and "Game end and scoring" of ``docs/games/uruk.md``, and checks the
conservation invariants after every game. Game ``g`` draws only from the stream
``rng_seed(state, key0, key1, g)``.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_seed
from analyzer.uruk.actions import (
    do_card_action,
    do_make,
    do_settle,
    do_take_card,
    do_take_resources,
    do_trade,
    resources_of,
)
from analyzer.uruk.cards import refill_display, setup, trace
from analyzer.uruk.codes import Action
from analyzer.uruk.gods import activate
from analyzer.uruk.luck import KIND_DISPLAY, luck_deal, luck_reset, luck_to, store_luck
from analyzer.uruk.scoring import N_PARTS, count_settlements, score_parts, win_shares
from analyzer.uruk.state import (
    EV_ACTION,
    EV_OPTION_ACTION,
    EV_SCORE,
    EV_TURN,
    N_STAT,
    S_ACTIVATIONS,
    S_ACTIVE,
    S_BOX_GODS,
    S_BOX_INV,
    S_BOX_STONES,
    S_CAPPED,
    S_DECK_N,
    S_DISCARD_N,
    S_END,
    S_FINAL,
    S_GODS_HELD,
    S_N,
    S_PENDING,
    S_POOL_STONES,
    S_RESHUFFLES,
    S_TRIGGER,
    S_TURN,
    ST_ACTIONS,
    ST_TURNS,
)
from analyzer.uruk.strategies import candidates, choose

_TAKE_CARD = Action.TAKE_CARD.value
_MAKE = Action.MAKE.value
_TAKE_RESOURCES = Action.TAKE_RESOURCES.value
_TRADE = Action.TRADE.value
_SETTLE = Action.SETTLE.value

# --------------------------------------------------------------------------- result columns
R_SCORE = 0
R_PARTS = 1  #: N_PARTS columns (scoring.PART_NAMES)
R_CITIES = R_PARTS + N_PARTS
R_VILLAGES = R_CITIES + 1
R_INVENTIONS = R_VILLAGES + 1  #: inventions displayed at the end
R_RESOURCES = R_INVENTIONS + 1  #: resources left
R_HAND = R_RESOURCES + 1  #: hand cards left
R_GAME_TURNS = R_HAND + 1
R_CAPPED = R_GAME_TURNS + 1
R_ACTIVATIONS = R_CAPPED + 1
R_RESHUFFLES = R_ACTIVATIONS + 1
R_INVARIANTS = R_RESHUFFLES + 1  #: bit mask of broken invariants (0: all hold)
R_STATS = R_INVARIANTS + 1  #: N_STAT columns (state.STAT_NAMES)
R_HAS = R_STATS + N_STAT  #: n_inv columns: 1 if displayed at the end


def n_result_cols(n_inv: int) -> int:
    """Width of a result row for ``n_inv`` inventions."""
    return R_HAS + n_inv


# invariant bits
INV_CARDS = 1  #: invention cards not conserved
INV_GODS = 2  #: god/disaster cards not conserved
INV_RESOURCES = 4  #: resources not conserved
INV_STONES = 8  #: settlement stones not conserved
INV_NEGATIVE = 16  #: a negative count somewhere
INV_DISPLAY = 32  #: a seat displays more than max_inventions or one invention twice
INVARIANT_TEXT = {
    INV_CARDS: "invention cards not conserved",
    INV_GODS: "god and disaster cards not conserved",
    INV_RESOURCES: "resources not conserved",
    INV_STONES: "settlement stones not conserved",
    INV_NEGATIVE: "a negative count",
    INV_DISPLAY: "a seat displays an invention twice",
}


@njit
def action_args(s, t, p, kind, a, b):
    """``(b, c)`` of the trace row naming seat ``p``'s action ``kind`` with arguments
    ``a``, ``b``, display slots named by their inventions: take a card (slot 0..2,
    3 the deck), make (invention, replaced invention or -1), take resources
    (invention; 2 if its take_resources function is used, 1 if asked for but it has
    none left to give, 0 without), trade (bit mask of inventions), settle
    (invention), card action (invention, colour)."""
    if kind == _TAKE_CARD or kind == _TRADE:
        return a, 0
    if kind == _MAKE:
        return a, s.inv[p, b] if b >= 0 else -1
    x = s.inv[p, a]
    if kind == _TAKE_RESOURCES:
        _, extra, _ = resources_of(s, t, p, a, b)
        return x, 2 if extra > 0 else b
    if kind == _SETTLE:
        return x, 0
    return x, b


@njit
def trace_action(s, t, p, kind, a, b):
    """The trace row of seat ``p``'s chosen action (:func:`action_args`)."""
    if s.trace.shape[0] == 0:
        return
    x, y = action_args(s, t, p, kind, a, b)
    trace(s, EV_ACTION, p, kind, x, y)


@njit
def trace_options(s, t, c, p, m):
    """The ``m`` candidate actions seat ``p`` chose among (the first rows of
    ``c.cand``: Action, a, b; ``c`` the state or the search's work view), one
    ``EV_OPTION_ACTION`` row each, written before the chosen action's row."""
    if s.trace.shape[0] == 0:
        return
    for i in range(m):
        kind = c.cand[i, 0]
        x, y = action_args(s, t, p, kind, c.cand[i, 1], c.cand[i, 2])
        trace(s, EV_OPTION_ACTION, p, kind, x, y)


@njit
def do_action(s, t, p, kind, a, b):
    """Carry out action ``kind`` with arguments ``a``, ``b`` for seat ``p``."""
    s.stat[p, ST_ACTIONS] += 1
    trace_action(s, t, p, kind, a, b)
    if kind == _TAKE_CARD:
        do_take_card(s, t, p, a)
    elif kind == _MAKE:
        do_make(s, t, p, a, b)
    elif kind == _TAKE_RESOURCES:
        do_take_resources(s, t, p, a, b)
    elif kind == _TRADE:
        do_trade(s, t, p, a)
    elif kind == _SETTLE:
        do_settle(s, t, p, a)
    else:
        do_card_action(s, t, p, a, b)


@njit
def play_turn(s, t, p):
    """Seat ``p``'s turn: its actions (3, or fewer after an eruption), the
    display refilled, then the activation if a trigger lies before a seat."""
    s.sc[S_ACTIVE] = p
    k = s.actions_next[p]
    s.actions_next[p] = t.actions_per_turn
    s.fn_used[:] = 0
    s.stat[p, ST_TURNS] += 1
    trace(s, EV_TURN, p, k, 0, 0)
    for _ in range(k):
        m = candidates(s, t, p)
        i = choose(s, t, p, m)
        if i < 0:
            break
        trace_options(s, t, s, p, m)
        do_action(s, t, p, s.cand[i, 0], s.cand[i, 1], s.cand[i, 2])
    luck_to(s, (p + 1) % s.sc[S_N], KIND_DISPLAY)  # the next seat picks first
    refill_display(s, t)
    if s.sc[S_TRIGGER] >= 0:
        activate(s, t)
    s.sc[S_TURN] += 1


@njit
def play_game(s, t, n):
    """Play one game from set-up to the end (state already seeded)."""
    luck_reset(s)
    setup(s, t, n)
    luck_deal(s, t, n)
    p = 0
    final_left = 0
    while p >= 0:
        play_turn(s, t, p)
        p, final_left = after_turn(s, t, n, p, final_left)


@njit
def after_turn(s, t, n, p, final_left):
    """The game loop's step after seat ``p``'s turn: ``(the next seat, or -1 when the
    game is over; final_left)``. ``final_left`` counts the turns of the last round
    still to play (0 before it): the round in which card IV ran empty is finished,
    then every player has one more turn, first player first; a game still running
    at ``max_turns`` turns stops there, flagged."""
    if s.sc[S_FINAL] == 1:
        final_left -= 1
        if final_left == 0:
            return -1, final_left
    elif s.sc[S_END] == 1 and p == n - 1:
        s.sc[S_FINAL] = 1
        final_left = n
    if s.sc[S_TURN] >= t.max_turns:
        s.sc[S_CAPPED] = 1
        return -1, final_left
    return (p + 1) % n, final_left


@njit
def check_invariants(s, t, n):
    """Bit mask of broken conservation invariants (0: all hold)."""
    bad = 0
    cards = 0
    gods = 0
    for i in range(s.sc[S_DECK_N]):
        if s.deck[i] < t.n_inv:
            cards += 1
        else:
            gods += 1
    for i in range(s.sc[S_DISCARD_N]):
        if s.discard[i] < t.n_inv:
            cards += 1
        else:
            gods += 1
    for i in range(t.display_size):
        if s.display[i] >= 0:
            cards += 1
    for p in range(n):
        for x in range(t.n_inv):
            cards += s.hand[p, x] + s.bid[p, x]
            if s.hand[p, x] < 0 or s.bid[p, x] != 0:
                bad |= INV_NEGATIVE
        for i in range(t.max_inventions):
            x = s.inv[p, i]
            if x >= 0:
                cards += 1
                for j in range(i + 1, t.max_inventions):
                    if s.inv[p, j] == x:
                        bad |= INV_DISPLAY
    cards += s.sc[S_BOX_INV]
    if cards != t.inv_copies.sum():
        bad |= INV_CARDS
    gods += s.sc[S_BOX_GODS] + s.sc[S_GODS_HELD]
    gods += (1 if s.sc[S_PENDING] >= 0 else 0) + (1 if s.sc[S_TRIGGER] >= 0 else 0)
    if gods != t.god_copies.sum():
        bad |= INV_GODS
    for c in range(t.n_colours):
        k = s.pool[c]
        if s.pool[c] < 0:
            bad |= INV_NEGATIVE
        for p in range(n):
            k += s.supply[p, c]
            if s.supply[p, c] < 0:
                bad |= INV_NEGATIVE
        if k != t.resources_per_colour:
            bad |= INV_RESOURCES
    stones = s.sc[S_POOL_STONES] + s.sc[S_BOX_STONES]
    for e in range(4):
        stones += s.epoch[e]
        if s.epoch[e] < 0:
            bad |= INV_NEGATIVE
    for p in range(n):
        for i in range(t.max_inventions):
            stones += s.stones[p, i]
            if s.stones[p, i] < 0 or s.stones[p, i] > 2 or (s.stones[p, i] > 0 and s.inv[p, i] < 0):
                bad |= INV_NEGATIVE
    if stones != t.settlement_stones:
        bad |= INV_STONES
    return bad


@njit
def write_results(s, t, o, n, row0):
    """Write the ``n`` result rows of the finished game from ``row0`` into ``o``."""
    results = o.results
    wins = o.wins
    parts = np.zeros(N_PARTS, np.int64)
    scores = np.zeros(n, np.int64)
    cities = np.zeros(n, np.int64)
    shares = np.zeros(n, np.float64)
    bad = check_invariants(s, t, n)
    for p in range(n):
        r = row0 + p
        parts[0], parts[1], parts[2], parts[3] = score_parts(s, t, p)
        sc = parts[0] + parts[1] + parts[2] + parts[3]
        scores[p] = sc
        cities[p] = count_settlements(s, t, p, 2)
        results[r, R_SCORE] = sc
        for j in range(N_PARTS):
            results[r, R_PARTS + j] = parts[j]
        results[r, R_CITIES] = cities[p]
        results[r, R_VILLAGES] = count_settlements(s, t, p, 1)
        k = 0
        for i in range(t.max_inventions):
            x = s.inv[p, i]
            if x >= 0:
                k += 1
                results[r, R_HAS + x] = 1
        results[r, R_INVENTIONS] = k
        results[r, R_RESOURCES] = s.supply[p].sum()
        results[r, R_HAND] = s.hand[p].sum()
        results[r, R_GAME_TURNS] = s.sc[S_TURN]
        results[r, R_CAPPED] = s.sc[S_CAPPED]
        results[r, R_ACTIVATIONS] = s.sc[S_ACTIVATIONS]
        results[r, R_RESHUFFLES] = s.sc[S_RESHUFFLES]
        results[r, R_INVARIANTS] = bad
        for j in range(N_STAT):
            results[r, R_STATS + j] = s.stat[p, j]
    win_shares(scores, cities, n, shares)
    for p in range(n):
        wins[row0 + p] = shares[p]
        trace(s, EV_SCORE, p, scores[p], cities[p], int(shares[p] * 1000 + 0.5))


@njit
def play_batch(s, t, o, n, key0, key1, start, count):
    """Play games ``start .. start+count-1`` with ``n`` seats.

    ``s``: a State view (sized for ``t.max_players``, each seat's parameter row
    in ``s.prm``); ``t``: a Tables view; ``o``: a
    :func:`~analyzer.kernels.kernel_view.results_view` of ``results``
    int32[count*n, n_result_cols] and ``wins`` float32[count*n], written in
    place, row ``g*n + seat``. Game ``g`` draws only from its own stream.
    """
    for g in range(count):
        rng_seed(s.rng, key0, key1, start + g)
        play_game(s, t, n)
        write_results(s, t, o, n, g * n)
        store_luck(s, n, g * n)
