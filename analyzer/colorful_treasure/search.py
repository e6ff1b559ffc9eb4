"""The ``search`` player of Colorful Treasure: determinized Monte Carlo over the
cards to reveal first and the steals.

A ``search`` seat plays ``greedy`` (its row, its ``recall``: it remembers no
more than the default player), except at two decisions ("A turn",
``docs/games/colorful_treasure.md``):

- **the cards it reveals first**: a choice is a pair of *slots* (a card it
  remembers, or "an unknown place of wonder w", as :mod:`.strategies` names
  them); ``greedy``'s pair is choice 0, the others are the best ``width - 1``
  pairs by ``greedy``'s exact expected points of the take (:func:`ev_two`);
- **each steal**: every (victim, card) a steal may take (one card of each kind a
  victim holds, chosen as ``greedy`` chooses it, and its plastic diamond);
  ``greedy``'s steal is choice 0.

Each choice is played from the present to the end of the game many times
(*rollouts*), every seat playing ``greedy`` with the tuned row of the player
count; the seat plays the choice whose rollouts did best, through the shared
schedule of :mod:`analyzer.kernels.search` (sequential halving, common random numbers,
the ``z`` guard that keeps ``greedy``'s choice unless another is better beyond
noise), which also runs the batch of games.

**It never reads what it cannot see.** Each rollout starts from a copy of the
game in which everything hidden from the seat is dealt again
(:func:`determinize`): in every column, the cards the seat does not remember
are dealt again over the places that hold them (uniform: a memory that forgets
independently of what a card is leaves every such layout equally likely), and
how long each seat will go on remembering each card is drawn again. What the
other seats remember is not known to the seat: the rollouts *assume* they
remember what it remembers (each with its own recall from then on). Every
other part of the game (the cards taken, who holds what, the rewards, the
markers) is public. Each deal is made from sorted lists, so not even the order
the hidden cards lie in reaches the rollouts; ``tests/colorful_treasure/test_ct_search.py``
changes what the seat cannot see and checks that the rollouts do not change.

The search draws only from its own stream (seeded from the game's index), so a
game with a ``search`` seat is the same game for any batch split or worker
count. Games with action tiles (ruling ``tiles``) are not searched: the seat
plays ``greedy`` there.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import analyzer.kernels.search as shared
from analyzer.colorful_treasure.bits import kth_bit, lowest, popcount
from analyzer.colorful_treasure.codes import P_RECALL, SCALE, SEARCH_PARAMS, Plan  # noqa: F401
from analyzer.colorful_treasure.engine import (
    do_steal,
    next_seat,
    pairs_and_rewards,
    play_turn,
    record_game,
    reveal_more_and_take,
    start_game,
)
from analyzer.colorful_treasure.state import (
    ALWAYS,
    H_CARDS,
    H_DIAMOND,
    H_PLASTIC,
    H_TREASURE,
    NEVER,
    S_COLS_TURN,
    S_GAME,
    S_GRID_CARDS,
    S_GRID_PLACES,
    S_MEM_TURN,
    S_N_UP,
    S_SEAT,
    S_SV_TURN,
    S_TURN,
    S_UP_CARDS,
    S_UP_COUNTED,
    S_VALUES_TURN,
    ST_TURNS,
)
from analyzer.colorful_treasure.strategies import (
    choose_first,
    choose_steal,
    column_mask,
    ev_two,
    first_slots,
    recount_memory,
    slot_place,
    steal_card,
)
from analyzer.colorful_treasure.tiles import play_turn_tiles
from analyzer.colorful_treasure.turn import (
    check_rewards,
    discard_pair,
    face_down_count,
    final_scores,
    pairs_ready,
    reveal,
)
from analyzer.kernels.jit import njit
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import rng_float, rng_seed, rng_shuffle

# ------------------------------------------------------------------ settings
# CFG_BUDGET, CFG_WIDTH, CFG_MARGIN, CFG_Z: analyzer.kernels.search's, first in the row (width:
# greedy's choice first; reveals: the best by ev_two; margin in points)
N_CFG = 4

#: mixed into the root key so the search's stream is not any game's stream
_SALT = np.uint64(0xC7A5EA2C4D15EA2C)

# the decision a rollout starts from
REVEAL = 0  #: the cards revealed first (a choice's words: the two slots)
STEAL = 1  #: a steal (a choice's words: the victim, the card, -1 a plastic diamond)

# counters (SearchWork.count): analyzer.kernels.search's, then the game's
K_DECISIONS = shared.K_DECISIONS  #: decisions searched (more than one choice)
K_ROLLOUTS = shared.K_ROLLOUTS  #: rollouts played
K_REVEALS = 2  #: of the decisions, first reveals
K_CHANGED = 3  #: decisions where the search played another choice than greedy's
N_COUNT = 4

#: room for choices (reveal pairs kept; steals: victims x (kinds + plastic))
MAX_CHOICES = 64


class SearchWork(NamedTuple):
    """The search's settings, its own random stream and its work arrays."""

    cfg: np.ndarray  #: float64[N_CFG]
    rng: np.ndarray  #: uint64[6] the search's stream
    count: np.ndarray  #: int64[N_COUNT]
    seats: np.ndarray  #: int64[P] 1: the seat plays search
    cand: (
        np.ndarray
    )  #: int64[MAX_CHOICES, 3] slots a and b, or the victim and the card (-1: plastic)
    cand_h: np.ndarray  #: float64[MAX_CHOICES] greedy's expected points (reveals)
    alive: np.ndarray  #: int64[MAX_CHOICES] 1: still in the sequential halving
    n: np.ndarray  #: float64[MAX_CHOICES] rollouts played
    win: np.ndarray  #: float64[MAX_CHOICES] sum of win shares
    win2: np.ndarray  #: float64[MAX_CHOICES] sum of squared win shares
    score: np.ndarray  #: float64[MAX_CHOICES] sum of the seat's final scores (points)
    score2: np.ndarray  #: float64[MAX_CHOICES] sum of squared scores
    value: np.ndarray  #: float64[MAX_CHOICES] sum of rollout values
    dsum: np.ndarray  #: float64[MAX_CHOICES] sum of value minus choice 0's, same rollout
    dsq: np.ndarray  #: float64[MAX_CHOICES] sum of its squares
    wins_by: np.ndarray  #: float64[MAX_CHOICES, rollouts] each rollout's win share (rank_all)
    pool: np.ndarray  #: int64[rows] a column's unknown cards (determinize)
    slots: np.ndarray  #: int64[cards + wonders] the slots of a reveal (list_reveals)


