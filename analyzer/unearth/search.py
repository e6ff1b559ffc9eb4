"""The ``search`` player: determinized Monte Carlo over the excavation choice.

At each of its excavation rolls (``docs/games/unearth.md``, "A turn") the seat
lists its legal (die, ruin) choices, keeps the ``width`` best by the tuned
``balanced`` evaluation, and plays each from the present to the end of the game
many times (*rollouts*), every seat in a rollout playing tuned ``balanced``. It
rolls the choice whose rollouts won most. Everything else it decides (cards,
stones, wonders, die values) as ``balanced`` does, with ``balanced``'s row.

**It never reads what it cannot see.** Each rollout starts from a copy of the
game in which everything hidden from the seat is dealt again at random, from
what the seat knows (:func:`determinize`): the order of the ruins deck, the
ruins set aside at set-up and the other seats' face-down ruins (one pool, as the
seat cannot tell them apart), which end-of-age card lies at the bottom of the
deck, the delver draw pile and the other seats' hands (their sizes kept), and
the order of the face-down wonder tokens. Each is dealt from a sorted pool, so
not even the order the hidden cards lay in reaches the rollouts. Dice are rolled
from the search's own random stream, never the game's. ``tests/unearth/test_search.py``
deals the hidden cards of a game differently and checks that the rollouts do
not change.

**Budget.** ``budget`` rollouts per decision, spent by sequential halving
(Karnin, Koren and Somekh, 2013): every surviving choice gets the same share in
each of ``ceil(log2 width)`` rounds, and the better half goes on. Rollout ``j``
of a decision starts from the same dealt copy and the same dice stream for
every choice (common random numbers), so choices are compared on the same
luck. A rollout's value is the seat's win share plus ``margin`` times its score
minus the best other score: a tie-breaker that lowers the noise, not a small
one (at the default 0.01 a 20-point margin weighs 0.2 of a win).

The search draws only from its own stream (seeded from the game's index), so a
game with a ``search`` seat is the same game for any batch split or worker count.

The schedule, the pairing with ``balanced``'s choice, the guard, the
statistics and the batch loop are :mod:`analyzer.kernels.search`'s; what is
Unearth's is here. The main loop, :func:`play_batch_search`, is a kernel of its
own: runs without a ``search`` seat never compile it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import analyzer.kernels.search as shared
from analyzer.kernels.jit import njit
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import rng_below, rng_seed, rng_shuffle
from analyzer.unearth.defaults import SEARCH_PARAMS  # noqa: F401  (re-exported)
from analyzer.unearth.end_of_age import reveal
from analyzer.unearth.engine import end_game, final_scores
from analyzer.unearth.memo import M_EXC_READY, forget_memo
from analyzer.unearth.rolls import roll_die
from analyzer.unearth.setup import setup
from analyzer.unearth.state import (
    EV_TAKE_BACK,
    MAX_TURNS,
    S_ABORTED,
    S_ANCESTRAL,
    S_BAND,
    S_CUR,
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_EOA,
    S_EXPEDITION,
    S_GREATER_POS,
    S_LAST_CLAIM,
    S_LESSER_POS,
    S_MAP,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_OVER,
    S_READING,
    S_REMOVED_N,
    S_TURN,
    STALL_TURNS,
    take_ruin,
    trace,
    trace_declare,
    tracing,
)
from analyzer.unearth.strategies import (
    Strategy,
    _die_cost,
    _first_of_its_faces,
    _roll_ev,
    fill_slot_cache,
)
from analyzer.unearth.turn import delver_phase, excavate, take_turn

# ------------------------------------------------------------------ settings
# CFG_BUDGET, CFG_WIDTH, CFG_MARGIN, CFG_Z: analyzer.kernels.search's, first in the row
#: 1: the seat's own face-down ruin is unknown too (deep advice from a table
#: state that does not say it)
CFG_OWN_HIDDEN = 4
N_CFG = 5


#: mixed into the root key so the search's stream is not any game's stream
_SALT = np.uint64(0x5EA2C4D15EA2C4D1)

#: a choice's words in ``SearchWork.cand``
C_DIE = 0
C_SLOT = 1

# counters (SearchWork.count), analyzer.kernels.search's
K_DECISIONS = shared.K_DECISIONS  #: excavation decisions searched
K_ROLLOUTS = shared.K_ROLLOUTS  #: rollouts played
N_COUNT = 2


class SearchWork(NamedTuple):
    """The search's settings, its own random stream and its work arrays."""

    cfg: np.ndarray  #: float64[N_CFG]
    rng: np.ndarray  #: uint64[4 + 2] the search's stream (no forced outcomes)
    count: np.ndarray  #: int64[N_COUNT]
    cand: np.ndarray  #: int64[max choices, 3] each choice's die and ruin slot (C_DIE, C_SLOT)
    cand_h: np.ndarray  #: float64[max choices] its value by balanced's evaluation
    alive: np.ndarray  #: int64[max choices] 1: still in the sequential halving
    n: np.ndarray  #: float64[max choices] rollouts played
    win: np.ndarray  #: float64[max choices] sum of win shares
    win2: np.ndarray  #: float64[max choices] sum of squared win shares
    score: np.ndarray  #: float64[max choices] sum of the seat's final scores
    score2: np.ndarray  #: float64[max choices] sum of squared scores
    value: np.ndarray  #: float64[max choices] sum of rollout values
    dsum: np.ndarray  #: float64[max choices] sum of value minus choice 0's, same rollout
    dsq: np.ndarray  #: float64[max choices] sum of its squares
    wins_by: np.ndarray  #: float64[max choices, rollouts] each rollout's win share (rank_all)
    pool: np.ndarray  #: int64[n cards] unseen ruins (determinize)
    dpool: np.ndarray  #: int64[n delver cards] unseen delver cards (determinize)
    hand_n: np.ndarray  #: int64[P] other seats' hand sizes (determinize)


