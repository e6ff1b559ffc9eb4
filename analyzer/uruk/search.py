"""The ``search`` player of Uruk: determinized Monte Carlo over actions and secret bids.

At each action of its turn the seat lists its legal actions (the tuned
``balanced`` player's candidates), keeps the ``width`` best by ``balanced``'s
evaluation, and plays each from the present to the end of the game many times
(*rollouts*), every seat in a rollout playing tuned ``balanced``. Against a
disaster it does the same over its secret bids (``balanced``'s bid first, then
the others nearest to it). Everything else (the open auctions, the choices
inside actions, Enlil's free invention, discards) it decides as ``balanced``
does, with ``balanced``'s row. The schedule, the pairing with ``balanced``'s
choice, the guard, the deep ranking's statistics and the batch loop are
:mod:`analyzer.kernels.search`'s; what is Uruk's is here.

**It never reads what it cannot see.** Each rollout starts from a copy of the
game in which everything hidden from the seat is dealt again at random
(:func:`determinize`): the deck, the other seats' hands (their sizes kept) and
the trigger card lying face down before another seat. What the seat knows about
them is kept: which cards they are, as a multiset (every card of the game is
face up somewhere else or among them), that hands hold inventions and the
trigger a god or disaster card, and, until the deck is first rebuilt, that the
level-2 cards left from set-up lie on its top (how many is public: the deck's
draws are). Every pool is sorted before it is shuffled, so not even the order
the hidden cards lay in reaches the rollouts. ``tests/uruk/test_uruk_search.py``
deals the hidden cards of a game differently and checks that the rollouts do
not change, and that the deal is uniform (chi-square) and keeps every count.

A secret bid is decided before the activation's first step (a stone off an
epoch card, the hands cut to the limit), from the seat's own view; the other
seats bid as their players do, never seeing it. The search draws only from its
own stream (seeded from the game's index), so a game with a ``search`` seat is
the same game for any batch split or worker count.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import analyzer.kernels.search as shared
from analyzer.kernels.jit import njit
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import rng_seed, rng_shuffle
from analyzer.uruk.cards import refill_display, setup, trace
from analyzer.uruk.codes import GodKind
from analyzer.uruk.engine import after_turn, do_action, trace_options, write_results
from analyzer.uruk.gods import activate
from analyzer.uruk.scoring import count_settlements, score_parts, win_shares
from analyzer.uruk.state import (
    EV_TURN,
    MAX_CAND,
    S_ACTIVE,
    S_DECK_N,
    S_FINAL,
    S_N,
    S_PENDING,
    S_RESHUFFLES,
    S_TRIGGER,
    S_TRIGGER_SEAT,
    S_TURN,
    ST_TURNS,
)
from analyzer.uruk.strategies import (
    P_AUCTION,
    P_FORCE_BID,
    P_FORCE_LIMIT,
    P_STRATEGY,
    candidates,
    choose,
    god_value,
    secret_bid,
)

#: the ``search`` strategy's code (its index in ``strategies.STRATEGY_NAMES``)
SEARCH = 5

# ------------------------------------------------------------------ settings
# CFG_BUDGET, CFG_WIDTH, CFG_MARGIN, CFG_Z: analyzer.kernels.search's, first in the row
CFG_BIDS = 4  #: 1: search the secret bids too; 2: and the auction limits
N_CFG = 5

#: mixed into the root key so the search's stream is not any game's stream
_SALT = np.uint64(0x0B0C5EA2C4D1A2B3)

K_DECISIONS = shared.K_DECISIONS  #: decisions searched (more than one choice)
K_ROLLOUTS = shared.K_ROLLOUTS  #: rollouts played
K_BIDS = 2  #: of the decisions, secret bids and auction limits
N_COUNT = 3

#: what a rollout starts with: the choice is an action, or a secret bid
MODE_ACTION = 0
MODE_BID = 1
MODE_AUCTION = 2  #: the choice is ``p``'s limit in the open auction of the god activated

_AUCTION = GodKind.AUCTION.value
_DISASTER = GodKind.DISASTER.value


class SearchWork(NamedTuple):
    """The search's settings, its own random stream and its work arrays."""

    cfg: np.ndarray  #: float64[N_CFG]
    rng: np.ndarray  #: uint64[4] the search's stream
    count: np.ndarray  #: int64[N_COUNT]
    rprm: np.ndarray  #: float64[P, MAX_PARAMS] the rollouts' rows (tuned balanced)
    cand: np.ndarray  #: int64[MAX_CAND, 3] the choices: an action (kind, a, b) or (bid, 0, 0)
    cand_h: np.ndarray  #: float64[MAX_CAND] balanced's value of each
    alive: np.ndarray  #: int64[MAX_CAND] the choices' tallies (analyzer.kernels.search)
    n: np.ndarray  #: float64[MAX_CAND] rollouts played
    win: np.ndarray
    win2: np.ndarray
    score: np.ndarray
    score2: np.ndarray
    value: np.ndarray
    dsum: np.ndarray
    dsq: np.ndarray
    wins_by: np.ndarray  #: float64[MAX_CAND, rollouts] each rollout's win share (rank_all)
    pool2: np.ndarray  #: int64[n cards] hidden level-2 inventions (determinize)
    pool: np.ndarray  #: int64[n cards] the other hidden inventions
    gods: np.ndarray  #: int64[n cards] hidden god and disaster cards
    labels: np.ndarray  #: int64[n cards] 1: this hidden hand card is a level-2 one
    hand_n: np.ndarray  #: int64[P] other seats' hand sizes
    scores: np.ndarray  #: int64[P] a finished rollout's scores
    cities: np.ndarray  #: int64[P]
    shares: np.ndarray  #: float64[P]