def new_search(t, n_players: int, budget=96, width=6, margin=0.01, z=1.0, keep=0) -> SearchWork:
    """Work space of the search for ``n_players`` seats under tables ``t`` (``keep``:
    room for that many rollouts' win shares per choice, :func:`rank_all`)."""
    f = np.zeros
    return SearchWork(
        **shared.search_arrays([budget, width, margin, z], MAX_CHOICES, keep, N_COUNT),
        seats=f(n_players, np.int64),
        pool=f(t.rows, np.int64),
        slots=f(t.n_cards + t.n_wonders, np.int64),
    )


# ====================================================================== a copy to play on


@njit
def copy_game(r, s):
    """Make ``r`` the game ``s`` (same shapes): the grid, the holdings, the memories,
    the rewards; not the players (``r.plan``, ``r.prm``), the trace, the steals log
    nor the random stream. The caches keyed by turn are cleared (their scratch
    arrays are not copied)."""
    r.sc[:] = s.sc
    r.grid[:] = s.grid
    r.pos_of[:] = s.pos_of
    r.owner[:] = s.owner
    r.board_plastic[:] = s.board_plastic
    r.up[:] = s.up
    r.gems[:] = s.gems
    r.wcards[:] = s.wcards
    r.held[:] = s.held
    r.stats[:] = s.stats
    r.mem[:] = s.mem
    r.kn[:] = s.kn
    r.counted[:] = s.counted
    r.tclaim[:] = s.tclaim
    r.tiles_took[:] = s.tiles_took
    r.tile_owner[:] = s.tile_owner
    r.tile_turn[:] = s.tile_turn
    r.sc[S_SV_TURN] = -1
    r.sc[S_VALUES_TURN] = -1
    r.sc[S_UP_COUNTED] = -1
    r.sc[S_MEM_TURN] = -1
    r.sc[S_COLS_TURN] = -1