def max_choices(t) -> int:
    """Room for every (die, slot) choice."""
    return int(t.dice_faces.shape[0] * t.revealed_by_players.max())


def new_search(
    t, n_players: int, budget=256, width=6, margin=0.01, z=1.0, own_hidden=0, keep=0
) -> SearchWork:
    """Work space of the search for ``n_players`` under rules tables ``t``
    (``keep``: room for that many rollouts' win shares per choice, :func:`rank_all`)."""
    f = np.zeros
    return SearchWork(
        **shared.search_arrays(
            [budget, width, margin, z, own_hidden], max_choices(t), keep, N_COUNT
        ),
        pool=f(t.card_kind.shape[0], np.int64),
        dpool=f(max(int(t.delver_copies.sum()), 1), np.int64),
        hand_n=f(n_players, np.int64),
    )


# ====================================================================== a copy to play on


@njit
def copy_game(r, s):
    """Make ``r`` the game ``s`` (same shapes): every part of the game, none of
    the work arrays, no trace, no claims log; ``r``'s random stream untouched."""
    r.sc[:] = s.sc
    r.ruin_deck[:] = s.ruin_deck
    r.removed[:] = s.removed
    r.boxed_colour[:] = s.boxed_colour
    r.slot_card[:] = s.slot_card
    r.slot_stones[:] = s.slot_stones
    r.bag[:] = s.bag
    r.die_slot[:] = s.die_slot
    r.die_value[:] = s.die_value
    r.ddeck[:] = s.ddeck
    r.ddisc[:] = s.ddisc
    r.hand[:] = s.hand
    r.stone[:] = s.stone
    r.centre[:] = s.centre
    r.n_stones[:] = s.n_stones
    r.lesser[:] = s.lesser
    r.greater[:] = s.greater
    r.named_state[:] = s.named_state
    r.tokens[:] = s.tokens
    r.held[:] = s.held
    r.hidden[:] = s.hidden
    r.held_colour[:] = s.held_colour
    r.effects[:] = s.effects
    r.seat_stats[:] = s.seat_stats
    r.named_order[:] = s.named_order
    r.box[:] = s.box
    r.n_claims[0] = 0