def new_search(t, rprm, budget=256, width=4, margin=0.01, z=1.0, bids=1, keep=0) -> SearchWork:
    """Work space of the search under rules tables ``t``; ``rprm`` the rows the
    rollouts play (``keep``: room for that many rollouts' win shares per choice)."""
    from analyzer.uruk.state import n_cards

    p = t.max_players
    c = max(n_cards(t), 1)
    f = np.zeros
    return SearchWork(
        **shared.search_arrays([budget, width, margin, z, bids], MAX_CAND, keep, N_COUNT, stream=4),
        rprm=np.ascontiguousarray(rprm, np.float64),
        pool2=f(c, np.int64),
        pool=f(c, np.int64),
        gods=f(c, np.int64),
        labels=f(c, np.int64),
        hand_n=f(p, np.int64),
        scores=f(p, np.int64),
        cities=f(p, np.int64),
        shares=f(p, np.float64),
    )


def pack_search(w: SearchWork):
    """The kernel view of ``w`` (arrays shared)."""
    return make_view(w, "UrukSearchWork")


# ====================================================================== a copy to play on


@njit
def copy_game(r, s, w):
    """Make ``r`` the game ``s``, every seat playing its row of ``w.rprm``: every
    part of the game, no trace (``r`` has no rows), ``r``'s random stream untouched."""
    r.deck[:] = s.deck
    r.discard[:] = s.discard
    r.display[:] = s.display
    r.hand[:] = s.hand
    r.inv[:] = s.inv
    r.stones[:] = s.stones
    r.supply[:] = s.supply
    r.pool[:] = s.pool
    r.epoch[:] = s.epoch
    r.fn_used[:] = s.fn_used
    r.half_price[:] = s.half_price
    r.reminders[:] = s.reminders
    r.city_points[:] = s.city_points
    r.actions_next[:] = s.actions_next
    r.bid[:] = s.bid
    r.made[:] = s.made
    r.stat[:] = s.stat
    r.sc[:] = s.sc
    r.work[:] = s.work
    r.prm[:] = w.rprm