@njit
def _keep_for(r, q, turn):
    """The last game turn seat ``q`` remembers a card it remembers at ``turn``,
    drawn again (the geometric memory of :func:`~.turn.remember` is memoryless)."""
    rc = r.prm[q, P_RECALL]
    if rc >= 1.0:
        return ALWAYS
    if rc <= 0.0:
        return turn
    u = 1.0 - rng_float(r.rng)
    return turn + np.int64(np.log(u) / np.log(rc))


@njit
def determinize(r, t, w, p):
    """Deal again, at random from ``r``'s stream, everything seat ``p`` cannot see
    (module docstring). ``r`` is a copy of the game at one of ``p``'s decisions
    (no card face up). Returns the mask of the cards ``p`` remembers."""
    turn = r.sc[S_TURN]
    kf = recount_memory(r, t, p)
    grid = r.sc[S_GRID_CARDS]
    pool = w.pool
    for wd in range(t.n_wonders):
        cm = column_mask(t, wd)
        cards = grid & cm & ~kf
        k = popcount(cards)
        if k == 0:
            continue
        places = r.sc[S_GRID_PLACES] & cm
        x = kf & cm
        while x != 0:
            c = lowest(x)
            x &= x - 1
            places &= ~(np.int64(1) << r.pos_of[c])
        i = 0
        x = cards
        while x != 0:  # a sorted pool: the order the cards lay in is hidden too
            pool[i] = lowest(x)
            x &= x - 1
            i += 1
        rng_shuffle(r.rng, pool, k)
        for i in range(k):
            pl = kth_bit(places, i)
            r.grid[pl] = pool[i]
            r.pos_of[pool[i]] = pl
    # memories: every seat remembers what p remembers, for a time drawn again
    n = r.mem.shape[0]
    x = grid
    while x != 0:
        c = lowest(x)
        x &= x - 1
        known = (kf >> c) & 1 == 1
        for q in range(n):
            r.mem[q, c] = _keep_for(r, q, turn) if known else NEVER
    for q in range(n):
        r.kn[q] = kf
    r.sc[S_MEM_TURN] = -1
    return kf


# ====================================================================== rollouts


@njit
def play_out(r, t, p, n, game):
    """Finish the game in ``r`` after seat ``p``'s turn (the turn ``r.sc[S_TURN]``),
    every seat playing its row in ``r``."""
    turns = r.sc[S_TURN] + 1
    seat = next_seat(r, t, p, n, turns)
    while seat >= 0:
        r.sc[S_TURN] = turns
        r.sc[S_SEAT] = seat
        if t.n_tiles > 0:
            play_turn_tiles(r, t, seat, n, game)
        else:
            play_turn(r, t, seat, n, game)
        turns += 1
        seat = next_seat(r, t, seat, n, turns)
    r.sc[S_TURN] = turns


@njit
def outcome(r, t, p, n):
    """Seat ``p``'s (win share, final score, best other final score) in ``r``
    (scores in points; a tie shares the win or gives none, as the game does)."""
    final_scores(r, t, n)
    best = r.parts[0, 6]
    for q in range(n):
        best = max(best, r.parts[q, 6])
    top = 0
    other = -(1 << 40)
    for q in range(n):
        if r.parts[q, 6] == best:
            top += 1
        if q != p and r.parts[q, 6] > other:
            other = r.parts[q, 6]
    win = 0.0
    if r.parts[p, 6] == best:
        if top == 1:
            win = 1.0
        elif t.tie_share == 1:
            win = 1.0 / top
    return win, r.parts[p, 6] / SCALE, other / SCALE


@njit
def apply_choice(r, t, w, p, n, c, what, kf, game):
    """Play choice ``c`` of decision ``what`` for seat ``p`` in ``r``, then the rest
    of its turn as ``greedy`` plays it."""
    if what == REVEAL:
        a = slot_place(r, t, w.cand[c, 0], kf, 0)
        b = slot_place(r, t, w.cand[c, 1], kf, np.int64(1) << a)
        reveal(r, p, a)
        reveal(r, p, b)
        reveal_more_and_take(r, t, p, n)
        pairs_and_rewards(r, t, p, n, game)
    else:
        do_steal(r, t, p, n, w.cand[c, 0], w.cand[c, 1], game)
        pairs_and_rewards(r, t, p, n, game)