@njit
def determinize(r, t, w, p):
    """Deal again, at random from ``r``'s stream, everything seat ``p`` cannot see
    (module docstring). ``r`` is a copy of the game; the seat's own face-down
    ruin, its hand, the table, the tableaux, claimed ruins and discards stay."""
    n_players = r.sc[S_N_PLAYERS]
    # ruins: the deck above its bottom card, the set-aside pile, others' hidden ruins
    pool = w.pool
    n = 0
    pos = r.sc[S_DECK_POS]
    top = r.sc[S_DECK_LEN]
    eoa_left = pos < top
    if eoa_left:
        top -= 1  # the end-of-age card lies at the bottom
    for i in range(pos, top):
        pool[n] = r.ruin_deck[i]
        n += 1
    for i in range(r.sc[S_REMOVED_N]):
        pool[n] = r.removed[i]
        n += 1
    own = w.cfg[CFG_OWN_HIDDEN] > 0
    for q in range(n_players):
        card = r.hidden[q]
        if (q != p or own) and card >= 0:
            pool[n] = card
            n += 1
            r.held[q, card] = 0
            if t.card_colour[card] >= 0:
                r.held_colour[q, t.card_colour[card]] -= 1
    pool[:n].sort()  # the order they lay in is hidden too: deal from a sorted pool
    rng_shuffle(r.rng, pool, n)
    k = 0
    for i in range(pos, top):
        r.ruin_deck[i] = pool[k]
        k += 1
    for i in range(r.sc[S_REMOVED_N]):
        r.removed[i] = pool[k]
        k += 1
    for q in range(n_players):
        if (q != p or own) and r.hidden[q] >= 0:
            r.hidden[q] = pool[k]
            take_ruin(r, t, q, pool[k])
            k += 1
    if eoa_left:
        n_eoa = t.card_kind.shape[0] - t.n_ruins
        eoa = t.n_ruins + rng_below(r.rng, n_eoa)
        r.ruin_deck[r.sc[S_DECK_LEN] - 1] = eoa
        r.sc[S_EOA] = eoa
    # delver cards: the draw pile and the other seats' hands (sizes kept)
    dpool = w.dpool
    n = r.sc[S_DDECK_N]
    for i in range(n):
        dpool[i] = r.ddeck[i]
    for q in range(n_players):
        w.hand_n[q] = 0
        if q == p:
            continue
        for kind in range(r.hand.shape[1]):
            for _ in range(r.hand[q, kind]):
                dpool[n] = kind
                n += 1
            w.hand_n[q] += r.hand[q, kind]
            r.hand[q, kind] = 0
    dpool[:n].sort()
    rng_shuffle(r.rng, dpool, n)
    k = r.sc[S_DDECK_N]
    for i in range(k):
        r.ddeck[i] = dpool[i]
    for q in range(n_players):
        for _ in range(w.hand_n[q]):
            r.hand[q, dpool[k]] += 1
            k += 1
    # the face-down wonder tokens still in their piles
    lp = r.sc[S_LESSER_POS]
    n = t.lesser_values.shape[0]
    if lp < n:
        r.lesser[lp:n].sort()
        rng_shuffle(r.rng, r.lesser[lp:n], n - lp)
    gp = r.sc[S_GREATER_POS]
    n = t.greater_values.shape[0]
    if gp < n:
        r.greater[gp:n].sort()
        rng_shuffle(r.rng, r.greater[gp:n], n - gp)


# ====================================================================== rollouts


@njit
def _apply(s, m, t, p, d, slot):
    """Seat ``p`` rolls die ``d`` onto ``slot`` for its excavation (taking it back
    from a ruin first if it is on one)."""
    if tracing(s):
        trace_declare(s, p, d, slot)
    if s.die_slot[p, d] >= 0:
        trace(s, EV_TAKE_BACK, p, d, s.die_slot[p, d], 0, 0, 0)
        s.die_slot[p, d] = -1
    roll_die(s, m, t, p, d, slot, True)