@njit
def determinize(r, t, w, p):
    """Deal again, at random from ``r``'s stream, everything seat ``p`` cannot see
    (module docstring): the deck, the other hands, a trigger before another seat.
    ``r`` is a copy of the game; the rest of it stays."""
    n = r.sc[S_N]
    layered = r.sc[S_RESHUFFLES] == 0
    n2 = 0
    n1 = 0
    ng = 0
    top = 0  # level-2 cards on top of the deck (public: set-up and the draws)
    for i in range(r.sc[S_DECK_N]):
        c = r.deck[i]
        if c >= t.n_inv:
            w.gods[ng] = c
            ng += 1
        elif layered and t.inv_level[c] == 2:
            w.pool2[n2] = c
            n2 += 1
            top += 1
        elif layered:
            w.pool[n1] = c
            n1 += 1
        else:
            w.pool2[n2] = c  # one pool of inventions once the deck was rebuilt
            n2 += 1
    hidden = 0
    for q in range(n):
        w.hand_n[q] = 0
        if q == p:
            continue
        for x in range(t.n_inv):
            k = r.hand[q, x]
            for _ in range(k):
                if layered and t.inv_level[x] != 2:
                    w.pool[n1] = x
                    n1 += 1
                else:
                    w.pool2[n2] = x
                    n2 += 1
            w.hand_n[q] += k
            r.hand[q, x] = 0
        hidden += w.hand_n[q]
    trig = r.sc[S_TRIGGER] >= 0 and r.sc[S_TRIGGER_SEAT] != p
    if trig:
        w.gods[ng] = r.sc[S_TRIGGER]
        ng += 1
    w.pool2[:n2].sort()
    w.pool[:n1].sort()
    w.gods[:ng].sort()
    rng_shuffle(r.rng, w.pool2, n2)
    rng_shuffle(r.rng, w.pool, n1)
    rng_shuffle(r.rng, w.gods, ng)
    # which hidden hand cards are level-2 ones: a uniform choice of the slots
    h2 = n2 - top if layered else hidden
    for i in range(hidden):
        w.labels[i] = 1 if i < h2 else 0
    if layered:
        rng_shuffle(r.rng, w.labels, hidden)
    i2 = 0
    i1 = 0
    k = 0
    for q in range(n):
        for _ in range(w.hand_n[q]):
            if w.labels[k] == 1:
                r.hand[q, w.pool2[i2]] += 1
                i2 += 1
            else:
                r.hand[q, w.pool[i1]] += 1
                i1 += 1
            k += 1
    g = 0
    if trig:
        r.sc[S_TRIGGER] = w.gods[0]
        g = 1
    # the deck: the rest of the other inventions and the gods shuffled below,
    # the level-2 cards left on top (or one shuffled deck once rebuilt)
    d = 0
    for i in range(i1, n1):
        r.deck[d] = w.pool[i]
        d += 1
    for i in range(g, ng):
        r.deck[d] = w.gods[i]
        d += 1
    if layered:
        rng_shuffle(r.rng, r.deck, d)
        for i in range(i2, n2):
            r.deck[d] = w.pool2[i]
            d += 1
    else:
        for i in range(i2, n2):
            r.deck[d] = w.pool2[i]
            d += 1
        rng_shuffle(r.rng, r.deck, d)
    r.sc[S_DECK_N] = d


# ====================================================================== finishing a game


@njit
def _turn_start(s, t, p):
    """The start of seat ``p``'s turn (as ``engine.play_turn``); its actions."""
    s.sc[S_ACTIVE] = p
    k = s.actions_next[p]
    s.actions_next[p] = t.actions_per_turn
    s.fn_used[:] = 0
    s.stat[p, ST_TURNS] += 1
    trace(s, EV_TURN, p, k, 0, 0)
    return k


@njit
def _actions(s, t, p, k):
    """``k`` actions of seat ``p`` by its player (as ``engine.play_turn``)."""
    for _ in range(k):
        m = candidates(s, t, p)
        i = choose(s, t, p, m)
        if i < 0:
            break
        trace_options(s, t, s, p, m)
        do_action(s, t, p, s.cand[i, 0], s.cand[i, 1], s.cand[i, 2])


@njit
def _turn_end(s, t):
    """The display refilled, the activation, the turn counted (as ``engine.play_turn``)."""
    refill_display(s, t)
    if s.sc[S_TRIGGER] >= 0:
        activate(s, t)
    s.sc[S_TURN] += 1


@njit
def final_left_now(s, p):
    """The loop counter of ``engine.play_game`` during seat ``p``'s turn: in the
    last round, the turns left counting this one; else 0."""
    if s.sc[S_FINAL] == 1:
        return s.sc[S_N] - p
    return 0


@njit
def play_on(s, t, p, final_left):
    """Finish the game after seat ``p``'s turn (``engine.play_game``'s loop from
    there, every seat by its player); ``final_left`` as :func:`final_left_now`
    gave it during that turn."""
    n = s.sc[S_N]
    while True:
        p, final_left = after_turn(s, t, n, p, final_left)
        if p < 0:
            break
        k = _turn_start(s, t, p)
        _actions(s, t, p, k)
        _turn_end(s, t)


@njit
def _outcome(r, t, w, p):
    """Seat ``p``'s (win share, final score, best other final score) in the finished ``r``."""
    n = r.sc[S_N]
    for q in range(n):
        a, b, c, d = score_parts(r, t, q)
        w.scores[q] = a + b + c + d
        w.cities[q] = count_settlements(r, t, q, 2)
    win_shares(w.scores, w.cities, n, w.shares)
    best_other = -(1 << 30)
    for q in range(n):
        if q != p and w.scores[q] > best_other:
            best_other = w.scores[q]
    return w.shares[p], w.scores[p], best_other