@njit
def rollout(args, c, base, j):
    """Rollout ``j`` of choice ``c`` of decision ``what`` from the game ``s``
    (``args``: ``s, t, r, w, p, n, what``), on a copy dealt again from the
    stream ``base``: returns seat ``p``'s (win share, final score, best other
    final score)."""
    s, t, r, w, p, n, what = args
    copy_game(r, s)
    rng_seed(r.rng, base, 0, j)
    kf = determinize(r, t, w, p)
    apply_choice(r, t, w, p, n, c, what, kf, s.sc[S_GAME])
    play_out(r, t, p, n, s.sc[S_GAME])
    return outcome(r, t, p, n)


# ====================================================================== choices


@njit
def _slots(t, w, kf, unk):
    """The slots of a reveal into ``w.slots``: the remembered face-down cards (by id),
    then every wonder with unknown cards (``-1 - w``); returns how many."""
    out = w.slots
    k = 0
    x = kf
    while x != 0:
        out[k] = lowest(x)
        x &= x - 1
        k += 1
    for wd in range(t.n_wonders):
        if unk & column_mask(t, wd) != 0:
            out[k] = -1 - wd
            k += 1
    return k


@njit
def list_reveals(s, t, w, p, n, width):
    """Seat ``p``'s choices of the two cards it reveals first, into ``w.cand``:
    ``greedy``'s pair first, then the best ``width - 1`` other pairs of slots by
    ``greedy``'s exact expected points (stable: slot order), at most ``width``
    in all (every pair if ``width`` <= 0). Returns how many. Draws no random
    numbers."""
    a0, b0, kf = first_slots(s, t, p, n, 2)
    known = recount_memory(s, t, p)
    unk = s.sc[S_GRID_CARDS] & ~known & ~s.sc[S_UP_CARDS]
    cap = w.cand.shape[0]
    if width <= 0 or width > cap:
        width = cap
    slots = w.slots
    k = _slots(t, w, kf, unk)
    shared.set_choice(w, 0, ev_two(s, t, p, n, a0, b0, unk), a0, b0, 0)
    m = 1
    for i in range(k):
        a = slots[i]
        for j in range(i, k):
            b = slots[j]
            if a == b and (a >= 0 or popcount(unk & column_mask(t, -1 - a)) < 2):
                continue  # the same card twice, or one unknown card twice
            if (a == a0 and b == b0) or (a == b0 and b == a0):
                continue
            m = shared.insert_choice(w, 1, m, width, ev_two(s, t, p, n, a, b, unk), a, b, 0)
    shared.reset_choices(w, m)
    return m


@njit
def list_steals(s, t, w, p, n, width):
    """Seat ``p``'s steals into ``w.cand`` (victim, card; -1 a plastic diamond):
    ``greedy``'s first, then every victim's plastic diamond and one card of each
    kind it holds (the one ``greedy`` would take of that kind), victims clockwise
    from the next seat; at most ``width`` (all if ``width`` <= 0). Returns how
    many (0: nobody holds anything)."""
    v0, c0 = choose_steal(s, t, p, n)
    if v0 < 0:
        return 0
    w.cand[0, 0] = v0
    w.cand[0, 1] = c0
    m = 1
    cap = w.cand.shape[0]
    if 0 < width < cap:
        cap = width
    nc = t.n_colours
    for d in range(1, n):
        v = p + d
        if v >= n:
            v -= n
        if s.held[v, H_CARDS] == 0 and s.held[v, H_PLASTIC] == 0:
            continue
        for what in range(-1, nc + 2):
            if what < 0:
                if s.held[v, H_PLASTIC] == 0:
                    continue
                card = -1
            else:
                if what < nc and s.gems[v, what] == 0:
                    continue
                if what == nc and s.held[v, H_DIAMOND] == 0:
                    continue
                if what == nc + 1 and s.held[v, H_TREASURE] == 0:
                    continue
                card = steal_card(s, t, p, v, what)
                if card < 0:
                    continue
            if (v == v0 and card == c0) or m >= cap:
                continue
            shared.set_choice(w, m, 0.0, v, card, 0)
            m += 1
    shared.reset_choices(w, m)
    return m