@njit
def play_out(r, rm, t, p, second, stop_turn):
    """Finish the game in ``r`` after seat ``p``'s excavation roll (``second``:
    it was the turn's second excavation, Band of Delvers), every seat deciding
    with the memo ``rm``, and score it; or stop before game turn ``stop_turn``
    (then nothing is scored: tests use it to reach a state of play)."""
    n_players = r.sc[S_N_PLAYERS]
    if not second and r.sc[S_BAND] > 0 and not r.sc[S_OVER]:
        excavate(r, rm, t, p)
    q = p
    while not r.sc[S_OVER]:
        r.sc[S_TURN] += 1
        q = (q + 1) % n_players
        if r.sc[S_TURN] >= stop_turn:
            if stop_turn >= MAX_TURNS:
                r.sc[S_ABORTED] = 1
                break
            r.sc[S_CUR] = q
            return
        take_turn(r, rm, t, q)
    final_scores(r, t, n_players)


@njit
def rollout(args, c, base, j):
    """Rollout ``j`` of choice ``c`` from the game ``s`` (``args``: ``s, t, r, rm,
    w, p, second``, ``second`` as for :func:`play_out`), on a copy dealt again
    from the stream ``base``: returns seat ``p``'s (win share, final score, best
    other final score)."""
    s, t, r, rm, w, p, second = args
    copy_game(r, s)
    rng_seed(r.rng, base, 0, j)
    determinize(r, t, w, p)
    for slot in range(r.sc[S_N_SLOTS]):
        if r.slot_card[slot] < 0 and r.sc[S_DECK_POS] < r.sc[S_DECK_LEN]:
            reveal(r, t, slot)  # only a table state leaves a slot empty with cards to come
    forget_memo(rm)
    _apply(r, rm, t, p, w.cand[c, C_DIE], w.cand[c, C_SLOT])
    play_out(r, rm, t, p, second, MAX_TURNS)
    best_other = -(1 << 30)
    for q in range(r.sc[S_N_PLAYERS]):
        if q != p and r.scores[q] > best_other:
            best_other = r.scores[q]
    return r.win[p], r.scores[p], best_other


# ====================================================================== choices


@njit
def list_choices(s, m, t, w, p, n_anc, n_read, use_map, width):
    """Seat ``p``'s excavation choices into ``w.cand``, best first by the
    ``balanced`` evaluation (its value in ``w.cand_h``), at most ``width`` of
    them (all if ``width`` <= 0); returns how many. One die of each face count
    in the pool, or every die on a ruin if the pool is empty (taken back first,
    as the FAQ allows). Draws no random numbers."""
    n_dice = s.die_slot.shape[1]
    n_slots = s.sc[S_N_SLOTS]
    pool_empty = True
    for d in range(n_dice):
        if s.die_slot[p, d] < 0:
            pool_empty = False
    if not pool_empty:
        fill_slot_cache(s, m, t, p)
    n = 0
    cap = w.cand.shape[0]
    for d in range(n_dice):
        home = s.die_slot[p, d]
        if not pool_empty:
            if not _first_of_its_faces(s, t, p, d):
                continue
        else:
            s.die_slot[p, d] = -1
            fill_slot_cache(s, m, t, p)
        cost = _die_cost(s, t, m.prm[p], p, d)
        for slot in range(n_slots):
            if s.slot_card[slot] < 0 or n >= cap:
                continue
            ev = _roll_ev(s, m, t, p, slot, d, n_anc, n_read, use_map) - cost
            n = shared.insert_choice(w, 0, n, cap, ev, d, slot, 0)
        s.die_slot[p, d] = home
    if pool_empty:
        fill_slot_cache(s, m, t, p)  # the summary of the state as it is
    return shared.keep_choices(w, n, width)