@njit
def _force(w, c):
    """The value a bid choice writes into the seat's row: 0 (``balanced``'s own
    rule, choice -1) or the bid or limit plus one."""
    if w.cand[c, 0] < 0:
        return 0.0
    return w.cand[c, 0] + 1.0


@njit
def rollout(args, c, base, j):
    """Rollout ``j`` of choice ``c`` of seat ``p`` from the game ``s`` (``args``:
    ``s, t, r, w, p, mode, k_left, final_left``), on a copy dealt again from the
    stream ``base``: returns ``p``'s (win share, final score, best other final
    score). ``mode`` :data:`MODE_ACTION`: ``s`` is in ``p``'s turn, the choice
    its next action, ``k_left`` actions after it; :data:`MODE_BID`
    (:data:`MODE_AUCTION`): the activation after the trigger seat's turn is
    due, the choice ``p``'s secret bid (its limit in the auction), -1 for
    ``balanced``'s own rule; ``final_left`` as :func:`final_left_now` gave it."""
    s, t, r, w, p, mode, k_left, final_left = args
    copy_game(r, s, w)
    rng_seed(r.rng, base, 0, j)
    determinize(r, t, w, p)
    if mode == MODE_ACTION:
        do_action(r, t, p, w.cand[c, 0], w.cand[c, 1], w.cand[c, 2])
        _actions(r, t, p, k_left)
        _turn_end(r, t)
        play_on(r, t, p, final_left)
    else:
        q = r.sc[S_TRIGGER_SEAT]
        r.prm[p, P_FORCE_BID if mode == MODE_BID else P_FORCE_LIMIT] = _force(w, c)
        activate(r, t)
        r.prm[p, P_FORCE_BID] = 0.0
        r.prm[p, P_FORCE_LIMIT] = 0.0
        r.sc[S_TURN] += 1
        play_on(r, t, q, final_left)
    return _outcome(r, t, w, p)


# ====================================================================== choices


@njit
def list_actions(s, t, w, p, width):
    """Seat ``p``'s actions into ``w.cand``: ``balanced``'s choice first, then the
    others by decreasing value (stable), at most ``width`` (all if <= 0).
    Returns how many."""
    m = candidates(s, t, p)
    if m == 0:
        return 0
    c0 = choose(s, t, p, m)
    shared.set_choice(w, 0, s.cand_val[c0], s.cand[c0, 0], s.cand[c0, 1], s.cand[c0, 2])
    k = 1
    cap = w.cand.shape[0]
    for i in range(m):
        if i != c0:
            k = shared.insert_choice(
                w, 1, k, cap, s.cand_val[i], s.cand[i, 0], s.cand[i, 1], s.cand[i, 2]
            )
    return shared.keep_choices(w, k, width)


@njit
def list_bids(s, t, w, p, g, width, rule_first):
    """Seat ``p``'s secret bids against disaster ``g`` into ``w.cand``:
    ``balanced``'s bid first (``rule_first``: as -1, its own rule when the bid
    is made; else the bid its rule gives now), then the others nearest to it
    (lower first on ties), at most ``width`` (all if <= 0). Returns how many."""
    have = s.supply[p].sum()
    b0 = secret_bid(s, t, p, g)
    w.cand[0, 0] = -1 if rule_first else b0
    k = 1
    for d in range(1, have + 1):
        for b in (b0 - d, b0 + d):
            if 0 <= b <= have and k < w.cand.shape[0]:
                w.cand[k, 0] = b
                k += 1
    for i in range(k):
        w.cand[i, 1] = 0
        w.cand[i, 2] = 0
        w.cand_h[i] = -abs(w.cand[i, 0] - b0) if i > 0 else 0.0
    return shared.keep_choices(w, k, width)


@njit
def list_limits(s, t, w, p, g, width):
    """Seat ``p``'s limits in the open auction of god ``g`` into ``w.cand``:
    ``balanced``'s own rule first (-1), then never bidding (0), then fixed
    limits 3, 6 and 10 above the limit its rule gives now, at most ``width``.
    Returns how many."""
    base = np.int64(s.prm[p, P_AUCTION] * 2.5 * god_value(s, t, p, g) + 0.5)
    w.cand[0, 0] = -1
    w.cand[1, 0] = 0
    w.cand[2, 0] = base + 3
    w.cand[3, 0] = base + 6
    w.cand[4, 0] = base + 10
    k = 5
    for i in range(k):
        w.cand[i, 1] = 0
        w.cand[i, 2] = 0
        w.cand_h[i] = -i
    return shared.keep_choices(w, k, width)