@njit
def rank_all(s, t, r, w, p, n, key0, budget, width):
    """Deep advice: the first-reveal choices of seat ``p`` in ``s`` (at most
    ``width``, 0: every pair), each with ``budget // choices`` rollouts (at least
    2) on the same dealt copies and streams (``w.wins_by`` keeps each rollout's
    win share). Returns how many choices."""
    k = list_reveals(s, t, w, p, n, width)
    return _drivers.rollouts_for_all((s, t, r, w, p, n, REVEAL), w, k, key0, _SALT, budget)


# ====================================================================== the player


@njit
def search_turn(s, t, r, w, p, n, game):
    """One turn of a ``search`` seat: the first reveals and the steals chosen by
    rollouts, everything else as ``greedy`` plays it."""
    k = min(t.first_reveals, face_down_count(s))
    c = 0
    if k == 2 and s.plan[p] != Plan.RANDOM and s.sc[S_N_UP] == 0:
        m = list_reveals(s, t, w, p, n, np.int64(w.cfg[shared.CFG_WIDTH]))
        if m > 1:
            w.count[K_REVEALS] += 1
        c = _drivers.decide((s, t, r, w, p, n, REVEAL), w, m)
    if c == 0:
        choose_first(s, t, p, n, k)  # greedy's pair, its places drawn as greedy draws them
    else:
        w.count[K_CHANGED] += 1
        kf = recount_memory(s, t, p) & ~s.sc[S_UP_CARDS]
        s.pick[0] = slot_place(s, t, w.cand[c, 0], kf, 0)
        s.pick[1] = slot_place(s, t, w.cand[c, 1], kf, np.int64(1) << s.pick[0])
    for i in range(k):
        reveal(s, p, s.pick[i])
    reveal_more_and_take(s, t, p, n)
    while pairs_ready(s, p):
        discard_pair(s, t, p)
        m = list_steals(s, t, w, p, n, np.int64(w.cfg[shared.CFG_WIDTH]))
        c = _drivers.decide((s, t, r, w, p, n, STEAL), w, m)
        if c != 0:
            w.count[K_CHANGED] += 1
        if m == 0:
            do_steal(s, t, p, n, -1, -1, game)
        else:
            do_steal(s, t, p, n, w.cand[c, 0], w.cand[c, 1], game)
    check_rewards(s, t, p, n)
    s.stats[p, ST_TURNS] += 1


@njit
def play_game(args, key0, key1, game, i):
    """Game ``game`` of the run seeded by ``key0, key1`` with ``search`` seats
    (``args``: ``s, t, o, r, w, n`` as for :func:`play_batch_search`), its
    results in the batch's ``i``-th rows."""
    s, t, o, r, w, n = args
    start_game(s, t, n, key0, key1, game)
    seat = 0
    turns = 0
    while True:
        s.sc[S_TURN] = turns
        s.sc[S_SEAT] = seat
        if t.n_tiles > 0:
            play_turn_tiles(s, t, seat, n, game)  # (not searched)
        elif w.seats[seat] == 1:
            search_turn(s, t, r, w, seat, n, game)
        else:
            play_turn(s, t, seat, n, game)
        turns += 1
        seat = next_seat(s, t, seat, n, turns)
        if seat < 0:
            break
    s.sc[S_TURN] = turns
    record_game(s, t, o, n, i, turns)


#: the shared drivers (sequential halving, deep advice, the batch loop) on this game's kernels
_drivers = shared.bind_search(rollout, play_game)


@njit
def play_batch_search(s, t, o, r, w, n, key0, key1, start, count):
    """:func:`analyzer.colorful_treasure.engine.play_batch` with ``search`` seats
    (``w.seats``): ``r`` is the rollouts' game (every seat ``greedy``), ``w`` the
    search's work space. The other seats play exactly as in ``play_batch``; the
    game's stream serves the game only."""
    _drivers.play_batch((s, t, o, r, w, n), w, key0, key1, start, count, _SALT)


def pack_search(w: SearchWork):
    """The kernel view of ``w`` (arrays shared); ``w`` itself with the JIT disabled."""
    return make_view(w, "CTSearchWork")