@njit
def rank_all(s, m, t, r, rm, w, p, key0, budget):
    """Deep advice: every excavation choice of seat ``p`` in ``s`` (no card played
    first), each with ``budget // choices`` rollouts on the same dealt copies and
    dice (``w.wins_by`` keeps each rollout's win share). Returns how many choices."""
    n = list_choices(s, m, t, w, p, 0, 0, False, 0)
    return _drivers.rollouts_for_all((s, t, r, rm, w, p, False), w, n, key0, _SALT, budget)


@njit
def search_excavate(s, m, t, r, rm, w, p, second):
    """Seat ``p``'s excavation roll, chosen by rollouts. Falls back to the
    ``balanced`` choice when the slot is chosen after the roll (Expedition), when
    the stalemate rule applies, or when there is one choice."""
    stall = s.sc[S_TURN] - s.sc[S_LAST_CLAIM] >= STALL_TURNS
    if s.sc[S_EXPEDITION] > 0 or stall:
        excavate(s, m, t, p)
        return
    m.sc[M_EXC_READY] = 0  # the delver phase's prepared choice is not used
    n = list_choices(
        s,
        m,
        t,
        w,
        p,
        s.sc[S_ANCESTRAL],
        s.sc[S_READING],
        s.sc[S_MAP] > 0,
        np.int64(w.cfg[shared.CFG_WIDTH]),
    )
    if n == 0:
        return
    # balanced's choice (0) unless another beats it by z standard errors,
    # paired on the same dealt copy and dice
    c = _drivers.decide((s, t, r, rm, w, p, second), w, n)
    _apply(s, m, t, p, w.cand[c, C_DIE], w.cand[c, C_SLOT])


@njit
def search_turn(s, m, t, r, rm, w, p):
    """One turn of a ``search`` seat: the delver phase as ``balanced`` plays it,
    then the excavation roll(s) by rollouts."""
    if delver_phase(s, m, t, p):
        return
    search_excavate(s, m, t, r, rm, w, p, False)
    if s.sc[S_BAND] > 0 and not s.sc[S_OVER]:
        search_excavate(s, m, t, r, rm, w, p, True)


@njit
def play_game(args, key0, key1, game, i):
    """Game ``game`` of the run seeded by ``key0, key1`` with ``search`` seats
    (``args``: ``s, m, t, o, r, rm, w, n_players`` as for
    :func:`play_batch_search`), its results in the batch's ``i``-th rows."""
    s, m, t, o, r, rm, w, n_players = args
    setup(s, m, t, n_players, key0, key1, game)
    p = 0
    while not s.sc[S_OVER]:
        if s.sc[S_TURN] >= MAX_TURNS:
            s.sc[S_ABORTED] = 1
            break
        if m.strat[p] == Strategy.SEARCH:
            search_turn(s, m, t, r, rm, w, p)
        else:
            take_turn(s, m, t, p)
        s.sc[S_TURN] += 1
        p = (p + 1) % n_players
    end_game(s, t, o, n_players, i)


#: the shared drivers (sequential halving, deep advice, the batch loop) on this game's kernels
_drivers = shared.bind_search(rollout, play_game)


@njit
def play_batch_search(s, m, t, o, r, rm, w, n_players, key0, key1, first_game, count):
    """:func:`analyzer.unearth.engine.play_batch` with ``search`` seats: ``r`` and
    ``rm`` are the rollouts' game and memo (every seat ``balanced``), ``w`` the
    search's work space. The seats that are not ``search`` play exactly as in
    ``play_batch``; the game's stream serves the game only."""
    args = (s, m, t, o, r, rm, w, n_players)
    _drivers.play_batch(args, w, key0, key1, first_game, count, _SALT)


def pack_search(w: SearchWork):
    """The kernel view of ``w`` (arrays shared); ``w`` itself with the JIT disabled."""
    return make_view(w, "SearchWork")