@njit
def rank_all(s, t, r, w, p, key0, budget, mode, k_left, final_left, g):
    """Deep advice: every choice of seat ``p``'s decision (its actions, or its
    secret bids against disaster ``g``), each with ``budget // choices``
    rollouts on the same dealt copies (``w.wins_by`` keeps each rollout's win
    share). Returns how many choices."""
    if mode == MODE_ACTION:
        n = list_actions(s, t, w, p, 0)
    else:
        n = list_bids(s, t, w, p, g, 0, False)
    args = (s, t, r, w, p, mode, k_left, final_left)
    return _drivers.rollouts_for_all(args, w, n, key0, _SALT, budget)


# ====================================================================== the game loop


@njit
def search_actions(s, t, r, w, p, k):
    """Seat ``p``'s ``k`` actions, each chosen by rollouts (``balanced``'s,
    choice 0, unless another beats it by ``z`` standard errors)."""
    width = np.int64(w.cfg[shared.CFG_WIDTH])
    for i in range(k):
        n = list_actions(s, t, w, p, width)
        if n == 0:
            break
        args = (s, t, r, w, p, MODE_ACTION, k - i - 1, final_left_now(s, p))
        c = _drivers.decide(args, w, n)
        trace_options(s, t, w, p, n)
        do_action(s, t, p, w.cand[c, 0], w.cand[c, 1], w.cand[c, 2])


@njit
def search_bids(s, t, r, w, trig):
    """Before an activation after seat ``trig``'s turn: each ``search`` seat's
    secret bid against a disaster, chosen by rollouts, is written into its row
    (``P_FORCE_BID``) for the activation to read."""
    if w.cfg[CFG_BIDS] <= 0:
        return
    g = s.sc[S_PENDING] - t.n_inv
    kind = t.god_kind[g]
    if kind != _DISASTER and (kind != _AUCTION or w.cfg[CFG_BIDS] < 2):
        return
    mode = MODE_BID if kind == _DISASTER else MODE_AUCTION
    width = np.int64(w.cfg[shared.CFG_WIDTH])
    fl = final_left_now(s, trig)
    for p in range(s.sc[S_N]):
        if s.prm[p, P_STRATEGY] != SEARCH:
            continue
        if mode == MODE_BID:
            n = list_bids(s, t, w, p, g, width, True)
        else:
            n = list_limits(s, t, w, p, g, width)
        if n > 1:
            w.count[K_BIDS] += 1
        c = _drivers.decide((s, t, r, w, p, mode, 0, fl), w, n)
        s.work[p] = np.int64(_force(w, c))  # kept until every search seat has decided
    for p in range(s.sc[S_N]):
        if s.prm[p, P_STRATEGY] == SEARCH:
            s.prm[p, P_FORCE_BID if mode == MODE_BID else P_FORCE_LIMIT] = s.work[p]


@njit
def play_game_search(s, t, r, w, n):
    """``engine.play_game`` with ``search`` seats (state seeded): the other
    seats play exactly as there; the game's stream serves the game only."""
    setup(s, t, n)
    p = 0
    final_left = 0
    while True:
        k = _turn_start(s, t, p)
        if s.prm[p, P_STRATEGY] == SEARCH:
            search_actions(s, t, r, w, p, k)
        else:
            _actions(s, t, p, k)
        refill_display(s, t)
        if s.sc[S_TRIGGER] >= 0:
            search_bids(s, t, r, w, p)
            activate(s, t)
            for q in range(n):
                s.prm[q, P_FORCE_BID] = 0.0
                s.prm[q, P_FORCE_LIMIT] = 0.0
        s.sc[S_TURN] += 1
        p, final_left = after_turn(s, t, n, p, final_left)
        if p < 0:
            break


@njit
def play_game(args, key0, key1, game, i):
    """Game ``game`` of the run seeded by ``key0, key1`` with ``search`` seats
    (``args``: ``s, t, o, r, w, n`` as for :func:`play_batch_search`), its
    results in the batch's ``i``-th rows."""
    s, t, o, r, w, n = args
    rng_seed(s.rng, key0, key1, game)
    play_game_search(s, t, r, w, n)
    write_results(s, t, o, n, i * n)


#: the shared drivers (sequential halving, deep advice, the batch loop) on this game's kernels
_drivers = shared.bind_search(rollout, play_game)


@njit
def play_batch_search(s, t, o, r, w, n, key0, key1, start, count):
    """``engine.play_batch`` with ``search`` seats: ``r`` is the rollouts' game,
    ``w`` the search's work space."""
    _drivers.play_batch((s, t, o, r, w, n), w, key0, key1, start, count, _SALT)
